"""Calibration: profiles learned from REAL fixture photos (d6-tray, BSD-3, Nell Byler), read back;
custom faces are SYNTHETIC emblems painted over real dice (custom_faces.py)."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from custom_faces import paint_emblem
from synth_dice import render_tray

from vision.bench import match
from vision.calibrate import Calibrator, advice, calibrate
from vision.cli import main
from vision.dataset import load_dataset
from vision.faces import FACES
from vision.frames import load_image
from vision.pips import PipReader
from vision.profile import Profile, ProfileError
from vision.training.synth import SynthParams, write_folder

FIXTURES = Path(__file__).parent / "fixtures"
IMAGES = sorted(p.name for p in FIXTURES.glob("*.jpg"))


def folder_of(tmp: Path, labels: dict, frames: dict[str, np.ndarray]) -> Path:
    """A labelled folder (labels.json + PNG photos) as `phoenix-dice calibrate` reads it."""
    tmp.mkdir(parents=True, exist_ok=True)
    entries = {}
    for name, frame in frames.items():
        png = Path(name).with_suffix(".png").name
        cv2.imwrite(str(tmp / png), frame)
        entries[png] = labels[name]
    (tmp / "labels.json").write_text(json.dumps(entries))
    return tmp


def truth_of(labels: dict, name: str) -> list[tuple[int, tuple[float, ...]]]:
    entry = labels[name]
    w, h = entry["width"], entry["height"]
    return [(d["value"], (d["box"][0] * w, d["box"][1] * h, d["box"][2] * w, d["box"][3] * h))
            for d in entry["dice"]]


def assert_exact(reading, truth) -> None:
    assert match(truth, reading.dice) == (len(truth), len(truth))
    assert len(reading.dice) == len(truth)


def calibrated_table(tmp: Path, seed: int, photos: int, shown: int,
                     params: SynthParams | None = None) -> tuple[PipReader, list]:
    """SYNTHETIC photos of one table (`vision.training.synth`, one setup: the same dice, table,
    camera and light; pip dice with an emblem): a reader calibrated on the first `shown`, and
    the other photos."""
    write_folder(tmp, photos, seed, (640, 480), params or SynthParams(icon_dice=0, emblem=1),
                 one_setup=True)
    items = load_dataset(tmp)
    return PipReader(profile=calibrate(items[:shown], None, PipReader())), items[shown:]


def tally(reader: PipReader, items: list) -> tuple[int, int, int, int]:
    """Over labelled photos: dice read, of them found (on a labelled die), read right, and
    labelled dice."""
    read = found = right = total = 0
    for item in items:
        dice = reader.read(load_image(item.path)).dice
        hits = match([(d.value, d.box) for d in item.dice], dice)
        read, found, right = read + len(dice), found + hits[0], right + hits[1]
        total += len(item.dice)
    return read, found, right, total


@pytest.mark.parametrize("held", IMAGES)
def test_profile_from_two_photos_reads_the_third(tmp_path: Path, capsys, fixture_labels,
                                                 held: str) -> None:
    """`calibrate FOLDER --out PROFILE`, then `read --profile PROFILE` on the unseen photo."""
    shown = {n: load_image(FIXTURES / n) for n in IMAGES if n != held}
    folder = folder_of(tmp_path / "shots", fixture_labels, shown)
    profile = tmp_path / "table.npz"
    assert main(["calibrate", str(folder), "--out", str(profile)]) == 0
    out = capsys.readouterr().out
    assert "pips dice about" in out and "saved" in out
    sizes = [b[2] - b[0] for n in shown for _, b in truth_of(fixture_labels, n)]
    assert Profile.load(profile).die_px((640, 640)) == pytest.approx(np.median(sizes), rel=0.1)
    assert main(["read", str(FIXTURES / held), "--json", "--profile", str(profile)]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    values = sorted(d["value"] for d in dice)
    assert values == sorted(v for v, _ in truth_of(fixture_labels, held))


def test_calibrate_advises_on_what_would_read_better(tmp_path: Path, capsys,
                                                    fixture_labels) -> None:
    """`calibrate` tells the player what its photos lacked: here (two REAL photos) the pip
    values no labelled die showed; a value shown reads no advice about it."""
    shown = {n: load_image(FIXTURES / n) for n in IMAGES[:2]}
    folder = folder_of(tmp_path / "shots", fixture_labels, shown)
    assert main(["calibrate", str(folder), "--out", str(tmp_path / "table.npz")]) == 0
    out = capsys.readouterr().out
    values = {v for n in shown for v, _ in truth_of(fixture_labels, n)}
    unseen = [str(v) for v in range(1, 7) if v not in values]
    assert bool(unseen) == ("advice: no photo showed" in out)
    if unseen:
        assert f"showed a {' or a '.join(unseen)} on top" in out


def test_advice_names_small_dice_and_custom_faces_shown_too_few_times() -> None:
    """Dice 15 px across in 640x480 photos are too small; a custom face (the network read the
    emblem on the 1 as no die) shown twice is shown too few times; all six values shown."""
    reads = np.zeros((7, 7), np.int32)
    reads[0, 1] = 2
    labels = ["1", "1", "2", "3", "4", "5", "6"]
    profile = Profile("pips", 15 / 640, np.zeros((len(labels), 7, 96), np.float32), labels, {},
                      network_reads=reads)
    tips = advice(profile, 640, 480)
    assert len(tips) == 2
    assert "about 15 px" in tips[0] and "closer" in tips[0]
    assert "1 (2 x)" in tips[1]
    bigger = Profile("pips", 40 / 640, profile.features, labels, {}, network_reads=reads)
    assert not any("px" in tip for tip in advice(bigger, 640, 480))


def test_a_profile_keeps_how_the_network_read_its_dice(tmp_path: Path) -> None:
    """The calibration dice, counted by the network's read and their label, survive a save; a
    pip profile saved before they were kept (its "not a die" examples searched less deep) is
    refused with "calibrate again"."""
    items = load_dataset(FIXTURES)
    calibrator = Calibrator("pips", PipReader())
    for item in items:
        calibrator.add_labelled(load_image(item.path), item.dice)
    profile = calibrator.profile()
    dice = sum(len(item.dice) for item in items)
    assert profile.network_reads.sum() == dice
    assert np.trace(profile.network_reads.sum(axis=0)) >= 0.9 * dice  # read right, as labelled
    loaded = Profile.load(profile.save(tmp_path / "table.npz"))
    assert np.array_equal(loaded.network_reads, profile.network_reads)
    with np.load(tmp_path / "table.npz") as data:
        older = {k: data[k] for k in data.files if k != "network_reads"}
    np.savez_compressed(tmp_path / "older.npz", **older)
    with pytest.raises(ProfileError, match=r"earlier version.*calibrate again"):
        Profile.load(tmp_path / "older.npz")


def test_custom_faces_read_back_after_calibration(fixture_labels) -> None:
    """Every 2 carries an emblem; the network alone misreads them; a profile from the three
    photos reads every die of each of them, the emblems as 2."""
    items = {it.path.name: it for it in load_dataset(FIXTURES)}
    frames = {}
    for name, item in items.items():
        twos = [d.box for d in item.dice if d.value == 2]
        frames[name] = paint_emblem(load_image(item.path), twos)
    plain = PipReader()
    truths = {n: truth_of(fixture_labels, n) for n in IMAGES}
    assert any(match(truths[n], plain.read(frames[n]).dice)[1] < len(truths[n]) for n in IMAGES)
    calibrator = Calibrator("pips", plain)
    for name in IMAGES:
        calibrator.add_labelled(frames[name], items[name].dice)
    profile = calibrator.profile()
    assert profile.custom == (2,)
    for name in IMAGES:
        assert_exact(PipReader(profile=profile).read(frames[name]), truths[name])


def test_custom_faces_read_on_new_photos_after_calibrating_on_ten(tmp_path) -> None:
    """SYNTHETIC photos of one table (`vision.training.synth`, one setup, seed 4005) whose dice
    carry an emblem in place of the 6: the plain reader reads none of the emblem dice; a profile
    from 10 photos reads most of them on the 4 photos it has not seen, and no die fewer in all."""
    calibrated, unseen = calibrated_table(tmp_path, 4005, 14, 10,
                                          SynthParams(icon_dice=0, emblem=1, die_px=(30, 80)))
    assert calibrated.profile.custom == (6,)
    plain = PipReader()
    emblems = [0, 0, 0]  # emblem dice, read right calibrated, read right plain
    right = [0, 0]
    for item in unseen:
        frame = load_image(item.path)
        truth = [(d.value, d.box) for d in item.dice]
        sixes = [t for t in truth if t[0] == 6]
        with_profile, without = calibrated.read(frame).dice, plain.read(frame).dice
        emblems[0] += len(sixes)
        emblems[1] += match(sixes, with_profile)[1]
        emblems[2] += match(sixes, without)[1]
        right[0] += match(truth, with_profile)[1]
        right[1] += match(truth, without)[1]
    assert emblems[0] >= 5 and emblems[2] == 0
    assert emblems[1] >= 0.8 * emblems[0]
    assert right[0] >= right[1] + emblems[1]


def test_what_calibration_saw_away_from_the_dice_is_not_read_as_a_custom_face(tmp_path) -> None:
    """SYNTHETIC photos of one table (one setup, seed 3000: 25-px dice with an emblem for the 6,
    the same clutter in every photo): things on the table that the network takes for no die
    are learned as not dice too, so none of them is read as the emblem on new photos."""
    calibrated, unseen = calibrated_table(tmp_path, 3000, 14, 10)
    assert calibrated.profile.custom == (6,)
    read, found, _, total = tally(calibrated, unseen)
    assert read == found >= 0.9 * total


def test_a_custom_face_is_not_read_where_the_network_reads_a_value_it_reads_right() -> None:
    """An emblem on the 1 that the network read as no die or as 3 on the calibration photos,
    where it read the 3s and the 6s right: a die it reads as 6 is a 6 whatever its look; one it
    reads as 3 or as no die may be the emblem; a value it never read right rules nothing out."""
    reads = np.zeros((7, 7), np.int32)
    reads[0, 1], reads[3, 1], reads[3, 3], reads[6, 6], reads[2, 4] = 8, 5, 17, 7, 3
    profile = Profile("pips", 0.04, np.zeros((1, 7, 96), np.float32), ["1"], {},
                      network_reads=reads)
    assert profile.may_show_custom(1, 0) and profile.may_show_custom(1, 3)
    assert not profile.may_show_custom(1, 6)
    assert profile.may_show_custom(1, 4)


def test_a_read_a_custom_face_shares_is_weighed_by_the_counts_and_the_look() -> None:
    """An emblem on the 1 that calibration saw read as 3 for 9 of its dice, beside 17 3s read
    right: a die read as 3 that looks as much like the 3s as the 1s is a 3, about 18 to 10,
    and not sure; one that looks like the 1s is the emblem; a die read as 6 stays a 6."""
    reads = np.zeros((7, 7), np.int32)
    reads[3, 1], reads[3, 3], reads[6, 6] = 9, 17, 7
    emblem, three, six = np.eye(96, dtype=np.float32)[:3]
    profile = Profile("pips", 0.04, np.stack([np.stack([v] * 7) for v in (emblem, three, six)]),
                      ["1", "3", "6"], {}, network_reads=reads)
    between = (emblem + three) / np.linalg.norm(emblem + three)
    near = profile.distances(np.stack([between, emblem]))
    value, likely = profile.weigh(near[0], 3)
    assert value == 3 and likely == pytest.approx(18 / 28)
    assert profile.weigh(near[1], 3)[0] == 1
    assert profile.weigh(near[1], 6) == (6, 1.0)


def test_a_face_the_network_takes_for_no_die_is_read_as_the_table_die_it_looks_like(
        tmp_path) -> None:
    """SYNTHETIC photos of one table (one setup, seed 3005: 114-px dice, a hex nut in place of
    the 1): the network reads the nut as 1 on the calibration photos, so it is no custom face,
    but takes it for no die on others; such a candidate, whose look is nearest a die of the
    table, is read as that die (31 of 35 dice right before, 34 now), and nothing else is."""
    calibrated, unseen = calibrated_table(tmp_path, 3005, 30, 10)
    assert calibrated.profile.custom == ()
    read, _, right, total = tally(calibrated, unseen)
    assert right >= 0.95 * total
    assert read == right


def test_a_big_emblem_die_alone_is_read_though_marked_smaller(tmp_path, capsys) -> None:
    """SYNTHETIC photos of one table (one setup, seed 3002: a 151-px die with an emblem in place
    of the 6, alone in most photos): the detector marks a lone emblem die at 0.7 of its size,
    around the emblem; with no sure die to set the frame's size, a candidate the profile reads
    may be that much smaller than the table's dice. `bench --calibrate 10` reads all 19 dice
    of the 20 other photos (18 before), none extra."""
    write_folder(tmp_path, 30, 3002, (640, 480), SynthParams(icon_dice=0, emblem=1),
                 one_setup=True)
    assert main(["bench", str(tmp_path), "--calibrate", "10", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["labelled"] == 19
    assert figures["die_accuracy"] == figures["precision"] == 1.0


def test_a_calibrated_reader_finds_the_dice_the_detector_marks_weakly(tmp_path) -> None:
    """SYNTHETIC photos of one table (one setup, seed 3009: 32-px dice on a busy table): the
    detector marks some of its dice too weakly for a reader that knows nothing of the table
    (49 of 53 found at its threshold); calibration, which learns the table's clutter, looks at
    weaker marks, and finds and reads at least 98% of the dice on 8 new photos, none extra."""
    calibrated, unseen = calibrated_table(tmp_path, 3009, 16, 8)
    read, _, right, total = tally(calibrated, unseen)
    assert right >= 0.98 * total
    assert read == right


def test_bench_calibrates_on_k_photos_and_reads_the_others(capsys) -> None:
    assert main(["bench", str(FIXTURES), "--calibrate", "2", "--seed", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["images"] == len(IMAGES) - 2 and result["die_accuracy"] == 1.0
    assert main(["bench", str(FIXTURES), "--calibrate", str(len(IMAGES))]) == 2
    assert "more than that many" in capsys.readouterr().err


def test_icon_dice_calibrate_from_face_labels(tmp_path: Path, capsys) -> None:
    """SYNTHETIC icon dice labelled by face in labels.json: the same calibration as teach."""
    folder = tmp_path / "icons"
    folder.mkdir()
    labels = {}
    for k in range(4):
        faces = [FACES[(k + j) % 4] for j in range(5)]
        frame, placed = render_tray(faces, seed=500 + k)
        cv2.imwrite(str(folder / f"{k}.png"), frame)
        h, w = frame.shape[:2]
        labels[f"{k}.png"] = {"width": w, "height": h, "dice": [
            {"face": p.face, "box": [p.box[0] / w, p.box[1] / h, p.box[2] / w, p.box[3] / h]}
            for p in placed]}
    (folder / "labels.json").write_text(json.dumps(labels))
    profile = tmp_path / "icons.npz"
    assert main(["calibrate", str(folder), "--out", str(profile)]) == 0
    assert "icons dice about" in capsys.readouterr().out
    frame, _ = render_tray(["water", "human", "food"], seed=999)
    cv2.imwrite(str(tmp_path / "roll.png"), frame)
    assert main(["read", str(tmp_path / "roll.png"), "--json", "--profile", str(profile)]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    assert sorted(d["face"] for d in dice) == ["food", "human", "water"]
