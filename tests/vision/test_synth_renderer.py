"""The synthetic photo renderer (vision.training.synth): labelled folders the bench and the
trainer read, reproducible from a seed, dice drawn where and as their labels say."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.bench import match
from vision.dataset import load_dataset
from vision.training.synth import (
    FACE_PX,
    Camera,
    DiceSet,
    draw_die,
    draw_pips,
    main,
    write_folder,
)


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
