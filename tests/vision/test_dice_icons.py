"""Icon dice: teach (an icon calibration) on SYNTHETIC renders, then read unseen ones."""

import json
from pathlib import Path

import numpy as np
import pytest
from synth_dice import render_tray

from vision.calibrate import Calibrator
from vision.faces import FACES
from vision.icons import IconReader, find_faces
from vision.profile import Profile, ProfileError


def taught(seed: int = 0, shots: int = 2) -> Calibrator:
    """A calibrator shown each face `shots` times, three dice at a time (as a player would)."""
    teacher = Calibrator("icons")
    for face in FACES:
        for shot in range(shots):
            frame, _ = render_tray([face] * 3, seed=seed + 10 * shot + FACES.index(face))
            assert teacher.add_shown(frame, face) == 3
    return teacher


@pytest.fixture(scope="module")
def reader() -> IconReader:
    return IconReader(taught().profile())


def test_finds_every_synthetic_die() -> None:
    frame, placed = render_tray(["food", "water", "metal", "human", "water"], seed=5)
    found = find_faces(frame)
    assert len(found) == len(placed)
    for _, (x0, y0, x1, y1) in found:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        assert any(p.box[0] <= cx <= p.box[2] and p.box[1] <= cy <= p.box[3] for p in placed)


@pytest.mark.parametrize("seed", [201, 202, 203, 204])
def test_reads_unseen_synthetic_renders(reader: IconReader, seed: int) -> None:
    rng = np.random.default_rng(seed)
    faces = [str(f) for f in rng.choice(FACES, 6)]
    frame, placed = render_tray(faces, seed=seed, die_px=float(rng.uniform(40, 60)),
                                noise=float(rng.uniform(2, 8)))
    reading = reader.read(frame)
    assert len(reading.dice) == len(placed)
    for die in reading.dice:
        cx, cy = die.centre
        truth = [p for p in placed if p.box[0] <= cx <= p.box[2] and p.box[1] <= cy <= p.box[3]]
        assert [p.face for p in truth] == [die.face]
        assert die.value is None and 0 < die.confidence <= 1


def test_profile_round_trip_in_data_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PHOENIX_COMPANION_HOME", str(tmp_path / "home"))
    from vision.icons import default_model_path

    path = taught(shots=1).profile().save(default_model_path())
    assert path == tmp_path / "home" / "icon-dice.npz"
    profile = Profile.load(path)
    assert profile.kind == "icons" and sorted(profile.counts()) == sorted(FACES)
    assert 40 / 640 < profile.die_size < 70 / 640  # render_tray's 48-px dice, sides included
    frame, _ = render_tray(["metal", "human"], seed=77)
    assert sorted(d.face for d in IconReader(profile).read(frame).dice) == ["human", "metal"]


def test_incomplete_or_missing_profiles_are_refused(tmp_path: Path) -> None:
    teacher = Calibrator("icons")
    teacher.add_shown(render_tray(["food"], seed=1)[0], "food")
    with pytest.raises(ProfileError, match="water, metal, human"):
        teacher.profile()
    with pytest.raises(ProfileError, match="teach"):
        Profile.load(tmp_path / "nothing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ProfileError, match=r"junk\.npz"):
        Profile.load(tmp_path / "junk.npz")
    older = tmp_path / "older.npz"  # a profile as the first version wrote it: no version
    taught(shots=1).profile().save(older)
    with np.load(older) as data:
        parts = {k: data[k] for k in data.files}
    meta = json.loads(str(parts["meta"]))
    del meta["version"]
    np.savez_compressed(older, **{**parts, "meta": np.array(json.dumps(meta))})
    with pytest.raises(ProfileError, match=r"another version.*calibrate again"):
        Profile.load(older)


def test_teaching_needs_a_die_and_a_known_face() -> None:
    teacher = Calibrator("icons")
    empty = np.full((480, 640, 3), (120, 135, 150), np.uint8)
    with pytest.raises(ProfileError, match="no die found"):
        teacher.add_shown(empty, "food")
    with pytest.raises(ValueError, match="unknown face"):
        teacher.add_shown(empty, "gold")


def test_black_frame_reads_no_dice_with_a_hint(reader: IconReader) -> None:
    reading = reader.read(np.zeros((480, 640, 3), np.uint8))
    assert reading.dice == () and "too dark" in reading.hint


def test_icon_dice_are_taught_from_the_rolls_kept_with_every_face_turned_up(tmp_path) -> None:
    """The settings' teaching run: every die read as the face turned up, kept, then calibrated."""
    from vision.calibrate import calibrate_kept
    from vision.dataset import LabelledDie, add_photo
    from vision.icons import shown_reader

    turned_up = ["food"]
    read = shown_reader(lambda: turned_up[0])
    for face in FACES:
        turned_up[0] = face
        for shot in range(2):
            frame, _ = render_tray([face] * 3, seed=10 * shot + FACES.index(face))
            reading = read(frame)
            assert [d.face for d in reading.dice] == [face] * 3
            add_photo(tmp_path, frame, [LabelledDie(d.value, d.box, d.face) for d in reading.dice])
        if face == "metal":  # not every face yet: refused, and says which is missing
            with pytest.raises(ProfileError, match="human"):
                calibrate_kept(tmp_path, "icons")
    profile, used, left = calibrate_kept(tmp_path, "icons")
    assert (used, left, profile.kind) == (8, 0, "icons")
    frame, _ = render_tray(["water", "human", "food"], seed=91)
    assert sorted(d.face for d in IconReader(profile).read(frame).dice) == ["food", "human",
                                                                           "water"]
