"""Bench: accuracy and single-thread speed of a reader against a labelled folder."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dataset import LabelledImage
from vision.faces import Die, Reading
from vision.frames import load_image

WRONG_FLAGGED_TARGET = 0.9  # a die read wrong should be marked uncertain 9 times in 10 (issue 29)
Stream = Callable[[], Callable[[np.ndarray], Reading]]  # makes a reader of one camera's frames


@dataclass(frozen=True)
class ImageScore:
    """How one image was read: labelled, predicted, found, correct and the reading time."""

    labelled: int
    predicted: int
    found: int
    correct: int
    millis: float
    wrong_flagged: int = 0  # found dice read wrong and marked uncertain
    right_flagged: int = 0  # found dice read right but marked uncertain
    extra_flagged: int = 0  # dice read where no die is labelled, marked uncertain
    next_millis: float | None = None  # the same camera's next frame, the die size known
    next_correct: int = 0  # labelled dice that next frame read with the right value
    next_predicted: int = 0  # dice that next frame read
    next_found: int = 0  # of them, on a labelled die

    @property
    def exact(self) -> bool:
        """Every labelled die found with the right value and nothing extra."""
        return self.correct == self.labelled == self.predicted

    @property
    def next_exact(self) -> bool:
        """The same for the camera's next frame."""
        return self.next_correct == self.labelled == self.next_predicted


@dataclass(frozen=True)
class BenchResult:
    """Totals over a folder, with the metrics the issue asks for."""

    images: int
    labelled: int
    predicted: int
    found: int
    correct: int
    exact: int
    median_ms: float
    p90_ms: float
    wrong_flagged: int = 0
    right_flagged: int = 0
    extra_flagged: int = 0
    next_median_ms: float | None = None
    next_correct: int = 0
    next_predicted: int = 0
    next_found: int = 0
    next_exact: int = 0

    @property
    def recall(self) -> float:
        """Labelled dice found / labelled dice."""
        return _share(self.found, self.labelled)

    @property
    def precision(self) -> float:
        """Predicted dice that are on a labelled die / predicted dice."""
        return _share(self.found, self.predicted)

    @property
    def die_accuracy(self) -> float:
        """Labelled dice found with the correct value / labelled dice."""
        return _share(self.correct, self.labelled)

    @property
    def wrong_flagged_rate(self) -> float:
        """Found dice read wrong that were marked uncertain / found dice read wrong."""
        return _share(self.wrong_flagged, self.found - self.correct)

    @property
    def right_flagged_rate(self) -> float:
        """Found dice read right but marked uncertain / found dice read right: the cost of the
        flags (the player confirms a die that was right)."""
        return self.right_flagged / self.correct if self.correct else 0.0

    @property
    def extra_flagged_rate(self) -> float:
        """Dice read where no die is labelled that were marked uncertain / such dice."""
        return _share(self.extra_flagged, self.predicted - self.found)

    @property
    def exact_rate(self) -> float:
        """Images read exactly right / images."""
        return _share(self.exact, self.images)

    @property
    def next_die_accuracy(self) -> float:
        """The camera's next frame: labelled dice read right / labelled dice."""
        return _share(self.next_correct, self.labelled)

    @property
    def next_precision(self) -> float:
        """The camera's next frame: its dice on a labelled die / its dice."""
        return _share(self.next_found, self.next_predicted)

    @property
    def next_exact_rate(self) -> float:
        """The camera's next frame: images read exactly right / images."""
        return _share(self.next_exact, self.images)

    def to_json(self) -> dict[str, float | int]:
        """The bench figures as a flat JSON object."""
        return {
            "images": self.images, "labelled": self.labelled, "predicted": self.predicted,
            "recall": round(self.recall, 4), "precision": round(self.precision, 4),
            "die_accuracy": round(self.die_accuracy, 4), "exact_rate": round(self.exact_rate, 4),
            "median_ms": round(self.median_ms, 2), "p90_ms": round(self.p90_ms, 2),
            "wrong_flagged": round(self.wrong_flagged_rate, 4),
            "wrong_flagged_target": WRONG_FLAGGED_TARGET,
            "right_flagged": self.right_flagged,
            "right_flagged_share": round(self.right_flagged_rate, 4),
            "extra_flagged": round(self.extra_flagged_rate, 4),
            "next_frame_median_ms": None if self.next_median_ms is None
            else round(self.next_median_ms, 2),
            **{f"next_frame_{name}": None if self.next_median_ms is None else round(rate, 4)
               for name, rate in (("die_accuracy", self.next_die_accuracy),
                                  ("precision", self.next_precision),
                                  ("exact_rate", self.next_exact_rate))},
        }  # fmt: skip

    def text(self) -> str:
        """The bench figures as human-readable lines."""
        missed = "" if self.wrong_flagged_rate >= WRONG_FLAGGED_TARGET else ", not met"
        return "\n".join([
            f"images          {self.images}",
            f"labelled dice   {self.labelled}",
            f"predicted dice  {self.predicted}",
            f"recall          {self.recall:.2%}  ({self.found}/{self.labelled})",
            f"precision       {self.precision:.2%}  ({self.found}/{self.predicted})",
            f"die accuracy    {self.die_accuracy:.2%}  ({self.correct}/{self.labelled})",
            f"exact images    {self.exact_rate:.2%}  ({self.exact}/{self.images})",
            f"wrong, flagged  {self.wrong_flagged_rate:.2%}  ({self.wrong_flagged}/"
            f"{self.found - self.correct} read wrong marked uncertain; target "
            f"{WRONG_FLAGGED_TARGET:.0%}{missed})",
            f"extra, flagged  {self.extra_flagged_rate:.2%}  ({self.extra_flagged}/"
            f"{self.predicted - self.found} read where no die is marked uncertain)",
            f"right, flagged  {self.right_flagged_rate:.2%}  ({self.right_flagged}/"
            f"{self.correct} read right marked uncertain too: the cost)",
            f"ms per image    median {self.median_ms:.1f}  p90 {self.p90_ms:.1f}  (1 thread)",
            *([f"ms next frame   median {self.next_median_ms:.1f}  (the same camera's next "
               "frame, its die size known)",
               f"next frame      die accuracy {self.next_die_accuracy:.2%}  ({self.next_correct}/"
               f"{self.labelled}), precision {self.next_precision:.2%}  ({self.next_found}/"
               f"{self.next_predicted}), exact images {self.next_exact_rate:.2%}"]
              if self.next_median_ms is not None else []),
        ])  # fmt: skip


def _share(part: int, whole: int) -> float:
    """part / whole, and 1.0 where there is nothing to count (no dice, no images)."""
    return part / whole if whole else 1.0


def match(labelled: Iterable[tuple[int | str, tuple[float, float, float, float]]],
          dice: Iterable[Die]) -> tuple[int, int]:
    """(found, correct): each die, most confident first, claims the nearest unclaimed labelled
    die whose box contains its box centre; correct when the labelled value (or, for a die
    labelled only with a face, the face) agrees."""
    return _found_and_correct(claims(labelled, dice))


def _found_and_correct(outcomes: list[tuple[Die, bool | None]]) -> tuple[int, int]:
    """(found, correct) of `claims`' outcomes."""
    on_labels = [right for _die, right in outcomes if right is not None]
    return len(on_labels), sum(on_labels)


def claims(labelled: Iterable[tuple[int | str, tuple[float, float, float, float]]],
           dice: Iterable[Die]) -> list[tuple[Die, bool | None]]:
    """Each die, most confident first, with what `match` made of it: True read right, False
    read wrong (on a labelled die either way), None on no labelled die (extra)."""
    labels = list(labelled)
    claimed = [False] * len(labels)
    outcomes: list[tuple[Die, bool | None]] = []
    for die in sorted(dice, key=lambda d: -d.confidence):
        cx, cy = die.centre
        best, best_d = -1, float("inf")
        for k, (_value, (x0, y0, x1, y1)) in enumerate(labels):
            if claimed[k] or not (x0 <= cx <= x1 and y0 <= cy <= y1):
                continue
            d = (cx - (x0 + x1) / 2) ** 2 + (cy - (y0 + y1) / 2) ** 2
            if d < best_d:
                best, best_d = k, d
        if best < 0:
            outcomes.append((die, None))
            continue
        claimed[best] = True
        outcomes.append((die, labels[best][0] in (die.value, die.face)))
    return outcomes


def demanded(item: LabelledImage, dice: Iterable[Die]
             ) -> tuple[list[tuple[int | str, tuple[float, float, float, float]]], list[Die]]:
    """The labels a reading is scored against (all but the `hard` ones) and the dice it is
    scored by: a die on a hard label (its box centre inside it, nearest that label's centre,
    one die a label, surest first) is neither demanded nor extra, unless it is on a demanded
    label too."""
    labels = [(d.key, d.box) for d in item.dice if not d.hard]
    hard = [(d.key, d.box) for d in item.dice if d.hard]
    dice = sorted(dice, key=lambda d: -d.confidence)
    if not hard:
        return labels, dice
    claimed = [False] * len(hard)
    kept = []
    for die in dice:
        cx, cy = die.centre
        on_hard = [k for k, (_key, (x0, y0, x1, y1)) in enumerate(hard)
                   if not claimed[k] and x0 <= cx <= x1 and y0 <= cy <= y1]
        on_label = any(x0 <= cx <= x1 and y0 <= cy <= y1 for _key, (x0, y0, x1, y1) in labels)
        if on_hard and not on_label:
            claimed[min(on_hard, key=lambda k: _distance(die, hard[k][1]))] = True
        else:
            kept.append(die)
    return labels, kept


def _distance(die: Die, box: tuple[float, float, float, float]) -> float:
    """Squared distance from a die's centre to a box's centre."""
    cx, cy = die.centre
    return (cx - (box[0] + box[2]) / 2) ** 2 + (cy - (box[1] + box[3]) / 2) ** 2


def score_image(item: LabelledImage, read: Callable[[np.ndarray], Reading],
                stream: Stream | None = None) -> ImageScore:
    """Read one labelled image (decoding not timed) and score the reading; with `stream`, also
    time the image read again as a camera's next frame (by a follower that saw it once)."""
    frame = load_image(item.path)
    start = time.perf_counter()
    reading = read(frame)
    millis = (time.perf_counter() - start) * 1000
    next_millis, next_correct, next_predicted, next_found = None, 0, 0, 0
    if stream:
        follow = stream()
        follow(frame)
        start = time.perf_counter()
        following = follow(frame)
        next_millis = (time.perf_counter() - start) * 1000
        labels, next_dice = demanded(item, following.dice)
        next_found, next_correct = match(labels, next_dice)
        next_predicted = len(next_dice)
    labels, dice = demanded(item, reading.dice)
    outcomes = claims(labels, dice)
    found, correct = _found_and_correct(outcomes)
    flagged = [right for die, right in outcomes if die.uncertain]
    return ImageScore(len(labels), len(dice), found, correct, millis,
                      flagged.count(False), flagged.count(True), flagged.count(None),
                      next_millis, next_correct, next_predicted, next_found)


def bench(items: list[LabelledImage], read: Callable[[np.ndarray], Reading],
          stream: Stream | None = None) -> BenchResult:
    """Score every image on one OpenCV thread (after one untimed warm-up read); `stream` makes
    a reader of one camera's frames, to time a next frame too."""
    cv2.setNumThreads(1)
    if items:
        read(load_image(items[0].path))
    scores = [score_image(item, read, stream) for item in items]
    times = sorted(s.millis for s in scores) or [0.0]
    following = [s.next_millis for s in scores if s.next_millis is not None]
    p90 = times[min(len(times) - 1, math.ceil(0.9 * len(times)) - 1)]
    return BenchResult(
        images=len(scores),
        labelled=sum(s.labelled for s in scores),
        predicted=sum(s.predicted for s in scores),
        found=sum(s.found for s in scores),
        correct=sum(s.correct for s in scores),
        exact=sum(s.exact for s in scores),
        median_ms=statistics.median(times),
        p90_ms=p90,
        wrong_flagged=sum(s.wrong_flagged for s in scores),
        right_flagged=sum(s.right_flagged for s in scores),
        extra_flagged=sum(s.extra_flagged for s in scores),
        next_median_ms=statistics.median(following) if following else None,
        next_correct=sum(s.next_correct for s in scores),
        next_predicted=sum(s.next_predicted for s in scores),
        next_found=sum(s.next_found for s in scores),
        next_exact=sum(s.next_exact for s in scores if s.next_millis is not None),
    )
