"""Settle detection: report a reading only once the dice have stopped moving.

Feed every frame's reading with its time stamp to `Settler.update`. A reading is *settled* when
the same dice (same faces and values, centres within `tolerance` of a die size) have been seen
for `settle_seconds`. With `expected` set, a settled reading whose count differs is reported once
with `count_ok=False` (the app shows it flagged); `best()` gives the best reading seen so far.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.faces import Die, Reading


@dataclass(frozen=True)
class SettledReading:
    """A reading that has been stable for `stable_for` seconds, and whether its count matched."""

    reading: Reading
    stable_for: float
    count_ok: bool | None  # None when no expected count was given
    settled: bool = True


def same_dice(a: tuple[Die, ...], b: tuple[Die, ...], tolerance: float = 0.35) -> bool:
    """Whether two readings show the same dice in (nearly) the same places."""
    if len(a) != len(b):
        return False
    unused = list(b)
    for die in a:
        size = max(die.box[2] - die.box[0], die.box[3] - die.box[1], 1)
        for other in unused:
            if (other.face == die.face and other.value == die.value
                    and math.dist(die.centre, other.centre) <= tolerance * size):
                unused.remove(other)
                break
        else:
            return False
    return True


class Settler:
    """Turns a stream of (reading, time) into settled readings."""

    def __init__(self, settle_seconds: float = 0.5, expected: int | None = None,
                 tolerance: float = 0.35) -> None:
        """`expected`: the number of dice rolled, when known."""
        if settle_seconds < 0:
            raise ValueError("settle_seconds must not be negative")
        if expected is not None and expected < 0:
            raise ValueError("expected must not be negative")
        self.settle_seconds = settle_seconds
        self.expected = expected
        self.tolerance = tolerance
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new roll)."""
        self._current: Reading | None = None
        self._since = 0.0
        self._reported = False
        self._best: SettledReading | None = None

    def update(self, reading: Reading, now: float) -> SettledReading | None:
        """Add one frame's reading; returns a settled reading once per stable period, else None."""
        if self._current is None or not same_dice(self._current.dice, reading.dice,
                                                  self.tolerance):
            self._current, self._since, self._reported = reading, now, False
            return None
        self._current = reading
        stable_for = now - self._since
        count_ok = None if self.expected is None else len(reading.dice) == self.expected
        candidate = SettledReading(reading, stable_for, count_ok,
                                   settled=stable_for >= self.settle_seconds)
        if self._better(candidate):
            self._best = candidate
        if self._reported or stable_for < self.settle_seconds:
            return None
        self._reported = True
        return candidate

    def best(self) -> SettledReading | None:
        """The best reading so far (matching count first, then longest stable); may be unsettled."""
        return self._best

    def _better(self, candidate: SettledReading) -> bool:
        """Whether `candidate` beats the best reading so far."""
        if self._best is None:
            return True

        def key(r: SettledReading) -> tuple[int, float]:
            gap = 0 if self.expected is None else abs(len(r.reading.dice) - self.expected)
            return (-gap, min(r.stable_for, self.settle_seconds))

        return key(candidate) >= key(self._best)
