"""Pip dice reader: a tiny centre detector, then a tiny crop classifier, both run by cv2.dnn.

Pipeline (parameters in `PipParams`):
1. scale   - the frame to `work_side` px on its long side, unless the die size (the profile's,
              else a coarse segmentation's estimate) says dice would then be outside
              `usual_die`: then so that they are `size_ref` px across;
2. detect  - the half-size frame through `dice_detector.onnx` -> centre heat map, offset, size;
3. peaks   - local maxima of the heat map above `det_threshold`, near-duplicates dropped;
4. crop    - a square of `context` x die size around each centre, resized to 40x40;
5. classify- the crops through `dice_pips.onnx` -> not-a-die or 1..6 (top face only); an
              unsure crop gets a second look turned 90/180/270 degrees, averaged;
6. recall  - with a profile that has custom faces (values whose dice the network misread on
              that setup), each die is looked up among its examples; a die they call custom
              is read as that value;
7. report  - dice with their face from the face map, box and confidence in frame pixels.
The networks are trained by `vision.training.train_pips` (see docs/dice.md).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.faces import Die, Reading, parse_face_map
from vision.frames import as_bgr, darkness_hint
from vision.icons import estimate_die_px
from vision.profile import Profile, face_crop

MODEL_DIR = Path(__file__).parent / "models"
DETECTOR_FILE = "dice_detector.onnx"
CLASSIFIER_FILE = "dice_pips.onnx"


@dataclass(frozen=True)
class PipParams:
    """Every tunable number of the pip reader, in one place."""

    work_side: int = 640  # frame long side the networks were trained at
    stride: int = 8  # detector cell, in work pixels
    size_ref: float = 40.0  # die size (work px) whose log-size output is 0
    det_threshold: float = 0.3  # minimum centre score for a candidate die
    min_separation: float = 0.5  # candidates closer than this x die size are one die
    context: float = 1.25  # crop side / die size for the classifier
    crop_side: int = 40  # classifier input side
    max_background: float = 0.5  # drop a candidate whose not-a-die probability is above this
    max_candidates: int = 60  # at most this many candidates per frame
    second_look_below: float = 0.9  # re-read crops less sure than this, 4 ways round, averaged
    max_work_side: int = 2560  # a die-size scale never makes the work frame larger than this
    usual_die: tuple[float, float] = (24.0, 64.0)  # die sizes (work px) read at `work_side`


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
        self.face_map = parse_face_map(face_map if face_map or not profile else profile.face_map)
        self.params = params or PipParams()
        folder = Path(model_dir) if model_dir else MODEL_DIR
        self.detector = _load_net(folder / DETECTOR_FILE)
        self.classifier = _load_net(folder / CLASSIFIER_FILE)

    def read(self, frame: np.ndarray) -> Reading:
        """All dice in a BGR (or grey/BGRA) frame, with a hint when it is too dark to read."""
        frame = as_bgr(frame)
        hint = darkness_hint(frame)
        if hint:
            return Reading((), hint)
        p = self.params
        scale = self.work_scale(frame)
        work = cv2.resize(frame, None, fx=scale, fy=scale,
                          interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        centres = self._detect(work)
        if not centres:
            return Reading(())
        probs = self.classify(work, centres)
        grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY) if self.profile else None
        dice = []
        for (cx, cy, size, _score), prob in zip(centres, probs):
            if prob[0] > p.max_background:
                continue
            value = int(np.argmax(prob[1:])) + 1
            confidence = float(prob[value])
            if self.profile and self.profile.custom:
                label, knn_confidence = self.profile.nearest(face_crop(grey, cx, cy, size))
                if int(label) in self.profile.custom:
                    value, confidence = int(label), knn_confidence
            half = size / 2 / scale
            box = (
                max(0, round(cx / scale - half)),
                max(0, round(cy / scale - half)),
                min(frame.shape[1], round(cx / scale + half)),
                min(frame.shape[0], round(cy / scale + half)),
            )
            dice.append(Die(value, self.face_map[value], box, confidence))
        dice.sort(key=lambda d: (d.box[1], d.box[0]))
        return Reading(tuple(dice))

    def work_scale(self, frame: np.ndarray) -> float:
        """Frame -> work scale: dice to `size_ref` px when the profile says how big they are,
        or when the estimated size is unusual at `work_side`; else the long side to
        `work_side` px."""
        p = self.params
        long_side = max(frame.shape[:2])
        scale = p.work_side / long_side
        die_px = self.profile.die_px(frame.shape) if self.profile else estimate_die_px(frame)
        if die_px is None or (not self.profile and
                              p.usual_die[0] <= die_px * scale <= p.usual_die[1]):
            return scale
        return min(p.size_ref / die_px, p.max_work_side / long_side)

    def _detect(self, work: np.ndarray) -> list[tuple[float, float, float, float]]:
        """Candidate dice as (x, y, size, score) in work pixels."""
        p = self.params
        half = cv2.resize(work, (work.shape[1] // 2, work.shape[0] // 2),
                          interpolation=cv2.INTER_AREA)
        pad_h, pad_w = (-half.shape[0]) % 16, (-half.shape[1]) % 16
        half = cv2.copyMakeBorder(half, 0, pad_h, 0, pad_w, cv2.BORDER_REFLECT)
        self.detector.setInput(_blob([half]))
        out = self.detector.forward()[0]
        heat = 1 / (1 + np.exp(-out[0]))
        peaks = (heat == cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > p.det_threshold)
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

    def classify(self, work: np.ndarray, centres: list) -> np.ndarray:
        """Softmax over (not-a-die, 1..6) for a crop around each (x, y, size, ...) candidate."""
        p = self.params
        crops = []
        for cx, cy, size, _ in centres:
            s = p.crop_side / (p.context * size)
            m = np.array([[s, 0, p.crop_side / 2 - s * cx], [0, s, p.crop_side / 2 - s * cy]])
            crops.append(cv2.warpAffine(work, m, (p.crop_side, p.crop_side),
                                        flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE))
        probs = self._softmax(crops)
        unsure = np.flatnonzero(probs.max(axis=1) < p.second_look_below)
        if len(unsure):
            turned = [np.ascontiguousarray(np.rot90(crops[i], k))
                      for k in (1, 2, 3) for i in unsure]
            extra = self._softmax(turned).reshape(3, len(unsure), -1)
            probs[unsure] = (probs[unsure] + extra.sum(axis=0)) / 4
        return probs

    def _softmax(self, crops: list[np.ndarray]) -> np.ndarray:
        """Classifier softmax for a batch of crops."""
        self.classifier.setInput(_blob(crops))
        logits = self.classifier.forward()
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
