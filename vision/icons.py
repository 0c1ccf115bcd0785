"""Icon dice (the game's own Terran Expedition dice): teach the four faces, then read them.

Pipeline (parameters in `IconParams`):
1. scale     - the frame to `work_side` px on its long side;
2. segment   - pixels far (in Lab) from the local tray colour (a heavily blurred copy) -> mask;
3. clean     - open then close the mask, keep square-ish blobs of die size;
4. rectify   - each blob's rotated rectangle, shrunk to the top face, warped to a square crop;
5. describe  - HOG of the grey crop (unsigned gradients: light-on-dark = dark-on-light);
6. classify  - k-nearest neighbours (numpy) against the taught crops (each taught 4 ways round).
What the player taught is an `IconModel`, saved as a small .npz in the user's data folder.
"""

from __future__ import annotations

import math
import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.faces import FACES, Die, Reading
from vision.frames import as_bgr, darkness_hint

MODEL_FILE = "icon-dice.npz"


@dataclass(frozen=True)
class IconParams:
    """Every tunable number of the icon reader, in one place."""

    work_side: int = 640  # frame long side for segmentation
    background_blur: int = 31  # median kernel (on a quarter-size copy) for the tray colour
    min_contrast: float = 28.0  # Lab distance from the tray colour that marks a die pixel
    open_kernel: int = 3
    close_kernel: int = 7
    min_side: float = 18.0  # die side range, work px
    max_side: float = 130.0
    max_aspect: float = 1.6  # longer / shorter side of a die blob
    min_fill: float = 0.6  # blob area / rotated rectangle area
    face_shrink: float = 0.82  # part of the rectangle kept as the top face
    crop_side: int = 32
    neighbours: int = 3
    min_confidence: float = 0.0  # report dice below this as they are (the app may ask)


def default_model_path() -> Path:
    """The icon model in the user's data folder (companion.paths, no game logic)."""
    from companion.paths import data_folder  # the one app helper vision uses

    return data_folder() / MODEL_FILE


class IconModelError(ValueError):
    """A missing, unreadable or incomplete icon model."""


HOG_CELL = 8  # pixels per histogram cell
HOG_BINS = 9  # unsigned orientation bins over 0..180 degrees


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


@dataclass
class IconModel:
    """Taught face crops (grey, square) and their face names."""

    crops: np.ndarray  # (N, side, side) uint8
    labels: list[str]

    def __post_init__(self) -> None:
        if len(self.crops) != len(self.labels):
            raise IconModelError("icon model: crops and labels differ in number")
        missing = [f for f in FACES if f not in self.labels]
        if missing:
            raise IconModelError(f"icon model: no examples of {', '.join(missing)}; teach them")
        bad = sorted({lab for lab in self.labels if lab not in FACES})
        if bad:
            raise IconModelError(f"icon model: unknown faces {bad}")

    def save(self, path: str | Path) -> Path:
        """Write the model as a compressed .npz (no pickles), creating the folder."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            np.savez_compressed(fh, crops=self.crops, labels=np.array(self.labels, dtype="U8"))
        return path

    @classmethod
    def load(cls, path: str | Path) -> IconModel:
        """Read a saved model, or IconModelError naming the file."""
        path = Path(path)
        if not path.is_file():
            raise IconModelError(f"{path}: no icon model yet; run `phoenix-dice teach` first")
        try:
            with np.load(path, allow_pickle=False) as data:
                crops, labels = data["crops"], [str(x) for x in data["labels"]]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
            raise IconModelError(f"{path}: not a readable icon model ({exc or 'empty'}); teach "
                                 "the icons again with `phoenix-dice teach`") from None
        if crops.dtype != np.uint8 or crops.ndim != 3:
            raise IconModelError(f"{path}: icon model crops have the wrong shape")
        return cls(crops, labels)


def find_faces(frame: np.ndarray, params: IconParams | None = None
               ) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """Each die's top face as (grey square crop, box in frame pixels)."""
    p = params or IconParams()
    frame = as_bgr(frame)
    scale = p.work_side / max(frame.shape[:2])
    work = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB).astype(np.float32)
    small = cv2.resize(work, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    tray = cv2.medianBlur(small, p.background_blur | 1)
    tray = cv2.resize(tray, (work.shape[1], work.shape[0]), interpolation=cv2.INTER_LINEAR)
    tray_lab = cv2.cvtColor(tray, cv2.COLOR_BGR2LAB).astype(np.float32)
    contrast = np.linalg.norm(lab - tray_lab, axis=2)
    mask = (contrast > p.min_contrast).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((p.open_kernel,) * 2, np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((p.close_kernel,) * 2, np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    faces = []
    for contour in contours:
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        if not (p.min_side <= min(w, h) and max(w, h) <= p.max_side):
            continue
        if max(w, h) > p.max_aspect * min(w, h):
            continue
        if cv2.contourArea(contour) < p.min_fill * w * h:
            continue
        side = p.face_shrink * min(w, h)
        s = p.crop_side / side
        m = cv2.getRotationMatrix2D((cx, cy), angle, s)
        m[:, 2] += (p.crop_side / 2 - cx, p.crop_side / 2 - cy)
        crop = cv2.warpAffine(grey, m, (p.crop_side, p.crop_side), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_REPLICATE)
        x, y, bw, bh = cv2.boundingRect(contour)
        box = (round(x / scale), round(y / scale), round((x + bw) / scale),
               round((y + bh) / scale))
        faces.append((crop, box))
    faces.sort(key=lambda f: (f[1][1], f[1][0]))
    return faces


class IconTeacher:
    """Collects face crops while the player shows each face kind a few times."""

    def __init__(self, params: IconParams | None = None) -> None:
        """Start with no examples."""
        self.params = params or IconParams()
        self.crops: list[np.ndarray] = []
        self.labels: list[str] = []

    def add(self, frame: np.ndarray, face: str) -> int:
        """Learn every die in the frame as showing `face`; returns how many dice were found."""
        if face not in FACES:
            raise ValueError(f"unknown face {face!r}; expected one of {list(FACES)}")
        found = find_faces(frame, self.params)
        if not found:
            hint = darkness_hint(as_bgr(frame))
            raise IconModelError(f"no die found while teaching {face}" + (f" ({hint})"
                                                                          if hint else ""))
        for crop, _box in found:
            self.crops.append(crop)
            self.labels.append(face)
        return len(found)

    def counts(self) -> dict[str, int]:
        """Examples taught so far per face."""
        return {f: self.labels.count(f) for f in FACES}

    def model(self) -> IconModel:
        """The taught model (IconModelError if a face has no example)."""
        side = self.params.crop_side
        crops = np.stack(self.crops) if self.crops else np.zeros((0, side, side), np.uint8)
        return IconModel(crops, list(self.labels))


class IconReader:
    """Reads icon dice with a taught model: face per die, no pip value."""

    def __init__(self, model: IconModel, params: IconParams | None = None) -> None:
        """Build the nearest-neighbour index from the taught crops, each 4 ways round."""
        self.params = params or IconParams()
        features, labels = [], []
        for crop, label in zip(model.crops, model.labels):
            for k in range(4):
                features.append(describe(np.rot90(crop, k)))
                labels.append(FACES.index(label))
        self.features = np.array(features, np.float32)
        self.labels = np.array(labels, np.int32)
        self.k = max(1, min(self.params.neighbours, len(features)))

    def read(self, frame: np.ndarray) -> Reading:
        """All icon dice in the frame, with a hint when it is too dark."""
        frame = as_bgr(frame)
        hint = darkness_hint(frame)
        if hint:
            return Reading((), hint)
        found = find_faces(frame, self.params)
        if not found:
            return Reading(())
        dice = []
        for crop, box in found:
            dist = np.linalg.norm(self.features - describe(crop), axis=1)
            nearest = np.argsort(dist)[: self.k]
            votes = np.bincount(self.labels[nearest], minlength=len(FACES))
            label = int(np.argmax(votes))
            # agreement of the k neighbours, damped by how far the nearest taught face is
            confidence = votes[label] / self.k * math.exp(-float(dist[nearest[0]]))
            dice.append(Die(None, FACES[label], box, float(confidence)))
        return Reading(tuple(dice))
