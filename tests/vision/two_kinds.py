"""SYNTHETIC photos of one table whose dice are of two kinds (`vision.training.synth`'s drawing):
blue dice with an emblem in place of the 1 and white dice with ordinary pips, thrown together.
Only for tests."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np

from vision.training.synth import (
    Camera,
    DiceSet,
    SynthParams,
    clutter,
    draw_die,
    place_dice,
    sensor,
    table,
)

BLUE = DiceSet((170, 90, 30), (235, 235, 235), 0.15, emblem_on=1, emblem="human")
WHITE = DiceSet((225, 228, 230), (30, 30, 30), 0.12)


def write_two_kinds(out: Path, photos: int, seed: int, blue: float = 0.5, side: float = 40.0,
                    size: tuple[int, int] = (640, 480)) -> dict[str, list[str]]:
    """`photos` photos of one table seen from above (the same table, clutter, light), each with
    6-10 dice thrown anew, each blue with chance `blue`, else white, and their labels.json
    (values 1..6); returns each photo's dice's kinds ("blue", "white"), in label order."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    w, h = size
    ground = table(rng, w, h)
    clutter(ground, rng, side, 2)
    camera = Camera(0.0, 0.0, (w / 2, h / 2))
    light = (math.cos(1.0), math.sin(1.0))
    margin = side * 1.2
    labels, kinds = {}, {}
    for index in range(photos):
        frame = ground.copy()
        count = int(rng.integers(6, 11))

        def fits(spot: np.ndarray) -> bool:
            (x, y), = camera.project(np.array([[spot[0], spot[1], side / 2]]))
            return margin <= x <= w - margin and margin <= y <= h - margin

        spots, _turns = place_dice(rng, count, side, max(w, h) / 2, fits, 0.0)
        blues = [bool(rng.random() < blue) for _ in spots]
        dice = [draw_die(frame, camera, BLUE if is_blue else WHITE, (float(x), float(y)),
                         side, float(rng.uniform(0, 90)), int(rng.integers(1, 7)), light, rng)
                for is_blue, (x, y) in zip(blues, spots)]
        frame = sensor(frame, rng, SynthParams(jpeg_quality=(90, 95)))
        name = f"two-{index:03d}.png"
        cv2.imwrite(str(out / name), frame)
        labels[name] = {"width": w, "height": h, "dice": [d.label(w, h) for d in dice]}
        kinds[name] = ["blue" if is_blue else "white" for is_blue in blues]
    (out / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return kinds
