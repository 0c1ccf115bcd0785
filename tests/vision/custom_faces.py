"""SYNTHETIC custom faces on REAL photos: an emblem painted over chosen dice of a fixture photo,
as on dice that carry a maker's emblem in place of a pip face. Only for tests."""

from __future__ import annotations

import cv2
import numpy as np
from synth_dice import FACE_PX, draw_symbol

LIGHT_DIE = 110  # mean die colour above which the emblem is drawn in dark ink
LIGHT_INK = (235, 235, 235)


def paint_emblem(frame: np.ndarray, boxes: list[tuple[float, float, float, float]],
                 emblem: str = "human") -> np.ndarray:
    """A copy of `frame` with the top face of each box replaced by the die's colour carrying
    `emblem` (a synth_dice symbol) in ink that contrasts with it (dark on light dice, light on
    dark ones)."""
    out = frame.copy()
    for x0, y0, x1, y1 in boxes:
        inset = 0.12 * (x1 - x0)
        x0, y0, x1, y1 = x0 + inset, y0 + inset, x1 - inset, y1 - inset
        colour = np.median(frame[int(y0):int(y1), int(x0):int(x1)].reshape(-1, 3), axis=0)
        face = draw_symbol(emblem, tuple(int(c) for c in colour))
        if colour.mean() < LIGHT_DIE:
            face[np.abs(face.astype(int) - colour).sum(axis=2) > 60] = LIGHT_INK
        src = np.float32([[0, 0], [FACE_PX, 0], [FACE_PX, FACE_PX], [0, FACE_PX]])
        dst = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        m = cv2.getPerspectiveTransform(src, dst)
        h, w = frame.shape[:2]
        warped = cv2.warpPerspective(face, m, (w, h), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((FACE_PX, FACE_PX), 255, np.uint8), m, (w, h)) > 127
        out[mask] = warped[mask]
    return out
