"""Readings confirmed at the table kept as calibration material (vision.dataset.add_photo), and
the overlay that marks the dice to check (vision.overlay)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dataset import LabelledDie, add_photo, load_dataset
from vision.faces import Die, Reading
from vision.overlay import UNSURE_COLOUR, draw_overlay


def test_a_kept_reading_is_a_photo_the_calibration_folder_format_reads(tmp_path) -> None:
    frame = np.full((60, 80, 3), 90, np.uint8)
    add_photo(tmp_path / "kept", frame, [LabelledDie(6, (8, 4, 28, 24), "human"),
                                         LabelledDie(None, (40, 20, 60, 40), "food")])
    [item] = load_dataset(tmp_path / "kept")
    assert (item.width, item.height) == (80, 60) and item.path.is_file()
    assert [(d.value, d.face) for d in item.dice] == [(6, "human"), (None, "food")]
    assert item.dice[0].box == pytest.approx((8, 4, 28, 24), abs=0.01)


def test_only_the_newest_photos_are_kept(tmp_path) -> None:
    frame = np.zeros((20, 20, 3), np.uint8)
    for _ in range(5):
        add_photo(tmp_path, frame, [LabelledDie(1, (2, 2, 10, 10))], keep=3)
    assert len(load_dataset(tmp_path)) == 3
    assert len(list(tmp_path.glob("*.jpg"))) == 3


def test_a_die_to_check_is_outlined_in_yellow_and_its_label_asks() -> None:
    frame = np.zeros((100, 100, 3), np.uint8)
    sure = draw_overlay(frame, Reading((Die(1, "food", (30, 30, 60, 60), 0.99),)))
    unsure = draw_overlay(frame, Reading((Die(1, "food", (30, 30, 60, 60), 0.4),)))
    ring = (slice(40, 50), slice(24, 28))  # just left of the box
    yellow = np.all(unsure[ring] == UNSURE_COLOUR, axis=-1)
    assert yellow.any() and not np.all(sure[ring] == UNSURE_COLOUR, axis=-1).any()


def test_the_calibration_is_improved_from_the_readings_kept(tmp_path, pip_reader) -> None:
    from conftest import FIXTURES

    from vision.calibrate import calibrate_kept
    from vision.frames import load_image
    from vision.profile import ProfileError

    with pytest.raises(ProfileError, match="no readings kept yet"):
        calibrate_kept(tmp_path / "kept", pip_reader=pip_reader)
    items = load_dataset(FIXTURES)
    for item in items:  # as the table confirmed them: every die's value
        add_photo(tmp_path / "kept", load_image(item.path), list(item.dice))
    photo = load_image(items[0].path)
    add_photo(tmp_path / "kept", photo, [LabelledDie(None, (1, 1, 9, 9), "food")])  # set by hand
    profile, used, left = calibrate_kept(tmp_path / "kept", pip_reader=pip_reader)
    assert (used, left) == (3, 1) and profile.kind == "pips"
    assert sum(n for label, n in profile.counts().items() if label != "0") == 18  # 2 + 10 + 6
