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

FACE_PX = 96  # face texture side before warping
SYMBOL_INK = (35, 35, 35)


def draw_symbol(face: str, colour: tuple[int, int, int] = (225, 225, 215)) -> np.ndarray:
    """A FACE_PX square die face (rounded corners not drawn) carrying one symbol."""
    img = np.full((FACE_PX, FACE_PX, 3), colour, np.uint8)
    c, ink = FACE_PX // 2, SYMBOL_INK
    if face == "food":  # an apple: round body, stem and leaf
        cv2.circle(img, (c, c + 6), 26, ink, -1, cv2.LINE_AA)
        cv2.line(img, (c, c - 20), (c + 4, c - 34), ink, 5, cv2.LINE_AA)
        cv2.ellipse(img, (c + 14, c - 30), (10, 5), -30, 0, 360, ink, -1, cv2.LINE_AA)
    elif face == "water":  # a drop: circle with a pointed top
        cv2.circle(img, (c, c + 12), 22, ink, -1, cv2.LINE_AA)
        pts = np.array([[c - 20, c + 4], [c, c - 36], [c + 20, c + 4]], np.int32)
        cv2.fillConvexPoly(img, pts, ink, cv2.LINE_AA)
    elif face == "metal":  # a hexagonal nut with a hole
        pts = np.array([[c + 30 * math.cos(a), c + 30 * math.sin(a)]
                        for a in np.linspace(0, 2 * math.pi, 7)[:-1]], np.int32)
        cv2.fillConvexPoly(img, pts, ink, cv2.LINE_AA)
        cv2.circle(img, (c, c), 12, colour, -1, cv2.LINE_AA)
    elif face == "human":  # a figure: head, body, arms and legs
        cv2.circle(img, (c, c - 24), 10, ink, -1, cv2.LINE_AA)
        cv2.line(img, (c, c - 12), (c, c + 14), ink, 8, cv2.LINE_AA)
        cv2.line(img, (c - 22, c - 4), (c + 22, c - 4), ink, 6, cv2.LINE_AA)
        cv2.line(img, (c, c + 12), (c - 14, c + 36), ink, 6, cv2.LINE_AA)
        cv2.line(img, (c, c + 12), (c + 14, c + 36), ink, 6, cv2.LINE_AA)
    else:
        raise ValueError(f"unknown face {face!r}")
    return img


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
