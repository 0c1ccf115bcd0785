"""SYNTHETIC renders of icon dice on a tray, made by the tests (no real photos of icon dice).

Each die is a coloured cube face with a simple food / water / metal / Human symbol, a darker
visible side (as a slightly tilted cube shows), placed with rotation and perspective, then the
whole frame gets uneven lighting, blur and sensor noise. Only for tests and demos.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.training.synth import FACE_PX, draw_symbol


@dataclass(frozen=True)
class PlacedDie:
    """Where a synthetic die was drawn: its face and bounding box in pixels."""

    face: str
    box: tuple[int, int, int, int]


def render_tray(
    faces: list[str],
    seed: int = 0,
    size: tuple[int, int] = (640, 480),
    die_px: float = 48.0,
    centres: list[tuple[float, float]] | None = None,
    angles: list[float] | None = None,
    die_colour: tuple[int, int, int] = (225, 225, 215),
    noise: float = 4.0,
) -> tuple[np.ndarray, list[PlacedDie]]:
    """A SYNTHETIC tray photo with one die per face; returns the frame and where each die is."""
    rng = np.random.default_rng(seed)
    w, h = size
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = (120, 135, 150)  # brownish-grey tray felt
    if centres is None:
        cols = max(1, math.ceil(math.sqrt(len(faces) * w / h)))
        rows = max(1, math.ceil(len(faces) / cols))
        cells = [((i % cols + 0.5) * w / cols, (i // cols + 0.5) * h / rows)
                 for i in range(len(faces))]
        jitter = rng.uniform(-0.15, 0.15, (len(cells), 2)) * (w / cols, h / rows)
        centres = [(x + jx, y + jy) for (x, y), (jx, jy) in zip(cells, jitter)]
    if angles is None:
        angles = [float(rng.uniform(0, 360)) for _ in faces]
    placed = []
    for face, (cx, cy), angle in zip(faces, centres, angles):
        half = die_px / 2
        a = math.radians(angle)
        corners = np.array([[cx + half * (math.cos(a) * dx - math.sin(a) * dy),
                             cy + half * (math.sin(a) * dx + math.cos(a) * dy)]
                            for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float32)
        corners += rng.normal(0, die_px * 0.03, corners.shape).astype(np.float32)  # perspective
        side = corners + np.array([die_px * 0.12, die_px * 0.16], np.float32)
        side_colour = tuple(int(v * 0.6) for v in die_colour)
        cv2.fillConvexPoly(frame, cv2.convexHull(np.vstack([corners, side])).astype(np.int32),
                           side_colour, cv2.LINE_AA)
        texture = draw_symbol(face, die_colour)
        src = np.array([[0, 0], [FACE_PX, 0], [FACE_PX, FACE_PX], [0, FACE_PX]], np.float32)
        m = cv2.getPerspectiveTransform(src, corners)
        warped = cv2.warpPerspective(texture, m, (w, h), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((FACE_PX, FACE_PX), 255, np.uint8), m, (w, h))
        frame[mask > 127] = warped[mask > 127]
        x0, y0 = np.floor(np.minimum(corners.min(0), side.min(0))).astype(int)
        x1, y1 = np.ceil(np.maximum(corners.max(0), side.max(0))).astype(int)
        placed.append(PlacedDie(face, (int(x0), int(y0), int(x1), int(y1))))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1.0 + 0.18 * (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))  # uneven lighting
    out = frame.astype(np.float32) * light[..., None]
    out = cv2.GaussianBlur(out, (0, 0), 0.8)
    out += rng.normal(0, noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8), placed
