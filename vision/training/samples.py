"""What the pip reader's networks learn from: augmented detector crops with their target maps,
classifier crops with their labels, and the side-face network's views of the reader's
candidates, drawn from labelled photos (numpy and OpenCV only, so `make test` checks them
without torch; `train_pips` trains on them)."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.dataset import box_side

STRIDE = 8  # detector output cell, in full-size (640 px) pixels
DET_CROP = 512  # full-size training crop side for the detector
CLS_SIZE = 40  # classifier input side
CLS_CONTEXT = 1.25  # classifier crop side / die size
SIZE_REF = 40.0  # die size whose log-size target is 0
TRAIN_SIZES = (22.0, 72.0)  # die sides (full-size px) an extra folder's dice are brought to
TOO_BIG = (100.0, 170.0)  # die sides of the detector's too-large samples, which mark no dice
TOO_BIG_SHARE = 0.15  # part of an extra folder's detector samples brought to TOO_BIG
WRONG_SCALE_SHARE = 0.3  # part of the classifier's background crops at a die's wrong scale
PART_OF_DIE = (0.3, 0.55)  # crop size / die size of a crop that sees a part of a die
HARD_SHARE = 0.3  # part of the classifier's background crops on what the detector takes for a die
SIDE_SHARE = 0.5  # part of the background crops of a photo whose labels give `sides` on one
AROUND_DIE = (2.2, 3.5)  # crop size / die size of a crop that takes in a die's neighbours


def jitter_colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random hue shift, channel order, contrast, brightness, blur and noise."""
    if rng.random() < 0.7:
        hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + rng.integers(0, 180)) % 180).astype(
            np.uint8
        )
        img = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.5:
        img = img[..., rng.permutation(3)]
    gain, bias = rng.uniform(0.6, 1.4), rng.uniform(-40, 40)
    out = img.astype(np.float32) * gain + bias
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.2))
    if rng.random() < 0.3:
        out += rng.normal(0, rng.uniform(2, 8), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def die_size(item) -> float:
    """The median die side of a labelled image (SIZE_REF when it has no dice)."""
    return float(np.median([box_side(d.box) for d in item.dice])) if item.dice else SIZE_REF


def det_sample(item, img, rng, extra: bool = False):
    """One augmented detector sample: half-size crop and its targets. The real photos' dice
    are about SIZE_REF across and get a scale of 0.75-1.35; an `extra` image's dice (any size)
    are brought to TRAIN_SIZES, as the reader rescales frames, and its crop is centred near a
    die most of the time, so small dice in big frames are seen; now and then they are brought to
    TOO_BIG instead. A die brought to TOO_BIG's least size or more marks no centre, so that a
    frame read too large does not show a die's pip groups as dice; the smaller dice of the
    same crop (a steep camera's far ones) mark theirs. A die labelled hard (mostly hidden, cut
    by the frame, seen too steeply) marks no centre either, and the cells within half its side
    of its centre are ignored (1 in the fifth map): the loss neither asks for a mark there nor
    punishes one, as the bench neither demands such a die nor counts a reading of it extra.

    Returns the half-size crop, the centre heat map, the offset and log-size targets, the
    mask of cells that carry them, and the ignore map."""
    too_big = extra and bool(item.dice) and rng.random() < TOO_BIG_SHARE
    if extra:
        lo, hi = TOO_BIG if too_big else TRAIN_SIZES
        scale = math.exp(rng.uniform(math.log(lo), math.log(hi))) / die_size(item)
    else:
        scale = rng.uniform(0.75, 1.35)
    angle = rng.choice([0, 90, 180, 270]) + (rng.uniform(-15, 15) if rng.random() < 0.5 else 0)
    if extra and item.dice and rng.random() < 0.7:
        x0, y0, x1, y1 = item.dice[rng.integers(0, len(item.dice))].box
        reach = DET_CROP / scale * 0.35
        cx = (x0 + x1) / 2 + rng.uniform(-reach, reach)
        cy = (y0 + y1) / 2 + rng.uniform(-reach, reach)
    else:
        cx, cy = rng.uniform(0.2, 0.8) * item.width, rng.uniform(0.2, 0.8) * item.height
    m = cv2.getRotationMatrix2D((cx, cy), angle, scale)
    m[:, 2] += (DET_CROP / 2 - cx, DET_CROP / 2 - cy)
    if rng.random() < 0.5:
        m[0] = -m[0]
        m[0, 2] += DET_CROP
    full = cv2.warpAffine(img, m, (DET_CROP, DET_CROP), borderMode=cv2.BORDER_REFLECT)
    half = cv2.resize(jitter_colour(full, rng), (DET_CROP // 2, DET_CROP // 2),
                      interpolation=cv2.INTER_AREA)
    g = DET_CROP // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((3, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    ignore = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for die in item.dice:
        size = box_side(die.box) * scale
        if size >= TOO_BIG[0]:
            continue
        x0, y0, x1, y1 = die.box
        c = m @ np.array([(x0 + x1) / 2, (y0 + y1) / 2, 1.0])
        gx, gy = c[0] / STRIDE, c[1] / STRIDE
        if die.hard:
            reach = max(1.0, size / STRIDE / 2)
            ignore[(xx + 0.5 - gx) ** 2 + (yy + 0.5 - gy) ** 2 <= reach**2] = 1.0
            continue
        if not (0 <= gx < g and 0 <= gy < g):
            continue
        ix, iy = int(gx), int(gy)
        sigma = max(0.7, size / STRIDE / 5)
        heat = np.maximum(heat, np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2)))
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (gx - ix, gy - iy, math.log(size / SIZE_REF))
        mask[iy, ix] = 1.0
    return half, heat, reg, mask, np.where(heat == 1.0, 0.0, ignore).astype(np.float32)


class Sampler:
    """Picks training images: from the main folder with chance `share`, else from the extra
    folders, so a large synthetic set does not drown the real photos."""

    def __init__(self, main: int, total: int, share: float) -> None:
        self.main, self.total, self.share = main, total, share if total > main else 1.0

    def pick(self, rng: np.random.Generator, among: list[int] | None = None) -> int:
        """An image index (one of `among` when given); without extra folders the same draws
        as picking uniformly, so the real photos alone train as they always did."""
        pool = among if among is not None else list(range(self.total))
        main = [k for k in pool if k < self.main]
        extra = [k for k in pool if k >= self.main]
        if not (extra and main):
            return int(pool[rng.integers(0, len(pool))])
        side = main if rng.random() < self.share else extra
        return int(side[rng.integers(0, len(side))])

    def is_extra(self, index: int) -> bool:
        """Whether the image comes from an extra folder."""
        return index >= self.main


def crop(img: np.ndarray, cx: float, cy: float, size: float, angle: float, flip: bool):
    """Square crop of side CLS_CONTEXT*size around (cx, cy), rotated, resized to CLS_SIZE."""
    side = CLS_CONTEXT * size
    s = CLS_SIZE / side
    m = cv2.getRotationMatrix2D((cx, cy), angle, s)
    m[:, 2] += (CLS_SIZE / 2 - cx, CLS_SIZE / 2 - cy)
    if flip:
        m[0] = -m[0]
        m[0, 2] += CLS_SIZE
    return cv2.warpAffine(img, m, (CLS_SIZE, CLS_SIZE), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)


def wrong_scale_crop(item, img, rng, angle: float, flip: bool) -> np.ndarray:
    """A crop at the wrong scale for one of the dice: a part of it (a pip group, as a frame read
    too large shows it) or a view that takes in its neighbours (a frame read too small), so the
    classifier tells the reader which scale is right."""
    box = item.dice[rng.integers(0, len(item.dice))].box
    x0, y0, x1, y1 = box
    size = box_side(box)
    if rng.random() < 0.6:
        cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
        return crop(img, cx, cy, size * rng.uniform(*PART_OF_DIE), angle, flip)
    cx = (x0 + x1) / 2 + rng.uniform(-0.5, 0.5) * size
    cy = (y0 + y1) / 2 + rng.uniform(-0.5, 0.5) * size
    return crop(img, cx, cy, size * rng.uniform(*AROUND_DIE), angle, flip)


def hard_negatives(items, images, detector_dir: Path) -> list[list[tuple[float, float, float]]]:
    """Per image, the (x, y, size) of everything the detector in `detector_dir` marks as a die
    at the reader's levels away from the labelled dice (key caps, letters, stickers, tray
    holes): the classifier's hard background crops."""
    from vision.pips import DETECTOR_FILE, PipParams, detect_centres  # the reader's own

    detector = cv2.dnn.readNetFromONNX(str(detector_dir / DETECTOR_FILE))
    p = PipParams()
    found = []
    for item, img in zip(items, images):
        base = p.work_side / max(img.shape[:2])
        marks = []
        for scale in [base * f for f in (*p.coarse_levels, *p.fine_levels)]:
            work = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            for x, y, size, _ in detect_centres(detector, work, p):
                x, y, size = x / scale, y / scale, size / scale
                if not any(d.box[0] - 0.25 * size <= x <= d.box[2] + 0.25 * size
                           and d.box[1] - 0.25 * size <= y <= d.box[3] + 0.25 * size
                           for d in item.dice):
                    marks.append((x, y, size))
        found.append(marks)
    return found


def cls_sample(item, img, edges, rng, positive: bool, extra: bool = False, hard=()):
    """One classifier sample: a jittered die crop (label = value) or a background crop (0):
    now and then a die's side face (labelled `sides`: seen steeply, it is as large as the top
    and must not be read as the die) or one of the image's `hard` negatives, else 20-70 px on
    the real photos, sized by the image's dice on an `extra` one."""
    angle, flip = rng.uniform(0, 360), bool(rng.random() < 0.5)
    if positive:
        valued = [d for d in item.dice if d.value is not None and not d.hard]
        die = valued[rng.integers(0, len(valued))]
        x0, y0, x1, y1 = die.box
        size = box_side(die.box)
        cx = (x0 + x1) / 2 + rng.uniform(-0.12, 0.12) * size
        cy = (y0 + y1) / 2 + rng.uniform(-0.12, 0.12) * size
        size *= rng.uniform(0.85, 1.2)
        return jitter_colour(crop(img, cx, cy, size, angle, flip), rng), die.value
    sides = [(d, box) for d in item.dice for box in d.sides]
    if sides and rng.random() < SIDE_SHARE:  # cropped at its die's size, as the reader would
        die, (x0, y0, x1, y1) = sides[rng.integers(0, len(sides))]
        size = box_side(die.box) * rng.uniform(0.85, 1.2)
        cx = (x0 + x1) / 2 + rng.uniform(-0.1, 0.1) * size
        cy = (y0 + y1) / 2 + rng.uniform(-0.1, 0.1) * size
        return jitter_colour(crop(img, cx, cy, size, angle, flip), rng), 0
    if item.dice and rng.random() < WRONG_SCALE_SHARE:
        return jitter_colour(wrong_scale_crop(item, img, rng, angle, flip), rng), 0
    if hard and rng.random() < HARD_SHARE:
        cx, cy, size = hard[rng.integers(0, len(hard))]
        cx, cy = cx + rng.uniform(-0.1, 0.1) * size, cy + rng.uniform(-0.1, 0.1) * size
        return jitter_colour(crop(img, cx, cy, size * rng.uniform(0.9, 1.1), angle, flip), rng), 0
    for _ in range(50):
        size = die_size(item) * rng.uniform(0.5, 1.75) if extra else rng.uniform(20, 70)
        if rng.random() < 0.6 and len(edges[0]):
            k = rng.integers(0, len(edges[0]))
            cy, cx = float(edges[0][k]), float(edges[1][k])
        else:
            cx, cy = rng.uniform(0, item.width), rng.uniform(0, item.height)
        inside = any(
            d.box[0] - 2 <= cx <= d.box[2] + 2 and d.box[1] - 2 <= cy <= d.box[3] + 2
            for d in item.dice
        )
        if not inside:
            break
    return jitter_colour(crop(img, cx, cy, size, angle, flip), rng), 0


def side_samples(items, images, models: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The side-face network's training views: what the plain reader's search (the networks in
    `models`, its side-face network off) marks as a die in each photo, as the reader sees it
    (`vision.pips.side_view`), labelled by the nearest label whose box holds its centre: a top
    face (`TOP_FACE`), a side face the renderer labelled (`sides`, `SIDE_FACE`) or nothing
    labelled (`NO_FACE`: clutter, a pip group); none on a hard die. Returns (views, labels,
    the index of each view's photo)."""
    # the reader's own search and view
    from vision.pips import NO_FACE, SIDE_FACE, TOP_FACE, PipParams, PipReader, side_view

    reader = PipReader(params=PipParams(side_face=2.0, no_die=2.0), model_dir=models)
    p = reader.params
    views, labels, photos = [], [], []
    for k, (item, img) in enumerate(zip(items, images)):
        marks = [(d.box, None if d.hard else TOP_FACE) for d in item.dice]
        marks += [(side, SIDE_FACE) for d in item.dice for side in d.sides]
        for c in reader._searched(img, reader.threshold, plain=True):
            if c.probs[0] > p.max_background:
                continue  # the reader drops it whatever it is
            around = [(box, label) for box, label in marks
                      if box[0] <= c.x <= box[2] and box[1] <= c.y <= box[3]]
            label = NO_FACE if not around else min(around, key=lambda m: (
                (m[0][0] + m[0][2]) / 2 - c.x) ** 2 + ((m[0][1] + m[0][3]) / 2 - c.y) ** 2)[1]
            if label is not None:
                views.append(side_view(img, c.x, c.y, c.size, p))
                labels.append(label)
                photos.append(k)
    return (np.array(views, np.uint8).reshape(-1, p.side_px, p.side_px, 3),
            np.array(labels, np.int64), np.array(photos, np.int64))
