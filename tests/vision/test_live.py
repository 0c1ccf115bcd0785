"""The dice read once they lie still (vision/live.py): `ReadOnce` on SYNTHETIC frames moving
then still with a stub reader that counts its calls; `DiceWatcher` with a fake camera and
reader driven from the test; and the real reader on a REAL fixture photo (from d6-tray, BSD-3,
Nell Byler) played as a camera."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from synth_dice import render_tray

from vision.calibrate import Calibrator
from vision.camera import CameraError, ImageCamera
from vision.faces import Die, Reading
from vision.icons import IconReader
from vision.live import DiceWatcher, ReadOnce, Sighting
from vision.pips import PipReader

FIXTURES = Path(__file__).parent / "fixtures"
FACES = ["food", "water", "metal", "human"]


def wait_for(condition: Callable[[], object], seconds: float = 5.0) -> None:
    """Poll `condition` until it holds; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.002)


def scene(dice: int) -> np.ndarray:
    """A small frame that shows `dice` dice to the fake reader (and to the motion check: a
    frame of another count is another picture)."""
    return np.full((48, 64, 3), 40 * dice, np.uint8)


def count_dice(frame: np.ndarray) -> Reading:
    """The fake reader: as many food dice, in a row, as the frame's first pixel says."""
    return Reading(tuple(Die(1, "food", (50 * i, 0, 50 * i + 40, 40), 0.95)
                         for i in range(int(frame[0, 0, 0]) // 40)))


class CountingReader:
    """A stub dice reader: counts its calls, reads as `read` does (default count_dice)."""

    def __init__(self, read: Callable[[np.ndarray], Reading] = count_dice) -> None:
        self.calls = 0
        self.read = read

    def __call__(self, frame: np.ndarray) -> Reading:
        self.calls += 1
        return self.read(frame)


class FakeCamera:
    """Plays `frames` in order, the last one for ever (`show` puts another picture in front
    of it); `open_error` / `read_error` make it fail to open / stop delivering (unplugged)
    until set back to None."""

    name = "fake camera"

    def __init__(self, *frames: np.ndarray) -> None:
        self.frames = list(frames)
        self.open_error: str | None = None
        self.read_error: str | None = None
        self.is_open = False
        self.opens = 0

    def show(self, frame: np.ndarray) -> None:
        self.frames = [frame]

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


# -- ReadOnce: the pipeline, in the caller's thread -----------------------------------------


def rolling_then_still(moving: int, still: int, seed: int = 0) -> list[np.ndarray]:
    """SYNTHETIC renders of four icon dice: sliding for `moving` frames, then lying still,
    fresh sensor noise on each still frame."""
    base = [(100.0, 120.0), (300.0, 120.0), (500.0, 120.0), (300.0, 340.0)]
    angles = [10.0, 20.0, 30.0, 40.0]
    frames = []
    for k in range(moving):
        shift = 30.0 if k % 2 else -30.0
        frames.append(render_tray(FACES, seed=seed + k, angles=angles,
                                  centres=[(x + shift, y - shift) for x, y in base])[0])
    lying = render_tray(FACES, seed=seed + moving, centres=base, angles=angles, noise=0)[0]
    rng = np.random.default_rng(seed)
    return frames + [np.clip(lying + rng.normal(0, 4, lying.shape), 0, 255).astype(np.uint8)
                     for _ in range(still)]


def test_the_full_reader_runs_once_a_stillness() -> None:
    """10 frames a second: rolling for 10 frames, still from frame 10: read once, at frame 15
    (0.5 s still); the frames after show the dice read without reading them again."""
    reader = CountingReader(lambda frame: Reading((Die(1, "food", (0, 0, 9, 9), 0.99),)))
    once = ReadOnce(settle_seconds=0.5, expected=1)
    seen = [once.update(frame, k / 10, reader) for k, frame in enumerate(
        rolling_then_still(10, 15))]
    assert reader.calls == 1 and once.reads == 1
    assert [k for k, s in enumerate(seen) if s.fresh] == [15]
    assert [k for k, s in enumerate(seen) if s.settled] == list(range(15, 25))
    assert all(s.reading.dice == () and s.count_ok is None for s in seen[:15])
    assert all(s.count_ok is True and dice_in(s) == 1 for s in seen[15:])
    assert seen[15].frame is not seen[20].frame and seen[20].seen_at == 2.0
    assert seen[15].read_ms >= 0 and once.settled() is seen[15]


def test_motion_after_a_read_re_arms_it() -> None:
    """Picked up and rolled again: the dice shown are gone while it moves, and read once
    more when still again; a count that differs from the roll's is flagged."""
    reader = CountingReader()
    once = ReadOnce(settle_seconds=0.3, expected=2)
    script = [scene(2)] * 5 + [scene(3), scene(1), scene(3)] + [scene(3)] * 6
    seen = [once.update(frame, k / 10, reader) for k, frame in enumerate(script)]
    assert reader.calls == 2
    assert [k for k, s in enumerate(seen) if s.fresh] == [3, 10]
    assert [dice_in(s) for s in seen] == [0, 0, 0, 2, 2, 0, 0, 0, 0, 0, 3, 3, 3, 3]
    assert seen[3].count_ok is True and seen[10].count_ok is False
    assert [k for k, s in enumerate(seen) if s.moving] == [0, 5, 6, 7]


def test_a_real_reader_reads_the_still_dice_once() -> None:
    """The icon reader, taught on SYNTHETIC renders, reads the four still dice once."""
    teacher = Calibrator("icons")
    for face in FACES:
        teacher.add_shown(render_tray([face] * 3, seed=100)[0], face)
    reader = CountingReader(IconReader(teacher.profile()).read)
    once = ReadOnce(settle_seconds=0.5, expected=4)
    seen = [once.update(frame, k / 10, reader) for k, frame in enumerate(
        rolling_then_still(10, 10))]
    assert reader.calls == 1
    [settled] = [s for s in seen if s.fresh]
    assert settled.count_ok is True
    assert sorted(d.face for d in settled.reading.dice) == sorted(FACES)


def test_a_read_of_a_tray_that_moved_meanwhile_is_dropped_unless_asked_for() -> None:
    once = ReadOnce(settle_seconds=0)
    sighting, due = once.look(scene(2), 0.0)
    assert due.due and not sighting.settled
    once.look(scene(3), 0.1)  # moved while frame 0 was read
    assert once.settle(scene(2), 0.0, due, count_dice(scene(2)), 5.0) is None
    assert once.reads == 0 and once.settled() is None
    once.read_now()
    sighting, forced = once.look(scene(1), 0.2)
    assert forced.due and forced.forced
    once.look(scene(3), 0.3)  # moved again; the player asked for frame 2, so it is kept
    kept = once.settle(scene(1), 0.2, forced, count_dice(scene(1)), 5.0)
    assert kept is not None and dice_in(kept) == 1 and once.settled() is kept
    assert not once.look(scene(3), 0.4)[0].settled  # not shown on the tray as it is now


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        ReadOnce(settle_seconds=-1)
    with pytest.raises(ValueError):
        ReadOnce(expected=-2)
    with pytest.raises(ValueError):
        DiceWatcher(lambda: FakeCamera(scene(1)), lambda: count_dice, settle_seconds=-1)


# -- DiceWatcher: the same in the app's threads ---------------------------------------------


def test_latest_is_newest_and_settled_waits_for_the_settle_time() -> None:
    clock = FakeClock()
    camera = FakeCamera(scene(1), scene(2), scene(3))
    reader = CountingReader()
    with watcher(camera, reader, settle_seconds=1.0, clock=clock) as w:
        wait_for(lambda: w.latest() is not None and w.latest().frame[0, 0, 0] == 120)
        latest = w.latest()
        assert not latest.settled and dice_in(latest) == 0 and latest.count_ok is None
        assert w.settled() is None and reader.calls == 0
        assert w.frames >= 3 and w.connected and w.problem is None
        clock.now = 1.0
        wait_for(lambda: w.settled() is not None)
        settled = w.settled()
        assert dice_in(settled) == 3 and settled.settled and settled.fresh
        assert settled.seen_at == 1.0 and settled.read_ms >= 0
        frames = w.frames
        wait_for(lambda: w.frames > frames + 20)  # still the same dice: shown, not read again
        assert w.latest().settled and dice_in(w.latest()) == 3 and not w.latest().fresh
        assert reader.calls == 1 and w.reads == 1 and w.settled() is settled


def test_motion_re_arms_the_watcher() -> None:
    clock = FakeClock()
    camera = FakeCamera(scene(2))
    reader = CountingReader()
    with watcher(camera, reader, settle_seconds=1.0, clock=clock) as w:
        wait_for(lambda: w.latest() is not None)
        clock.now = 1.0
        wait_for(lambda: dice_in(w.settled()) == 2)
        camera.show(scene(4))  # the dice picked up and rolled again
        wait_for(lambda: w.latest().frame[0, 0, 0] == 160)
        assert not w.latest().settled and dice_in(w.settled()) == 2 and reader.calls == 1
        clock.now = 2.0
        wait_for(lambda: dice_in(w.settled()) == 4)
        assert reader.calls == 2 and w.latest().settled


def test_read_now_reads_a_picture_before_it_settled() -> None:
    clock = FakeClock()
    reader = CountingReader()
    with watcher(FakeCamera(scene(2)), reader, settle_seconds=10.0, clock=clock) as w:
        wait_for(lambda: w.latest() is not None)
        assert w.settled() is None
        w.read_now()  # the player holds the picture
        wait_for(lambda: w.settled() is not None)
        assert dice_in(w.settled()) == 2 and reader.calls == 1


def test_new_roll_clears_the_sightings_and_sets_the_expected_count() -> None:
    clock = FakeClock()
    with watcher(FakeCamera(scene(3)), settle_seconds=1.0, clock=clock) as w:
        wait_for(lambda: w.latest() is not None)
        clock.now = 1.0
        wait_for(lambda: w.settled() is not None)

        def roll(expected: int | None) -> Sighting:
            """A new roll, its first frame seen, then the settle time passed."""
            w.new_roll(expected)
            assert w.settled() is None
            assert w.latest() is None or not w.latest().settled  # nothing from the last roll
            wait_for(lambda: w.latest() is not None)
            clock.now += 1.0
            wait_for(lambda: w.settled() is not None)
            return w.settled()

        assert roll(3).count_ok is True and w.latest().count_ok is True
        assert roll(2).count_ok is False and dice_in(w.settled()) == 3
        assert roll(None).count_ok is None


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


def test_failing_reader_does_not_end_the_watching_and_is_tried_again() -> None:
    broken = threading.Event()
    broken.set()

    def read(frame: np.ndarray) -> Reading:
        if broken.is_set():
            raise ValueError("bad frame")
        return count_dice(frame)

    with watcher(FakeCamera(scene(1)), read) as w:
        wait_for(lambda: w.problem == "dice reader failed: bad frame")
        frames = w.frames
        wait_for(lambda: w.frames > frames)  # the live picture goes on
        assert not w.latest().settled and w.settled() is None
        broken.clear()  # the still tray is read again, and now read
        wait_for(lambda: w.problem is None and dice_in(w.latest()) == 1)


def test_stop_closes_the_camera_and_ends_the_threads() -> None:
    camera = FakeCamera(scene(1))
    w = watcher(camera)
    w.stop()  # before start: nothing to stop
    w.start()
    wait_for(lambda: w.frames > 0)
    w.stop()
    assert not camera.is_open and not w.connected
    assert not {"dice watcher", "dice reader"} & {t.name for t in threading.enumerate()}
    frames = w.frames
    time.sleep(0.05)
    assert w.frames == frames
    w.stop()


def test_stop_without_waiting_leaves_the_read_to_end_by_itself() -> None:
    camera = FakeCamera(scene(1))
    reading, done = threading.Event(), threading.Event()

    def slow_read(frame: np.ndarray) -> Reading:
        reading.set()
        done.wait(5)  # a reader that takes its time
        return count_dice(frame)

    w = watcher(camera, slow_read)
    w.start()
    assert reading.wait(5)
    w.stop(wait=False)  # returns while the dice are being read
    assert "dice reader" in {t.name for t in threading.enumerate()}
    wait_for(lambda: not camera.is_open)  # the camera's thread did not wait for the reader
    done.set()
    wait_for(lambda: not {"dice watcher", "dice reader"} & {
        t.name for t in threading.enumerate()})
    assert w.settled() is None  # read after the stop: not kept as this roll's


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
