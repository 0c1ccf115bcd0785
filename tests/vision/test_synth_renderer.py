"""The synthetic photo renderer (vision.training.synth): labelled folders the bench and the
trainer read, reproducible from a seed, dice drawn where and as their labels say."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from vision.bench import bench, match
from vision.dataset import LabelledDie, LabelledImage, load_dataset
from vision.faces import Die, Reading
from vision.training.synth import (
    FACE_PX,
    NEGATIVES,
    Camera,
    DiceSet,
    SynthParams,
    draw_cube,
    draw_die,
    draw_leaning,
    draw_pips,
    judge,
    leaning_cube,
    main,
    render_scene,
    write_folder,
)

STEEP = SynthParams(tilt=(40.0, 60.0), tilted=1.0, fov=50.0, abut=0.3, stack=0.2, lean=0.2,
                    icon_dice=0.0, emblem=0.0, negatives=NEGATIVES)


def test_a_folder_is_a_labelled_set_the_bench_reads(tmp_path) -> None:
    dice = write_folder(tmp_path, 6, seed=3)
    items = load_dataset(tmp_path)
    assert len(items) == 6
    assert sum(len(item.dice) for item in items) == dice > 0
    for item in items:
        assert (item.width, item.height) == (640, 480)
        for die in item.dice:
            x0, y0, x1, y1 = die.box
            assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
            assert (die.value in range(1, 7)) != (die.face is not None)


def test_the_same_seed_renders_the_same_photos(tmp_path) -> None:
    write_folder(tmp_path / "a", 3, seed=7)
    write_folder(tmp_path / "b", 3, seed=7)
    write_folder(tmp_path / "c", 3, seed=8)
    labels = [json.loads((tmp_path / k / "labels.json").read_text()) for k in "abc"]
    assert labels[0] == labels[1] != labels[2]
    assert (tmp_path / "a" / "synth-00002.jpg").read_bytes() == (
        tmp_path / "b" / "synth-00002.jpg").read_bytes()


@pytest.mark.parametrize("body, ink, table", [
    ((235, 235, 235), (20, 20, 20), (60, 70, 80)),  # white dice, black pips, dark cloth
    ((30, 30, 200), (240, 240, 240), (120, 110, 100)),  # red dice, white pips
    ((40, 40, 40), (240, 240, 240), (150, 170, 190)),  # black dice on light wood
])
def test_pip_faces_drawn_from_above_are_read_as_labelled(pip_reader, body, ink, table) -> None:
    """The faces are right: the reader trained on real photos reads classic dice drawn here."""
    frame = np.full((480, 640, 3), table, np.uint8)
    camera, look = Camera(0.0, 0.0, (320, 240)), DiceSet(body, ink, 0.12)
    spots = [(-200, -100, 10), (-60, -100, 40), (80, -100, 70), (-200, 80, 20), (-60, 80, 5),
             (80, 80, 60)]
    dice = [draw_die(frame, camera, look, (x, y), 44.0, turn, value, (0.7, 0.7),
                     np.random.default_rng(value))
            for value, (x, y, turn) in zip(range(1, 7), spots)]
    found, correct = match([(d.value, d.box) for d in dice], pip_reader.read(frame).dice)
    assert (found, correct) == (6, 6)


@pytest.mark.parametrize("tilt", [0.0, 25.0])
def test_a_tilted_camera_shows_the_near_sides_below_the_top_face(tilt: float) -> None:
    frame = np.full((200, 200, 3), 90, np.uint8)
    look = DiceSet((230, 230, 230), (20, 20, 20), 0.1)
    camera = Camera(tilt, 0.0, (100, 100))
    die = draw_die(frame, camera, look, (0.0, 0.0), 60.0, 0.0, 1, (1.0, 0.0),
                   np.random.default_rng(0))
    x0, y0, x1, y1 = die.box
    assert die.value == 1
    below = frame[int(y1) + 3:int(y1) + 10, int(x0) + 10:int(x1) - 10]
    side_shown = bool(abs(np.median(below) - 90) > 20)  # the die's side, not the table
    assert side_shown == (tilt > 0)
    assert (y1 - y0) == pytest.approx(60 * np.cos(np.radians(tilt)), abs=1.5)


def test_a_pip_face_has_its_value_in_pips() -> None:
    import cv2

    for value in range(1, 7):
        face = draw_pips(value, (255, 255, 255), (0, 0, 0))
        assert face.shape == (FACE_PX, FACE_PX, 3)
        count, _ = cv2.connectedComponents((face[..., 0] < 128).astype(np.uint8))
        assert count - 1 == value


def test_the_command_writes_a_folder_and_refuses_a_bad_size(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "out"), "--count", "2", "--icon-dice", "0"]) == 0
    assert "wrote 2 photos" in capsys.readouterr().out
    assert len(load_dataset(tmp_path / "out")) == 2
    with pytest.raises(SystemExit):
        main([str(tmp_path / "bad"), "--size", "640by480"])
    assert "is not WIDTHxHEIGHT" in capsys.readouterr().err


def test_the_die_size_range_is_an_option(tmp_path, capsys) -> None:
    """--die-px sets the dice's size in the frame (a 12 MP still's dice are bigger); a range
    that is not LOW-HIGH is refused with what to type."""
    assert main([str(tmp_path / "big"), "--count", "2", "--icon-dice", "0", "--die-px",
                 "90-110"]) == 0
    for item in load_dataset(tmp_path / "big"):
        for die in item.dice:
            x0, y0, x1, y1 = die.box
            assert 60 <= ((x1 - x0) * (y1 - y0)) ** 0.5 <= 160
    with pytest.raises(SystemExit):
        main([str(tmp_path / "bad"), "--die-px", "150-12"])
    assert "the low one first" in capsys.readouterr().err


def phone(tilt: float, roll: float = 0.0) -> Camera:
    """A phone's pinhole camera (50 degrees across) over a 640x480 frame."""
    return Camera(tilt, roll, (320.0, 240.0), 320 / math.tan(math.radians(25)))


def inside(box, point) -> bool:
    x0, y0, x1, y1 = box
    return bool(x0 <= point[0] <= x1 and y0 <= point[1] <= y1)


def white_five(camera: Camera, side: float):
    """A white die showing 5, turned 20 degrees, at the table's middle: its label and the
    frame's owner map (1 its top face, -1 its side faces)."""
    frame = np.full((480, 640, 3), 90, np.uint8)
    look = DiceSet((230, 230, 230), (20, 20, 20), 0.1)
    owner = np.zeros((480, 640), np.int32)
    drawn = draw_cube(frame, camera, look, (0.0, 0.0), side, 20.0, 5, (1.0, 0.0),
                      np.random.default_rng(0), owner, 1)
    (label,) = judge([drawn], owner, SynthParams())
    return label, owner


@pytest.mark.parametrize("tilt, roll", [(40.0, 0.0), (50.0, 130.0), (60.0, 250.0)])
def test_a_steep_cameras_label_lies_on_the_top_face_not_the_sides(tilt, roll) -> None:
    """Seen from up to 60 degrees, the label is the top face's box: it holds the top face's
    centre, its own centre is on the top face, and the visible side faces are drawn, but
    are no label's (side faces are no dice)."""
    camera, side = phone(tilt, roll), 70.0
    label, owner = white_five(camera, side)
    assert label.value == 5 and not label.hard
    top = camera.project(np.array([[0.0, 0.0, side]]))[0]
    assert inside(label.box, top)
    a = math.radians(20.0)
    normals = [np.array([math.cos(a + k * math.pi / 2), math.sin(a + k * math.pi / 2), 0.0])
               for k in range(4)]
    seen = [n for n in normals if camera.sees(n, n * side / 2 + [0, 0, side / 2])]
    assert seen, "a steep camera sees a side face"
    for normal in seen:
        middle = camera.project((normal * side / 2 + [0, 0, side / 2])[None])[0]
        assert owner[int(middle[1]), int(middle[0])] == -1  # drawn, and no top face
    x0, y0, x1, y1 = label.box
    assert owner[int((y0 + y1) / 2), int((x0 + x1) / 2)] == 1
    if roll == 0:  # foreshortened: shorter along the tilt than across it
        assert (y1 - y0) < 0.85 * (x1 - x0)


def test_a_pinhole_camera_draws_near_dice_larger_and_tells_how_steeply_they_are_seen() -> None:
    camera = phone(55.0)
    near, far = camera.project(np.array([[0.0, -150.0, 0.0], [0.0, 150.0, 0.0]]))
    assert near[1] > 240 > far[1]  # near the camera: low in the frame
    span = camera.project(np.array([[-10.0, -150.0, 0.0], [10.0, -150.0, 0.0],
                                    [-10.0, 150.0, 0.0], [10.0, 150.0, 0.0]]))
    assert span[1, 0] - span[0, 0] > 1.3 * (span[3, 0] - span[2, 0])
    assert camera.view_angle(np.array([0.0, -150.0, 0.0])) < 55 < camera.view_angle(
        np.array([0.0, 150.0, 0.0]))
    back = camera.on_table(camera.project(np.array([[30.0, 80.0, 0.0]])).astype(float))
    assert back[0] == pytest.approx([30.0, 80.0], abs=0.05)


def test_a_die_hidden_under_another_and_a_leaning_die_are_hard() -> None:
    """A die with another lying on it shows too little of its top face to be demanded; the
    one on top is read; a die cocked against another is hard too."""
    frame = np.full((480, 640, 3), 90, np.uint8)
    camera, side, look = phone(45.0), 60.0, DiceSet((40, 40, 200), (240, 240, 240), 0.1)
    owner = np.zeros((480, 640), np.int32)
    rng = np.random.default_rng(1)
    drawn = [draw_cube(frame, camera, look, (-120.0, 0.0), side, 10.0, 3, (1.0, 0.0), rng,
                       owner, 1),
             draw_cube(frame, camera, look, (-115.0, 4.0), side, 40.0, 6, (1.0, 0.0), rng,
                       owner, 2, lifted_by=side),
             draw_cube(frame, camera, look, (120.0, 40.0), side, 0.0, 2, (1.0, 0.0), rng,
                       owner, 3)]
    corners, axes = leaning_cube(np.array([120.0, 40.0]), np.array([0.0, -1.0]), side, 25.0)
    drawn.append(draw_leaning(frame, camera, look, corners, axes, 4, (1.0, 0.0), owner, 4))
    labels = judge(drawn, owner, SynthParams())
    assert [(d.value, d.hard) for d in labels] == [(3, True), (6, False), (2, False), (4, True)]
    assert corners[:, 2].min() == pytest.approx(0.0, abs=1e-9)  # it stands on the table
    assert corners[:, 1].max() <= 40.0 - side / 2 + 1e-6  # and does not enter the other die


def test_printed_boards_tokens_cards_and_cloth_are_drawn_and_never_labelled() -> None:
    """Hard negatives are things that are not dice: a scene of them alone has no labels."""
    for seed in range(4):
        params = SynthParams(dice=(0, 0), negatives=NEGATIVES, negative_chance=1.0, tilt=(
            0.0, 60.0), fov=50.0 if seed % 2 else 0.0)
        frame, dice = render_scene(np.random.default_rng(seed), params=params)
        plain, _ = render_scene(np.random.default_rng(seed), params=SynthParams(dice=(0, 0)))
        assert dice == []
        assert np.mean(cv2.absdiff(frame, plain)) > 5  # the printed things are there


def test_steep_scenes_with_clutter_render_the_same_from_a_seed(tmp_path) -> None:
    """Every new option is seeded: the same labels and photos, byte for byte."""
    for name in ("a", "b"):
        write_folder(tmp_path / name, 3, seed=11, params=STEEP)
    assert (tmp_path / "a" / "labels.json").read_bytes() == (
        tmp_path / "b" / "labels.json").read_bytes()
    for k in range(3):
        assert (tmp_path / "a" / f"synth-0000{k}.jpg").read_bytes() == (
            tmp_path / "b" / f"synth-0000{k}.jpg").read_bytes()
    labels = json.loads((tmp_path / "a" / "labels.json").read_text())
    assert any(die.get("hard") for photo in labels.values() for die in photo["dice"])
    assert all(die.get("hard", False) in (True, False) for photo in labels.values()
               for die in photo["dice"])


def test_the_steep_and_clutter_options_are_on_the_command_line(tmp_path, capsys) -> None:
    assert main([str(tmp_path / "s"), "--count", "2", "--tilt", "40-60", "--fov", "50",
                 "--negatives", "board,tokens,cards,cloth", "--abut", "0.3", "--stack", "0.1",
                 "--lean", "0.1"]) == 0
    assert len(load_dataset(tmp_path / "s")) == 2
    for argv, message in ((["--tilt", "20-80"], "0..60 degrees"),
                          (["--negatives", "board,dice"], "unknown dice"),
                          (["--stack", "2"], "not a chance from 0 to 1")):
        with pytest.raises(SystemExit):
            main([str(tmp_path / "bad"), *argv])
        assert message in capsys.readouterr().err


def test_the_bench_neither_demands_a_hard_die_nor_counts_it_extra(tmp_path) -> None:
    """A die labelled hard that is read, or not, changes no figure; a second die on it, or a
    die elsewhere, is still extra."""
    image = tmp_path / "a.png"
    cv2.imwrite(str(image), np.zeros((100, 200, 3), np.uint8))
    item = LabelledImage(image, 200, 100, (LabelledDie(3, (10, 10, 40, 40)),
                                           LabelledDie(5, (100, 10, 130, 40), hard=True)))
    readings = {
        "the easy one": [Die(3, "water", (12, 12, 38, 38), 0.99)],
        "both": [Die(3, "water", (12, 12, 38, 38), 0.99), Die(2, "food", (102, 12, 128, 38),
                                                              0.95)],
    }
    for dice in readings.values():
        result = bench([item], lambda frame, dice=dice: Reading(tuple(dice)))
        assert (result.labelled, result.predicted, result.found, result.correct) == (1, 1, 1, 1)
    twice = [*readings["both"], Die(5, "metal", (104, 14, 126, 36), 0.9)]
    result = bench([item], lambda frame: Reading(tuple(twice)))
    assert (result.labelled, result.predicted, result.correct) == (1, 2, 1)


@pytest.mark.parametrize("tilt, roll", [(0.0, 0.0), (50.0, 130.0), (60.0, 250.0)])
def test_a_steep_cameras_large_side_faces_are_labelled_as_sides(tilt, roll) -> None:
    """The side faces a steep camera shows at least half as large as the top are written
    with the die (`sides`), so training can show them as "not a die"; from above, none."""
    camera, side = phone(tilt, roll), 70.0
    label, owner = white_five(camera, side)
    assert bool(label.sides) == (tilt > 0)
    for x0, y0, x1, y1 in label.sides:
        middle = owner[int((y0 + y1) / 2), int((x0 + x1) / 2)]
        assert middle == -1  # a side face of this die, not its top
        assert (x1 - x0) * (y1 - y0) >= 0.3 * (
            (label.box[2] - label.box[0]) * (label.box[3] - label.box[1]))


def test_side_faces_reach_the_labelled_folder(tmp_path) -> None:
    write_folder(tmp_path, 6, seed=11, params=STEEP)
    items = load_dataset(tmp_path)
    sides = [box for item in items for die in item.dice for box in die.sides]
    assert sides
    for item in items:
        for die in item.dice:
            for x0, y0, x1, y1 in die.sides:
                assert 0 <= x0 < x1 <= item.width and 0 <= y0 < y1 <= item.height
                assert (x0, y0, x1, y1) != die.box
