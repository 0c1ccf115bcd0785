"""Calibration: learn one table's setup from a few labelled photos (or from faces shown in turn).

Pipeline (`Calibrator`):
1. size     - each labelled die's side as a part of its photo's long side (the profile keeps the
               median; the pip reader falls back on it when a frame has no sure die);
2. look     - icon dice: a grey crop of each face, described 4 ways round (`vision.profile`);
               pip dice: the pip network's features of each face, seen as labelled and a little
               shifted and sized (`LOOK_JITTER`), and of everything a search marks away from
               the labelled dice (and a camera's next frame at their size), kept as not a
               die;
3. reads    - pip dice only: the pip network reads every labelled die, and the profile keeps
               the counts; a value whose dice it misreads on this setup is a custom face
               (`Profile.custom`); a die the network reads as a value that one of those
               faces was read as is weighed between the two by these counts and its look
               (`Profile.weigh`), and one it reads as a value it reads right stays that value;
4. face map - from labels that give both value and face, else the given (or standard) map.
Icon dice are found with `vision.icons.find_faces` and labelled by the box they fall in, or,
when teaching, by the face the player was asked to show.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from companion.i18n import _
from vision.dataset import DatasetError, LabelledDie, LabelledImage, load_dataset
from vision.faces import FACES, parse_face_map
from vision.frames import as_bgr, darkness_hint, load_image
from vision.icons import IconParams, find_faces
from vision.limits import MAX_DICE_PER_PHOTO
from vision.pips import PipReader
from vision.profile import COLOUR_SLACK, NOT_A_DIE, Profile, ProfileError, face_colour, four_ways

SMALL_DIE_PX = 20  # dice smaller than this in the frame are read less surely, and more slowly
FEW_SHOWN = 3  # a custom face shown fewer times than this is learned from too few looks

# Each labelled die's look is kept as seen shifted and sized a little (dx, dy as parts of its
# side, size factor), as the detector places and sizes a die a little off.
LOOK_JITTER = ((0, 0, 1.0), (0.08, 0, 1.0), (-0.08, 0, 1.0), (0, 0.08, 1.0), (0, -0.08, 1.0),
               (0, 0, 0.9), (0, 0, 1.12))


class Calibrator:
    """Collects labelled face examples of one setup and turns them into a `Profile`."""

    def __init__(self, kind: str, pip_reader: PipReader | None = None,
                 icon_params: IconParams | None = None) -> None:
        """`kind`: "pips" (uses `pip_reader`, loaded when not given) or "icons"."""
        self.kind = kind
        self.pip_reader = (pip_reader or PipReader()) if kind == "pips" else None
        self.icon_params = icon_params or IconParams()
        self.features: list[np.ndarray] = []
        self.labels: list[str] = []
        self.sizes: list[float] = []
        self.network_reads = np.zeros((7, 7), np.int32)  # (network's read, 0: no die; label)
        self.colours: list[np.ndarray] = []  # pip dice: each face's colour
        self.value_faces: dict[int, str] = {}

    def add_labelled(self, frame: np.ndarray, dice: Sequence[LabelledDie]) -> int:
        """Learn the labelled dice of one photo; returns how many were learned."""
        frame = as_bgr(frame)
        if len(dice) > MAX_DICE_PER_PHOTO:
            raise ProfileError(_("{count} dice labelled on one photo, more than the {most} a "
                                 "photo may have; label fewer").format(
                                     count=len(dice), most=MAX_DICE_PER_PHOTO))
        if self.kind == "icons":
            found = [(crop, box, _label_at(box, dice)) for crop, box in
                     find_faces(frame, self.icon_params)]
            return self._add_found(frame, [(c, b, f) for c, b, f in found if f])
        centres = [((x0 + x1) / 2, (y0 + y1) / 2, float(np.sqrt((x1 - x0) * (y1 - y0))), 0.0)
                   for x0, y0, x1, y1 in (d.box for d in dice)]
        if any(die.value is None for die in dice):
            raise ProfileError(_("pip dice need a value in every label"))
        probs, looks = self.pip_reader.classify(frame, [
            (cx + dx * side, cy + dy * side, side * ds) for cx, cy, side, _spread in centres
            for dx, dy, ds in LOOK_JITTER]) if dice else ([], [])
        turns = len(LOOK_JITTER)
        for k, (die, (cx, cy, side, _spread)) in enumerate(zip(dice, centres)):
            prob = probs[k * turns]
            self.features.append(looks[k * turns:(k + 1) * turns])
            self.labels.append(str(die.value))
            self.sizes.append(side / max(frame.shape[:2]))
            self.colours.append(face_colour(frame, cx, cy, side))
            self.network_reads[int(np.argmax(prob)), die.value] += 1
            if die.face:
                self.value_faces[die.value] = die.face
        sides = [side for _, _, side, _ in centres]
        # what a search, and a camera's next frame, mark away from the dice
        for c in self.pip_reader.candidates(frame, statistics.median(sides) if sides else None):
            if not any(x0 <= c.x <= x1 and y0 <= c.y <= y1 for x0, y0, x1, y1 in
                       (d.box for d in dice)):
                # one look, repeated so that every example has as many as a die
                self.features.append(np.repeat(c.look[None], len(LOOK_JITTER), axis=0))
                self.labels.append(NOT_A_DIE)
        return len(dice)

    def add_shown(self, frame: np.ndarray, face: str) -> int:
        """Learn every die found in the frame as showing `face` (teaching icon dice)."""
        if face not in FACES:
            raise ValueError(f"unknown face {face!r}; expected one of {list(FACES)}")
        frame = as_bgr(frame)
        found = [(crop, box, face) for crop, box in find_faces(frame, self.icon_params)]
        if not found:
            hint = darkness_hint(frame)
            raise ProfileError((_("no die found while teaching {face} ({hint})") if hint else
                                _("no die found while teaching {face}")).format(face=face,
                                                                                hint=hint))
        return self._add_found(frame, found)

    def counts(self) -> dict[str, int]:
        """Examples learned so far per label."""
        return {label: self.labels.count(label) for label in sorted(set(self.labels))}

    def profile(self, face_map: str | Mapping[int, str] | None = None) -> Profile:
        """The learned profile (ProfileError when nothing was learned)."""
        if not self.labels:
            raise ProfileError(_("no die was learned: check the photos and their labels"))
        if face_map is None and sorted(self.value_faces) == [1, 2, 3, 4, 5, 6]:
            face_map = self.value_faces
        colours = np.array(self.colours, np.float32).reshape(-1, 3)
        return Profile(self.kind, statistics.median(self.sizes),
                       np.array(self.features, np.float32), list(self.labels),
                       parse_face_map(face_map), colours, _colour_reach(colours),
                       self.network_reads.copy())

    def _add(self, crop: np.ndarray, label: str, size: float) -> None:
        """One example, 4 ways round."""
        self.features.append(np.stack(four_ways(crop)))
        self.labels.append(label)
        self.sizes.append(size)

    def _add_found(self, frame: np.ndarray, found: list) -> int:
        """Icon faces found in a frame, each with its label."""
        for crop, (x0, y0, x1, y1), label in found:
            self._add(crop, label, float(np.sqrt((x1 - x0) * (y1 - y0))) / max(frame.shape[:2]))
        return len(found)


def advice(profile: Profile, width: int, height: int) -> list[str]:
    """What would make a table's calibration (from width x height photos) read better, for the
    player: dice too small in the frame, pip values no photo showed, custom faces shown too
    few times."""
    tips = []
    die = profile.die_px((height, width))
    if die < SMALL_DIE_PX:
        tips.append(_("the dice are about {size} px across; under {least} px they are read less "
                      "surely and more slowly: bring the camera closer or raise its resolution, "
                      "then calibrate again").format(size=f"{die:.0f}", least=SMALL_DIE_PX))
    if profile.kind == "pips":
        counts = profile.counts()
        unseen = [str(v) for v in range(1, 7) if str(v) not in counts]
        if unseen:
            tips.append(_("no photo showed a {values} on top: add photos that do (a face unlike "
                          "pips is read only once it has been shown)").format(
                              values=_(" or a ").join(unseen)))
        few = [f"{v} ({counts[str(v)]} x)" for v in profile.custom
               if counts.get(str(v), 0) < FEW_SHOWN]
        if few:
            tips.append(_("custom faces shown fewer than {times} times: {faces}; add photos that "
                          "show them").format(times=FEW_SHOWN, faces=", ".join(few)))
    return tips


def _colour_reach(colours: np.ndarray) -> float:
    """How far from the nearest example a die's colour may be: the farthest any example is from
    its nearest other one, with slack for the light (0: too few examples to tell)."""
    if len(colours) < 4:
        return 0.0
    dist = np.linalg.norm(colours[:, None] - colours[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    times, plus = COLOUR_SLACK
    return float(dist.min(axis=1).max() * times + plus)


def _label_at(box: tuple[int, int, int, int], dice: Sequence[LabelledDie]) -> str | None:
    """The face of the labelled die whose box holds the centre of `box`, if any."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for die in dice:
        x0, y0, x1, y1 = die.box
        if x0 <= cx <= x1 and y0 <= cy <= y1:
            return die.face
    return None


def calibrate(items: Sequence[LabelledImage], face_map: str | Mapping[int, str] | None = None,
              pip_reader: PipReader | None = None) -> Profile:
    """A profile from labelled photos: icon dice when no label gives a value, else pip dice."""
    dice = [d for item in items for d in item.dice]
    kind = "pips" if dice and all(d.value is not None for d in dice) else "icons"
    calibrator = Calibrator(kind, pip_reader)
    for item in items:
        calibrator.add_labelled(load_image(item.path), item.dice)
    return calibrator.profile(face_map)


def calibrate_kept(folder: str | Path, kind: str = "pips", pip_reader: PipReader | None = None
                   ) -> tuple[Profile, int, int]:
    """A profile from the readings kept at the table (`vision.dataset.add_photo`), with how
    many photos were used and left out; ProfileError when none can be used. Pip dice learn from
    the photos whose every die has its pip value (a die whose face a player changed has none);
    icon dice from every photo (each die has its face), and need every face shown."""
    try:
        items = load_dataset(folder)
    except DatasetError as error:
        raise ProfileError(_("no readings kept yet ({error})").format(error=error)) from None
    if kind == "icons":
        usable = [item for item in items if item.dice]
        missing = [face for face in FACES if not any(d.face == face for item in usable
                                                      for d in item.dice)]
        if missing:
            raise ProfileError(_("no die kept showing {faces} yet").format(
                faces=", ".join(missing)))
        return calibrate(usable), len(usable), len(items) - len(usable)  # no values: icons
    usable = [item for item in items if item.dice and all(d.value is not None
                                                           for d in item.dice)]
    if not usable:
        raise ProfileError(_("none of the {count} readings kept gives every die's value").format(
            count=len(items)))
    return calibrate(usable, pip_reader=pip_reader), len(usable), len(items) - len(usable)
