"""Icon dice (the game's own Terran Expedition dice): find them, and read them with a profile.

Pipeline (parameters in `IconParams`):
1. scale     - the frame to `work_side` px on its long side;
2. segment   - pixels far (in Lab) from the local tray colour (a heavily blurred copy) -> mask;
3. clean     - open then close the mask, keep square-ish blobs of die size;
4. rectify   - each blob's rotated rectangle, shrunk to the top face, warped to a square crop;
5. classify  - the profile's nearest examples (`vision.profile`: HOG of the grey crop, k-nearest
               neighbours in numpy, each example 4 ways round).
Teaching the faces is a calibration (`vision.calibrate.Calibrator.add_shown`); the taught profile
lives in the user's data folder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.faces import Die, Reading
from vision.frames import as_bgr, darkness_hint
from vision.profile import CROP_SIDE, Profile


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


def default_model_path() -> Path:
    """The taught icon profile in the user's data folder (companion.paths, no game logic)."""
    from companion.paths import dice_profile  # the one app helper vision uses

    return dice_profile("icons")


def find_faces(frame: np.ndarray, params: IconParams | None = None
               ) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """Each die's top face as (grey square crop, box in frame pixels)."""
    p = params or IconParams()
    frame = as_bgr(frame)
    scale = p.work_side / max(frame.shape[:2])
    work = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    small = cv2.resize(work, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    tray = cv2.medianBlur(small, p.background_blur | 1)
    tray = cv2.resize(tray, (work.shape[1], work.shape[0]), interpolation=cv2.INTER_LINEAR)
    diff = cv2.absdiff(cv2.cvtColor(work, cv2.COLOR_BGR2LAB),
                       cv2.cvtColor(tray, cv2.COLOR_BGR2LAB)).astype(np.float32)
    contrast_sq = cv2.transform(diff * diff, np.ones((1, 3), np.float32))  # squared Lab distance
    mask = (contrast_sq > p.min_contrast**2).astype(np.uint8) * 255
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
        s = CROP_SIDE / side
        m = cv2.getRotationMatrix2D((cx, cy), angle, s)
        m[:, 2] += (CROP_SIDE / 2 - cx, CROP_SIDE / 2 - cy)
        crop = cv2.warpAffine(grey, m, (CROP_SIDE, CROP_SIDE), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_REPLICATE)
        x, y, bw, bh = cv2.boundingRect(contour)
        box = (round(x / scale), round(y / scale), round((x + bw) / scale),
               round((y + bh) / scale))
        faces.append((crop, box))
    faces.sort(key=lambda f: (f[1][1], f[1][0]))
    return faces


class IconReader:
    """Reads icon dice with a taught (icons) profile: face per die, no pip value."""

    def __init__(self, profile: Profile, params: IconParams | None = None) -> None:
        """`profile`: what `phoenix-dice teach` or `calibrate` learned of the faces."""
        if profile.kind != "icons":
            raise ValueError(f"a {profile.kind} profile cannot read icon dice")
        self.profile = profile
        self.params = params or IconParams()

    def read(self, frame: np.ndarray) -> Reading:
        """All icon dice in the frame; none, with a hint, when it is too dark (a dark tray with
        dice on it is read all the same)."""
        frame = as_bgr(frame)
        dice = []
        for crop, box in find_faces(frame, self.params):
            face, confidence = self.profile.nearest(crop)
            dice.append(Die(None, face, box, confidence))
        return Reading(tuple(dice), None if dice else darkness_hint(frame))

    def follower(self) -> Callable[[np.ndarray], Reading]:
        """A read function for one camera's frames in turn (icon dice need no memory of the
        last frame: this is `read`)."""
        return self.read


def shown_reader(face: Callable[[], str], params: IconParams | None = None
                 ) -> Callable[[np.ndarray], Reading]:
    """Teaching: a read function that gives every die found the face `face()` names (the face
    the player turned up on every die), before any profile exists."""
    params = params or IconParams()

    def read(frame: np.ndarray) -> Reading:
        frame = as_bgr(frame)
        dice = tuple(Die(None, face(), box, 1.0) for _crop, box in find_faces(frame, params))
        return Reading(dice, None if dice else darkness_hint(frame))

    return read
