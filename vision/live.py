"""A camera's dice read once they lie still: `ReadOnce`, and `DiceWatcher`, which runs it off
the main thread.

While the picture moves, only the cheap motion check of `vision.settle` runs on each frame;
once the tray has been still for the settle time, the full dice reader runs once, on that
frame, and may take its time; motion after that starts over (dice picked up, rolled again).
`ReadOnce` is that pipeline for one roll's frames, in the caller's thread (`phoenix-dice
watch`); `DiceWatcher` runs it for the app: the camera and the motion check in one daemon
thread, the full read in another, so the live picture keeps coming while the dice are read. A
USB camera can be unplugged mid-game: the watcher opens it again. The screen asks for
`latest()` and `settled()` when it draws; `problem` says in words why no dice come.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.i18n import _
from vision.camera import Camera, CameraError
from vision.faces import Reading
from vision.settle import MOTION, MotionParams, Stillness, StillTray

log = logging.getLogger(__name__)

JOIN_SECONDS = 5.0  # how long stop() waits for the frame being read
NO_DICE = Reading()  # what a frame shows before its stillness is read


@dataclass(frozen=True)
class Sighting:
    """A camera frame, and the dice read on the still tray it shows (none until read)."""

    frame: np.ndarray  # BGR, as the camera gave it
    reading: Reading  # the dice read on this stillness (this frame or an earlier one of it)
    settled: bool  # `reading` was read: the tray lay still for the settle time (or a player
    #                asked), and has not moved since
    count_ok: bool | None  # as many dice as the roll's expected count; None when not given/read
    seen_at: float  # the clock (time.monotonic, or the watch's) when the frame was taken
    read_ms: float  # how long the full read took (0 until read)
    moving: bool = False  # this frame moved against the still tray before it
    fresh: bool = False  # this is the frame the dice were read on, just read


class ReadOnce:
    """One roll's frames in, its dice out: the motion check on every frame, the full reader
    once a stillness. Not thread-safe: `DiceWatcher` calls it under its lock.

        once = ReadOnce(settle_seconds=0.5, expected=6)
        sighting = once.update(frame, now, read)    # read(frame) runs only when due
    """

    def __init__(self, settle_seconds: float = 0.5, expected: int | None = None,
                 params: MotionParams = MOTION) -> None:
        if expected is not None and expected < 0:
            raise ValueError("expected must not be negative")
        self.tray = StillTray(settle_seconds, params)
        self.expected = expected
        self.reads = 0  # full reads done
        self._settled: Sighting | None = None  # the newest read
        self._read_in = -1  # the stillness it was read in

    def look(self, frame: np.ndarray, now: float) -> tuple[Sighting, Stillness]:
        """The motion check of one frame: the frame with the dice read on its stillness (none
        yet: not settled), and whether the dice are due to be read on it."""
        still = self.tray.update(frame, now)
        if self._settled is not None and self._read_in == still.period:
            return replace(self._settled, frame=frame, seen_at=now, fresh=False), still
        return Sighting(frame, NO_DICE, False, None, now, 0.0, still.moving), still

    def settle(self, frame: np.ndarray, seen_at: float, still: Stillness, reading: Reading,
               read_ms: float) -> Sighting | None:
        """The full read of a due frame; None when the tray moved while it was read (it is
        read again once still), unless a player asked for it."""
        if still.period != self.tray.period and not still.forced:
            return None
        count_ok = None if self.expected is None else len(reading.dice) == self.expected
        self._settled = Sighting(frame, reading, True, count_ok, seen_at, read_ms, False, True)
        self._read_in = still.period
        self.reads += 1
        return self._settled

    def failed(self, still: Stillness) -> None:
        """The read of a due frame failed: the next still frame is due again."""
        self.tray.again(still.period)

    def read_now(self) -> None:
        """Read the next frame, still or not (a player holds the picture)."""
        self.tray.force()

    def settled(self) -> Sighting | None:
        """The newest read; None before the first."""
        return self._settled

    def update(self, frame: np.ndarray, now: float,
               read: Callable[[np.ndarray], Reading]) -> Sighting:
        """`look`, and when due the full read, in the caller's thread."""
        sighting, still = self.look(frame, now)
        if not still.due:
            return sighting
        tick = time.perf_counter()
        reading = read(frame)
        read_ms = (time.perf_counter() - tick) * 1000
        return self.settle(frame, now, still, reading, read_ms) or sighting


@dataclass(frozen=True)
class _Job:
    """A frame due to be read, for the reader's thread."""

    once: ReadOnce
    frame: np.ndarray
    seen_at: float
    still: Stillness


_STARTED: weakref.WeakSet[DiceWatcher] = weakref.WeakSet()  # watchers started, for the exit


def finish_all(seconds: float = JOIN_SECONDS) -> None:
    """Stop every watcher still watching and wait (up to `seconds` in all) for the frame each
    is reading: a process that exits while OpenCV works in a thread is aborted ("terminate
    called without an active exception"). The app calls it as it stops."""
    deadline = time.monotonic() + seconds
    for watcher in list(_STARTED):
        watcher.stop(wait=False)
        for thread in watcher.threads_left:
            thread.join(max(0.0, deadline - time.monotonic()))


class DiceWatcher:
    """Watches a camera in a daemon thread and reads its still dice in another; reconnects
    after a loss, survives a failing read."""

    def __init__(self, open_camera: Callable[[], Camera],
                 read: Callable[[], Callable[[np.ndarray], Reading]],
                 settle_seconds: float = 0.5, retry_seconds: float = 2.0, *,
                 max_fps: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 motion: MotionParams = MOTION) -> None:
        """`open_camera` makes a camera (called again to reconnect); `read` makes a read function
        for one camera's frames (e.g. `PipReader().follower`), made afresh for each camera and
        roll, in the reader's thread; `max_fps` paces a camera that never waits (a file)."""
        if retry_seconds < 0:
            raise ValueError("retry_seconds must not be negative")
        if max_fps is not None and max_fps <= 0:
            raise ValueError("max_fps must be positive")
        if settle_seconds < 0:
            raise ValueError("settle_seconds must not be negative")
        self.settle_seconds = settle_seconds
        self.retry_seconds = retry_seconds
        self.max_fps = max_fps
        self.motion = motion
        self.frames = 0
        self._left: list[threading.Thread] = []  # stopped without waiting, maybe still reading
        self._open_camera = open_camera
        self._make_read = read
        self._clock = clock
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)  # a job for the reader, or stopping
        self._stopping = threading.Event()
        self._threads: tuple[threading.Thread, ...] = ()
        self._connected = False
        self._camera_problem: str | None = None
        self._reader_problem: str | None = None
        self._once = ReadOnce(settle_seconds, None, motion)  # anew for each camera and roll
        self._job: _Job | None = None
        self._latest: Sighting | None = None
        self._settled: Sighting | None = None

    def __enter__(self) -> DiceWatcher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def problem(self) -> str | None:
        """Why no dice are read, in words for the player; None while frames come and are
        read."""
        return self._camera_problem or self._reader_problem

    @property
    def connected(self) -> bool:
        """Whether a camera is open."""
        return self._connected

    @property
    def reads(self) -> int:
        """How many times this roll's dice were read in full."""
        with self._lock:
            return self._once.reads

    def start(self) -> None:
        """Start watching in daemon threads; nothing happens when already watching."""
        if self._threads:
            return
        stopping = self._stopping = threading.Event()  # a stopped pair keeps its own
        self.frames = 0
        self._threads = (
            threading.Thread(target=self._run, args=(stopping,), name="dice watcher",
                             daemon=True),
            threading.Thread(target=self._read_loop, args=(stopping,), name="dice reader",
                             daemon=True))
        for thread in self._threads:
            thread.start()
        _STARTED.add(self)

    def stop(self, wait: bool = True) -> None:
        """Stop watching and close the camera (waits up to JOIN_SECONDS for the frame being
        read; `wait=False`: the threads end by themselves when that frame is done, and a
        screen never waits on a camera); safe to repeat."""
        with self._wake:
            self._stopping.set()
            self._job = None
            self._wake.notify_all()
        self._left = [*self._left, *self._threads]
        if wait:
            deadline = time.monotonic() + JOIN_SECONDS
            for thread in self._threads:
                thread.join(max(0.0, deadline - time.monotonic()))
        self._threads = ()

    @property
    def threads_left(self) -> list[threading.Thread]:
        """The threads of this watcher still running (stopped, a frame's read may go on)."""
        self._left = [t for t in self._left if t.is_alive()]
        return [*self._left, *(t for t in self._threads if t.is_alive())]

    def latest(self) -> Sighting | None:
        """The newest frame of this roll, with the dice read on its stillness (if any)."""
        with self._lock:
            return self._latest

    def settled(self) -> Sighting | None:
        """The newest read of this roll (the frame read); None until the dice have settled."""
        with self._lock:
            return self._settled

    def new_roll(self, expected: int | None = None) -> None:
        """A new roll of `expected` dice (None: not known): forget the sightings so far."""
        with self._lock:
            self._once = ReadOnce(self.settle_seconds, expected, self.motion)
            self._job = None
            self._latest = self._settled = None

    def read_now(self) -> None:
        """Read the dice on the next frame, still or not (the player holds the picture)."""
        with self._lock:
            self._once.read_now()

    def _run(self, stopping: threading.Event) -> None:
        """The camera's thread: (re)open the camera, take frames, check them for motion, and
        hand a due frame to the reader's thread, until stopped."""
        camera: Camera | None = None
        try:
            while not stopping.is_set():
                if camera is None:
                    camera = self._connect(stopping)
                    continue
                started = time.monotonic()
                try:
                    frame = camera.read()
                except (CameraError, OSError, cv2.error) as error:
                    self._disconnect(camera, _("camera lost: {error}; retrying").format(
                        error=error), stopping)
                    camera = None
                    continue
                except Exception as error:  # reported like a loss, never a silent end
                    log.error("camera failed", exc_info=True)
                    self._disconnect(camera, _("camera failed ({error}); check the camera "
                                               "setting; retrying").format(
                                                   error=_unexpected(error)), stopping)
                    camera = None
                    continue
                self._look(frame, self._clock(), stopping)
                if self.max_fps:
                    stopping.wait(started + 1 / self.max_fps - time.monotonic())
        except BaseException as error:  # the thread ends: say so on the screen
            log.error("dice watcher stopped", exc_info=True)
            self._camera_problem = _("the camera stopped ({error}); restart the app").format(
                error=_unexpected(error))
            raise
        finally:
            if camera is not None:
                with contextlib.suppress(Exception):
                    camera.close()
            self._connected = False

    def _look(self, frame: np.ndarray, seen_at: float, stopping: threading.Event) -> None:
        """A frame taken: its motion check; the newest sighting; a due frame to the reader."""
        with self._wake:
            if stopping.is_set():
                return
            self.frames += 1
            sighting, still = self._once.look(frame, seen_at)
            self._latest = sighting
            if still.due:
                self._job = _Job(self._once, frame, seen_at, still)
                self._wake.notify_all()
        self._camera_problem = None

    def _read_loop(self, stopping: threading.Event) -> None:
        """The reader's thread: read each due frame in full, and keep what it shows."""
        read: Callable[[np.ndarray], Reading] | None = None
        made_for: ReadOnce | None = None  # the camera and roll `read` was made for
        try:
            while True:
                with self._wake:
                    while self._job is None and not stopping.is_set():
                        self._wake.wait()
                    if stopping.is_set():
                        return
                    job, self._job = self._job, None
                assert job is not None
                try:
                    if read is None or made_for is not job.once:
                        read, made_for = self._make_read(), job.once
                    tick = time.perf_counter()
                    reading = read(job.frame)
                except Exception as error:  # a bug in a reader must not end the watching
                    with self._lock:
                        job.once.failed(job.still)
                    self._trouble(_("dice reader failed: {error}").format(error=error),
                                  exc_info=True)
                    continue
                read_ms = (time.perf_counter() - tick) * 1000
                with self._lock:
                    sighting = job.once.settle(job.frame, job.seen_at, job.still, reading,
                                               read_ms)
                    if sighting is not None and job.once is self._once \
                            and not stopping.is_set():
                        self._latest = self._settled = sighting
                self._reader_problem = None
        except BaseException as error:  # the thread ends: say so on the screen
            log.error("dice reader stopped", exc_info=True)
            self._reader_problem = _("the camera stopped ({error}); restart the app").format(
                error=_unexpected(error))
            raise

    def _connect(self, stopping: threading.Event) -> Camera | None:
        """A newly opened camera; None, after retry_seconds, when it cannot be opened."""
        camera = None
        try:
            camera = self._open_camera()
            camera.open()
        except (CameraError, OSError, cv2.error) as error:
            self._disconnect(camera, _("{error}; retrying").format(error=error), stopping)
            return None
        except Exception as error:  # a bad source, a driver's bug: shown, and tried again
            log.error("camera could not be opened", exc_info=True)
            self._disconnect(camera, _("camera cannot be opened ({error}); check the camera "
                                       "setting; retrying").format(error=_unexpected(error)),
                             stopping)
            return None
        with self._lock:  # pictures before the loss do not count towards settling
            self._once = ReadOnce(self.settle_seconds, self._once.expected, self.motion)
            self._job = None
        self._connected = True
        return camera

    def _disconnect(self, camera: Camera | None, problem: str,
                    stopping: threading.Event) -> None:
        """Close a failed camera, say why, and wait retry_seconds (stop() cuts the wait)."""
        self._connected = False
        if camera is not None:
            with contextlib.suppress(Exception):
                camera.close()
        self._trouble(problem, camera=True)
        stopping.wait(self.retry_seconds)

    def _trouble(self, problem: str, exc_info: bool = False, camera: bool = False) -> None:
        """Set the camera's or the reader's problem; log it when it is new (not once a
        frame)."""
        if problem != self.problem:
            log.warning("%s", problem, exc_info=exc_info)
        if camera:
            self._camera_problem = problem
        else:
            self._reader_problem = problem


def _unexpected(error: BaseException) -> str:
    """An unexpected error in a few words: its kind, and its message when it has one."""
    text = str(error)[:120]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
