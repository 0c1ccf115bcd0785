"""DiceWatcher: a fake camera and reader driven from the test, and the real reader on a REAL
fixture photo (from d6-tray, BSD-3, Nell Byler) played as a camera."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.camera import CameraError, ImageCamera
from vision.faces import Die, Reading
from vision.live import DiceWatcher, Sighting
from vision.pips import PipReader

FIXTURES = Path(__file__).parent / "fixtures"


def wait_for(condition: Callable[[], object], seconds: float = 5.0) -> None:
    """Poll `condition` until it holds; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.002)


def scene(dice: int) -> np.ndarray:
    """A tiny frame that shows `dice` dice (to the fake reader)."""
    return np.full((4, 4, 3), dice, np.uint8)


def count_dice(frame: np.ndarray) -> Reading:
    """The fake reader: as many food dice, in a row, as the frame's first pixel says."""
    return Reading(tuple(Die(1, "food", (50 * i, 0, 50 * i + 40, 40), 0.95)
                         for i in range(int(frame[0, 0, 0]))))


class FakeCamera:
    """Plays `frames` in order, the last one for ever; `open_error` / `read_error` make it
    fail to open / stop delivering (unplugged) until set back to None."""

    name = "fake camera"

    def __init__(self, *frames: np.ndarray) -> None:
        self.frames = list(frames)
        self.open_error: str | None = None
        self.read_error: str | None = None
        self.is_open = False
        self.opens = 0

    def open(self) -> None:
        if self.open_error:
            raise CameraError(self.open_error)
        self.is_open, self.opens = True, self.opens + 1

    def read(self) -> np.ndarray:
        if not self.is_open:
            raise CameraError("fake camera: not open")
        if self.read_error:
            raise CameraError(self.read_error)
        time.sleep(0.001)
        return self.frames.pop(0) if len(self.frames) > 1 else self.frames[0]

    def close(self) -> None:
        self.is_open = False


class FakeClock:
    """A clock that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def watcher(camera: FakeCamera, read: Callable[[np.ndarray], Reading] = count_dice,
            **kwargs) -> DiceWatcher:
    """A watcher of a fake camera that retries at once."""
    kwargs.setdefault("settle_seconds", 0)
    return DiceWatcher(lambda: camera, lambda: read, retry_seconds=0.01, **kwargs)


def dice_in(sighting: Sighting | None) -> int | None:
    return None if sighting is None else len(sighting.reading.dice)


def test_latest_is_newest_and_settled_waits_for_the_settle_time() -> None:
    clock = FakeClock()
    camera = FakeCamera(scene(1), scene(2), scene(3))
    with watcher(camera, settle_seconds=1.0, clock=clock) as w:
        wait_for(lambda: dice_in(w.latest()) == 3)
        latest = w.latest()
        assert latest.frame[0, 0, 0] == 3 and latest.count_ok is None and latest.read_ms >= 0
        assert not latest.settled and w.settled() is None
        assert w.frames >= 3 and w.connected and w.problem is None
        clock.now = 1.0
        wait_for(lambda: w.settled() is not None)
        settled = w.settled()
        assert dice_in(settled) == 3 and settled.settled and settled.seen_at == 1.0
        wait_for(lambda: w.settled() is not settled)  # still the same dice: still settled
        assert w.latest().settled


def test_new_roll_clears_the_sightings_and_sets_the_expected_count() -> None:
    clock = FakeClock()
    with watcher(FakeCamera(scene(3)), settle_seconds=1.0, clock=clock) as w:
        wait_for(lambda: w.latest() is not None)
        clock.now = 1.0
        wait_for(lambda: w.settled() is not None)
        w.new_roll(expected=3)
        assert w.settled() is None
        assert w.latest() is None or w.latest().count_ok is True  # nothing from the last roll
        wait_for(lambda: w.latest() is not None)
        assert w.latest().count_ok is True and w.settled() is None
        w.new_roll(expected=2)
        wait_for(lambda: w.latest() is not None)
        assert w.latest().count_ok is False
        clock.now = 2.0
        wait_for(lambda: w.settled() is not None)
        assert w.settled().count_ok is False and dice_in(w.settled()) == 3
        w.new_roll()
        wait_for(lambda: w.latest() is not None)
        assert w.latest().count_ok is None


def test_camera_that_does_not_open_is_retried() -> None:
    camera = FakeCamera(scene(2))
    camera.open_error = "fake camera: cannot open (is it plugged in and free?)"
    with watcher(camera) as w:
        wait_for(lambda: w.problem is not None)
        assert "cannot open (is it plugged in and free?)" in w.problem
        assert not w.connected and w.frames == 0 and w.latest() is None
        camera.open_error = None
        wait_for(lambda: w.problem is None and dice_in(w.latest()) == 2)
        assert w.connected


def test_camera_unplugged_mid_stream_is_reopened() -> None:
    camera = FakeCamera(scene(2))
    with watcher(camera) as w:
        wait_for(lambda: w.frames > 0)
        assert w.connected
        camera.read_error = "fake camera: stopped delivering frames (unplugged or ended?)"
        wait_for(lambda: w.problem == "camera lost: fake camera: stopped delivering frames "
                 "(unplugged or ended?); retrying")
        wait_for(lambda: not w.connected)
        frames, opens = w.frames, camera.opens
        camera.read_error = None
        wait_for(lambda: w.problem is None and w.frames > frames)
        assert w.connected and camera.opens > opens


def test_failing_reader_does_not_end_the_watching() -> None:
    broken = threading.Event()
    broken.set()

    def read(frame: np.ndarray) -> Reading:
        if broken.is_set():
            raise ValueError("bad frame")
        return count_dice(frame)

    with watcher(FakeCamera(scene(1)), read) as w:
        wait_for(lambda: w.problem == "dice reader failed: bad frame")
        frames = w.frames
        wait_for(lambda: w.frames > frames)
        assert w.latest() is None
        broken.clear()
        wait_for(lambda: w.problem is None and dice_in(w.latest()) == 1)


def test_stop_closes_the_camera_and_ends_the_thread() -> None:
    camera = FakeCamera(scene(1))
    w = watcher(camera)
    w.stop()  # before start: nothing to stop
    w.start()
    wait_for(lambda: w.frames > 0)
    w.stop()
    assert not camera.is_open and not w.connected
    assert "dice watcher" not in {t.name for t in threading.enumerate()}
    frames = w.frames
    time.sleep(0.05)
    assert w.frames == frames
    w.stop()


def test_stop_without_waiting_leaves_the_frame_being_read_to_close_the_camera() -> None:
    camera = FakeCamera(scene(1))
    reading = threading.Event()

    def slow_read(frame: np.ndarray) -> Reading:
        reading.set()
        time.sleep(0.3)  # a camera or reader that takes its time
        return count_dice(frame)

    w = watcher(camera, slow_read)
    w.start()
    assert reading.wait(5)
    w.stop(wait=False)
    assert camera.is_open  # returned at once: the frame is still being read
    wait_for(lambda: not camera.is_open)
    wait_for(lambda: "dice watcher" not in {t.name for t in threading.enumerate()})


def test_real_reader_settles_on_a_fixture_photo(pip_reader: PipReader,
                                                fixture_labels: dict) -> None:
    name = "IMG_20191208_112659.jpg"
    expected = len(fixture_labels[name]["dice"])
    w = DiceWatcher(lambda: ImageCamera([FIXTURES / name], loop=True), pip_reader.follower,
                    settle_seconds=0, max_fps=30)
    w.new_roll(expected)
    with w:
        wait_for(lambda: w.settled() is not None, seconds=15)
        settled = w.settled()
    assert len(settled.reading.dice) == expected and settled.count_ok is True
    assert settled.frame.shape[:2] == (fixture_labels[name]["height"],
                                       fixture_labels[name]["width"])
