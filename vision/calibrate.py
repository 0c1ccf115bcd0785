"""Calibration: learn one table's setup from a few labelled photos (or from faces shown in turn).

Pipeline (`Calibrator`):
0. snap     - pip dice: each label is matched to the plain reader's own detection of its die
               (`snap`: the detection centred in its box), whose box stands for the label's
               from here on (a label may enclose only the pips); a label with no detection
               keeps its box and sets no die size;
1. size     - each snapped die's side as a part of its photo's long side (the profile keeps the
               median; the pip reader falls back on it when a frame has no sure die);
2. look     - icon dice: a grey crop of each face, described 4 ways round (`vision.profile`);
               pip dice: the pip network's features of each face, seen as labelled and a little
               shifted and sized (`LOOK_JITTER`), and of everything a search marks away from
               the labelled dice (and a camera's next frame at their size), kept as not a
               die - never a mark on a labelled die;
3. reads    - pip dice only: the pip network reads every labelled die, and the profile keeps
               the counts per kind of die (`die_kinds`: by body colour); a value whose dice of
               a kind it misreads on this setup is a custom face of that kind
               (`Profile.custom_of`); a die the network reads as a value that one of those
               faces was read as is weighed between the two by these counts and its look
               (`Profile.weigh`), and one it reads as a value it reads right stays that value;
4. face map - from labels that give both value and face, else the given (or standard) map;
5. check    - pip dice: each photo read by a calibration from the others against the plain
               reader; a calibration with more dice missed, read wrong or extra is refused
               (`CalibrationRefused`, `Calibrator.refuse_if_worse`).
Icon dice are found with `vision.icons.find_faces` and labelled by the box they fall in, or,
when teaching, by the face the player was asked to show.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.i18n import _
from vision.bench import match
from vision.dataset import DatasetError, LabelledDie, LabelledImage, box_side, load_dataset
from vision.faces import FACES, Die, Reading, parse_face_map
from vision.frames import as_bgr, darkness_hint, load_image
from vision.icons import IconParams, find_faces
from vision.limits import MAX_DICE_PER_PHOTO
from vision.pips import PipReader
from vision.profile import (
    COLOUR_SLACK,
    NOT_A_DIE,
    Profile,
    ProfileError,
    body_colour,
    die_kinds,
    face_colour,
    four_ways,
    frame_colour,
)

SMALL_DIE_PX = 20  # dice smaller than this in the frame are read less surely, and more slowly
FEW_SHOWN = 3  # a custom face shown fewer times than this is learned from too few looks
CHECK_AT_MOST = 40  # the check reads at most this many of the photos (a Pi reads 40 in ~10 s)
LEAVE_ONE_OUT_FROM = 3  # from this many photos, each is read by a calibration from the others
LABEL_LIKE = (0.8, 1.3)  # a snapped label whose detection is this many x its side keeps its box
SNAP_SIZES = (0.8, 3.0)  # a label is snapped to a detection this many x its side (a label of
# the pips only is about 1.7 x smaller than its die)

# Each labelled die's look is kept as seen shifted and sized a little (dx, dy as parts of its
# side, size factor), as the detector places and sizes a die a little off.
LOOK_JITTER = ((0, 0, 1.0), (0.08, 0, 1.0), (-0.08, 0, 1.0), (0, 0.08, 1.0), (0, -0.08, 1.0),
               (0, 0, 0.9), (0, 0, 1.12))


@dataclass
class _Photo:
    """What one photo (or one face shown, when teaching) taught a calibration."""

    features: list[np.ndarray] = field(default_factory=list)  # each example's looks
    labels: list[str] = field(default_factory=list)  # each example's label
    sizes: list[float] = field(default_factory=list)  # die sides / the photo's long side
    # (pip dice: of the dice snapped to the reader's detections only)
    label_sizes: list[float] = field(default_factory=list)  # pip dice: every labelled die's
    colours: list[np.ndarray] = field(default_factory=list)  # pip dice: each face's colour
    bodies: list[np.ndarray] = field(default_factory=list)  # pip dice: each die's body colour
    reads: list[tuple[int, int]] = field(default_factory=list)  # pip dice: (network's, label)
    value_faces: dict[int, str] = field(default_factory=dict)
    dice: tuple[LabelledDie, ...] = ()  # pip dice: the labels, to score readings against
    plain: Reading | None = None  # pip dice: the plain reader's reading of the photo
    not_dice: list[tuple[float, float, float]] = field(default_factory=list)  # pip dice:
    # where each example of what is not a die was found (x, y, size in the photo's pixels)


@dataclass(frozen=True)
class Score:
    """How a reader read labelled photos: their dice, those read right, those read extra, and
    how many photos."""

    dice: int = 0
    right: int = 0
    extra: int = 0
    photos: int = 0

    def __add__(self, other: Score) -> Score:
        return Score(self.dice + other.dice, self.right + other.right, self.extra + other.extra,
                     self.photos + other.photos)

    def errors(self) -> int:
        """Dice missed or read wrong, and extra dice."""
        return self.dice - self.right + self.extra


def score(dice: Sequence[LabelledDie], reading: Reading) -> Score:
    """A reading of a photo scored against its labels (as the bench matches them)."""
    found, right = match([(d.key, d.box) for d in dice], reading.dice)
    return Score(len(dice), right, len(reading.dice) - found, 1)


def how_checked(photos: int) -> str:
    """How a calibration of this many photos is checked against the plain reader (words)."""
    return (_("each read by a calibration from the others") if photos >= LEAVE_ONE_OUT_FROM
            else _("each read by the calibration itself"))


class CalibrationRefused(ProfileError):
    """A calibration that reads its own photos worse than the plain reader: not used."""

    def __init__(self, photos: int, plain: Score, calibrated: Score) -> None:
        self.photos, self.plain, self.calibrated = photos, plain, calibrated
        super().__init__(_(
            "it would read this table worse than the plain reader: on {photos} of its photos, "
            "{how}, it reads {right} of {dice} dice right and {extra} extra; the plain "
            "reader reads "
            "{plain_right} right and {plain_extra} extra. The dice stay read as any dice; "
            "check that each label is one die's top face with the value on top, or add "
            "photos").format(photos=photos, how=how_checked(photos), dice=calibrated.dice,
                              right=calibrated.right, extra=calibrated.extra,
                              plain_right=plain.right, plain_extra=plain.extra))


class Calibrator:
    """Collects labelled face examples of one setup and turns them into a `Profile`."""

    def __init__(self, kind: str, pip_reader: PipReader | None = None,
                 icon_params: IconParams | None = None) -> None:
        """`kind`: "pips" (uses `pip_reader`, loaded when not given) or "icons"."""
        self.kind = kind
        self.pip_reader = (pip_reader or PipReader()) if kind == "pips" else None
        self.icon_params = icon_params or IconParams()
        self.photos: list[_Photo] = []

    def add_labelled(self, frame: np.ndarray, dice: Sequence[LabelledDie]) -> int:
        """Learn the labelled dice of one photo; returns how many were learned. Pip dice: each
        label is first snapped to the plain reader's detection of its die (`snap`), whose box
        gives the die's size and look where the label's is not that box give or take the
        detector's error (`_boxes`); a label with no detection keeps its box (grown like the
        others where they were boxes of the pips alone) and sets no size. What the search
        marks away from the labelled dice is kept as not a die."""
        frame = as_bgr(frame)
        if len(dice) > MAX_DICE_PER_PHOTO:
            raise ProfileError(_("{count} dice labelled on one photo, more than the {most} a "
                                 "photo may have; label fewer").format(
                                     count=len(dice), most=MAX_DICE_PER_PHOTO))
        if self.kind == "icons":
            found = [(crop, box, _label_at(box, dice)) for crop, box in
                     find_faces(frame, self.icon_params)]
            return self._add_found(frame, [(c, b, f) for c, b, f in found if f])
        if any(die.value is None for die in dice):
            raise ProfileError(_("pip dice need a value in every label"))
        reader = self.pip_reader
        assert reader is not None
        photo = _Photo(dice=tuple(dice), plain=reader.read(frame))
        snapped = snap([d.box for d in dice], photo.plain.dice)
        boxes = _boxes(snapped, [die.box for die in dice])
        centres = [((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, box_side(box))
                   for box in boxes]
        probs, looks = reader.classify(frame, [
            (cx + dx * side, cy + dy * side, side * ds) for cx, cy, side in centres
            for dx, dy, ds in LOOK_JITTER]) if dice else ([], [])
        turns, long_side = len(LOOK_JITTER), max(frame.shape[:2])
        reference = frame_colour(frame)
        for k, (die, (cx, cy, side)) in enumerate(zip(dice, centres)):
            photo.features.append(looks[k * turns:(k + 1) * turns])
            photo.labels.append(str(die.value))
            photo.label_sizes.append(side / long_side)
            if snapped[k]:
                photo.sizes.append(side / long_side)
            photo.colours.append(face_colour(frame, cx, cy, side))
            photo.bodies.append(body_colour(frame, cx, cy, side, reference))
            photo.reads.append((int(np.argmax(probs[k * turns])), int(die.value)))
            if die.face:
                photo.value_faces[die.value] = die.face
        sides = [side for (_, _, side), box in zip(centres, snapped) if box] \
            or [side for _, _, side in centres]
        typical = statistics.median(sides) if sides else None
        # what a search, and a camera's next frame, mark away from the dice: never a
        # detection on a labelled die (in the box of its snapped detection; one not snapped:
        # in its label's box or in a die of the photo's size around its centre)
        regions = [region for box, die, (cx, cy, side) in zip(snapped, dice, centres)
                   for region in ((box,) if box else (die.box, _square(cx, cy, typical or side)))]
        for c in reader.candidates(frame, typical):
            if not any(x0 <= c.x <= x1 and y0 <= c.y <= y1 for x0, y0, x1, y1 in regions):
                # one look, repeated so that every example has as many as a die
                photo.features.append(np.repeat(c.look[None], turns, axis=0))
                photo.labels.append(NOT_A_DIE)
                photo.not_dice.append((c.x, c.y, c.size))
        self.photos.append(photo)
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
        labels = [label for photo in self.photos for label in photo.labels]
        return {label: labels.count(label) for label in sorted(set(labels))}

    def profile(self, face_map: str | Mapping[int, str] | None = None,
                leave_out: int | None = None) -> Profile:
        """The learned profile (ProfileError when nothing was learned); `leave_out`: without
        what that photo (its number, in the order added) taught. Pip dice: the die size is
        the median of the dice snapped to a detection (of all labels when none was); the
        calibration dice are counted by kind of die (`die_kinds`, by body colour)."""
        photos = [photo for k, photo in enumerate(self.photos) if k != leave_out]
        labels = [label for photo in photos for label in photo.labels]
        if not labels:
            raise ProfileError(_("no die was learned: check the photos and their labels"))
        value_faces = {v: f for photo in photos for v, f in photo.value_faces.items()}
        if face_map is None and sorted(value_faces) == [1, 2, 3, 4, 5, 6]:
            face_map = value_faces
        sizes = [s for photo in photos for s in photo.sizes] \
            or [s for photo in photos for s in photo.label_sizes]
        colours = np.array([c for photo in photos for c in photo.colours],
                           np.float32).reshape(-1, 3)
        bodies = np.array([b for photo in photos for b in photo.bodies],
                          np.float32).reshape(-1, 3)
        kinds, metric, kind_of = die_kinds(bodies)
        reads = np.zeros((max(1, len(kinds)), 7, 7), np.int32)
        for (read, value), kind in zip((r for photo in photos for r in photo.reads), kind_of):
            reads[kind, read, value] += 1
        return Profile(self.kind, statistics.median(sizes),
                       np.array([f for photo in photos for f in photo.features], np.float32),
                       labels, parse_face_map(face_map), colours, _colour_reach(colours),
                       reads, kinds if len(kinds) > 1 else np.zeros((0, 3), np.float32), metric)

    def refuse_if_worse(self, frame_of: Callable[[int], np.ndarray],
                        face_map: str | Mapping[int, str] | None = None) -> tuple[Score, Score]:
        """Pip dice: score the calibration against the plain reader on its own photos, each
        read by a calibration from the others (leave-one-out: a profile reads its own
        photos' dice by their own examples, so only photos it has not seen say how it reads
        the table's next roll; with fewer than LEAVE_ONE_OUT_FROM photos, a calibration from
        one photo, or none, says little of one from two, so each is read by the whole
        calibration: a check that it reads its own photos); raise
        CalibrationRefused when it has more dice missed, read wrong or extra. Of more than
        CHECK_AT_MOST photos (the readings kept at a table), that many spread evenly are
        read. `frame_of(k)`: the k-th photo added. Returns (plain, calibrated)."""
        plain, calibrated = Score(), Score()
        reader = self.pip_reader
        if self.kind != "pips" or reader is None:
            return plain, calibrated
        count = len(self.photos)
        checked = sorted({round(k) for k in np.linspace(0, count - 1, min(count, CHECK_AT_MOST))}
                         ) if count else []
        for k in checked:
            photo = self.photos[k]
            assert photo.plain is not None
            plain += score(photo.dice, photo.plain)
            try:
                profile = self.profile(face_map, k if len(self.photos) >= LEAVE_ONE_OUT_FROM
                                       else None)
            except ProfileError:  # nothing learned without it: read as the plain reader
                calibrated += score(photo.dice, photo.plain)
                continue
            calibrated += score(photo.dice, reader.calibrated(profile).read(frame_of(k)))
        if calibrated.errors() > plain.errors():
            raise CalibrationRefused(len(checked), plain, calibrated)
        return plain, calibrated

    def _add_found(self, frame: np.ndarray, found: list) -> int:
        """Icon faces found in a frame, each with its label, each 4 ways round."""
        photo = _Photo()
        for crop, box, label in found:
            photo.features.append(np.stack(four_ways(crop)))
            photo.labels.append(label)
            photo.sizes.append(box_side(box) / max(frame.shape[:2]))
        self.photos.append(photo)
        return len(found)


def snap(labels: Sequence[tuple[float, float, float, float]], dice: Sequence[Die]
         ) -> list[tuple[float, float, float, float] | None]:
    """Each labelled box's die as the reader detected it: the box of the detection whose
    centre lies in the label's box, nearest its centre, each detection given to one label
    (a label may enclose only the pips, smaller than the die; or be drawn loosely), or None
    where no detection of a like size (`SNAP_SIZES` x the label's side) lies in it."""
    pairs = []
    for k, label in enumerate(labels):
        x0, y0, x1, y1 = label
        side = box_side(label)
        for j, die in enumerate(dice):
            cx, cy = die.centre
            found = box_side(die.box)
            if x0 <= cx <= x1 and y0 <= cy <= y1 \
                    and SNAP_SIZES[0] * side <= found <= SNAP_SIZES[1] * side:
                pairs.append((math.hypot(cx - (x0 + x1) / 2, cy - (y0 + y1) / 2), k, j))
    snapped: list[tuple[float, float, float, float] | None] = [None] * len(labels)
    taken: set[int] = set()
    for _distance, k, j in sorted(pairs):
        if snapped[k] is None and j not in taken:
            snapped[k] = tuple(float(v) for v in dice[j].box)  # type: ignore[assignment]
            taken.add(j)
    return snapped


def _boxes(snapped: Sequence[tuple[float, float, float, float] | None],
           labels: Sequence[tuple[float, float, float, float]]
           ) -> list[tuple[float, float, float, float]]:
    """The box each labelled die is learned from: its snapped detection's where that is not
    its label's give or take the detector's error (`_like`), else its label's. Where most of
    a photo's snapped labels were drawn unlike their dice (boxes of the pips alone), a label
    with no detection is taken as drawn alike: grown about its centre by their median
    ratio (its die's size is still not learned from it)."""
    boxes = [box if box and not _like(box, label) else label
             for box, label in zip(snapped, labels)]
    unlike = [box_side(box) / box_side(label) for box, label in zip(snapped, labels)
              if box and not _like(box, label)]
    if len(unlike) * 2 <= sum(box is not None for box in snapped):
        return boxes
    grow = statistics.median(unlike)
    return [box if found else _square((box[0] + box[2]) / 2, (box[1] + box[3]) / 2,
                                      box_side(box) * grow)
            for box, found in zip(boxes, snapped)]


def _like(box: tuple[float, float, float, float], label: tuple[float, float, float, float]
          ) -> bool:
    """Whether a detection's box is its label's box give or take the detector's error
    (`LABEL_LIKE`): the die's size, centred on the label's centre within a tenth of it."""
    side, drawn = box_side(box), box_side(label)
    shift = math.hypot((box[0] + box[2] - label[0] - label[2]) / 2,
                       (box[1] + box[3] - label[1] - label[3]) / 2)
    return LABEL_LIKE[0] * drawn <= side <= LABEL_LIKE[1] * drawn and shift <= 0.1 * drawn


def _square(cx: float, cy: float, side: float) -> tuple[float, float, float, float]:
    """The box of a square of `side` centred on (cx, cy)."""
    return cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2


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
              pip_reader: PipReader | None = None, check: bool = True) -> Profile:
    """A profile from labelled photos: icon dice when no label gives a value, else pip dice;
    with `check`, CalibrationRefused when pip dice would be read worse than by the plain
    reader on these photos (`Calibrator.refuse_if_worse`)."""
    return calibrate_scored(items, face_map, pip_reader, check)[0]


def calibrate_scored(items: Sequence[LabelledImage],
                     face_map: str | Mapping[int, str] | None = None,
                     pip_reader: PipReader | None = None, check: bool = True
                     ) -> tuple[Profile, Score, Score]:
    """`calibrate`, with how the plain reader and the calibration (each photo read by one
    from the others) read the photos (empty scores for icon dice, or without `check`)."""
    dice = [d for item in items for d in item.dice]
    kind = "pips" if dice and all(d.value is not None for d in dice) else "icons"
    calibrator = Calibrator(kind, pip_reader)
    for item in items:
        calibrator.add_labelled(load_image(item.path), item.dice)
    profile = calibrator.profile(face_map)
    if not check:
        return profile, Score(), Score()
    return (profile, *calibrator.refuse_if_worse(lambda k: load_image(items[k].path), face_map))


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
