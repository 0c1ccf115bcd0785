"""SYNTHETIC dice photos: setups never photographed, for training and measuring the reader.

    python -m vision.training.synth OUT --count 400 [--seed 0] [--size 640x480] \
        [--tilt 40-60] [--fov 50] [--negatives board,tokens,cards,cloth] \
        [--abut 0.3] [--stack 0.1] [--lean 0.1]

writes OUT/synth-NNNNN.jpg and OUT/labels.json in the format `phoenix-dice bench` reads (each
die's top face: its box, its value 1..6 for pip dice, its face for icon dice, and `"hard":
true` where that face cannot fairly be read: mostly hidden, cut by the frame, seen too nearly
edge-on, or a die leaning on another). Only numpy and OpenCV, so it runs in the app's venv too
(the tests render their frames with it).

One scene, step by step (every number in `SynthParams`):
1. table     - a procedural surface: wood grain, felt, a tray with a rim, tiles or a gradient;
2. clutter   - hard negatives: key caps with letters, cables with beads, printed text, stickers;
3. camera    - a tilt off vertical in `tilt` (on `tilted` of the scenes) and a roll; far away
               (weak perspective) or, with `fov`, a pinhole camera whose near dice are larger;
               one die size of `die_px` for the scene (at the frame's centre);
4. negatives - with `negatives`: things printed flat on the table, seen in the same
               perspective: a game board with dotted tracks, number tokens with dots, playing
               cards, a patterned cloth (no labels);
5. dice      - cubes with body and pip colours, rounded corners, pips, icon faces or an emblem
               in place of a face, turned about the vertical; apart, touching in clusters, face
               to face (`abut`), one on another (`stack`) or leaning on another (`lean`);
6. light     - faces shaded by their angle to one light, a soft shadow cast on the table;
7. labels    - each die's top face; `hard` where it is hidden (`min_visible`), cut by the
               frame (`min_inside`), too edge-on (`max_view`) or leaning;
8. sensor    - uneven light, blur, noise, a colour cast and JPEG.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

FACE_PX = 96  # face texture side before warping
SYMBOL_INK = (35, 35, 35)
ICON_FACES = ("food", "water", "metal", "human")
PIP_SPOTS = {  # pip centres on a face, as fractions of its side
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}
NEIGHBOURS = {1: (2, 3, 5, 4), 2: (1, 3, 6, 4), 3: (1, 2, 6, 5),  # faces around each top face
              4: (1, 2, 6, 5), 5: (1, 3, 6, 4), 6: (2, 3, 5, 4)}


@dataclass(frozen=True)
class SynthParams:
    """Every number of a scene's randomness, in one place."""

    die_px: tuple[float, float] = (12.0, 150.0)  # top-face side in the frame (log-uniform)
    dice: tuple[int, int] = (1, 16)  # dice per scene
    tilt: tuple[float, float] = (0.0, 30.0)  # camera degrees off vertical, when tilted
    tilted: float = 0.6  # chance a scene's camera is tilted (else it looks straight down)
    fov: float = 0.0  # horizontal field of view, degrees (0: a far camera, weak perspective)
    touching: float = 0.35  # chance a die is put against the one before
    abut: float = 0.0  # chance a die is put face to face with the one before (same turn)
    stack: float = 0.0  # chance a die has another one lying on it
    lean: float = 0.0  # chance a die has another one leaning on its near side
    lean_angle: tuple[float, float] = (15.0, 35.0)  # a leaning die's degrees off flat
    icon_dice: float = 0.15  # chance a scene's dice carry icon faces, not pips
    emblem: float = 0.15  # chance a pip set has an emblem in place of its 1 or 6
    clutter: tuple[int, int] = (0, 6)  # distractors per scene
    negatives: tuple[str, ...] = ()  # printed things flat on the table (NEGATIVES)
    negative_chance: float = 0.8  # chance each kind named is in a scene
    tokens: tuple[int, int] = (2, 8)  # number tokens per scene (when in it)
    cards: tuple[int, int] = (1, 4)  # playing cards per scene (when in it)
    min_visible: float = 0.8  # a top face less visible than this (hidden by dice) is hard
    min_inside: float = 0.9  # ... and one less inside the frame than this
    max_view: float = 66.0  # ... and one seen at more degrees than this off its normal
    jpeg_quality: tuple[int, int] = (60, 95)


NEGATIVES = ("board", "tokens", "cards", "cloth")
SIDE_SHOWN = 0.5  # a side face this large against the top (in the frame) is labelled a side


@dataclass(frozen=True)
class SynthDie:
    """A die drawn: its top face's box in pixels, its value (pip dice) or face (icon dice);
    `hard` when that face cannot fairly be read (the bench does not demand it)."""

    box: tuple[float, float, float, float]
    value: int | None = None
    face: str | None = None
    hard: bool = False
    sides: tuple[tuple[float, float, float, float], ...] = ()  # side faces shown large

    def label(self, width: int, height: int) -> dict:
        """The die as `labels.json` writes it (boxes normalised to 0..1)."""

        def part(box: tuple[float, float, float, float]) -> list[float]:
            x0, y0, x1, y1 = box
            return [round(x0 / width, 5), round(y0 / height, 5),
                    round(x1 / width, 5), round(y1 / height, 5)]

        found: dict = {"box": part(self.box)}
        if self.sides:
            found["sides"] = [part(box) for box in self.sides]
        if self.value is not None:
            found["value"] = self.value
        if self.face is not None:
            found["face"] = self.face
        if self.hard:
            found["hard"] = True
        return found


class Drawn(NamedTuple):
    """A die as drawn, with what judging its label needs: the top face's corners in the
    frame, its pixels when drawn (before nearer dice covered any), its degrees off the view."""

    die: SynthDie
    top: np.ndarray
    pixels: int
    view: float


@dataclass(frozen=True)
class DiceSet:
    """How one set of dice looks: colours, corner rounding, and what its faces carry."""

    body: tuple[int, int, int]
    ink: tuple[int, int, int]
    radius: float  # corner radius as a part of the side
    icons: bool = False
    emblem_on: int | None = None  # the value whose face carries an emblem instead of pips
    emblem: str = "human"


# -- faces ---------------------------------------------------------------------------------------


def draw_symbol(face: str, colour: tuple[int, int, int] = (225, 225, 215),
                ink: tuple[int, int, int] = SYMBOL_INK) -> np.ndarray:
    """A FACE_PX square die face carrying one expedition symbol (food, water, metal, human)."""
    img = np.full((FACE_PX, FACE_PX, 3), colour, np.uint8)
    c = FACE_PX // 2
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


def draw_pips(value: int, colour: tuple[int, int, int], ink: tuple[int, int, int],
              pip: float = 0.095) -> np.ndarray:
    """A FACE_PX square die face with `value` pips (`pip`: radius as a part of the side)."""
    img = np.full((FACE_PX, FACE_PX, 3), colour, np.uint8)
    for fx, fy in PIP_SPOTS[value]:
        centre = (round(fx * FACE_PX * 16), round(fy * FACE_PX * 16))
        cv2.circle(img, centre, round(pip * FACE_PX * 16), ink, -1, cv2.LINE_AA, 4)
    return img


def face_texture(dice: DiceSet, value: int) -> tuple[np.ndarray, np.ndarray]:
    """A face of `dice` showing `value` and its mask (rounded corners cut away)."""
    if dice.icons:
        img = draw_symbol(ICON_FACES[(value - 1) % len(ICON_FACES)], dice.body, dice.ink)
    elif value == dice.emblem_on:
        img = draw_symbol(dice.emblem, dice.body, dice.ink)
    else:
        img = draw_pips(value, dice.body, dice.ink)
    return img, rounded_mask(FACE_PX, FACE_PX, max(1, round(dice.radius * FACE_PX)))


def rounded_mask(w: int, h: int, r: int) -> np.ndarray:
    """A w x h mask of a rectangle with corners rounded to radius `r`."""
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (x, y), r, 255, -1, cv2.LINE_AA)
    return mask


def icon_face(dice: DiceSet, value: int) -> str | None:
    """The expedition face an icon die showing `value` carries (None for pip dice)."""
    return ICON_FACES[(value - 1) % len(ICON_FACES)] if dice.icons else None


# -- the camera ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    """A camera over the table: tilt off vertical, roll, frame centre, and its `distance` from
    the table point at the frame's centre in pixels of focal length (a pinhole camera whose
    near dice are larger), or 0 for a far camera (weak perspective). A table unit is a frame
    pixel at the frame's centre either way."""

    tilt: float  # degrees
    roll: float  # degrees
    centre: tuple[float, float]
    distance: float = 0.0

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table points (x, y along the table, z up) in frame pixels."""
        t, r = math.radians(self.tilt), math.radians(self.roll)
        u = points[:, 0]
        v = -(points[:, 1] * math.cos(t) + points[:, 2] * math.sin(t))
        if self.distance:  # the camera at (0, -D sin t, D cos t), looking at the origin
            depth = self.distance + points[:, 1] * math.sin(t) - points[:, 2] * math.cos(t)
            scale = self.distance / np.maximum(depth, 1e-3 * self.distance)
            u, v = u * scale, v * scale
        cx, cy = self.centre
        return np.stack([cx + u * math.cos(r) - v * math.sin(r),
                         cy + u * math.sin(r) + v * math.cos(r)], 1).astype(np.float32)

    def on_table(self, pixels: np.ndarray) -> np.ndarray:
        """Frame pixels (N x 2) back on the table (z = 0); NaN above the horizon."""
        t, r = math.radians(self.tilt), math.radians(self.roll)
        du = pixels[:, 0] - self.centre[0]
        dv = pixels[:, 1] - self.centre[1]
        u = du * math.cos(r) + dv * math.sin(r)
        v = -du * math.sin(r) + dv * math.cos(r)
        if not self.distance:
            return np.stack([u, -v / math.cos(t)], 1)
        d = self.distance
        below = d * math.cos(t) + v * math.sin(t)
        y = np.where(below > 1e-3 * d, -v * d / np.maximum(below, 1e-9), np.nan)
        return np.stack([u * (d + y * math.sin(t)) / d, y], 1)

    def _toward(self, point: np.ndarray) -> np.ndarray:
        """The unit direction from a table point (x, y, z) toward the camera."""
        t = math.radians(self.tilt)
        if not self.distance:
            return np.array([0.0, -math.sin(t), math.cos(t)])
        eye = np.array([0.0, -self.distance * math.sin(t), self.distance * math.cos(t)])
        ray = eye - point
        return ray / np.linalg.norm(ray)

    def faces_camera(self, normal: tuple[float, float],
                     point: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> bool:
        """Whether a side face with this outward table normal, centred at `point`, is seen (it
        faces the camera)."""
        if not self.distance:
            return self.tilt > 0.5 and normal[1] < -1e-6
        return self.sees(np.array([normal[0], normal[1], 0.0]), np.array(point, float))

    def sees(self, normal: np.ndarray, point: np.ndarray) -> bool:
        """Whether any face with this outward normal (x, y, z) at `point` faces the camera."""
        return float(normal @ self._toward(point)) > 1e-6

    def view_angle(self, point: np.ndarray) -> float:
        """Degrees between the vertical at a table point and the ray to the camera (how
        edge-on a top face there is seen)."""
        return math.degrees(math.acos(min(1.0, max(-1.0, float(self._toward(point)[2])))))


# -- drawing -------------------------------------------------------------------------------------


def paste(frame: np.ndarray, texture: np.ndarray, mask: np.ndarray, corners: np.ndarray,
          shade: float = 1.0) -> None:
    """Warp a texture (a FACE_PX square face, or any flat thing) onto the frame's
    quadrilateral `corners`, its top-left corner first (anti-aliased edge)."""
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    th, tw = texture.shape[:2]
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    m = cv2.getPerspectiveTransform(src, corners - np.float32([x0, y0]))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(texture, m, size, flags=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    region = frame[y0:y1, x0:x1].astype(np.float32)
    region += alpha[..., None] * (warped * shade - region)
    frame[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


def own(owner: np.ndarray | None, corners: np.ndarray, ident: int) -> int:
    """Mark a drawn face's pixels in the `owner` map (a die's top face: its number, any other
    face: minus it); the pixels it now owns."""
    if owner is None:
        return 0
    cv2.fillConvexPoly(owner, np.round(corners * 16).astype(np.int32), ident, cv2.LINE_8, 4)
    return int(np.count_nonzero(owner == ident)) if ident > 0 else 0


def draw_die(frame: np.ndarray, camera: Camera, dice: DiceSet, centre: tuple[float, float],
             side: float, turn: float, value: int, light: tuple[float, float],
             rng: np.random.Generator) -> SynthDie:
    """A cube of `side` at table point `centre`, turned `turn` degrees, `value` on top: its
    shadow, the sides the camera sees, the top face. Returns the top face's box."""
    return draw_cube(frame, camera, dice, centre, side, turn, value, light, rng).die


def draw_cube(frame: np.ndarray, camera: Camera, dice: DiceSet, centre: tuple[float, float],
              side: float, turn: float, value: int, light: tuple[float, float],
              rng: np.random.Generator, owner: np.ndarray | None = None, ident: int = 0,
              lifted_by: float = 0.0) -> Drawn:
    """`draw_die` with what its label is judged by; `owner` (optional) records which die's
    top face owns each pixel (`ident`); `lifted_by`: the die lies on another (no shadow)."""
    a = math.radians(turn)
    axes = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    half = side / 2
    signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    base = np.array([centre + half * (sx * axes[0] + sy * axes[1]) for sx, sy in signs])

    def lifted(points: np.ndarray, z: float) -> np.ndarray:
        return camera.project(np.column_stack([points, np.full(len(points), z + lifted_by)]))

    if not lifted_by:  # the shadow: the base pushed away from the light, blurred onto the table
        shadow = np.vstack([base, base + np.array(light) * side * 0.6])
        hull = cv2.convexHull(lifted(shadow, 0).astype(np.float32)).reshape(-1, 2)
        layer = np.zeros(frame.shape[:2], np.float32)
        cv2.fillConvexPoly(layer, np.round(hull * 4).astype(np.int32), 1.0, cv2.LINE_AA, 2)
        layer = cv2.GaussianBlur(layer, (0, 0), max(1.0, side * 0.12))
        frame[:] = (frame * (1 - 0.45 * layer[..., None])).astype(np.uint8)

    neighbours = NEIGHBOURS[value]
    spin = int(rng.integers(0, 4))
    top = lifted(base, side)
    least_side = SIDE_SHOWN * abs(cv2.contourArea(top.astype(np.float32)))
    shown = []  # the side faces drawn at least SIDE_SHOWN as large as the top
    for k in range(4):  # side faces k: between base corners k and k+1
        p, q = base[k], base[(k + 1) % 4]
        normal = (p + q) / 2 - np.array(centre)
        normal /= np.linalg.norm(normal)
        middle = (p + q) / 2
        if not camera.faces_camera(tuple(normal), (middle[0], middle[1], lifted_by + half)):
            continue
        quad = np.vstack([lifted(np.array([p, q]), side), lifted(np.array([q, p]), 0)])
        lit = 0.55 + 0.3 * max(0.0, -float(normal @ np.array(light)))
        texture, mask = face_texture(dice, neighbours[(k + spin) % 4])
        paste(frame, texture, mask, quad, lit)
        own(owner, quad, -ident)
        if abs(cv2.contourArea(quad.astype(np.float32))) >= least_side:
            shown.append(quad)
    texture, mask = face_texture(dice, value)
    paste(frame, texture, mask, top, rng.uniform(0.9, 1.1))
    pixels = own(owner, top, ident)
    view = camera.view_angle(np.array([centre[0], centre[1], lifted_by + side]))
    return Drawn(_top_face(frame, top, dice, value, sides=shown), top, pixels, view)


def _clipped(frame: np.ndarray, corners: np.ndarray) -> tuple[float, float, float, float]:
    """The box of a face with these corners in the frame, cut to the frame."""
    x0, y0 = corners.min(0)
    x1, y1 = corners.max(0)
    h, w = frame.shape[:2]
    return (max(0.0, float(x0)), max(0.0, float(y0)), min(float(w), float(x1)),
            min(float(h), float(y1)))


def _top_face(frame: np.ndarray, top: np.ndarray, dice: DiceSet, value: int,
              hard: bool = False, sides: list[np.ndarray] | tuple = ()) -> SynthDie:
    """The label of a die whose top face has these corners in the frame (and these side
    faces shown large)."""
    box = _clipped(frame, top)
    shown = tuple(b for b in (_clipped(frame, quad) for quad in sides)
                  if b[0] < b[2] and b[1] < b[3])
    if dice.icons:
        return SynthDie(box, face=icon_face(dice, value), hard=hard, sides=shown)
    return SynthDie(box, value=value, hard=hard, sides=shown)


def leaning_cube(against: np.ndarray, towards: np.ndarray, side: float, lean: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """A cube of `side` on the table beside a die centred at table point `against`, on the
    side `towards` points to (a unit table direction), one bottom edge on the table and its
    top tipped `lean` degrees back onto the die: its 8 corners (x, y, z) and its three axes
    (outward, sideways, up), each a row."""
    a = math.radians(lean)
    out = np.array([towards[0], towards[1], 0.0])
    across = np.array([-towards[1], towards[0], 0.0])
    up = np.array([0.0, 0.0, 1.0])
    axes = np.array([out * math.cos(a) + up * math.sin(a), across,
                     up * math.cos(a) - out * math.sin(a)])
    signs = np.array([(sx, sy, sz) for sz in (-1, 1) for sx, sy in
                      ((-1, -1), (1, -1), (1, 1), (-1, 1))], float)
    corners = signs @ axes * (side / 2)
    corners[:, 2] -= corners[:, 2].min()  # its lowest edge on the table
    reach = float((corners @ -out).max())  # how far it comes back toward the die
    place = np.array([against[0], against[1], 0.0]) + out * (side / 2 + reach)
    return corners + place, axes


def draw_leaning(frame: np.ndarray, camera: Camera, dice: DiceSet, corners: np.ndarray,
                 axes: np.ndarray, value: int, light: tuple[float, float],
                 owner: np.ndarray | None = None, ident: int = 0) -> Drawn:
    """A cube given by `leaning_cube`, `value` on its upper face: the faces the camera sees,
    shaded by the light. Its label is hard: a die cocked on another is thrown again."""
    centre = corners.mean(0)
    half = float(np.linalg.norm(corners[0] - centre)) / math.sqrt(3)
    sides = NEIGHBOURS[value]
    faces = [(axes[2], value, 0, 1), (-axes[2], 7 - value, 0, 1), (axes[0], sides[0], 1, 2),
             (-axes[0], sides[2], 1, 2), (axes[1], sides[1], 0, 2), (-axes[1], sides[3], 0, 2)]
    top = cv2.convexHull(camera.project(corners)).reshape(-1, 2)  # where its top is not seen
    pixels = 0
    for index, (normal, shown, i, j) in enumerate(faces):
        middle = centre + normal * half
        if not camera.sees(normal, middle):
            continue
        a, b = axes[i] * half, axes[j] * half
        quad = camera.project(np.array([middle - a - b, middle + a - b, middle + a + b,
                                        middle - a + b]))
        lit = 0.55 + 0.3 * max(0.0, -float(normal[:2] @ np.array(light))) + 0.2 * normal[2]
        texture, mask = face_texture(dice, shown)
        paste(frame, texture, mask, quad, min(1.1, lit))
        if index == 0:
            top, pixels = quad, own(owner, quad, ident)
        else:
            own(owner, quad, -ident)
    return Drawn(_top_face(frame, top, dice, value, hard=True), top, pixels,
                 camera.view_angle(centre))


def judge(drawn: list[Drawn], owner: np.ndarray, params: SynthParams) -> list[SynthDie]:
    """The labels of the dice drawn: a top face is hard when nearer dice hide more of it than
    `min_visible` leaves, the frame cuts it (`min_inside`), or it is seen more than
    `max_view` degrees off its normal (too nearly edge-on to read)."""
    h, w = owner.shape
    frame_box = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    labels = []
    for ident, d in enumerate(drawn, 1):
        area = abs(cv2.contourArea(d.top))
        inside = cv2.intersectConvexConvex(d.top, frame_box)[0] / area if area > 0 else 0.0
        visible = np.count_nonzero(owner == ident) / d.pixels if d.pixels else 0.0
        hard = (d.die.hard or visible < params.min_visible or inside < params.min_inside
                or d.view > params.max_view)
        labels.append(replace(d.die, hard=hard))
    return labels


# -- the table and its clutter -------------------------------------------------------------------


def random_colour(rng: np.random.Generator, lightness: tuple[int, int] = (0, 255),
                  saturation: tuple[int, int] = (0, 255)) -> tuple[int, int, int]:
    """A BGR colour from a random hue with lightness and saturation in the given ranges."""
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(*saturation),
                      rng.integers(*lightness)]]])
    return tuple(int(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])


def table(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A procedural table surface: wood, felt, a tray with a rim, tiles or a gradient."""
    base = np.array(random_colour(rng, (40, 235), (0, 160)), np.float32)
    kind = rng.choice(["wood", "felt", "tray", "tiles", "gradient"])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        angle = rng.uniform(0, math.pi)
        along = xx * math.cos(angle) + yy * math.sin(angle)
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        wobble = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (w, h)) * 18
        grain = np.sin((across + wobble + 0.02 * along) / rng.uniform(2.5, 7.0))
        shade = 1 + 0.12 * grain
    elif kind == "felt":
        noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2)
        shade = 1 + 0.08 * noise / (noise.std() + 1e-6)
    elif kind == "tiles":
        step = rng.uniform(40, 160)
        shade = np.where((xx % step < 3) | (yy % step < 3), 0.7, 1.0)
    else:
        gx, gy = rng.uniform(-1, 1, 2)
        shade = 1 + 0.25 * ((xx / w - 0.5) * gx + (yy / h - 0.5) * gy)
    img = base * shade[..., None]
    if kind == "tray":  # a darker rim along the frame's edges
        rim = int(rng.uniform(0.04, 0.12) * min(w, h))
        inside = np.zeros((h, w), np.float32)
        inside[rim:h - rim, rim:w - rim] = 1
        inside = cv2.GaussianBlur(inside, (0, 0), rim / 3 + 1)
        img *= (0.55 + 0.45 * inside)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def clutter(frame: np.ndarray, rng: np.random.Generator, die: float, count: int) -> None:
    """Things that are not dice: key caps with letters, cables with beads, text, stickers."""
    h, w = frame.shape[:2]
    for _ in range(count):
        kind = rng.choice(["keys", "cable", "text", "sticker"])
        x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        if kind == "keys":  # a row of key caps, die-sized, with a letter each
            cap = die * rng.uniform(0.7, 1.3)
            colour = random_colour(rng, (20, 240), (0, 40))
            ink = (230, 230, 230) if sum(colour) < 380 else (30, 30, 30)
            for k in range(int(rng.integers(2, 8))):
                p = (int(x + k * cap * 1.15), int(y))
                cv2.rectangle(frame, p, (int(p[0] + cap), int(p[1] + cap)), colour, -1,
                              cv2.LINE_AA)
                cv2.putText(frame, chr(int(rng.integers(65, 91))),
                            (int(p[0] + cap * 0.25), int(p[1] + cap * 0.7)),
                            cv2.FONT_HERSHEY_SIMPLEX, cap / 45, ink, max(1, int(cap / 20)),
                            cv2.LINE_AA)
        elif kind == "cable":  # a thick curve with a few bright beads on it
            points = np.cumsum(rng.normal(0, die, (6, 2)), 0) + np.array([x, y])
            thickness = max(2, int(die * rng.uniform(0.08, 0.25)))
            colour = random_colour(rng, (10, 250), (0, 120))
            cv2.polylines(frame, [points.astype(np.int32)], False, colour, thickness, cv2.LINE_AA)
            for px, py in points[1:-1:2]:
                cv2.circle(frame, (int(px), int(py)), thickness, random_colour(rng, (180, 255)),
                           -1, cv2.LINE_AA)
        elif kind == "text":
            cv2.putText(frame, "".join(chr(int(c)) for c in rng.integers(65, 91, 6)),
                        (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(0.4, 1.5),
                        random_colour(rng), int(rng.integers(1, 3)), cv2.LINE_AA)
        else:  # a bright rounded sticker with a stripe
            side = die * rng.uniform(0.5, 1.5)
            colour = random_colour(rng, (160, 255), (60, 255))
            cv2.rectangle(frame, (int(x), int(y)), (int(x + side), int(y + side * 0.6)), colour,
                          -1, cv2.LINE_AA)
            cv2.line(frame, (int(x), int(y + side * 0.3)), (int(x + side), int(y + side * 0.3)),
                     random_colour(rng), max(1, int(side / 10)), cv2.LINE_AA)


# -- hard negatives: printed things flat on the table ---------------------------------------------

SUITS = ("hearts", "diamonds", "clubs", "spades")
_CORNERS4 = [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)]
_SIX = [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)]
_EIGHT = [(x, y) for y in (0.2, 0.4, 0.6, 0.8) for x in (0.3, 0.7)]
CARD_PIPS = {  # suit symbol centres on a playing card, as parts of its width and height
    1: [(0.5, 0.5)],
    2: [(0.5, 0.2), (0.5, 0.8)],
    3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: _CORNERS4,
    5: [*_CORNERS4, (0.5, 0.5)],
    6: _SIX,
    7: [*_SIX, (0.5, 0.35)],
    8: [*_SIX, (0.5, 0.35), (0.5, 0.65)],
    9: [*_EIGHT, (0.5, 0.5)],
    10: [*_EIGHT, (0.5, 0.3), (0.5, 0.7)],
}


def draw_suit(img: np.ndarray, suit: str, centre: tuple[float, float], r: float,
              colour: tuple[int, int, int]) -> None:
    """A playing card's suit symbol of radius `r` around `centre`."""
    x, y = centre

    def pt(dx: float, dy: float) -> tuple[int, int]:
        return round(x + dx * r), round(y + dy * r)

    rad = max(1, round(0.5 * r))
    if suit == "diamonds":
        cv2.fillConvexPoly(img, np.array([pt(0, -1), pt(0.75, 0), pt(0, 1), pt(-0.75, 0)]),
                           colour, cv2.LINE_AA)
        return
    flip = -1 if suit == "spades" else 1  # a spade is a heart upside down, with a stem
    if suit in ("hearts", "spades"):
        for side in (-1, 1):
            cv2.circle(img, pt(0.45 * side, -0.35 * flip), rad, colour, -1, cv2.LINE_AA)
        cv2.fillConvexPoly(img, np.array([pt(-0.95, -0.2 * flip), pt(0.95, -0.2 * flip),
                                          pt(0, 0.95 * flip)]), colour, cv2.LINE_AA)
    else:  # clubs: three leaves
        for dx, dy in ((0, -0.5), (-0.5, 0.15), (0.5, 0.15)):
            cv2.circle(img, pt(dx, dy), rad, colour, -1, cv2.LINE_AA)
    if suit != "hearts":
        cv2.fillConvexPoly(img, np.array([pt(-0.1, 0), pt(0.1, 0), pt(0.3, 1), pt(-0.3, 1)]),
                           colour, cv2.LINE_AA)


def card_texture(rng: np.random.Generator, rank: int | None = None, suit: str | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """A playing card, ace to ten (`rank`, `suit` or random), 250 x 350 px, and its rounded
    mask."""
    w, h = 250, 350
    img = np.full((h, w, 3), random_colour(rng, (225, 255), (0, 25)), np.uint8)
    suit = suit or str(rng.choice(SUITS))
    ink = (40, 30, 200) if suit in ("hearts", "diamonds") else (30, 30, 30)
    rank = rank or int(rng.integers(1, 11))
    size = 26 if rank < 9 else 22
    for fx, fy in CARD_PIPS[rank]:
        draw_suit(img, suit, (fx * w, fy * h), size if rank > 1 else 55, ink)
    text = "A" if rank == 1 else str(rank)
    for _ in range(2):  # the index in two corners, the second turned round
        cv2.putText(img, text, (10, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.1, ink, 3, cv2.LINE_AA)
        draw_suit(img, suit, (28, 65), 11, ink)
        img = np.ascontiguousarray(img[::-1, ::-1])
    mask = rounded_mask(w, h, 16)
    return img, mask


def token_texture(rng: np.random.Generator, ring: int | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """A round number token, 128 px: a number over a row of dots (one to five, as many as
    ways to roll it with two dice, less one), or a counter with a ring of dots (`ring`: that
    many, always a counter); and its mask."""
    t = 128
    img = np.full((t, t, 3), random_colour(rng, (170, 240), (20, 90)), np.uint8)
    cv2.circle(img, (t // 2, t // 2), t // 2 - 6, random_colour(rng, (150, 240), (0, 80)), 3,
               cv2.LINE_AA)
    if ring is None and rng.random() < 0.7:  # a number token
        number = int(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
        ink = (30, 30, 190) if number in (6, 8) else (25, 25, 25)
        text = str(number)
        scale = 1.6 if number < 10 else 1.3
        (tw, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 4)
        cv2.putText(img, text, ((t - tw) // 2, 72), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 4,
                    cv2.LINE_AA)
        dots = 6 - abs(7 - number)
        for k in range(dots):
            cv2.circle(img, (round(t / 2 + (k - (dots - 1) / 2) * 13), 96), 5, ink, -1,
                       cv2.LINE_AA)
    else:  # a counter: a ring of dots
        ink = random_colour(rng, (0, 90), (0, 200))
        dots = ring or int(rng.integers(3, 7))
        for k in range(dots):
            a = 2 * math.pi * k / dots
            cv2.circle(img, (round(t / 2 + 30 * math.cos(a)), round(t / 2 + 30 * math.sin(a))),
                       8, ink, -1, cv2.LINE_AA)
    mask = np.zeros((t, t), np.uint8)
    cv2.circle(mask, (t // 2, t // 2), t // 2 - 1, 255, -1, cv2.LINE_AA)
    return img, mask


def board_texture(rng: np.random.Generator, size: tuple[float, float], side: float
                  ) -> np.ndarray:
    """A printed game board of `size` table units (dice of `side`): coloured regions, a score
    track of numbered squares round its edge, and dotted tracks across it."""
    k = min(2.0, 1600 / max(size))  # texture pixels per table unit
    w, h = max(8, round(size[0] * k)), max(8, round(size[1] * k))
    img = np.full((h, w, 3), random_colour(rng, (60, 220), (40, 200)), np.uint8)
    unit = side * k
    for _ in range(int(rng.integers(3, 9))):  # printed regions (hexes)
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), unit * rng.uniform(1.0, 2.5)
        hexagon = np.array([[cx + r * math.cos(a), cy + r * math.sin(a)]
                            for a in np.linspace(0, 2 * math.pi, 7)[:-1] + math.pi / 6], np.int32)
        cv2.fillConvexPoly(img, hexagon, random_colour(rng, (40, 230), (30, 220)), cv2.LINE_AA)
        cv2.polylines(img, [hexagon], True, (235, 235, 235), max(1, round(unit * 0.05)),
                      cv2.LINE_AA)
    ink = random_colour(rng, (0, 60), (0, 100)) if rng.random() < 0.6 else (235, 235, 235)
    square = unit * rng.uniform(0.5, 0.9)  # the score track: squares along the edge
    track = [*((x, 0.0) for x in np.arange(0, w - square, square)),
             *((w - square, y) for y in np.arange(0, h - square, square))]
    for count, (x, y) in enumerate(track):
        cv2.rectangle(img, (round(x), round(y)), (round(x + square), round(y + square)), ink,
                      max(1, round(unit * 0.03)), cv2.LINE_AA)
        if count % 5 == 0:
            cv2.putText(img, str(count), (round(x + square * 0.15), round(y + square * 0.7)),
                        cv2.FONT_HERSHEY_SIMPLEX, square / 60, ink, max(1, round(square / 25)),
                        cv2.LINE_AA)
    for _ in range(int(rng.integers(2, 6))):  # dotted tracks: rows of pip-sized dots
        start = rng.uniform(0, 1, 2) * (w, h)
        heading = rng.uniform(0, 2 * math.pi)
        step = unit * rng.uniform(0.25, 0.5)
        radius = max(1, round(unit * rng.uniform(0.05, 0.12)))
        for _ in range(int(rng.integers(6, 30))):
            heading += rng.normal(0, 0.15)
            start = start + step * np.array([math.cos(heading), math.sin(heading)])
            cv2.circle(img, (round(start[0]), round(start[1])), radius, ink, -1, cv2.LINE_AA)
    return img


def flat(frame: np.ndarray, camera: Camera, texture: np.ndarray, mask: np.ndarray,
         centre: np.ndarray, size: tuple[float, float], turn: float) -> None:
    """Lay a texture flat on the table: `size` table units, centred at a table point, turned
    `turn` degrees; seen in the camera's perspective (skipped where it reaches the horizon)."""
    a = math.radians(turn)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    hw, hh = size[0] / 2, size[1] / 2
    corners = np.array([centre - hw * along + hh * across, centre + hw * along + hh * across,
                        centre + hw * along - hh * across, centre - hw * along - hh * across])
    if camera.distance and np.any(
            corners[:, 1] * math.sin(math.radians(camera.tilt)) < -0.8 * camera.distance):
        return
    quad = camera.project(np.column_stack([corners, np.zeros(4)]))
    if np.abs(quad).max() > 20 * max(frame.shape):
        return
    paste(frame, texture, mask, quad)


def in_view(rng: np.random.Generator, camera: Camera, w: int, h: int) -> np.ndarray:
    """A random table point seen in the frame (away from its edges)."""
    pixel = rng.uniform((0.05 * w, 0.1 * h), (0.95 * w, 0.95 * h)).reshape(1, 2)
    point = camera.on_table(pixel)[0]
    return np.nan_to_num(point)


def cloth(frame: np.ndarray, rng: np.random.Generator, camera: Camera, side: float) -> None:
    """A patterned cloth on the table, seen in perspective: polka dots, checks or stripes,
    over the whole table or as a mat under the dice."""
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    table_xy = camera.on_table(np.column_stack([xx.ravel(), yy.ravel()])).reshape(h, w, 2)
    a = rng.uniform(0, math.pi)
    x = table_xy[..., 0] * math.cos(a) + table_xy[..., 1] * math.sin(a)
    y = -table_xy[..., 0] * math.sin(a) + table_xy[..., 1] * math.cos(a)
    kind = rng.choice(["dots", "checks", "stripes"])
    step = side * rng.uniform(0.5, 2.0)
    if kind == "dots":  # staggered polka dots, from pip-sized to die-sized
        row = np.floor(y / step)
        gx = (x + (row % 2) * step / 2) % step - step / 2
        gy = y % step - step / 2
        ink = np.hypot(gx, gy) < step * rng.uniform(0.12, 0.3)
    elif kind == "checks":
        ink = (np.floor(x / step) + np.floor(y / step)) % 2 == 1
    else:
        ink = (x % step) < step * rng.uniform(0.2, 0.5)
    paint = np.where(ink[..., None], np.float32(random_colour(rng)),
                     np.float32(random_colour(rng, (60, 240))))
    paint = cv2.GaussianBlur(paint.astype(np.float32), (0, 0), 0.7)
    cover = np.isfinite(table_xy[..., 1])
    if rng.random() < 0.5:  # a mat, not the whole table
        centre, reach = in_view(rng, camera, w, h), side * rng.uniform(4, 12, 2)
        cover &= (np.abs(table_xy[..., 0] - centre[0]) < reach[0]) & (
            np.abs(table_xy[..., 1] - centre[1]) < reach[1])
    weave = 1 + 0.04 * rng.normal(0, 1, (h, w, 1)).astype(np.float32)
    frame[:] = np.where(cover[..., None], np.clip(paint * weave, 0, 255), frame).astype(np.uint8)


def hard_negatives(frame: np.ndarray, rng: np.random.Generator, camera: Camera, side: float,
                   params: SynthParams) -> None:
    """The printed things `params.negatives` names, each kind in a scene by chance
    `negative_chance`, laid flat on the table: a cloth, a board, cards, tokens (in that
    order, one over the other)."""
    h, w = frame.shape[:2]
    shown = {kind for kind in NEGATIVES if kind in params.negatives
             and rng.random() < params.negative_chance}
    if "cloth" in shown:
        cloth(frame, rng, camera, side)
    if "board" in shown:
        size = (side * rng.uniform(8, 16), side * rng.uniform(6, 12))
        texture = board_texture(rng, size, side)
        mask = np.full(texture.shape[:2], 255, np.uint8)
        flat(frame, camera, texture, mask, in_view(rng, camera, w, h), size,
             rng.uniform(0, 360))
    if "cards" in shown:
        for _ in range(int(rng.integers(params.cards[0], params.cards[1] + 1))):
            texture, mask = card_texture(rng)
            width = side * rng.uniform(3.2, 4.2)
            flat(frame, camera, texture, mask, in_view(rng, camera, w, h),
                 (width, width * 1.4), rng.uniform(0, 360))
    if "tokens" in shown:
        for _ in range(int(rng.integers(params.tokens[0], params.tokens[1] + 1))):
            texture, mask = token_texture(rng)
            across = side * rng.uniform(1.8, 2.6)
            flat(frame, camera, texture, mask, in_view(rng, camera, w, h), (across, across),
                 rng.uniform(0, 360))


def sensor(frame: np.ndarray, rng: np.random.Generator, params: SynthParams) -> np.ndarray:
    """Uneven light, blur, noise, a colour cast and JPEG, as a camera adds them."""
    h, w = frame.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1.0 + 0.3 * (gx * (xx / w - 0.5) + gy * (yy / h - 0.5))
    cast = rng.uniform(0.85, 1.15, 3).astype(np.float32)
    out = frame.astype(np.float32) * light[..., None] * cast * rng.uniform(0.7, 1.2)
    if rng.random() < 0.6:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.3))
    out += rng.normal(0, rng.uniform(1, 7), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                          int(rng.integers(*params.jpeg_quality))])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else out


# -- a scene -------------------------------------------------------------------------------------


def dice_set(rng: np.random.Generator, params: SynthParams) -> DiceSet:
    """A random set of dice: white/black/coloured bodies, contrasting ink, rounding, faces."""
    body = random_colour(rng, (20, 255), (0, 255))
    light_body = sum(body) / 3 > 120
    ink = random_colour(rng, (0, 70) if light_body else (190, 255), (0, 200))
    icons = bool(rng.random() < params.icon_dice)
    emblem = None if icons or rng.random() >= params.emblem else int(rng.choice([1, 6]))
    return DiceSet(body, ink, float(rng.uniform(0.05, 0.25)), icons, emblem,
                   str(rng.choice(ICON_FACES)))


def place_dice(rng: np.random.Generator, count: int, side: float,
               reach: float | Callable[[], np.ndarray], fits: Callable[[np.ndarray], bool],
               touching: float, abut: float = 0.0
               ) -> tuple[list[np.ndarray], dict[int, float]]:
    """Table positions for up to `count` dice of `side`, within `reach` of the centre (or
    where `reach()` puts them) where `fits` says they are in frame: apart, (with chance
    `touching`) against the die before, or (with chance `abut`) face to face with it; and the
    turn of the dice put face to face (by their index; the others are turned at random as they
    are drawn)."""
    spots: list[np.ndarray] = []
    turns: dict[int, float] = {}
    apart = side * math.sqrt(2) * 1.05
    for _ in range(count * 20):
        if len(spots) == count:
            break
        if spots and abut and rng.random() < abut:
            turn = turns.setdefault(len(spots) - 1, float(rng.uniform(0, 90)))
            a = math.radians(turn + 90 * int(rng.integers(0, 4)))
            spot = spots[-1] + side * rng.uniform(1.0, 1.03) * np.array([math.cos(a),
                                                                        math.sin(a)])
            if fits(spot) and all(np.linalg.norm(spot - s) >= apart for s in spots[:-1]):
                turns[len(spots)] = turn
                spots.append(spot)
            continue
        if spots and rng.random() < touching:
            angle = rng.uniform(0, 2 * math.pi)
            spot = spots[-1] + side * rng.uniform(1.1, 1.3) * np.array([math.cos(angle),
                                                                       math.sin(angle)])
            gap = side * 1.1
        else:
            spot = reach() if callable(reach) else rng.uniform(-reach, reach, 2)
            gap = apart
        if fits(spot) and all(np.linalg.norm(spot - s) >= gap for s in spots):
            spots.append(spot)
    return spots, turns


@dataclass(frozen=True)
class Setup:
    """What stays the same from photo to photo at one table: the table with its clutter, the dice
    and their size, the camera and the light."""

    table: np.ndarray
    side: float
    tilt: float
    camera: Camera
    look: DiceSet
    light: tuple[float, float]
    most: int  # the most dice the frame has room for


def new_setup(rng: np.random.Generator, size: tuple[int, int], params: SynthParams
              ) -> tuple[Setup, int]:
    """A random table setup, and a number of dice for its first photo."""
    w, h = size
    frame = table(rng, w, h)
    lo, hi = params.die_px
    side = float(math.exp(rng.uniform(math.log(lo), math.log(min(hi, min(w, h) / 2.5)))))
    clutter(frame, rng, side, int(rng.integers(params.clutter[0], params.clutter[1] + 1)))
    tilt = float(rng.uniform(*params.tilt)) if rng.random() < params.tilted else 0.0
    distance = w / 2 / math.tan(math.radians(params.fov) / 2) if params.fov else 0.0
    camera = Camera(tilt, float(rng.uniform(0, 360)), (w / 2, h / 2), distance)
    margin = side * 1.2
    most = max(1, int((w - 2 * margin) * (h - 2 * margin) / (side * side * 4)))
    count = int(rng.integers(params.dice[0], min(params.dice[1], most) + 1))
    look = dice_set(rng, params)
    heading = rng.uniform(0, 2 * math.pi)
    if params.negatives:
        hard_negatives(frame, rng, camera, side, params)
    return Setup(frame, side, tilt, camera, look, (math.cos(heading), math.sin(heading)),
                 most), count


def roll(rng: np.random.Generator, setup: Setup, count: int, params: SynthParams
         ) -> tuple[np.ndarray, list[SynthDie]]:
    """One photo of `count` dice thrown at a setup, and their top faces in the order drawn."""
    frame = setup.table.copy()
    h, w = frame.shape[:2]
    side, camera = setup.side, setup.camera
    margin = side * 1.2

    def fits(spot: np.ndarray) -> bool:
        (x, y), = camera.project(np.array([[spot[0], spot[1], side / 2]]))
        return margin <= x <= w - margin and margin <= y <= h - margin

    def anywhere() -> np.ndarray:  # a table point seen anywhere in the picture
        return camera.on_table(rng.uniform((0, 0), (w, h)).reshape(1, 2))[0]

    # a far camera: on the table round the centre; a near one: in the picture (on the table,
    # far dice would be many and tiny)
    reach = anywhere if camera.distance else max(w, h) / 2 / math.cos(math.radians(setup.tilt))
    spots, turns = place_dice(rng, count, side, reach, fits, params.touching, params.abut)
    owner = np.zeros((h, w), np.int32)  # which die's top face each pixel shows
    drawn: list[Drawn] = []
    for k in sorted(range(len(spots)), key=lambda k: -spots[k][1]):  # far dice first
        x, y = (float(c) for c in spots[k])
        turn, value = float(rng.uniform(0, 90)), int(rng.integers(1, 7))
        turn = turns.get(k, turn)
        drawn.append(draw_cube(frame, camera, setup.look, (x, y), side, turn, value,
                               setup.light, rng, owner, len(drawn) + 1))
        if params.stack and rng.random() < params.stack:  # another die lying on this one
            dx, dy = rng.uniform(-0.2, 0.2, 2) * side
            drawn.append(draw_cube(frame, camera, setup.look, (x + dx, y + dy), side,
                                   float(rng.uniform(0, 90)), int(rng.integers(1, 7)),
                                   setup.light, rng, owner, len(drawn) + 1, lifted_by=side))
        if params.lean and rng.random() < params.lean:  # one leaning on its near side
            a = math.radians(turn + 90 * int(rng.integers(0, 4)))
            towards = np.array([math.cos(a), math.sin(a)])
            towards = -towards if towards[1] > 0 else towards  # toward the camera
            corners, axes = leaning_cube(np.array([x, y]), towards, side,
                                         float(rng.uniform(*params.lean_angle)))
            value = int(rng.integers(1, 7))
            foot = corners.mean(0)[:2]
            if fits(foot) and all(np.linalg.norm(foot - s) >= 1.5 * side
                                  for j, s in enumerate(spots) if j != k):
                drawn.append(draw_leaning(frame, camera, setup.look, corners, axes, value,
                                          setup.light, owner, len(drawn) + 1))
    return sensor(frame, rng, params), judge(drawn, owner, params)


def render_scene(rng: np.random.Generator, size: tuple[int, int] = (640, 480),
                 params: SynthParams = SynthParams()) -> tuple[np.ndarray, list[SynthDie]]:
    """One synthetic photo of a new setup and the top faces of its dice, in the order drawn."""
    setup, count = new_setup(rng, size, params)
    return roll(rng, setup, count, params)


def write_folder(out: Path, count: int, seed: int = 0, size: tuple[int, int] = (640, 480),
                 params: SynthParams = SynthParams(), one_setup: bool = False) -> int:
    """Render `count` scenes into `out` with their `labels.json`; the number of dice drawn.
    `one_setup`: every photo at the same table (dice, camera, light), the dice thrown anew, as
    a player's photos for calibration are."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    setup, first = new_setup(rng, size, params)
    labels, total = {}, 0
    for index in range(count):
        if one_setup:
            dice_count = first if index == 0 else int(rng.integers(
                params.dice[0], min(params.dice[1], setup.most) + 1))
            frame, dice = roll(rng, setup, dice_count, params)
        else:
            if index:
                setup, first = new_setup(rng, size, params)
            frame, dice = roll(rng, setup, first, params)
        name = f"synth-{index:05d}.jpg"
        cv2.imwrite(str(out / name), frame)
        labels[name] = {"width": size[0], "height": size[1],
                        "dice": [die.label(*size) for die in dice]}
        total += len(dice)
    (out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")
    return total


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not WIDTHxHEIGHT, e.g. 640x480") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise argparse.ArgumentTypeError("width and height must be 64..4096")
    return w, h


def _span(example: str, least: float, most: float, what: str, unit: str
          ) -> Callable[[str], tuple[float, float]]:
    """The parser of a LOW-HIGH option: two numbers from `least` to `most`, the low first."""

    def parse(text: str) -> tuple[float, float]:
        try:
            lo, hi = (float(part) for part in text.split("-"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not LOW-HIGH, e.g. {example}") \
                from None
        if not least <= lo <= hi <= most:
            raise argparse.ArgumentTypeError(f"{what} must be {least:g}..{most:g} {unit}, the "
                                             "low one first")
        return lo, hi

    return parse


_range = _span("12-150", 4, 2000, "die sizes", "px")
_tilt = _span("40-60", 0, 60, "tilts", "degrees")


def _negatives(text: str) -> tuple[str, ...]:
    kinds = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [kind for kind in kinds if kind not in NEGATIVES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown {', '.join(unknown)}: choose from "
                                         f"{','.join(NEGATIVES)}")
    return kinds


def _chance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a chance from 0 to 1")
    return value


def main(argv: list[str] | None = None) -> int:
    """Command line: render a labelled folder of synthetic photos."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the photos and labels.json to")
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--size", type=_size, default=(640, 480), help="frame size, WxH")
    parser.add_argument("--icon-dice", type=float, default=SynthParams.icon_dice,
                        help="chance a scene's dice carry icon faces (0 for pip dice only)")
    parser.add_argument("--emblem", type=float, default=SynthParams.emblem,
                        help="chance a pip set carries an emblem in place of its 1 or 6")
    parser.add_argument("--die-px", type=_range, default=SynthParams.die_px,
                        help="top-face sizes in the frame, LOW-HIGH px (default 12-150)")
    parser.add_argument("--tilt", type=_tilt, help="camera tilts off vertical, LOW-HIGH degrees "
                        "(0..60), every scene tilted (default: 0-30 on 60%% of the scenes)")
    parser.add_argument("--fov", type=float, default=SynthParams.fov,
                        help="horizontal field of view in degrees for a pinhole camera whose "
                        "near dice are larger (e.g. 50 for a phone; default 0: a far camera)")
    parser.add_argument("--negatives", type=_negatives, default=SynthParams.negatives,
                        help="printed things flat on the table, comma-separated: "
                        + ",".join(NEGATIVES))
    for name, what in (("abut", "face to face with the one before"),
                       ("stack", "with another die lying on it"),
                       ("lean", "with another die leaning on it")):
        parser.add_argument(f"--{name}", type=_chance, default=getattr(SynthParams, name),
                            help=f"chance a die is {what} (default 0)")
    parser.add_argument("--one-setup", action="store_true",
                        help="every photo at one table (dice, camera, light), as a player's "
                        "calibration photos are; with --emblem 1 its dice have a custom face")
    args = parser.parse_args(argv)
    if args.fov and not 10 <= args.fov <= 120:
        parser.error("--fov must be 10..120 degrees (or 0 for a far camera)")
    tilt = {"tilt": args.tilt, "tilted": 1.0} if args.tilt else {}
    params = SynthParams(icon_dice=args.icon_dice, emblem=args.emblem, die_px=args.die_px,
                         fov=args.fov, negatives=args.negatives, abut=args.abut,
                         stack=args.stack, lean=args.lean, **tilt)
    dice = write_folder(args.out, args.count, args.seed, args.size, params, args.one_setup)
    print(f"wrote {args.count} photos with {dice} dice to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
