"""Settle detection on motion: the dice are read once the tray has stopped moving.

Every camera frame goes through a cheap motion check, a few named steps on a small grey copy
(every number in `MotionParams`, the one place for them):
1. shrink: the frame to `width` pixels across (a frame over 4 x that first taken every few
   pixels), averaging (INTER_AREA), which takes most of the sensor's noise away;
2. grey: one channel;
3. blur: a `blur` x `blur` Gaussian, for the rest of the noise and JPEG's blocks;
4. compare: with the small frame the stillness began with; a pixel moved when it changed by
   more than `pixel_change` (of 255);
5. decide: the picture moved when more than `moved_share` of its pixels did.
Comparing with the frame the stillness began with, not only the last one, also catches a die
that slides a little every frame.

`StillTray.update(frame, t)` says whether the frame moved, how long the tray has been still,
and - once a stillness, when it has lasted `settle_seconds` - that the dice are due to be read
(`Stillness.due`). Motion starts it over: the dice were picked up or rolled again.
`force()` makes the next frame due, still or not (a player holding the picture).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class MotionParams:
    """The motion check's numbers (the steps above)."""

    width: int = 160  # 1. shrink: the small frame's width in pixels (its height in proportion)
    blur: int = 5  # 3. blur: Gaussian kernel side on the small frame (odd)
    pixel_change: int = 10  # 4. compare: a small pixel moved when it changed by more than this
    moved_share: float = 0.001  # 5. decide: motion when more than this share of pixels moved


MOTION = MotionParams()


def small_grey(frame: np.ndarray, params: MotionParams = MOTION) -> np.ndarray:
    """Steps 1-3: the frame as the motion check compares it (small, grey, blurred)."""
    height, width = frame.shape[:2]
    step = max(1, width // (4 * params.width))  # a 12 MP frame: every 6th pixel first
    if step > 1:
        frame = frame[::step, ::step]
        height, width = frame.shape[:2]
    size = (params.width, max(1, round(height * params.width / width)))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (params.blur, params.blur), 0)


def moved(before: np.ndarray, after: np.ndarray, params: MotionParams = MOTION) -> bool:
    """Steps 4-5: whether two small grey frames (`small_grey`) differ by motion."""
    if before.shape != after.shape:
        return True  # the camera changed its size: start over
    changed = cv2.absdiff(before, after) > params.pixel_change
    return int(np.count_nonzero(changed)) > params.moved_share * changed.size


@dataclass(frozen=True)
class Stillness:
    """What the motion check made of one frame."""

    moving: bool  # this frame differs from the still tray before it (or is the first)
    still_for: float  # seconds the tray has looked as it does now
    due: bool  # read the dice on this frame: still for the settle time (or forced), not yet read
    period: int  # counts the stillnesses: a read is of the stillness it was due in
    forced: bool = False  # due because a player asked, not because the tray settled


class StillTray:
    """Frames in, stillness out: when the tray has been still for `settle_seconds`, one frame
    is due to be read; motion after that re-arms it."""

    def __init__(self, settle_seconds: float = 0.5, params: MotionParams = MOTION) -> None:
        if settle_seconds < 0:
            raise ValueError("settle_seconds must not be negative")
        self.settle_seconds = settle_seconds
        self.params = params
        self.period = 0
        self._still: np.ndarray | None = None  # the small frame the stillness began with
        self._since = 0.0
        self._read = False  # this stillness was read
        self._forced = False

    def update(self, frame: np.ndarray, now: float) -> Stillness:
        """Check one frame (taken at `now`, seconds) against the still tray."""
        small = small_grey(frame, self.params)
        moving = self._still is None or moved(self._still, small, self.params)
        if moving:
            self._still, self._since, self._read = small, now, False
            self.period += 1
        still_for = now - self._since
        due = self._forced or (not self._read and still_for >= self.settle_seconds)
        forced = self._forced
        if due:
            self._read, self._forced = True, False
        return Stillness(moving, still_for, due, self.period, forced)

    def force(self) -> None:
        """Make the next frame due, still or not."""
        self._forced = True

    def again(self, period: int) -> None:
        """The read of stillness `period` failed: the next still frame is due again."""
        if period == self.period:
            self._read = False
