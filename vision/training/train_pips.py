"""Train the pip reader's two small networks and export them to ONNX for `cv2.dnn`.

Run with a training venv that has torch and onnx (not needed at run time):

    python -m vision.training.train_pips DATASET_DIR --out vision/models [--all]

- `dice_detector.onnx`: a tiny fully convolutional net on the half-size frame that outputs a
  die-centre heat map, sub-cell offsets and die size at stride 8 (CenterNet-style).
- `dice_pips.onnx`: a tiny classifier of 32x32 colour crops around a die: not-a-die or 1..6.

By default the held-out split (`vision.dataset.is_held_out`) is left out of training so the
bench can report held-out figures; `--all` trains on every image.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.dataset import is_held_out, load_dataset

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
AROUND_DIE = (2.2, 3.5)  # crop size / die size of a crop that takes in a die's neighbours


def cbr(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    """Convolution, batch norm, ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(True)
    )


class Detector(nn.Module):
    """Centre heat map (1), offset (2) and log size (1) at stride 4 of the half-size input."""

    def __init__(self) -> None:
        super().__init__()
        self.c1, self.c2, self.c3 = cbr(3, 16, 2), cbr(16, 24, 2), cbr(24, 24)
        self.c4, self.c5 = cbr(24, 48, 2), cbr(48, 48)
        self.c6, self.c7 = cbr(48, 64, 2), cbr(64, 64)
        self.u1a, self.u1b = cbr(112, 48, 1, 1), cbr(48, 48)
        self.u2a, self.u2b = cbr(72, 32, 1, 1), cbr(32, 32)
        self.head = nn.Conv2d(32, 4, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f3 = self.c3(self.c2(self.c1(x)))
        f5 = self.c5(self.c4(f3))
        f7 = self.c7(self.c6(f5))
        g = self.u1b(self.u1a(torch.cat([self.up(f7), f5], 1)))
        g = self.u2b(self.u2a(torch.cat([self.up(g), f3], 1)))
        return self.head(g)


class PipClassifier(nn.Module):
    """40x40 crop -> 7 logits: not a die, 1, 2, 3, 4, 5, 6 (and, exported, the 96 features
    they are computed from, which calibration compares faces by)."""

    def __init__(self) -> None:
        super().__init__()
        self.f = nn.Sequential(
            cbr(3, 24), nn.MaxPool2d(2), cbr(24, 48), nn.MaxPool2d(2),
            cbr(48, 96), nn.MaxPool2d(2), cbr(96, 96), nn.MaxPool2d(5),
            nn.Flatten(), nn.Dropout(0.2), nn.Linear(96, 7),
        )  # fmt: skip

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.f(x)

    def with_features(self) -> nn.Module:
        """The same network giving (logits, features), as exported."""
        return _WithFeatures(self)


class _WithFeatures(nn.Module):
    def __init__(self, net: PipClassifier) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        layers = list(self.net.f)
        split = next(k for k, m in enumerate(layers) if isinstance(m, nn.Flatten)) + 1
        features = nn.Sequential(*layers[:split])(x)
        return nn.Sequential(*layers[split:])(features), features


def to_tensor(images: list[np.ndarray]) -> torch.Tensor:
    """BGR uint8 images -> NCHW float in [-1, 1], as cv2.dnn.blobFromImages does at run time."""
    arr = np.stack(images).astype(np.float32)
    return torch.from_numpy((arr - 127.5) / 127.5).permute(0, 3, 1, 2).contiguous()


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
    sizes = [math.sqrt((d.box[2] - d.box[0]) * (d.box[3] - d.box[1])) for d in item.dice]
    return float(np.median(sizes)) if sizes else SIZE_REF


def det_sample(item, img, rng, extra: bool = False):
    """One augmented detector sample: half-size crop and its targets. The real photos' dice
    are about SIZE_REF across and get a scale of 0.75-1.35; an `extra` image's dice (any size)
    are brought to TRAIN_SIZES, as the reader rescales frames, and its crop is centred near a
    die most of the time, so small dice in big frames are seen; now and then they are brought to
    TOO_BIG instead and mark no centre, so that a frame read too large does not show a die's
    pip groups as dice."""
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
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for die in [] if too_big else item.dice:
        x0, y0, x1, y1 = die.box
        c = m @ np.array([(x0 + x1) / 2, (y0 + y1) / 2, 1.0])
        size = math.sqrt((x1 - x0) * (y1 - y0)) * scale
        gx, gy = c[0] / STRIDE, c[1] / STRIDE
        if not (0 <= gx < g and 0 <= gy < g):
            continue
        ix, iy = int(gx), int(gy)
        sigma = max(0.7, size / STRIDE / 5)
        heat = np.maximum(heat, np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2)))
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (gx - ix, gy - iy, math.log(size / SIZE_REF))
        mask[iy, ix] = 1.0
    return half, heat, reg, mask


def focal_loss(logits: torch.Tensor, heat: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on a sigmoid heat map."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - pos)).sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


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


def train_detector(items, images, iters: int, out: Path, sampler: Sampler,
                   seed: int = 0) -> None:
    """Train the centre detector on random augmented crops and export it."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    net = Detector()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=iters)
    t0 = time.time()
    for it in range(iters):
        batch = [det_sample(items[k], images[k], rng, sampler.is_extra(k))
                 for k in (sampler.pick(rng) for _ in range(12))]
        x = to_tensor([b[0] for b in batch])
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        reg = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        y = net(x)
        loss_h = focal_loss(y[:, 0], heat)
        l1 = F.l1_loss(y[:, 1:], reg, reduction="none").sum(1)
        loss_r = (l1 * mask).sum() / mask.sum().clamp(min=1)
        loss = loss_h + loss_r
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 50 == 0:
            print(f"det {it}/{iters} heat {loss_h.item():.3f} reg {loss_r.item():.3f} "
                  f"{time.time() - t0:.0f}s", flush=True)
    export(net, (1, 3, 320, 320), out / "dice_detector.onnx")


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
    x0, y0, x1, y1 = item.dice[rng.integers(0, len(item.dice))].box
    size = math.sqrt((x1 - x0) * (y1 - y0))
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
    now and then one of the image's `hard` negatives, else 20-70 px on the real photos, sized
    by the image's dice on an `extra` one."""
    angle, flip = rng.uniform(0, 360), bool(rng.random() < 0.5)
    if positive:
        valued = [d for d in item.dice if d.value is not None and not d.hard]
        die = valued[rng.integers(0, len(valued))]
        x0, y0, x1, y1 = die.box
        size = math.sqrt((x1 - x0) * (y1 - y0))
        cx = (x0 + x1) / 2 + rng.uniform(-0.12, 0.12) * size
        cy = (y0 + y1) / 2 + rng.uniform(-0.12, 0.12) * size
        size *= rng.uniform(0.85, 1.2)
        return jitter_colour(crop(img, cx, cy, size, angle, flip), rng), die.value
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


def train_classifier(items, images, iters: int, out: Path, sampler: Sampler,
                     seed: int = 1) -> None:
    """Train the crop classifier (not-a-die, 1..6) and export it; its hard negatives come from
    the detector already in `out` (train it first)."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    hard = hard_negatives(items, images, out)
    print(f"hard negatives: {sum(map(len, hard))} in {sum(map(bool, hard))} images", flush=True)
    edges = [np.nonzero(cv2.Canny(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), 60, 150)) for im in images]
    usable = [k for k, it in enumerate(items)
              if any(d.value is not None and not d.hard for d in it.dice)]
    net = PipClassifier()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=iters)
    t0 = time.time()
    for it in range(iters):
        batch = []
        for j in range(128):
            k = sampler.pick(rng, usable) if j < 96 else sampler.pick(rng)
            batch.append(cls_sample(items[k], images[k], edges[k], rng, positive=j < 96,
                                    extra=sampler.is_extra(k), hard=hard[k]))
        x = to_tensor([b[0] for b in batch])
        y = torch.tensor([b[1] for b in batch])
        logits = net(x)
        loss = F.cross_entropy(logits, y, label_smoothing=0.02)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 100 == 0:
            acc = (logits.argmax(1) == y).float().mean().item()
            print(f"cls {it}/{iters} loss {loss.item():.3f} acc {acc:.3f} {time.time() - t0:.0f}s",
                  flush=True)
    export(net.with_features(), (1, 3, CLS_SIZE, CLS_SIZE), out / "dice_pips.onnx",
           ("y", "features"))


def export(net: nn.Module, shape: tuple[int, ...], path: Path,
           outputs: tuple[str, ...] = ("y",)) -> None:
    """Export an eval-mode network to ONNX with dynamic batch and spatial size."""
    net.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        net, torch.zeros(*shape), str(path), dynamo=False, opset_version=13,
        input_names=["x"], output_names=list(outputs),
        dynamic_axes={"x": {0: "n", 2: "h", 3: "w"}, **{name: {0: "n"} for name in outputs}},
    )  # fmt: skip
    print(f"wrote {path} ({path.stat().st_size} bytes)", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Command line: train one or both networks from a labelled folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--extra", type=Path, action="append", default=[],
                        help="another labelled folder trained on in full (e.g. synthetic "
                             "photos from vision.training.synth); repeatable")
    parser.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "models")
    parser.add_argument("--which", choices=["det", "cls", "both"], default="both")
    parser.add_argument("--det-iters", type=int, default=12000)
    parser.add_argument("--cls-iters", type=int, default=12000)
    parser.add_argument("--real-share", type=float, default=0.5,
                        help="part of each batch drawn from DATASET when --extra is given")
    parser.add_argument("--all", action="store_true", help="train on the held-out split too")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    data = load_dataset(args.dataset)
    items = [it for k, it in enumerate(data) if args.all or not is_held_out(k, len(data))]
    real = len(items)
    for folder in args.extra:
        items += load_dataset(folder)
    sampler = Sampler(real, len(items), args.real_share)
    images = [cv2.imread(str(it.path)) for it in items]
    print(f"training on {len(items)} images ({len(data)} in {args.dataset})", flush=True)
    if args.which in ("det", "both"):
        train_detector(items, images, args.det_iters, args.out, sampler)
    if args.which in ("cls", "both"):
        train_classifier(items, images, args.cls_iters, args.out, sampler)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
