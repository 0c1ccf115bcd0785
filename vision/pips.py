"""Pip dice reader: a tiny centre detector, then a tiny crop classifier, both run by cv2.dnn.

Pipeline (parameters in `PipParams`):
1. coarse  - the frame at the `coarse_levels` (x `work_side` px on its long side), where dice
              of about 30-200 px (at 640) are 20-70 px across, as the detector learned them;
2. detect  - each level's half-size copy through `dice_detector.onnx` -> centre heat map,
              offset, size;
3. peaks   - local maxima of the heat map above `det_threshold` (with a table's calibration,
              which knows that table's clutter, the lower `calibrated_threshold`: a custom
              face the detector scarcely knows is looked at), near-duplicates dropped;
4. crop    - a square of `context` x die size around each centre, resized to 40x40;
5. classify- the crops through `dice_pips.onnx` -> not-a-die or 1..6 (top face only); an
              unsure crop not surely taken for no die gets a second look turned 90/180/270
              degrees, averaged; then `dice_sides.onnx` looks at a wider view of each
              candidate: those it is sure are no die are dropped (`no_die`), and where it is
              sure of several side faces (a steep camera), those it takes for a die's side
              face (`side_face`, `side_frame`);
6. size    - the sure dice's median size gives the one scale at which dice are `read_px`
              across; the frame is read there (2-5) too; with no sure die, at the
              `fine_levels` instead (small dice). A camera's next frame, the die size known,
              is read at that scale and the `follow_levels` beside it alone;
7. agree   - the sure dice of all levels set the frame's die size; candidates of another size
              (a die's pip group, a cluster of dice, clutter) are dropped, and of candidates at
              one place the surest is kept; one whose face is round (`face_roundness`), or,
              without a calibration, round which a printed disk's rim closes (`disk_rim`),
              is a token, dropped;
8. profile - with a table's calibration, each candidate's look (the classifier's features)
              is matched to the nearest of its examples: one nearest a die of the table is
              read as that die when the network takes it for no die (a face it never
              learned); one the network reads as a value a custom face was also read as on
              that table (on that kind of die) is weighed between the two
              (`Profile.weigh`); an unsure one nearest something that is not a die, or of a
              colour none of its dice had, is dropped;
9. report  - dice with their face from the face map, box and confidence in frame pixels; a die
              the network reads fairly surely is read again from the frame at three
              contexts, each turned four ways (`check_below`), its confidence at most those twelve
              reads' mean, so a die read so at one crop or one way round only is flagged; a
              die too small to show its pips (`small_die`) is flagged whatever it is read as.
The networks are trained by `vision.training.train_pips` (see docs/dice.md).
"""

from __future__ import annotations

import copy
import math
import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from vision.faces import UNCERTAIN_BELOW, Die, Reading, parse_face_map
from vision.frames import as_bgr, darkness_hint, square_view
from vision.profile import NOT_A_DIE, Profile, body_colour, face_colour, frame_colour

MODEL_DIR = Path(__file__).parent / "models"
DETECTOR_FILE = "dice_detector.onnx"
CLASSIFIER_FILE = "dice_pips.onnx"
SIDES_FILE = "dice_sides.onnx"
TOP_FACE, SIDE_FACE, NO_FACE = 0, 1, 2  # what the side-face network tells a candidate apart as


@dataclass(frozen=True)
class PipParams:
    """Every tunable number of the pip reader, in one place."""

    work_side: int = 640  # frame long side the networks were trained at
    coarse_levels: tuple[float, ...] = (0.35, 0.7)  # scales read first, x the work_side frame
    fine_levels: tuple[float, ...] = (1.4, 2.0)  # read when the coarse ones find no sure die
    stride: int = 8  # detector cell, in work pixels
    size_ref: float = 40.0  # die size (work px) whose log-size output is 0
    read_px: float = 48.0  # die size (work px) a frame is read at once its dice's size is known
    follow_levels: tuple[float, ...] = (1.0, 0.7)  # a known die size: read at these x its scale
    det_threshold: float = 0.25  # minimum centre score for a candidate die
    calibrated_threshold: float = 0.1  # the same with a table's calibration (and calibrating)
    min_separation: float = 0.5  # candidates closer than this x die size are one die
    context: float = 1.25  # crop side / die size for the classifier
    crop_side: int = 40  # classifier input side
    max_background: float = 0.5  # drop a candidate whose not-a-die probability is above this
    max_candidates: int = 60  # at most this many candidates per level
    second_look_below: float = 0.9  # re-read crops less sure than this, 4 ways round, averaged
    no_second_look: float = 0.8  # ...but not those at least this sure they are no die
    check_below: float = 0.99  # a die not flagged yet (UNCERTAIN_BELOW) and read less surely
    # than this is read again at the `check_contexts`, each turned four ways, its confidence
    # at most their mean (surer dice were right on every bench)
    check_contexts: tuple[float, ...] = (1.1, 1.25, 1.45)  # crop side / die size, to check
    small_die: tuple[float, float] = (16.0, 0.85)  # a die fewer frame pixels across than this
    # (pips of 2 px) is read no surer than that: flagged (3 of the 21 dice under 16 px on
    # the synthetic benches were read wrong)
    sure: float = 0.9  # a candidate this sure (die x value) sets the frame's die size
    least_sure: float = 0.3  # a candidate less sure than this is not reported
    fine_below: int = 3  # ...and also when they find fewer sure dice than this
    sure_band: tuple[float, float] = (0.5, 2.0)  # sure ones kept, x their median size
    size_band: tuple[float, float] = (0.65, 1.8)  # unsure ones kept, x the frame's die size
    profile_read_low: float = 0.5  # ...one the profile reads, in a frame with no sure die
    max_work_side: int = 2560  # a known die size's scale never makes the work frame larger
    round_face: float = 0.93  # a face region this round is a printed disk (a token), no die
    face_view: float = 2.4  # the face region is looked for in this x the die size around it
    face_px: int = 64  # ...brought to this many pixels across
    face_colour: float = 28.0  # ...as the pixels this near (Lab) the colour of its middle
    disk_rim: float = 0.8  # a circle round a candidate outlining a disk this clearly (its
    # inside one colour and unlike its outside, all round) is a printed token's rim, no die
    disk_radius: tuple[float, float] = (0.42, 1.0)  # ...its radius, x the die size
    disk_edges: tuple[float, float] = (60.0, 0.85)  # ...found by cv2.HoughCircles (the
    # gradient-alt method) at this Canny threshold and circle perfectness
    disk_votes: int = 25  # ...looked for so only where the classic method (5 times quicker)
    # finds a circle this many edge points vote for first, as it does round a token's rim
    disk_off: float = 0.3  # ...its centre at most this x the die size from the candidate's
    disk_rings: tuple[tuple[float, ...], tuple[float, ...]] = ((0.75, 0.82, 0.9), (1.12, 1.2))
    # ...its inside and outside looked at on these rings, x its radius
    disk_colour: float = 12.0  # ...its inside one colour: within this (Lab, lightness halved)
    disk_least: float = 24.0  # ...judged only round candidates this many frame pixels across
    # or more: a smaller die's corners blur round (a 21-px 1 on table 3000 passed for a disk)
    side_context: float = 2.2  # the side-face network sees this x a candidate's size round it
    side_px: int = 48  # ...brought to this many pixels across
    side_face: float = 0.5  # a candidate it takes for a die's side face this surely is dropped
    # (a steep camera sees a die's near side as large as its top, pips and all; above 1: never)
    side_frame: tuple[float, int] = (0.95, 2)  # ...where, of the candidates of the levels read
    # together, it is this sure of this many apart: a camera steep enough to show dice's sides
    # shows several, and a top-down one's odd doubt about a top face is not acted on
    no_die: float = 0.7  # ...and one it takes for no die this surely (a token, a card's pips
    # seen with what is round them), read without a table's calibration (above 1: never; both
    # above 1: the network is not loaded)


class Candidate(NamedTuple):
    """A possible die in frame pixels, with the classifier's (not-a-die, 1..6) probabilities
    and the look of its face."""

    x: float
    y: float
    size: float
    probs: np.ndarray
    look: np.ndarray  # the classifier's features, unit length: what calibration compares
    near: np.ndarray | None = None  # with a profile: each of its labels' distance from the look
    kind: int = 0  # with a profile of two or more kinds of dice: the kind its colour is nearest

    @property
    def sureness(self) -> float:
        """How sure the classifier is that this is a die showing its likeliest value."""
        return float((1 - self.probs[0]) * self.probs[1:].max())


class ModelError(RuntimeError):
    """A model file that is missing or cannot be loaded."""


def _load_net(path: Path) -> cv2.dnn.Net:
    """Load one ONNX network or raise ModelError naming it."""
    if not path.is_file():
        raise ModelError(f"{path}: model file missing (rebuild with vision.training.train_pips)")
    try:
        return cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise ModelError(f"{path}: cannot load model ({exc})") from exc


def _blob(images: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 images -> NCHW float blob in [-1, 1] (the training normalisation)."""
    return cv2.dnn.blobFromImages(images, 1 / 127.5, None, (127.5, 127.5, 127.5), swapRB=False)


class PipReader:
    """Reads the top face of every pip die in a frame."""

    def __init__(
        self,
        face_map: str | Mapping[int, str] | None = None,
        params: PipParams | None = None,
        model_dir: str | Path | None = None,
        profile: Profile | None = None,
    ) -> None:
        """Load both networks once; `face_map` turns values into expedition faces (default: the
        profile's, else the standard one); `profile` is a table's calibration."""
        if profile is not None and profile.kind != "pips":
            raise ValueError(f"a {profile.kind} profile cannot read pip dice")
        self.profile = profile
        self.params = params or PipParams()
        self.threshold = self.params.calibrated_threshold if profile else self.params.det_threshold
        self.face_map = parse_face_map(face_map if face_map or not profile else profile.face_map)
        folder = Path(model_dir) if model_dir else MODEL_DIR
        self.detector = _load_net(folder / DETECTOR_FILE)
        self.classifier = _load_net(folder / CLASSIFIER_FILE)
        checks = min(self.params.side_face, self.params.no_die) <= 1
        self.sides = _load_net(folder / SIDES_FILE) if checks else None

    def read(self, frame: np.ndarray, die_px: float | None = None) -> Reading:
        """All dice in a BGR (or grey/BGRA) frame; none, with a hint, when it is too dark (a
        dark tray with dice on it is read all the same). `die_px`: the dice's size in frame
        pixels when known (a camera's last frame showed it): read at that size (and the
        `follow_levels` beside it) unless no die is sure there; else the levels are searched."""
        frame = as_bgr(frame)
        p = self.params
        plain = self.profile is None
        kept: list[Candidate] = []
        if die_px:
            kept = self._agree(self._followed(frame, die_px, self.threshold, plain), die_px)
        if not any(c.sureness >= p.sure for c in kept):
            kept = self._agree(self._searched(frame, self.threshold, plain), die_px or (
                self.profile.die_px(frame.shape) if self.profile else None))
        kept = [c for c in kept if not self._printed_disk(frame, c)]
        dice = []
        for c, (value, confidence) in zip(kept, self._certainty(frame, kept)):
            half = c.size / 2
            box = (max(0, round(c.x - half)), max(0, round(c.y - half)),
                   min(frame.shape[1], round(c.x + half)), min(frame.shape[0], round(c.y + half)))
            dice.append(Die(value, self.face_map[value], box, confidence))
        dice.sort(key=lambda d: (d.box[1], d.box[0]))
        sure = [c.size for c in kept if c.sureness >= p.sure]
        return Reading(tuple(dice), None if dice else darkness_hint(frame),
                       die_px=statistics.median(sure) if sure else None)

    def calibrated(self, profile: Profile | None) -> PipReader:
        """A reader of the same networks with another profile (None: the plain reader)."""
        other = copy.copy(self)
        other.profile = profile
        other.threshold = self.params.calibrated_threshold if profile else self.params.det_threshold
        return other

    def follower(self) -> Callable[[np.ndarray], Reading]:
        """A read function for one camera's frames in turn: each frame is read at the die size
        the last frame with sure dice showed, two levels instead of the whole search."""
        last: float | None = None

        def read(frame: np.ndarray) -> Reading:
            nonlocal last
            reading = self.read(frame, last)
            last = reading.die_px or last
            return reading

        return read

    def _printed_disk(self, frame: np.ndarray, c: Candidate) -> bool:
        """Whether a candidate is a printed token (a number token with its dots, a counter
        with a ring of dots), not a die's rounded square: its face is round, or, read without
        a table's calibration, a circle's rim closes round it. (A calibrated table's profile
        knows its clutter, and its custom faces may be round emblems, which the detector can
        mark at their own size: a rim closes round them.)"""
        p = self.params
        roundness = face_roundness(frame, c.x, c.y, c.size, p)
        return ((roundness is not None and roundness >= p.round_face)
                or (self.profile is None and c.size >= p.disk_least
                    and disk_rim(frame, c.x, c.y, c.size, p) >= p.disk_rim))

    def _profile_reads(self, c: Candidate) -> bool:
        """Whether the profile, not the network, reads a candidate: its look is nearest one of
        the table's dice and the network takes it for no die (a face it never learned), or the
        profile weighs its look as a custom face rather than the network's read."""
        read = int(np.argmax(c.probs))
        if read == 0:
            return c.near is not None and self.profile.example(c.near)[0] != NOT_A_DIE
        return bool(c.near is not None and self.profile.custom_of(c.kind)
                    and self.profile.weigh(c.near, read, c.kind)[0] != read)

    def _not_a_die(self, c: Candidate) -> bool:
        """Whether a candidate looks most like something on the profile's table that is not
        a die (what calibration found away from the labelled dice)."""
        return c.near is not None and self.profile.example(c.near)[0] == NOT_A_DIE

    def _value(self, c: Candidate) -> tuple[int, float]:
        """A die's value and its probability: the network's read, or, where the profile reads
        it, the value of the example nearest its look (a face the network never learned); where
        a custom face may show as the network's read, the value the profile weighs likeliest,
        no surer than that weighing."""
        read = int(np.argmax(c.probs))
        if read == 0:
            if self._profile_reads(c):
                label, likely = self.profile.example(c.near)
                return int(label), likely
            read = int(np.argmax(c.probs[1:])) + 1
        network = float(c.probs[read])
        if not self.profile or not self.profile.custom_of(c.kind):
            return read, network
        value, likely = self.profile.weigh(c.near, read, c.kind)
        return value, likely if value != read else min(network, likely)

    def candidates(self, frame: np.ndarray, die_px: float | None = None) -> list[Candidate]:
        """Everything a calibrated reader's search marks as a die in a frame, and, given the
        dice's size, what it marks reading a camera's next frame of them, whatever the
        classifier says of it (calibration keeps those away from the labelled dice as what is
        not a die there). The fine levels only when no die is sure: a big die's pips seen
        there, learned as "not a die", took an emblem die's look on tables 3006 and 3009."""
        frame, threshold = as_bgr(frame), self.params.calibrated_threshold
        return self._searched(frame, threshold, plain=False, fine_below=1) + (
            self._followed(frame, die_px, threshold, plain=False) if die_px else [])

    def _followed(self, frame: np.ndarray, die_px: float, threshold: float,
                  plain: bool) -> list[Candidate]:
        """The candidates of a frame whose dice are `die_px` across, read at their scale and the
        `follow_levels` beside it; `plain`: as `_tops`."""
        scale = self._read_scale(frame, die_px)
        return self._tops(frame, self._levels(
            frame, [scale * f for f in self.params.follow_levels], threshold), plain)

    def _searched(self, frame: np.ndarray, threshold: float, plain: bool,
                  fine_below: int | None = None) -> list[Candidate]:
        """The candidates of the coarse levels; then of the frame at the one scale that shows
        dice of the size their sure dice have at `read_px`, and, when fewer than `fine_below`
        are sure, of the fine levels (small dice; one big sure "die" may be a card or a token
        beside them). `fine_below` is the params' without a profile; a calibrated table knows
        its dice's size and its clutter, and reads the fine levels only when no die is sure,
        as calibration searched it. `plain`: as `_tops`."""
        p = self.params
        base = p.work_side / max(frame.shape[:2])
        found = self._tops(frame, self._levels(frame, [base * f for f in p.coarse_levels],
                                               threshold), plain)
        sure = [c for c in found if c.sureness >= p.sure]
        scales = [self._read_scale(frame, statistics.median(c.size for c in sure))] if sure else []
        if fine_below is None:
            fine_below = 1 if self.profile else p.fine_below
        if len(_apart(sure, p.min_separation)) < fine_below:
            scales += [base * f for f in p.fine_levels]
        return found + self._tops(frame, self._levels(frame, scales, threshold), plain)

    def _tops(self, frame: np.ndarray, found: list[Candidate], plain: bool) -> list[Candidate]:
        """The candidates of levels read together less those the side-face network takes for
        a die's side face (`side_face`), where it is sure of several (`side_frame`), and, read
        `plain` (as without a profile), for no die (`no_die`): a calibrated table's profile
        knows its clutter, its custom faces are none the network learned, and calibration
        searches as it reads. It judges the candidates the classifier takes for dice, as it
        learned on (the others are dropped later, unless a profile reads them)."""
        p = self.params
        judged = [k for k, c in enumerate(found) if c.probs[0] <= p.max_background]
        if self.sides is None or not judged:
            return found
        self.sides.setInput(_blob([side_view(frame, found[k].x, found[k].y, found[k].size, p)
                                   for k in judged]))
        probs = np.zeros((len(found), 3))
        probs[judged] = _softmax(self.sides.forward())
        kept = probs[:, NO_FACE] < p.no_die if plain else np.ones(len(found), bool)
        side = probs[:, SIDE_FACE]
        sure, least = p.side_frame
        if len(_apart([c for c, s, k in zip(found, side, kept) if k and s >= sure],
                      p.min_separation)) >= least:
            kept &= side < p.side_face
        return [c for c, k in zip(found, kept) if k]

    def _read_scale(self, frame: np.ndarray, die_px: float) -> float:
        """The scale at which dice of `die_px` frame pixels are `read_px` across, never larger
        than the finest search level (where an emblem is still seen as part of its die) nor a
        work frame over `max_work_side`."""
        p = self.params
        long_side = max(frame.shape[:2])
        return min(p.read_px / die_px, p.max_work_side / long_side,
                   max(p.fine_levels) * p.work_side / long_side)

    def _levels(self, frame: np.ndarray, scales: list[float],
                threshold: float) -> list[Candidate]:
        """The candidates the detector marks above `threshold` in the frame read at each work
        scale, in frame pixels, their crops classified in one batch. Each level is made from
        the last, larger one, so a 12 MP still is shrunk in full once (an enlarged level from
        the frame itself). With a profile, a candidate of a colour none of its dice had is
        dropped before it is classified, and the others carry their distances from its
        examples."""
        crops, places, kinds = [], [], []
        kinds_apart = self.profile is not None and len(self.profile.kinds) > 1
        reference = frame_colour(frame) if kinds_apart else None
        source, at = frame, 1.0
        for scale in sorted(scales, reverse=True):
            if at > 1:  # shrinking an enlarged copy is slow and no sharper than the frame
                source, at = frame, 1.0
            f = scale / at
            work = cv2.resize(source, None, fx=f, fy=f,
                              interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
            source, at = work, scale
            for x, y, size, _ in detect_centres(self.detector, work, self.params, threshold):
                if self.profile and not self.profile.has_dice_colour(
                        face_colour(work, x, y, size)):
                    continue
                crops.append(self._crop(work, x, y, size))
                places.append((x / scale, y / scale, size / scale))
                kinds.append(self.profile.die_kind(body_colour(work, x, y, size, reference))
                             if reference is not None else 0)
        if not crops:
            return []
        probs, looks = self._read_crops(crops)
        found = [Candidate(*place, prob, look) for place, prob, look in zip(places, probs, looks)]
        if not self.profile:
            return found
        near = self.profile.distances(looks)
        return [c._replace(near=row, kind=kind) for c, row, kind in zip(found, near, kinds)]

    def _agree(self, found: list[Candidate], die_px: float | None = None) -> list[Candidate]:
        """Of the candidates the classifier does not take for something else than a die, or
        the profile reads: sure ones, and unsure ones of the frame's die size (the sure ones'
        median, else `die_px`, else the surest candidate's), not a die's pip group nor a
        cluster of dice; the surest first, none centred within `min_separation` of a die kept.
        Those less sure than `least_sure` only when the profile reads them, and in a frame with
        no sure die those down to `profile_read_low` x the size (a lone emblem die is marked
        around its emblem); unsure ones that look most like something on its table that is not
        a die, never."""
        p = self.params
        found = sorted((c for c in found if c.probs[0] <= p.max_background
                        or self._profile_reads(c)), key=lambda c: -c.sureness)
        if not found:
            return []
        sure = [c for c in found if c.sureness >= p.sure]
        if sure:  # sure ones far from the others' size are clutter (a card, a token)
            middle = statistics.median(c.size for c in sure)
            sure = [c for c in sure
                    if p.sure_band[0] * middle <= c.size <= p.sure_band[1] * middle]
        sure = _apart(sure, p.min_separation)
        if sure:
            die_px = statistics.median(c.size for c in sure)
        size = die_px or found[0].size
        lo, hi = p.size_band[0] * size, p.size_band[1] * size
        least = p.profile_read_low * size if not sure else lo  # what the profile reads
        unsure = [c for c in found if c.sureness < p.sure and c.size <= hi and (
            (lo <= c.size and c.sureness >= p.least_sure)
            or (least <= c.size and self._profile_reads(c))) and not self._not_a_die(c)]
        return _apart(sure + unsure, p.min_separation)

    def classify(self, work: np.ndarray, centres: list) -> tuple[np.ndarray, np.ndarray]:
        """For a crop around each (x, y, size, ...) candidate: the softmax over (not-a-die,
        1..6), and the look of the face (the network's features, unit length)."""
        return self._read_crops([self._crop(work, x, y, size) for x, y, size, *_ in centres])

    def _certainty(self, frame: np.ndarray, kept: list[Candidate]) -> list[tuple[int, float]]:
        """Each die's value and confidence (`_value`). A die the network reads surely (not
        flagged yet) but less surely than `check_below` is read again from the frame at the
        `check_contexts`, each turned 0/90/180/270 degrees, and its confidence is at most
        those reads' mean for its value: a die read so at one crop or one way round only (an
        emblem, a tray corner, a steep die's side face, a foreshortened face) is flagged
        uncertain. A die under `small_die` pixels is read no surer than its limit (its pips
        are too small to be sure of)."""
        p = self.params
        read = [self._value(c) for c in kept]
        check = [k for k, (c, (value, confidence)) in enumerate(zip(kept, read))
                 if UNCERTAIN_BELOW <= confidence < p.check_below
                 and value == int(np.argmax(c.probs))]
        if check:
            views = [view for k in check for view in self._views(frame, kept[k])]
            probs = self._run(views)[0].reshape(len(check), len(views) // len(check), -1)
            for n, k in enumerate(check):
                value, confidence = read[k]
                read[k] = (value, min(confidence, float(probs[n, :, value].mean())))
        least, surest = p.small_die
        return [(value, min(confidence, surest) if c.size < least else confidence)
                for c, (value, confidence) in zip(kept, read)]

    def _views(self, frame: np.ndarray, c: Candidate) -> list[np.ndarray]:
        """A candidate's classifier crops from the frame at each of the `check_contexts`,
        each turned 0/90/180/270 degrees."""
        p = self.params
        crops = [self._crop(frame, c.x, c.y, c.size * context / p.context)
                 for context in p.check_contexts]
        return [np.ascontiguousarray(np.rot90(crop, t)) for crop in crops for t in range(4)]

    def _crop(self, image: np.ndarray, x: float, y: float, size: float) -> np.ndarray:
        """The classifier's square crop of `context` x `size` around (x, y)."""
        p = self.params
        return square_view(image, x, y, p.context * size, p.crop_side)

    def _read_crops(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Softmax and look per crop; a crop read less surely than `second_look_below`, and not
        surely taken for no die (`no_second_look`), is read again turned 90/180/270 degrees
        and the four softmaxes averaged."""
        probs, looks = self._run(crops)
        p = self.params
        unsure = np.flatnonzero((probs.max(axis=1) < p.second_look_below)
                                & (probs[:, 0] < p.no_second_look))
        if len(unsure):
            turned = [np.ascontiguousarray(np.rot90(crops[i], k))
                      for k in (1, 2, 3) for i in unsure]
            extra = self._run(turned)[0].reshape(3, len(unsure), -1)
            probs[unsure] = (probs[unsure] + extra.sum(axis=0)) / 4
        return probs, looks

    def _run(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The classifier on a batch of crops: softmax, and features scaled to unit length."""
        self.classifier.setInput(_blob(crops))
        logits, features = self.classifier.forward(["y", "features"])
        looks = features / (np.linalg.norm(features, axis=1, keepdims=True) + 1e-6)
        return _softmax(logits), looks


def _softmax(logits: np.ndarray) -> np.ndarray:
    """Each row of a network's logits as probabilities."""
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def side_view(frame: np.ndarray, x: float, y: float, size: float, params: PipParams
              ) -> np.ndarray:
    """What the side-face network sees of a candidate: `side_context` x its size round it, the
    die's other faces and the table beside it, as `side_px` pixels across."""
    return square_view(frame, x, y, params.side_context * size, params.side_px)


def detect_centres(detector: cv2.dnn.Net, work: np.ndarray, params: PipParams,
                   threshold: float | None = None) -> list[tuple[float, float, float, float]]:
    """The dice centres the detector marks above `threshold` (default `det_threshold`) in a
    work image, as (x, y, size, score) in its pixels (the surest `max_candidates`, none within
    `min_separation` of a surer one)."""
    p = params
    half = cv2.resize(work, (work.shape[1] // 2, work.shape[0] // 2),
                      interpolation=cv2.INTER_AREA)
    pad_h, pad_w = (-half.shape[0]) % 16, (-half.shape[1]) % 16
    half = cv2.copyMakeBorder(half, 0, pad_h, 0, pad_w, cv2.BORDER_REFLECT)
    detector.setInput(_blob([half]))
    out = detector.forward()[0]
    heat = 1 / (1 + np.exp(-out[0]))
    least = p.det_threshold if threshold is None else threshold
    peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > least)
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[: p.max_candidates]
    kept: list[tuple[float, float, float, float]] = []
    for y, x in zip(ys[order], xs[order]):
        cx = (x + out[1, y, x]) * p.stride
        cy = (y + out[2, y, x]) * p.stride
        size = p.size_ref * math.exp(float(out[3, y, x]))
        if cx >= work.shape[1] or cy >= work.shape[0]:
            continue  # a peak in the padding
        if any(math.hypot(cx - k[0], cy - k[1]) < p.min_separation * max(size, k[2])
               for k in kept):
            continue
        kept.append((float(cx), float(cy), size, float(heat[y, x])))
    return kept


def face_roundness(frame: np.ndarray, x: float, y: float, size: float, params: PipParams
                   ) -> float | None:
    """How round the face of a candidate at (x, y) is, seen any way (perspective turns a
    disk into an ellipse and a square into a parallelogram): the region of its body's colour
    (the median round its middle, not a 1's pip or an emblem), pips and dots closed in, as
    its area over the ellipse through its farthest point, both measured after the region's
    own spread is made the same every way (1 for a disk, 0.64 for a square, about 0.85 for
    a die's rounded one). None when the region is not one closed face (it runs out of the
    view: the table's colour, a die touching) or is too small to be one."""
    side = params.face_px
    view = square_view(frame, x, y, params.face_view * size, side)
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[0:side, 0:side]
    die = side / params.face_view  # the die's size in the view
    reach = np.hypot(xx - side / 2, yy - side / 2)
    ring = (0.15 * die < reach) & (reach < 0.4 * die)  # round a 1's pip or an emblem: the body
    far = np.linalg.norm((lab - np.median(lab[ring], axis=0)) * (0.5, 1, 1), axis=2)
    far8 = np.clip(far * 2, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(far8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    region = (far8 < min(otsu, 2 * params.face_colour)).astype(np.uint8)
    region = cv2.morphologyEx(region, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    region = cv2.morphologyEx(region, cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    _, parts = cv2.connectedComponents(region)
    inside = parts[ring]
    inside = inside[inside > 0]
    if not len(inside):
        return None
    ys, xs = np.nonzero(parts == np.bincount(inside).argmax())
    if xs.min() == 0 or ys.min() == 0 or xs.max() == side - 1 or ys.max() == side - 1 \
            or len(xs) < (0.5 * die) ** 2:  # open, or too small to be the face (a pip)
        return None
    points = np.column_stack([xs, ys]).astype(np.float32)
    hull = cv2.convexHull(points).reshape(-1, 2)
    spread = np.cov(points.T) + np.eye(2) / 12
    d = hull - points.mean(0)  # to the pixels' outer edges, not their centres:
    d *= (1 + 0.5 / np.maximum(np.linalg.norm(d, axis=1), 0.5))[:, None]
    farthest = float(np.einsum("ni,ij,nj->n", d, np.linalg.inv(spread), d).max())
    area = cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True) + math.pi / 4
    return area / math.sqrt(float(np.linalg.det(spread))) / (math.pi * farthest)


def disk_rim(frame: np.ndarray, x: float, y: float, size: float, params: PipParams) -> float:
    """How clearly a printed disk's rim closes round a candidate at (x, y): of the circles
    cv2.HoughCircles finds about it (`disk_radius`, `disk_off`), the best share of the 64
    directions round one where its inside near the rim is one colour at each distance from
    its centre (a rim band of another colour is a ring of its own) and unlike just outside
    (the lesser of the two shares); 0 with no circle. A die's outline is no such circle: a
    circle through its corners takes in the table beside its sides, and one within its sides
    has the face's corners outside it (d6-tray's dice and the synthetic sets': at most 0.74;
    31 of the clutter set's 56 extra dice: 0.8-1)."""
    p = params
    side = 2 * p.face_px
    view = square_view(frame, x, y, p.face_view * size, side)
    die = side / p.face_view  # the die's size in the view
    edge, perfect = p.disk_edges
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    sizes = {"minRadius": int(p.disk_radius[0] * die), "maxRadius": int(p.disk_radius[1] * die)}
    if cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT, 1, 3, param1=edge, param2=p.disk_votes,
                        **sizes) is None:
        return 0.0
    circles = cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT_ALT, 1.5, 5, param1=edge,
                               param2=perfect, **sizes)
    if circles is None:
        return 0.0
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32) * (0.5, 1, 1)
    angles = np.linspace(0, 2 * np.pi, 64, endpoint=False)

    def ring(cx: float, cy: float, radii: tuple[float, ...]) -> np.ndarray:
        """The colours at each of `radii` x 64 directions round (cx, cy)."""
        xs = cx + np.outer(radii, np.cos(angles))
        ys = cy + np.outer(radii, np.sin(angles))
        return lab[np.clip(ys.astype(int), 0, side - 1), np.clip(xs.astype(int), 0, side - 1)]

    best = 0.0
    for cx, cy, r in circles[0]:
        if math.hypot(cx - side / 2, cy - side / 2) >= p.disk_off * die:
            continue
        inside, outside = (ring(cx, cy, tuple(f * r for f in rings)) for rings in p.disk_rings)
        outside = outside.mean(axis=0)
        one_colour = np.linalg.norm(inside - np.median(inside, axis=1, keepdims=True), axis=2)
        unlike = np.linalg.norm(outside - inside.mean(axis=0), axis=1)
        best = max(best, min(float((one_colour < p.disk_colour).mean()),
                             float((unlike > p.disk_colour).mean())))
    return best


def _apart(ordered: list[Candidate], separation: float) -> list[Candidate]:
    """Greedily keep candidates (best first) whose centre is not within `separation` x the
    larger die of a kept one: dice seen from above do not overlap."""
    kept: list[Candidate] = []
    for c in ordered:
        if all(math.hypot(c.x - k.x, c.y - k.y) >= separation * max(c.size, k.size)
               for k in kept):
            kept.append(c)
    return kept
