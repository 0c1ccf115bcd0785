"""Settle detection on motion (vision/settle.py): the motion check on SYNTHETIC renders (moved,
shifted and rolled again: moving; the same picture, with fresh sensor noise or JPEG'd again:
still), and `StillTray` saying once a stillness that the dice are due to be read."""

import cv2
import numpy as np
import pytest
from synth_dice import render_tray

from vision.settle import MOTION, StillTray, moved, small_grey
from vision.training.synth import SynthParams, new_setup, roll

BASE = [(100.0, 120.0), (300.0, 120.0), (500.0, 120.0), (300.0, 340.0)]
ANGLES = [10.0, 20.0, 30.0, 40.0]


def table_photo(seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """Two SYNTHETIC 640x480 photos of pip dice at one table, thrown twice."""
    rng = np.random.default_rng(seed)
    params = SynthParams(icon_dice=0)
    setup, count = new_setup(rng, (640, 480), params)
    return roll(rng, setup, count, params)[0], roll(rng, setup, count, params)[0]


def noisy(frame: np.ndarray, sigma: float, seed: int) -> np.ndarray:
    """The same picture with fresh sensor noise."""
    noise = np.random.default_rng(seed).normal(0, sigma, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def differ(a: np.ndarray, b: np.ndarray) -> bool:
    return moved(small_grey(a), small_grey(b))


def test_the_same_picture_is_still_through_noise_and_jpeg() -> None:
    photo, _ = table_photo()
    assert not differ(photo, photo.copy())
    for seed, sigma in enumerate((2.0, 5.0, 8.0)):
        assert not differ(photo, noisy(photo, sigma, seed)), sigma
        assert not differ(noisy(photo, sigma, seed), noisy(photo, sigma, seed + 10)), sigma
    ok, data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 60])
    assert ok and not differ(photo, cv2.imdecode(data, cv2.IMREAD_COLOR))


def test_shifted_or_thrown_again_is_moving() -> None:
    photo, again = table_photo()
    assert differ(photo, again)  # the dice thrown anew
    for dx in (3, 8):  # the picture shifted: a tray knocked, a hand over it
        shift = np.float32([[1, 0, dx], [0, 1, dx]])
        shifted = cv2.warpAffine(photo, shift, (640, 480), borderMode=cv2.BORDER_REFLECT)
        assert differ(photo, shifted), dx


@pytest.mark.parametrize("die_px", [24.0, 48.0])
def test_one_die_moved_by_half_its_size_is_moving(die_px: float) -> None:
    """One die of four slides by half its side; the rest of the picture is the same."""
    before, _ = render_tray(["food"] * 4, seed=3, centres=BASE, angles=ANGLES, die_px=die_px)
    slid = [(x + die_px / 2, y) if k == 0 else (x, y) for k, (x, y) in enumerate(BASE)]
    after, _ = render_tray(["food"] * 4, seed=3, centres=slid, angles=ANGLES, die_px=die_px)
    assert differ(before, after)
    same, _ = render_tray(["food"] * 4, seed=3, centres=BASE, angles=ANGLES, die_px=die_px)
    assert not differ(before, same)


def test_the_small_frame_is_the_same_size_from_any_camera() -> None:
    photo, _ = table_photo()
    assert small_grey(photo).shape == (120, MOTION.width)
    big = cv2.resize(photo, (4032, 3024))
    assert small_grey(big).shape == (120, MOTION.width)
    assert not moved(small_grey(photo), small_grey(big))  # the same picture at 12 MP
    assert moved(small_grey(photo), small_grey(photo[:, :600]))  # another size: start over


def frames_moving_then_still(moving: int, still: int) -> list[np.ndarray]:
    """SYNTHETIC renders: four dice sliding back and forth for `moving` frames, then lying
    still (fresh sensor noise on every still frame)."""
    frames = []
    for k in range(moving):
        shift = 30.0 if k % 2 else -30.0
        centres = [(x + shift, y - shift) for x, y in BASE]
        frames.append(render_tray(["food", "water", "metal", "human"], seed=k,
                                  centres=centres, angles=ANGLES)[0])
    lying = render_tray(["food", "water", "metal", "human"], seed=moving, centres=BASE,
                        angles=ANGLES, noise=0)[0]
    return frames + [noisy(lying, 4.0, k) for k in range(still)]


def test_due_once_the_tray_has_been_still_for_the_settle_time() -> None:
    """10 frames a second: moving for 10 frames, still from frame 10: due at frame 15 (0.5 s
    later), once; the motion check says which frames moved."""
    tray = StillTray(settle_seconds=0.5)
    checks = [tray.update(frame, k / 10) for k, frame in enumerate(frames_moving_then_still(
        10, 10))]
    assert [k for k, c in enumerate(checks) if c.moving] == list(range(11))
    assert [k for k, c in enumerate(checks) if c.due] == [15]
    assert checks[15].still_for == pytest.approx(0.5) and not checks[15].forced
    assert len({c.period for c in checks[10:]}) == 1


def test_motion_after_a_read_re_arms_and_force_reads_at_once() -> None:
    a, b = table_photo()
    tray = StillTray(settle_seconds=1.0)
    assert [tray.update(a, t).due for t in (0.0, 0.5, 1.0, 1.5, 2.0)] == [
        False, False, True, False, False]
    first = tray.period
    assert tray.update(b, 2.1).moving  # picked up and thrown again
    assert [tray.update(b, t).due for t in (2.5, 3.0, 3.1, 4.0)] == [False, False, True, False]
    assert tray.period == first + 1
    tray.force()  # a player holds the picture: read the next frame, still or not
    forced = tray.update(b, 4.1)
    assert forced.due and forced.forced and not tray.update(b, 4.2).due
    tray.again(tray.period)  # that read failed: the still tray is due again
    assert tray.update(b, 4.3).due


def test_a_settle_time_of_nought_reads_the_first_frame() -> None:
    tray = StillTray(settle_seconds=0)
    photo, _ = table_photo()
    assert [tray.update(photo, t).due for t in (0.0, 0.1)] == [True, False]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        StillTray(settle_seconds=-1)
