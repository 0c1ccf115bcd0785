"""A copy of a labelled folder whose every box encloses only the pips: shrunk about its centre
(1.7 x smaller by default, as the boxes of issue 29's wood-table set were drawn), so that a
calibration from such labels can be benched (`phoenix-dice bench OUT --calibrate 10`; a die is
found when its centre lies in the box, so the score is the same as against the whole boxes).
The images are linked, not copied.

    python tools/labels_of_the_pips.py ../shared/datasets/d6-tray build/d6-tray-pips
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", type=Path, help="a labelled folder (labels.json)")
    parser.add_argument("out", type=Path, help="the copy to write")
    parser.add_argument("--factor", type=float, default=1.7, help="die side / box side")
    args = parser.parse_args(argv)
    labels = json.loads((args.dataset / "labels.json").read_text(encoding="utf-8"))
    args.out.mkdir(parents=True, exist_ok=True)
    for name, entry in labels.items():
        link = args.out / name
        if not link.exists():
            link.symlink_to((args.dataset / name).resolve())
        for die in entry["dice"]:
            x0, y0, x1, y1 = die["box"]
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            hw, hh = (x1 - x0) / 2 / args.factor, (y1 - y0) / 2 / args.factor
            die["box"] = [round(cx - hw, 5), round(cy - hh, 5), round(cx + hw, 5),
                          round(cy + hh, 5)]
    (args.out / "labels.json").write_text(json.dumps(labels, indent=1) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(labels)} photos, every box {args.factor} x smaller")
    return 0


if __name__ == "__main__":
    sys.exit(main())
