"""A camera watched off the main thread: the newest dice sighting and the settled one.

The app's expedition screen must stay responsive while a frame is read (a tenth of a second or
more on a Pi), and a USB camera can be unplugged mid-game. `DiceWatcher` runs the loop of
`phoenix-dice watch` in a daemon thread: open the camera (again after a loss), read a frame, read
the dice, settle them. The screen asks for `latest()` and `settled()` when it draws; `problem`
says in words why no frames come.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.i18n import _
from vision.camera import Camera, CameraError
from vision.faces import Reading
from vision.settle import Settler, same_dice

log = logging.getLogger(__name__)

JOIN_SECONDS = 5.0  # how long stop() waits for the frame being read


@dataclass(frozen=True)
class Sighting:
    """What the camera last saw, and what the dice reader made of it."""

    frame: np.ndarray  # BGR, as the camera gave it
    reading: Reading
    settled: bool  # the Settler reported these dice: the same for settle_seconds, and still are
    count_ok: bool | None  # as many dice as the roll's expected count; None when not given
    seen_at: float  # the watcher's clock (time.monotonic) when the frame was read
    read_ms: float  # how long reading the dice took


class DiceWatcher:
    """Watches a camera in a daemon thread; reconnects after a loss, survives a failing read."""

    def __init__(self, open_camera: Callable[[], Camera],
                 read: Callable[[], Callable[[np.ndarray], Reading]],
                 settle_seconds: float = 0.5, retry_seconds: float = 2.0, *,
                 max_fps: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`open_camera` makes a camera (called again to reconnect); `read` makes a read function
        for one camera's frames (e.g. `PipReader().follower`), made afresh for each camera and
        roll; `max_fps` paces a camera that never waits (a file)."""
        if retry_seconds < 0:
            raise ValueError("retry_seconds must not be negative")
        if max_fps is not None and max_fps <= 0:
            raise ValueError("max_fps must be positive")
        self.settle_seconds = settle_seconds
        self.retry_seconds = retry_seconds
        self.max_fps = max_fps
        self.frames = 0
        self._open_camera = open_camera
        self._make_read = read
        self._clock = clock
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._connected = False
        self._problem: str | None = None
        self._settler = Settler(settle_seconds)
        self._roll = 0  # counts new_roll calls: a frame read before one is dropped
        self._latest: Sighting | None = None
        self._settled: Sighting | None = None

    def __enter__(self) -> DiceWatcher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def problem(self) -> str | None:
        """Why no dice are read, in words for the player; None while frames come."""
        return self._problem

    @property
    def connected(self) -> bool:
        """Whether a camera is open."""
        return self._connected

    def start(self) -> None:
        """Start watching in a daemon thread; nothing happens when already watching."""
        if self._thread is not None:
            return
        self._stopping.clear()
        self.frames = 0
        self._thread = threading.Thread(target=self._run, name="dice watcher", daemon=True)
        self._thread.start()

    def stop(self, wait: bool = True) -> None:
        """Stop watching and close the camera (waits up to JOIN_SECONDS for the frame being
        read; `wait=False`: the thread closes it when that frame is done, and a screen never
        waits on a camera); safe to repeat."""
        self._stopping.set()
        if self._thread is not None and wait:
            self._thread.join(JOIN_SECONDS)
        self._thread = None

    def latest(self) -> Sighting | None:
        """The newest sighting of this roll, settled or not."""
        with self._lock:
            return self._latest

    def settled(self) -> Sighting | None:
        """The newest settled sighting of this roll; None until the dice have settled."""
        with self._lock:
            return self._settled

    def new_roll(self, expected: int | None = None) -> None:
        """A new roll of `expected` dice (None: not known): forget the sightings so far."""
        settler = Settler(self.settle_seconds, expected)
        with self._lock:
            self._settler = settler
            self._roll += 1
            self._latest = self._settled = None

    def _run(self) -> None:
        """The watcher's thread: (re)open the camera and read frames until stopped."""
        camera: Camera | None = None
        read: Callable[[np.ndarray], Reading] | None = None
        roll = -1
        try:
            while not self._stopping.is_set():
                if camera is None:
                    camera, read = self._connect(), None
                    continue
                started = time.monotonic()
                with self._lock:
                    if roll != self._roll:
                        read, roll = None, self._roll
                try:
                    frame = camera.read()
                except (CameraError, OSError, cv2.error) as error:
                    self._disconnect(camera, _("camera lost: {error}; retrying").format(
                        error=error))
                    camera = None
                    continue
                except Exception as error:  # reported like a loss, never a silent end
                    log.error("camera failed", exc_info=True)
                    self._disconnect(camera, _("camera failed ({error}); check the camera "
                                               "setting; retrying").format(
                                                   error=_unexpected(error)))
                    camera = None
                    continue
                seen_at = self._clock()
                self.frames += 1
                try:
                    read = read or self._make_read()
                    tick = time.perf_counter()
                    reading = read(frame)
                except Exception as error:  # a bug in a reader must not end the watching
                    self._trouble(_("dice reader failed: {error}").format(error=error),
                                  exc_info=True)
                else:
                    read_ms = (time.perf_counter() - tick) * 1000
                    self._see(frame, reading, seen_at, read_ms, roll)
                if self.max_fps:
                    self._stopping.wait(started + 1 / self.max_fps - time.monotonic())
        except BaseException as error:  # the thread ends: say so on the screen
            log.error("dice watcher stopped", exc_info=True)
            self._problem = _("the camera stopped ({error}); restart the app").format(
                error=_unexpected(error))
            raise
        finally:
            if camera is not None:
                with contextlib.suppress(Exception):
                    camera.close()
            self._connected = False

    def _connect(self) -> Camera | None:
        """A newly opened camera; None, after retry_seconds, when it cannot be opened."""
        camera = None
        try:
            camera = self._open_camera()
            camera.open()
        except (CameraError, OSError, cv2.error) as error:
            self._disconnect(camera, _("{error}; retrying").format(error=error))
            return None
        except Exception as error:  # a bad source, a driver's bug: shown, and tried again
            log.error("camera could not be opened", exc_info=True)
            self._disconnect(camera, _("camera cannot be opened ({error}); check the camera "
                                       "setting; retrying").format(error=_unexpected(error)))
            return None
        with self._lock:  # pictures before the loss do not count towards settling
            self._settler = Settler(self.settle_seconds, self._settler.expected)
        self._connected = True
        return camera

    def _disconnect(self, camera: Camera | None, problem: str) -> None:
        """Close a failed camera, say why, and wait retry_seconds (stop() cuts the wait)."""
        self._connected = False
        if camera is not None:
            with contextlib.suppress(Exception):
                camera.close()
        self._trouble(problem)
        self._stopping.wait(self.retry_seconds)

    def _trouble(self, problem: str, exc_info: bool = False) -> None:
        """Set the problem; log it when it is new (not once a frame)."""
        if problem != self._problem:
            log.warning("%s", problem, exc_info=exc_info)
        self._problem = problem

    def _see(self, frame: np.ndarray, reading: Reading, seen_at: float, read_ms: float,
             roll: int) -> None:
        """Settle a frame's reading and keep it as the newest sighting (unless a new roll came
        while it was read)."""
        with self._lock:
            if roll != self._roll:
                return
            previous = self._latest
            settled = self._settler.update(reading, seen_at) is not None or (
                previous is not None and previous.settled
                and same_dice(previous.reading.dice, reading.dice, self._settler.tolerance))
            expected = self._settler.expected
            count_ok = None if expected is None else len(reading.dice) == expected
            sighting = Sighting(frame, reading, settled, count_ok, seen_at, read_ms)
            self._latest = sighting
            if settled:
                self._settled = sighting
        self._problem = None


def _unexpected(error: BaseException) -> str:
    """An unexpected error in a few words: its kind, and its message when it has one."""
    text = str(error)[:120]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
