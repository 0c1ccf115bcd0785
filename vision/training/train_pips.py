"""Train the pip reader's two small networks and export them to ONNX for `cv2.dnn`.

Run with a training venv that has torch and onnx (not needed at run time):

    python -m vision.training.train_pips DATASET_DIR --out vision/models [--all]

- `dice_detector.onnx`: a tiny fully convolutional net on the half-size frame that outputs a
  die-centre heat map, sub-cell offsets and die size at stride 8 (CenterNet-style).
- `dice_pips.onnx`: a tiny classifier of 32x32 colour crops around a die: not-a-die or 1..6.
- `dice_sides.onnx`: a tiny classifier of 48x48 views of the reader's candidates with the die's
  other faces round them: a top face, a side face (a steep camera's), or no die.

By default the held-out split (`vision.dataset.is_held_out`) is left out of training so the
bench can report held-out figures; `--all` trains on every image.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.dataset import is_held_out, load_dataset
from vision.pips import (
    CLASSIFIER_FILE,
    DETECTOR_FILE,
    SIDE_FACE,
    SIDES_FILE,
    TOP_FACE,
    PipParams,
)
from vision.training.samples import (
    CLS_SIZE,
    Sampler,
    cls_sample,
    det_sample,
    hard_negatives,
    jitter_colour,
    side_samples,
)


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


class Averaged(nn.Module):
    """Detectors read as one network: the mean of their outputs (heat logits, offsets, log
    sizes). A detector trained on from another reads steep and cluttered photos better and a
    lone large die less surely; beside the one it started from, it keeps both."""

    def __init__(self, *nets: nn.Module) -> None:
        super().__init__()
        self.nets = nn.ModuleList(nets)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.stack([net(x) for net in self.nets]).mean(0)


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


class SideNet(nn.Module):
    """A candidate's view with the die round it (`side_samples`) -> 3 logits: top face, side
    face, no die."""

    def __init__(self) -> None:
        super().__init__()
        self.f = nn.Sequential(cbr(3, 16, 2), cbr(16, 24), cbr(24, 32, 2), cbr(32, 32),
                               cbr(32, 48, 2), cbr(48, 64, 2))
        self.head = nn.Linear(64, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.f(x).mean(dim=(2, 3)))


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


def focal_loss(logits: torch.Tensor, heat: torch.Tensor, ignore: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on a sigmoid heat map; cells where `ignore` is 1
    (around a hard die) add no negative loss."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p**2 * (1 - heat) ** 4 * (1 - pos) * (1 - ignore)).sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


def start_from(net: nn.Module, onnx_file: Path) -> None:
    """Give `net` the weights of a network `export` wrote, to train on from there (fine-tuning):
    the file's batch norms are folded into its convolutions, so each convolution takes the
    folded weights, its batch norm the folded bias as its shift and no scaling, and the norms
    are frozen (eval), so training starts from exactly what the file computes."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(onnx_file))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    layers = [n for n in model.graph.node if n.op_type in ("Conv", "Gemm")]
    learned = [m for m in net.modules() if isinstance(m, (nn.Conv2d, nn.Linear))]
    if len(layers) != len(learned):
        raise SystemExit(f"{onnx_file}: {len(layers)} layers, this network has {len(learned)}"
                         + (" (a detector exported --average-with: start from one of the "
                            "networks it averages, e.g. build/models-base after make models)"
                            if len(layers) == 2 * len(learned) else ""))
    norm_of = {id(seq[0]): seq[1] for seq in net.modules()
               if isinstance(seq, nn.Sequential) and len(seq) > 1
               and isinstance(seq[1], nn.BatchNorm2d)}
    with torch.no_grad():
        for node, layer in zip(layers, learned):
            layer.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            bias = torch.from_numpy(weights[node.input[2]].copy())
            norm = norm_of.get(id(layer))
            if norm is None:
                layer.bias.copy_(bias)
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()


def optimiser(net: nn.Module, lr: float, iters: int
              ) -> tuple[torch.optim.Optimizer, torch.optim.lr_scheduler.LRScheduler]:
    """AdamW under a one-cycle schedule that peaks at `lr`: both networks train so."""
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    return opt, torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=iters)


def train_detector(items, images, iters: int, out: Path, sampler: Sampler, seed: int = 0,
                   start: Path | None = None, lr: float = 3e-3,
                   average_with: Path | None = None) -> None:
    """Train the centre detector on random augmented crops and export it (from the one in
    the folder `start` when given; averaged with the one in the folder `average_with` when
    given, `Averaged`)."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    net = Detector() if start is None else exported_detector(start)
    opt, sched = optimiser(net, lr, iters)
    t0 = time.time()
    for it in range(iters):
        batch = [det_sample(items[k], images[k], rng, sampler.is_extra(k))
                 for k in (sampler.pick(rng) for _ in range(12))]
        x = to_tensor([b[0] for b in batch])
        heat = torch.from_numpy(np.stack([b[1] for b in batch]))
        reg = torch.from_numpy(np.stack([b[2] for b in batch]))
        mask = torch.from_numpy(np.stack([b[3] for b in batch]))
        ignore = torch.from_numpy(np.stack([b[4] for b in batch]))
        y = net(x)
        loss_h = focal_loss(y[:, 0], heat, ignore)
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
    export(net if average_with is None else Averaged(exported_detector(average_with), net),
           (1, 3, 320, 320), out / DETECTOR_FILE)


def exported_detector(folder: Path) -> Detector:
    """The detector exported in `folder`, as a network to train on or average with."""
    net = Detector()
    start_from(net, folder / DETECTOR_FILE)
    return net


def train_classifier(items, images, iters: int, out: Path, sampler: Sampler, seed: int = 1,
                     start: Path | None = None, lr: float = 3e-3) -> None:
    """Train the crop classifier (not-a-die, 1..6) and export it (from the one in the folder
    `start` when given); its hard negatives come from the detector already in `out` (train it
    first)."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    hard = hard_negatives(items, images, out)
    print(f"hard negatives: {sum(map(len, hard))} in {sum(map(bool, hard))} images", flush=True)
    edges = [np.nonzero(cv2.Canny(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), 60, 150)) for im in images]
    usable = [k for k, it in enumerate(items)
              if any(d.value is not None and not d.hard for d in it.dice)]
    net = PipClassifier()
    if start is not None:
        start_from(net, start / CLASSIFIER_FILE)
    opt, sched = optimiser(net, lr, iters)
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
    export(net.with_features(), (1, 3, CLS_SIZE, CLS_SIZE), out / CLASSIFIER_FILE,
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


SIDE_SHARES = (0.5, 0.3, 0.2)  # each batch's top faces, side faces and no dice
TOP_WEIGHT = 2.0  # a top face taken for a side costs a die, a side kept one extra: weigh it more


def train_sides(items, images, iters: int, out: Path, seed: int = 1) -> None:
    """Train the side-face network on the reader's candidates with the networks already in
    `out` (train them first) and export it. A tenth of the photos is kept aside and what the
    network makes of their candidates printed as it learns."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    views, labels, photos = side_samples(items, images, out)
    print(f"side views: {np.bincount(labels, minlength=3).tolist()} (top, side, no die)",
          flush=True)
    aside = np.isin(photos, rng.choice(len(items), len(items) // 10, replace=False))
    train, check = np.flatnonzero(~aside), np.flatnonzero(aside)
    by_label = [train[labels[train] == k] for k in range(3)]
    net = SideNet()
    opt, sched = optimiser(net, 3e-3, iters)
    weight = torch.ones(3)
    weight[TOP_FACE] = TOP_WEIGHT
    t0 = time.time()
    for it in range(iters):
        picked = np.concatenate([rng.choice(pool, round(128 * share))
                                 for pool, share in zip(by_label, SIDE_SHARES) if len(pool)])
        batch = [jitter_view(views[k], rng) for k in picked]
        loss = F.cross_entropy(net(to_tensor(batch)), torch.from_numpy(labels[picked]),
                               weight=weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if it % 500 == 0 or it == iters - 1:
            print(f"side {it}/{iters} loss {loss.item():.3f} {time.time() - t0:.0f}s; "
                  f"{side_check(net, views[check], labels[check])}", flush=True)
    side = PipParams().side_px
    export(net, (1, 3, side, side), out / SIDES_FILE)


def jitter_view(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A side-face view turned a quarter any number of times (the renderer rolls its cameras
    all round), perhaps mirrored, its colours jittered as the classifier's crops are."""
    view = np.rot90(view, int(rng.integers(4)))
    if rng.random() < 0.5:
        view = view[:, ::-1]
    return jitter_colour(np.ascontiguousarray(view), rng)


def side_check(net: nn.Module, views: np.ndarray, labels: np.ndarray) -> str:
    """What the network makes of views kept aside: side faces caught and top faces lost at
    the reader's `side_face` threshold."""
    net.eval()
    with torch.no_grad():
        side = torch.cat([F.softmax(net(to_tensor(list(views[k:k + 512]))), 1)
                          for k in range(0, len(views), 512)]).numpy()[:, SIDE_FACE]
    net.train()
    dropped = side >= PipParams().side_face
    sides, tops = labels == SIDE_FACE, labels == TOP_FACE
    return (f"aside: sides caught {dropped[sides].sum()}/{sides.sum()}, "
            f"top faces lost {dropped[tops].sum()}/{tops.sum()}")


def main(argv: list[str] | None = None) -> int:
    """Command line: train the networks from a labelled folder."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--extra", type=Path, action="append", default=[],
                        help="another labelled folder trained on in full (e.g. synthetic "
                             "photos from vision.training.synth); repeatable")
    parser.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "models")
    parser.add_argument("--which", choices=["det", "cls", "both", "side"], default="both",
                        help="side: the side-face network, from the reader's candidates with "
                             "the networks already in --out")
    parser.add_argument("--det-iters", type=int, default=12000)
    parser.add_argument("--cls-iters", type=int, default=12000)
    parser.add_argument("--side-iters", type=int, default=12000)
    parser.add_argument("--real-share", type=float, default=0.5,
                        help="part of each batch drawn from DATASET when --extra is given")
    parser.add_argument("--all", action="store_true", help="train on the held-out split too")
    parser.add_argument("--start-from", type=Path, metavar="DIR",
                        help="train on from the networks in DIR (e.g. vision/models) instead of "
                             "from scratch")
    parser.add_argument("--lr", type=float, default=3e-3,
                        help="the largest learning rate of the one-cycle schedule")
    parser.add_argument("--average-with", type=Path, metavar="DIR",
                        help="export the detector as one network averaging its outputs with "
                             "the detector in DIR (e.g. the one it started from)")
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
        train_detector(items, images, args.det_iters, args.out, sampler,
                       start=args.start_from, lr=args.lr, average_with=args.average_with)
    if args.which in ("cls", "both"):
        train_classifier(items, images, args.cls_iters, args.out, sampler,
                         start=args.start_from, lr=args.lr)
    if args.which == "side":
        train_sides(items, images, args.side_iters, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
