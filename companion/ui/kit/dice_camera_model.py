"""What the camera view of the expedition dice shows (plain Python, tested without Kivy): the
dice the camera read, corrected by taps, as the flow's dice reading, and the line and button
beside the picture.

    seen = CameraDice.from_reading(reading, faces=("food", "water", "metal", "human"))
    seen.tap(x, y)           # on a die: its next face (after the last: not a die); else a die
    flow.read(seen)          # a DiceReading: faces, certainty
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from companion.i18n import _
from companion.ui.kit.wording import word

UNSURE = 0.9  # a die read with less certainty than this is marked for the player to check


class RolledDice(Protocol):
    """The dice being entered, as the camera view needs them: how many were rolled (None: not
    known) and the faces a tap cycles through."""

    dice: int | None
    faces: list[str]


@dataclass(frozen=True)
class SeenDie:
    """One die on the picture: its face, its box in frame pixels, how sure the reading is
    (1.0 once a player set it), and its pip value as read."""

    face: str
    box: tuple[int, int, int, int]
    certainty: float
    value: int | None = None  # the pip value read (None: icon dice, or set by a player)

    @property
    def unsure(self) -> bool:
        """Read with too little certainty: marked for the player to check."""
        return self.certainty < UNSURE

    def holds(self, x: float, y: float) -> bool:
        """Whether a point of the frame is on this die."""
        x0, y0, x1, y1 = self.box
        return x0 <= x <= x1 and y0 <= y <= y1


class CameraDice:
    """The dice of one camera frame as read, then as corrected by taps: the flow's dice
    reading (faces and certainty, in reading order)."""

    def __init__(self, dice: Sequence[SeenDie], faces: Sequence[str],
                 face_map: Mapping[int, str] | None = None) -> None:
        """`faces`: the faces a die can show, in the order a tap cycles them; with a
        `face_map` (calibrating pip dice) a tap cycles the pip values 1..6 instead."""
        self.dice = list(dice)
        self.choices: list[tuple[int | None, str]] = (
            [(value, face_map[value]) for value in sorted(face_map)] if face_map
            else [(None, face) for face in faces])
        self.by_value = bool(face_map)

    @classmethod
    def from_reading(cls, reading: object, faces: Sequence[str],
                     face_map: Mapping[int, str] | None = None) -> CameraDice:
        """From a `vision.faces.Reading`: each die's face, value, box and confidence."""
        return cls([SeenDie(d.face, tuple(d.box), d.confidence, d.value)
                    for d in getattr(reading, "dice", ())], faces, face_map)

    @property
    def faces(self) -> list[str]:
        return [die.face for die in self.dice]

    @property
    def certainty(self) -> list[float]:
        return [die.certainty for die in self.dice]

    @property
    def unsure(self) -> int:
        """How many dice are marked for the player to check."""
        return sum(die.unsure for die in self.dice)

    def tap(self, x: float, y: float) -> str:
        """A tap at (x, y) in frame pixels: on a die, it shows the next face (or value; after
        the last, it is taken away: not a die); elsewhere a die is added there, showing the
        first, the size of the others. Returns what changed, in words."""
        for index, die in enumerate(self.dice):
            if die.holds(x, y):
                key = (die.value if self.by_value else None, die.face)
                at = self.choices.index(key) if key in self.choices else -1
                if at + 1 >= len(self.choices):
                    del self.dice[index]
                    return _("die {number} taken away (not a die)").format(number=index + 1)
                value, face = self.choices[at + 1]
                self.dice[index] = replace(die, face=face, value=value, certainty=1.0)
                return _("die {number}: {face}").format(number=index + 1,
                                                        face=_shown(value, face))
        side = self.die_side()
        box = (round(x - side / 2), round(y - side / 2), round(x + side / 2), round(y + side / 2))
        value, face = self.choices[0]
        self.dice.append(SeenDie(face, box, 1.0, value))
        return _("die {number} added: {face}").format(number=len(self.dice),
                                                      face=_shown(value, face))

    def die_side(self) -> float:
        """The dice's median side in pixels (a die added by tap is drawn so), 40 with none."""
        sides = sorted(math.sqrt((d.box[2] - d.box[0]) * (d.box[3] - d.box[1]))
                       for d in self.dice)
        return sides[len(sides) // 2] if sides else 40.0


def _shown(value: int | None, face: str) -> str:
    """A die's face as a label shows it: "3 water", or "food" with no pip value."""
    return word(face) if value is None else f"{value} {word(face)}"


def camera_line(rolled: int | None, seen: CameraDice | None, taken: bool,
                problem: str | None, shown: bool = False) -> str:
    """The line under the picture: what the camera sees against the dice rolled (None: not
    known, a preview), what is marked, and what to do; `seen` None: no dice read yet, on the
    picture `shown` (read once the dice lie still, or when the picture is `taken`)."""
    if problem:
        return _("Camera: {problem}. Tap the faces in instead.").format(problem=problem)
    if seen is None and taken:
        return _("Camera: reading the dice…")
    if seen is None and shown:
        return _("Camera: the dice are read once they lie still, or tap the picture.")
    if seen is None:
        return _("Camera: waiting for a picture…")
    unsure = (_(", {count} to check (yellow)").format(count=seen.unsure) if seen.unsure
              else "")
    if rolled is None:
        return _("Camera sees {count} dice{unsure}.").format(count=len(seen.dice),
                                                             unsure=unsure)
    count = _("{seen} of the {rolled} dice").format(seen=len(seen.dice), rolled=rolled)
    if taken:
        return _("Read: {count}{unsure}. Tap a die to change it, or a missed one to add "
                 "it.").format(count=count, unsure=unsure)
    return _("Camera sees {count}{unsure}: hold still, or tap the picture.").format(
        count=count, unsure=unsure)


