"""SYNTHETIC dice photos: setups never photographed, for training and measuring the reader.

    python -m vision.training.synth OUT --count 400 [--seed 0] [--size 640x480]

writes OUT/synth-NNNNN.jpg and OUT/labels.json in the format `phoenix-dice bench` reads (each
die's top face: its box, its value 1..6 for pip dice, its face for icon dice). Only numpy and
OpenCV, so it runs in the app's venv too (the tests render their frames with it).

One scene, step by step (every number in `SynthParams`):
1. table   - a procedural surface: wood grain, felt, a tray with a rim, tiles or a gradient;
2. clutter - hard negatives: key caps with letters, cables with beads, printed text, stickers;
3. camera  - a tilt of up to `max_tilt` degrees off vertical (the table foreshortened, the dice's
             near sides shown) and a roll; one die size of `die_px` for the scene;
4. dice    - cubes with body and pip colours, rounded corners, pips, icon faces or an emblem in
             place of a face, turned about the vertical; apart, or touching in clusters;
5. light   - faces shaded by their angle to one light, a soft shadow cast on the table;
6. sensor  - uneven light, blur, noise, a colour cast and JPEG.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
    max_tilt: float = 30.0  # camera degrees off vertical
    touching: float = 0.35  # chance a die is put against the one before
    icon_dice: float = 0.15  # chance a scene's dice carry icon faces, not pips
    emblem: float = 0.15  # chance a pip set has an emblem in place of its 1 or 6
    clutter: tuple[int, int] = (0, 6)  # distractors per scene
    jpeg_quality: tuple[int, int] = (60, 95)


@dataclass(frozen=True)
class SynthDie:
    """A die drawn: its top face's box in pixels, its value (pip dice) or face (icon dice)."""

    box: tuple[float, float, float, float]
    value: int | None = None
    face: str | None = None

    def label(self, width: int, height: int) -> dict:
        """The die as `labels.json` writes it (box normalised to 0..1)."""
        x0, y0, x1, y1 = self.box
        found: dict = {"box": [round(x0 / width, 5), round(y0 / height, 5),
                               round(x1 / width, 5), round(y1 / height, 5)]}
        if self.value is not None:
            found["value"] = self.value
        if self.face is not None:
            found["face"] = self.face
        return found


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
    mask = np.zeros((FACE_PX, FACE_PX), np.uint8)
    r = max(1, round(dice.radius * FACE_PX))
    cv2.rectangle(mask, (r, 0), (FACE_PX - 1 - r, FACE_PX - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (FACE_PX - 1, FACE_PX - 1 - r), 255, -1)
    for x, y in ((r, r), (FACE_PX - 1 - r, r), (r, FACE_PX - 1 - r),
                 (FACE_PX - 1 - r, FACE_PX - 1 - r)):
        cv2.circle(mask, (x, y), r, 255, -1, cv2.LINE_AA)
    return img, mask


def icon_face(dice: DiceSet, value: int) -> str | None:
    """The expedition face an icon die showing `value` carries (None for pip dice)."""
    return ICON_FACES[(value - 1) % len(ICON_FACES)] if dice.icons else None


# -- the camera ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    """A weak-perspective camera over the table: tilt off vertical, roll, frame centre."""

    tilt: float  # degrees
    roll: float  # degrees
    centre: tuple[float, float]

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table points (x, y along the table, z up) in frame pixels."""
        t, r = math.radians(self.tilt), math.radians(self.roll)
        u = points[:, 0]
        v = -(points[:, 1] * math.cos(t) + points[:, 2] * math.sin(t))
        cx, cy = self.centre
        return np.stack([cx + u * math.cos(r) - v * math.sin(r),
                         cy + u * math.sin(r) + v * math.cos(r)], 1).astype(np.float32)

    def faces_camera(self, normal: tuple[float, float]) -> bool:
        """Whether a side face with this outward table normal is seen (it faces the camera)."""
        return self.tilt > 0.5 and normal[1] < -1e-6


# -- drawing -------------------------------------------------------------------------------------


def paste(frame: np.ndarray, texture: np.ndarray, mask: np.ndarray, corners: np.ndarray,
          shade: float = 1.0) -> None:
    """Warp a square texture onto the frame's quadrilateral `corners` (anti-aliased edge)."""
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [FACE_PX, 0], [FACE_PX, FACE_PX], [0, FACE_PX]])
    m = cv2.getPerspectiveTransform(src, corners - np.float32([x0, y0]))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(texture, m, size, flags=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    region = frame[y0:y1, x0:x1].astype(np.float32)
    region += alpha[..., None] * (warped * shade - region)
    frame[y0:y1, x0:x1] = np.clip(region, 0, 255).astype(np.uint8)


def draw_die(frame: np.ndarray, camera: Camera, dice: DiceSet, centre: tuple[float, float],
             side: float, turn: float, value: int, light: tuple[float, float],
             rng: np.random.Generator) -> SynthDie:
    """A cube of `side` at table point `centre`, turned `turn` degrees, `value` on top: its
    shadow, the sides the camera sees, the top face. Returns the top face's box."""
    a = math.radians(turn)
    axes = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    half = side / 2
    signs = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    base = np.array([centre + half * (sx * axes[0] + sy * axes[1]) for sx, sy in signs])

    def lifted(points: np.ndarray, z: float) -> np.ndarray:
        return camera.project(np.column_stack([points, np.full(len(points), z)]))

    # the shadow: the base pushed away from the light, blurred onto the table
    shadow = np.vstack([base, base + np.array(light) * side * 0.6])
    hull = cv2.convexHull(lifted(shadow, 0).astype(np.float32)).reshape(-1, 2)
    layer = np.zeros(frame.shape[:2], np.float32)
    cv2.fillConvexPoly(layer, np.round(hull * 4).astype(np.int32), 1.0, cv2.LINE_AA, 2)
    layer = cv2.GaussianBlur(layer, (0, 0), max(1.0, side * 0.12))
    frame[:] = (frame * (1 - 0.45 * layer[..., None])).astype(np.uint8)

    neighbours = NEIGHBOURS[value]
    spin = int(rng.integers(0, 4))
    for k in range(4):  # side faces k: between base corners k and k+1
        p, q = base[k], base[(k + 1) % 4]
        normal = (p + q) / 2 - np.array(centre)
        normal /= np.linalg.norm(normal)
        if not camera.faces_camera(tuple(normal)):
            continue
        quad = np.vstack([lifted(np.array([p, q]), side), lifted(np.array([q, p]), 0)])
        lit = 0.55 + 0.3 * max(0.0, -float(normal @ np.array(light)))
        texture, mask = face_texture(dice, neighbours[(k + spin) % 4])
        paste(frame, texture, mask, quad, lit)
    top = lifted(base, side)
    texture, mask = face_texture(dice, value)
    paste(frame, texture, mask, top, rng.uniform(0.9, 1.1))
    x0, y0 = top.min(0)
    x1, y1 = top.max(0)
    h, w = frame.shape[:2]
    box = (max(0.0, float(x0)), max(0.0, float(y0)), min(float(w), float(x1)),
           min(float(h), float(y1)))
    if dice.icons:
        return SynthDie(box, face=icon_face(dice, value))
    return SynthDie(box, value=value)


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


def place_dice(rng: np.random.Generator, count: int, side: float, reach: float,
               fits: Callable[[np.ndarray], bool], touching: float) -> list[np.ndarray]:
    """Table positions for up to `count` dice of `side`, within `reach` of the centre where
    `fits` says they are in frame: apart, or (with chance `touching`) against the die before."""
    spots: list[np.ndarray] = []
    for _ in range(count * 20):
        if len(spots) == count:
            break
        if spots and rng.random() < touching:
            angle = rng.uniform(0, 2 * math.pi)
            spot = spots[-1] + side * rng.uniform(1.1, 1.3) * np.array([math.cos(angle),
                                                                       math.sin(angle)])
            gap = side * 1.1
        else:
            spot = rng.uniform(-reach, reach, 2)
            gap = side * math.sqrt(2) * 1.05
        if fits(spot) and all(np.linalg.norm(spot - s) >= gap for s in spots):
            spots.append(spot)
    return spots


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
    tilt = float(rng.uniform(0, params.max_tilt)) if rng.random() < 0.6 else 0.0
    camera = Camera(tilt, float(rng.uniform(0, 360)), (w / 2, h / 2))
    margin = side * 1.2
    most = max(1, int((w - 2 * margin) * (h - 2 * margin) / (side * side * 4)))
    count = int(rng.integers(params.dice[0], min(params.dice[1], most) + 1))
    look = dice_set(rng, params)
    heading = rng.uniform(0, 2 * math.pi)
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

    reach = max(w, h) / 2 / math.cos(math.radians(setup.tilt))
    spots = place_dice(rng, count, side, reach, fits, params.touching)
    spots.sort(key=lambda s: -s[1])  # far dice first, so near ones are drawn over them
    found = [draw_die(frame, camera, setup.look, (float(x), float(y)), side,
                      float(rng.uniform(0, 90)), int(rng.integers(1, 7)), setup.light, rng)
             for x, y in spots]
    return sensor(frame, rng, params), found


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


def _range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(part) for part in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not LOW-HIGH, e.g. 12-150") from None
    if not 4 <= lo <= hi <= 2000:
        raise argparse.ArgumentTypeError("die sizes must be 4..2000 px, the low one first")
    return lo, hi


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
    parser.add_argument("--one-setup", action="store_true",
                        help="every photo at one table (dice, camera, light), as a player's "
                        "calibration photos are; with --emblem 1 its dice have a custom face")
    args = parser.parse_args(argv)
    params = SynthParams(icon_dice=args.icon_dice, emblem=args.emblem, die_px=args.die_px)
    dice = write_folder(args.out, args.count, args.seed, args.size, params, args.one_setup)
    print(f"wrote {args.count} photos with {dice} dice to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
