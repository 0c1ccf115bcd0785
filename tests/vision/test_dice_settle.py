"""Settle detection: unit behaviour, and SYNTHETIC frames with dice moving then still."""

import pytest
from synth_dice import render_tray

from vision.calibrate import Calibrator
from vision.faces import Die, Reading
from vision.icons import IconReader
from vision.settle import Settler, same_dice


def reading(*dice: tuple[int, float, float]) -> Reading:
    """A reading of pip dice given as (value, x, y) with 40 px boxes."""
    return Reading(tuple(Die(v, "food", (int(x - 20), int(y - 20), int(x + 20), int(y + 20)), 0.9)
                         for v, x, y in dice))


def test_same_dice_ignores_order_and_jitter_but_not_moves_or_values() -> None:
    a = reading((1, 100, 100), (2, 200, 100))
    assert same_dice(a.dice, reading((2, 203, 98), (1, 101, 102)).dice)
    assert not same_dice(a.dice, reading((1, 100, 100), (2, 260, 100)).dice)
    assert not same_dice(a.dice, reading((1, 100, 100), (3, 200, 100)).dice)
    assert not same_dice(a.dice, reading((1, 100, 100)).dice)


def test_reported_once_after_the_settle_time() -> None:
    settler = Settler(settle_seconds=0.5)
    still = reading((4, 100, 100))
    outputs = [settler.update(still, t / 10) for t in range(10)]
    reported = [(t, o) for t, o in enumerate(outputs) if o is not None]
    assert [t for t, _ in reported] == [5]
    assert reported[0][1].count_ok is None and reported[0][1].stable_for >= 0.5


def test_count_mismatch_is_flagged_and_best_reading_kept() -> None:
    settler = Settler(settle_seconds=0.2, expected=2)
    one = reading((4, 100, 100))
    for t in range(4):
        out = settler.update(one, t / 10)
    assert out is None or out.count_ok is False
    assert settler.best().count_ok is False
    two = reading((4, 100, 100), (6, 300, 100))
    outs = [settler.update(two, 1 + t / 10) for t in range(4)]
    settled = [o for o in outs if o]
    assert len(settled) == 1 and settled[0].count_ok is True
    assert len(settler.best().reading.dice) == 2


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        Settler(settle_seconds=-1)
    with pytest.raises(ValueError):
        Settler(expected=-2)


def test_synthetic_frames_moving_then_still() -> None:
    """Dice slide for 10 frames (SYNTHETIC renders), then lie still: reported once, after 0.5 s."""
    faces = ["food", "water", "metal", "human"]
    teacher = Calibrator("icons")
    for face in faces:
        teacher.add_shown(render_tray([face] * 3, seed=100)[0], face)
    reader = IconReader(teacher.profile())
    settler = Settler(settle_seconds=0.5, expected=4)
    base = [(100.0, 120.0), (300.0, 120.0), (500.0, 120.0), (300.0, 340.0)]
    fps, reports = 10, []
    for k in range(20):
        shift = (30.0 if k % 2 else -30.0) if k < 10 else 0.0  # rolling, then still from 10
        centres = [(x + shift, y - shift) for x, y in base]
        frame, _ = render_tray(faces, seed=k, centres=centres, angles=[10, 20, 30, 40])
        out = settler.update(reader.read(frame), k / fps)
        if out:
            reports.append((k, out))
    assert [k for k, _ in reports] == [15]
    settled = reports[0][1]
    assert settled.count_ok is True
    assert sorted(d.face for d in settled.reading.dice) == sorted(faces)
