"""A calibration profile: what was learned of one table's setup, and the face look-up it uses.

A profile holds the die size (as a part of the frame's long side), the look of each face (icon
dice: HOG-style descriptors of grey face crops, 4 ways round; pip dice: the pip network's
features, each die seen a few ways), the face map and, for pip dice, how the pip network read
each calibration die (which gives the values whose custom faces it misreads), the dice's
colours, and examples of what on that table is not a die. Saved as a compressed .npz, no
pickles.
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from companion.files import JsonFileError, write_atomically
from companion.i18n import _
from vision.faces import FACES, FaceMapError, parse_face_map
from vision.frames import square_view
from vision.limits import (
    MAX_ARRAY_BYTES,
    MAX_PROFILE_ARRAY_BYTES,
    MAX_PROFILE_BYTES,
    TooLarge,
    check_file_size,
)

KINDS = ("pips", "icons")  # pip dice (network + examples) or icon dice (examples only)
CROP_SIDE = 32  # grey face crop side for the descriptor
HOG_CELL = 8  # pixels per histogram cell
HOG_BINS = 9  # unsigned orientation bins over 0..180 degrees
SOFTNESS = 0.25  # descriptor distance that makes one label e times likelier than another
PIP_SOFTNESS = 0.04  # the same for the pip network's features (one face's looks lie closer)


PROFILE_VERSION = 3  # 3: kinds of dice (network reads per kind); 2 (one kind) still read
READ_VERSIONS = (2, 3)  # versions a profile may have been saved by
NOT_A_DIE = "0"  # label of a pip profile's examples of things on that table that are not dice
COLOUR_MIDDLE = 0.7  # the part of a face's side whose colour is the die's
MIN_RECALL = 0.8  # a pip value whose dice the network reads right less often is a custom face
COLOUR_SLACK = (1.5, 12.0)  # a die's colour may be this x (+ this) farther than seen at calibration
KIND_APART = 4.0  # two kinds of dice: their body colours' medians this many spreads apart...
KIND_LEAST = 4  # ...each of at least this many calibration dice (else one kind)
KIND_SHOWN = 2  # a kind's own calibration dice of a value decide it from this many (else all)
KIND_FLOOR = 0.01  # added to the spread of the dice's colours (B, G, R over the frame's)


class ProfileError(ValueError):
    """A missing, unreadable or incomplete calibration profile."""


def describe(crop: np.ndarray) -> np.ndarray:
    """HOG-style vector of a grey square crop: per-cell unsigned gradient histograms, 2x2-block
    L2-normalised (OpenCV 5 dropped HOGDescriptor and cv2.ml, so it is done here in numpy)."""
    img = crop.astype(np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=1)
    mag, ang = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    bins = (np.mod(ang, 180.0) * HOG_BINS / 180.0).astype(np.int32) % HOG_BINS
    cells = img.shape[0] // HOG_CELL
    hist = np.zeros((cells, cells, HOG_BINS), np.float32)
    ys, xs = np.indices(img.shape)
    np.add.at(hist, (ys // HOG_CELL, xs // HOG_CELL, bins), mag)
    blocks = [hist[y:y + 2, x:x + 2].reshape(-1) for y in range(cells - 1)
              for x in range(cells - 1)]
    return np.concatenate([b / (np.linalg.norm(b) + 1e-6) for b in blocks])


def face_colour(frame: np.ndarray, cx: float, cy: float, side: float) -> np.ndarray:
    """The mean colour of the middle of a die face of `side` pixels centred on (cx, cy), as
    (L/2, a, b): light counts half, as it changes more with the light than with the die."""
    patch = square_view(frame, cx, cy, max(side * COLOUR_MIDDLE, 1.0), 4)
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).mean(axis=0)
    return np.array([lab[0] / 2, lab[1], lab[2]], np.float32)


def frame_colour(frame: np.ndarray) -> np.ndarray:
    """The frame's median colour (B, G, R; mostly the table's), from about 20,000 pixels."""
    step = max(1, int(math.sqrt(frame.shape[0] * frame.shape[1] / 20000)))
    return np.median(frame[::step, ::step].reshape(-1, 3), axis=0).astype(np.float32)


def body_colour(frame: np.ndarray, cx: float, cy: float, side: float,
                reference: np.ndarray) -> np.ndarray:
    """The colour of a die's body against the frame's (`frame_colour`): the median of the
    middle of its face seen as 4x4 patches (pips, an emblem or a skull cover a few; the body
    most), as each of B, G, R over the frame's - a brighter light or a colour cast changes
    the two alike, so the kinds of dice keep their colours apart."""
    patch = square_view(frame, cx, cy, max(side * COLOUR_MIDDLE, 1.0), 4)
    body = np.median(patch.reshape(-1, 3).astype(np.float32), axis=0)
    return (body / np.maximum(reference, 1.0)).astype(np.float32)


def die_kinds(bodies: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kinds of dice among calibration dice of these body colours (N, 3, `body_colour`):
    each kind's colour (K, 3), the metric that tells them apart (3x3: a die is of the kind
    nearest in it) and each die's kind (N). The colours are split in two (two means, from a
    split along their main axis); seen along the line between the two halves' medians, the
    medians must lie KIND_APART robust spreads apart (each half's median absolute deviation
    x 1.4826, pooled), each half of at least KIND_LEAST dice: then two kinds, told apart
    along that line; else one."""
    count = len(bodies)
    one = (np.median(bodies, axis=0)[None].astype(np.float32) if count
           else np.zeros((0, 3), np.float32), np.eye(3, dtype=np.float32),
           np.zeros(count, np.int32))
    if count < 2 * KIND_LEAST:
        return one
    x = bodies.astype(np.float64)
    z = (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-6)
    kinds = (z @ np.linalg.svd(z, full_matrices=False)[2][0] > 0).astype(np.int32)
    for _step in range(20):
        if min(np.bincount(kinds, minlength=2)) < 1:
            return one
        centres = np.stack([z[kinds == k].mean(axis=0) for k in (0, 1)])
        again = np.linalg.norm(z[:, None] - centres[None], axis=2).argmin(axis=1)
        if np.array_equal(again, kinds):
            break
        kinds = again.astype(np.int32)
    if min(np.bincount(kinds, minlength=2)) < KIND_LEAST:
        return one
    centres = np.stack([np.median(x[kinds == k], axis=0) for k in (0, 1)])
    axis = centres[0] - centres[1]
    axis /= np.linalg.norm(axis) + 1e-12
    seen = x @ axis
    spread = np.sqrt(np.mean([(1.4826 * np.median(np.abs(v - np.median(v)))) ** 2
                              for v in (seen[kinds == 0], seen[kinds == 1])])) + KIND_FLOOR
    if abs(float((centres[0] - centres[1]) @ axis)) < KIND_APART * spread:
        return one
    return (centres.astype(np.float32), (np.outer(axis, axis) / spread ** 2).astype(np.float32),
            kinds)


def four_ways(crop: np.ndarray) -> list[np.ndarray]:
    """Descriptors of a crop turned 0, 90, 180 and 270 degrees."""
    return [describe(np.ascontiguousarray(np.rot90(crop, k))) for k in range(4)]


@dataclass
class Profile:
    """One table's setup: die size, face examples, face map and the values left to the network."""

    kind: str
    die_size: float  # median die side / frame long side on the calibration photos
    features: np.ndarray  # (N, ways, D) float32: each example's looks (icon dice: the HOG of
    # its grey crop 4 ways round; pip dice: the network's features, 7 ways - LOOK_JITTER)
    labels: list[str]  # per example: a pip value "1".."6" (pips) or a face name (icons)
    face_map: dict[int, str]
    colours: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))  # face_colour each
    colour_reach: float = 0.0  # farthest a die's colour is from an example's; 0: not checked
    network_reads: np.ndarray = field(default_factory=lambda: np.zeros((7, 7), np.int32))
    # pip dice: the calibration dice counted by kind of die (K, or none with one kind), the
    # network's read (0: no die) and their value: (K, 7, 7) or (7, 7)
    kinds: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    # pip dice: the body colour (body_colour) of each kind of die on the table, (K, 3); with
    # fewer than two, every die is of one kind
    kind_metric: np.ndarray = field(default_factory=lambda: np.eye(3, dtype=np.float32))
    # pip dice: the metric in which a die is of the kind whose colour is nearest (die_kinds)

    def __post_init__(self) -> None:
        self.network_reads = np.asarray(self.network_reads, np.int32).reshape(-1, 7, 7)
        self.kinds = np.asarray(self.kinds, np.float32).reshape(-1, 3)
        self.kind_metric = np.asarray(self.kind_metric, np.float32).reshape(3, 3)
        if (len(self.kinds) > 1 or len(self.network_reads) > 1) \
                and len(self.kinds) != len(self.network_reads):
            raise ProfileError("profile: the kinds of dice and their reads differ")
        if self.kind not in KINDS:
            raise ProfileError(f"profile kind {self.kind!r}: expected one of {KINDS}")
        if self.features.ndim != 3 or len(self.features) != len(self.labels) \
                or not len(self.labels):
            raise ProfileError("profile: no face examples, or examples and labels differ")
        if not 0 < self.die_size <= 1:
            raise ProfileError(f"profile: die size {self.die_size} is not a part of the frame")
        if self.kind == "icons":
            missing = [f for f in FACES if f not in self.labels]
            if missing:
                raise ProfileError(f"profile: no examples of {', '.join(missing)}; teach them")
        self._codes = {label: k for k, label in enumerate(sorted(set(self.labels)))}
        self._names = sorted(self._codes)
        self._index = np.array([self._codes[label] for label in self.labels], np.int32)

    def die_px(self, frame_shape: tuple[int, ...]) -> float:
        """The expected die side in pixels of a frame of this shape."""
        return self.die_size * max(frame_shape[:2])

    def nearest(self, crop: np.ndarray) -> tuple[str, float]:
        """The label of the example nearest a grey face crop (icon dice), and a confidence."""
        return self.nearest_to(describe(crop))

    def nearest_to(self, look: np.ndarray) -> tuple[str, float]:
        """The label of the example nearest a look (each example at its best turn), and a
        confidence: a softmax over each label's nearest distance."""
        return self.example(self.distances(look[None])[0])

    def distances(self, looks: np.ndarray) -> np.ndarray:
        """Each label's nearest example's distance (at its best turn) from each of some looks:
        (M, D) -> (M, labels in `example`'s order), in one matrix product."""
        flat = self.features.reshape(-1, self.features.shape[-1])
        square = (looks ** 2).sum(axis=1)[:, None] + (flat ** 2).sum(axis=1)[None] \
            - 2 * looks @ flat.T
        dist = np.sqrt(np.maximum(square, 0)).reshape(len(looks), *self.features.shape[:2])
        dist = dist.min(axis=2)
        return np.stack([dist[:, self._index == code].min(axis=1)
                         for code in range(len(self._names))], axis=1)

    def example(self, near: np.ndarray) -> tuple[str, float]:
        """The label nearest a look, given its `distances`, and a confidence: a softmax over
        the labels' distances."""
        weights = np.exp((near.min() - near) / SOFTNESS)
        best = int(np.argmin(near))
        return self._names[best], float(weights[best] / weights.sum())

    def weigh(self, near: np.ndarray, network_read: int, kind: int = 0) -> tuple[int, float]:
        """A pip die of `kind` the network reads as `network_read` (1..6), its look at
        `distances` `near`: its value and how likely that is, among that read and the custom
        faces of its kind it may show, each weighed by how often calibration saw the network
        read that value's dice of that kind so (+1) and by how near the look is to its
        examples (a value with none: as near as the look is to anything else)."""
        values = [network_read] + [v for v in self.custom_of(kind) if v != network_read
                                   and self.may_show_custom(v, network_read, kind)]
        weighed = {str(v) for v in values}
        others = [d for label, d in zip(self._names, near) if label not in weighed]
        dist = np.array([near[self._codes[str(v)]] if str(v) in self._codes
                         else min(others, default=near.max()) for v in values])
        scores = (self._reads[kind][network_read, values] + 1) * np.exp(
            (dist.min() - dist) / PIP_SOFTNESS)
        best = int(np.argmax(scores))
        return values[best], float(scores[best] / scores.sum())

    @cached_property
    def _reads(self) -> np.ndarray:
        """Per kind of die, how the network read its calibration dice, (K, 7, 7): of each
        value, the kind's own dice where it had at least KIND_SHOWN of them, else every
        kind's (a kind's value seen once says little; worked out once)."""
        pooled = self.network_reads.sum(axis=0)
        own = self.network_reads.sum(axis=1, keepdims=True) >= KIND_SHOWN  # (K, 1, 7)
        return np.where(own, self.network_reads, pooled[None]).astype(np.int32)

    @cached_property
    def _custom(self) -> tuple[tuple[int, ...], ...]:
        """Per kind of die, its custom pip values (worked out once)."""
        return tuple(tuple(v for v in range(1, 7) if reads[:, v].sum()
                           and reads[v, v] < MIN_RECALL * reads[:, v].sum())
                     for reads in self._reads)

    def custom_of(self, kind: int = 0) -> tuple[int, ...]:
        """Pip values with custom faces on dice of `kind`, read from the examples: those whose
        calibration dice of that kind (of every kind, where it showed the value fewer than
        KIND_SHOWN times) the network read as labelled less than MIN_RECALL of the time (a
        blue kind's skull on the 1 is custom beside a white kind's one pip)."""
        return self._custom[kind]

    @property
    def custom(self) -> tuple[int, ...]:
        """Pip values with custom faces on any kind of die."""
        return tuple(sorted({v for values in self._custom for v in values}))

    def die_kind(self, body: np.ndarray | None) -> int:
        """The kind of die whose body colour is nearest `body` (`body_colour`) in the metric
        calibration found (0 with one kind, or none)."""
        if len(self.kinds) < 2 or body is None:
            return 0
        gaps = self.kinds - body
        return int(np.einsum("ki,ij,kj->k", gaps, self.kind_metric, gaps).argmin())

    def may_show_custom(self, value: int, network_read: int, kind: int = 0) -> bool:
        """Whether a die of `kind` the network reads as `network_read` (0: no die) may show
        the custom face `value`: calibration saw that face's dice of that kind read so, or
        never saw the network read its own value right on that kind (a die it reads as a
        value it reads right is that value)."""
        reads = self._reads[kind]
        return bool(reads[network_read, value] or not reads[network_read, network_read])

    def has_dice_colour(self, colour: np.ndarray) -> bool:
        """Whether a face's colour is near one of the examples' (a letter, a sticker or a
        cable of another colour is not one of this table's dice)."""
        if not self.colour_reach or not len(self.colours):
            return True
        return float(np.linalg.norm(self.colours - colour, axis=1).min()) <= self.colour_reach

    def counts(self) -> dict[str, int]:
        """Examples per label."""
        return {label: self.labels.count(label) for label in self._names}

    def save(self, path: str | Path) -> Path:
        """Write the profile as a compressed .npz, creating the folder, atomically and never
        through a link, onto a device or into a FIFO (companion.files.write_atomically);
        ProfileError naming the file when something not a regular file stands there."""
        path = Path(path)
        meta = {"kind": self.kind, "version": PROFILE_VERSION, "die_size": self.die_size,
                "colour_reach": self.colour_reach,
                "face_map": {str(v): f for v, f in self.face_map.items()}}
        data = io.BytesIO()
        np.savez_compressed(data, features=self.features.astype(np.float32),
                            labels=np.array(self.labels, dtype="U8"),
                            colours=self.colours.astype(np.float32),
                            network_reads=self.network_reads.astype(np.int32),
                            kinds=self.kinds.astype(np.float32),
                            kind_metric=self.kind_metric.astype(np.float32),
                            meta=np.array(json.dumps(meta)))
        try:
            write_atomically(path, data.getvalue())
        except JsonFileError as error:
            raise ProfileError(str(error)) from None
        return path

    @classmethod
    def load(cls, path: str | Path) -> Profile:
        """Read a saved profile, or ProfileError naming the file."""
        path = Path(path)
        if not path.is_file():
            raise ProfileError(f"{path}: no profile yet; make one with `phoenix-dice calibrate` "
                               "(or teach icon dice with `phoenix-dice teach`)")
        try:
            arrays = _read_arrays(path)
            features, labels = arrays["features"], [str(x) for x in arrays["labels"]]
            colours = np.asarray(arrays["colours"], np.float32).reshape(-1, 3)
            reads = np.asarray(arrays["network_reads"], np.int32).reshape(-1, 7, 7) \
                if "network_reads" in arrays else None
            kinds = np.asarray(arrays.get("kinds", np.zeros((0, 3))), np.float32).reshape(-1, 3)
            metric = np.asarray(arrays.get("kind_metric", np.eye(3)), np.float32).reshape(3, 3)
            meta = json.loads(str(arrays["meta"]))
            if not isinstance(meta, dict) or not isinstance(meta.get("face_map"), dict):
                raise ValueError(_("its metadata is not an object with a face map"))
            if meta.get("version") not in READ_VERSIONS:
                raise ProfileError(f"{path}: made by another version of phoenix-dice; calibrate "
                                   "again (or teach the icon dice again)")
            if reads is None and meta["kind"] == "pips":  # made before the calibrated search
                raise ProfileError(f"{path}: made by an earlier version of phoenix-dice; "
                                   "calibrate again")
            die_size, reach = float(meta["die_size"]), float(meta["colour_reach"])
            features = np.asarray(features, np.float32)
            if not (np.isfinite(features).all() and np.isfinite(colours).all()
                    and np.isfinite(kinds).all() and np.isfinite(metric).all()
                    and np.isfinite([die_size, reach]).all()) or reach < 0 \
                    or (reads is not None and (reads < 0).any()):
                raise ValueError(_("it holds numbers that are not finite or are negative"))
            profile = cls(str(meta["kind"]), die_size, features, labels,
                          parse_face_map({int(v): f for v, f in meta["face_map"].items()}),
                          colours, reach,
                          np.zeros((7, 7), np.int32) if reads is None else reads, kinds, metric)
        except ProfileError as exc:
            if str(exc).startswith(str(path)):
                raise
            raise ProfileError(f"{path}: not a readable profile ({exc}); calibrate "
                               "again") from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError, EOFError,
                RecursionError, OverflowError, zipfile.BadZipFile, FaceMapError) as exc:
            raise ProfileError(f"{path}: not a readable profile ({exc or 'empty'}); calibrate "
                               "again") from None
        return profile


def _read_arrays(path: Path) -> dict[str, np.ndarray]:
    """The arrays of a profile's .npz, each checked before it is unpacked (vision.limits): the
    file's size, each member's size as the zip declares it (zipfile never unpacks more), and
    the size the array's own header claims (never more than its member holds). TooLarge or
    ValueError for a file that is too large, has pickles or is damaged."""
    check_file_size(path, MAX_PROFILE_BYTES, _("a calibration profile"))
    arrays: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(path) as archive:
        members = [m for m in archive.infolist() if m.filename.endswith(".npy")]
        if sum(m.file_size for m in members) > MAX_PROFILE_ARRAY_BYTES or any(
                m.file_size > MAX_ARRAY_BYTES for m in members):
            raise TooLarge(_("it unpacks to more than a calibration profile can hold ({most} "
                             "MB)").format(most=MAX_PROFILE_ARRAY_BYTES // (1024 * 1024)))
        for member in members:
            with archive.open(member) as handle:
                version = np.lib.format.read_magic(handle)
                if version == (1, 0):
                    shape, _fortran, dtype = np.lib.format.read_array_header_1_0(handle)
                else:
                    shape, _fortran, dtype = np.lib.format.read_array_header_2_0(handle)
                if dtype.hasobject:
                    raise ValueError(_("{name} holds objects, not numbers").format(
                        name=member.filename))
                if math.prod(shape) * dtype.itemsize > member.file_size:
                    raise ValueError(_("{name} claims more numbers than it holds").format(
                        name=member.filename))
            with archive.open(member) as handle:
                arrays[member.filename[:-4]] = np.lib.format.read_array(handle,
                                                                        allow_pickle=False)
    return arrays
