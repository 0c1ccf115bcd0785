"""A copy of the d6-tray set with the label errors found while benching it corrected, so the
reader can be measured against what the photos show (`phoenix-dice bench OUT`).

Each correction was checked by eye on the photo (docs/dice.md, "Label errors in d6-tray"); the
images are linked, not copied.

    python tools/d6_tray_corrected.py ../shared/datasets/d6-tray build/d6-tray-corrected
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# (photo, a point on the die in pixels, the value its top face shows): dice labelled wrong
RELABELLED = [
    ("IMG_20191208_111246.jpg", (138, 222), 3),  # three red pips in a row, labelled 2
    ("IMG_20191208_112342.jpg", (312, 482), 3),  # three white pips on black, labelled 2
    ("IMG_20191209_095954.jpg", (238, 339), 3),  # three yellow pips on green, labelled 2
    ("IMG_20191209_100722.jpg", (432, 438), 5),  # five on top, the six a side face; labelled 6
    ("IMG_20191209_095439.jpg", (332, 386), 4),  # four white pips on purple, labelled 5
]
# (photo, box in pixels, value): dice in the photo that have no label
UNLABELLED = [
    ("IMG_20191208_111530.jpg", (98, 560, 135, 597), 6),
    ("IMG_20191208_112342.jpg", (252, 133, 289, 169), 3),
    ("IMG_20191208_112353.jpg", (298, 361, 335, 398), 3),
    ("IMG_20191209_095533.jpg", (316, 343, 356, 383), 6),
]


def corrected(labels: dict) -> dict:
    """The labels with RELABELLED dice given their value and UNLABELLED dice added; raises
    KeyError or ValueError when a photo or die named is not in them."""
    labels = json.loads(json.dumps(labels))
    for name, (x, y), value in RELABELLED:
        entry = labels[name]
        w, h = entry["width"], entry["height"]
        hits = [d for d in entry["dice"] if d["box"][0] * w <= x <= d["box"][2] * w
                and d["box"][1] * h <= y <= d["box"][3] * h]
        if len(hits) != 1:
            raise ValueError(f"{name}: {len(hits)} labelled dice at ({x}, {y}), expected 1")
        hits[0]["value"] = value
    for name, (x0, y0, x1, y1), value in UNLABELLED:
        entry = labels[name]
        w, h = entry["width"], entry["height"]
        entry["dice"].append({"value": value, "box": [x0 / w, y0 / h, x1 / w, y1 / h]})
    return labels


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, help="the d6-tray folder (labels.json and photos)")
    parser.add_argument("out", type=Path, help="folder to write the corrected copy to")
    args = parser.parse_args(argv)
    try:
        labels = corrected(json.loads((args.dataset / "labels.json").read_text()))
    except (OSError, KeyError, ValueError) as exc:
        print(f"d6_tray_corrected: {args.dataset}: not the d6-tray set ({exc})", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name in labels:
        link = args.out / name
        if not link.exists():
            link.symlink_to((args.dataset / name).resolve())
    (args.out / "labels.json").write_text(json.dumps(labels, indent=1))
    print(f"{args.out}: {len(labels)} photos, {len(RELABELLED)} dice relabelled, "
          f"{len(UNLABELLED)} added")
    return 0


if __name__ == "__main__":
    sys.exit(main())
