"""Compare two folders of screenshots pixel by pixel (the UI tests write theirs to
build/screenshots/, or $PHOENIX_SCREENSHOTS): which are identical, which differ (how many pixels,
in which box), which are in one folder only. Printed, never asserted.

    .venv/bin/python tools/compare_screenshots.py BEFORE_DIR AFTER_DIR
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np


def difference(before: Path, after: Path) -> str:
    """"same", or how the two images differ."""
    one, other = cv2.imread(str(before)), cv2.imread(str(after))
    if one is None or other is None:
        return "unreadable"
    if one.shape != other.shape:
        return f"size {one.shape[1]}x{one.shape[0]} -> {other.shape[1]}x{other.shape[0]}"
    changed = np.any(one != other, axis=2)
    if not changed.any():
        return "same"
    rows, cols = np.nonzero(changed)
    return (f"{int(changed.sum())} pixels differ, in x {cols.min()}-{cols.max()}, "
            f"y {rows.min()}-{rows.max()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    names = sorted({p.name for p in args.before.glob("*.png")}
                   | {p.name for p in args.after.glob("*.png")})
    same = 0
    for name in names:
        if not (args.before / name).exists() or not (args.after / name).exists():
            print(f"{name}: only in {args.after if (args.after / name).exists() else args.before}")
            continue
        found = difference(args.before / name, args.after / name)
        same += found == "same"
        if found != "same":
            print(f"{name}: {found}")
    print(f"{same} of {len(names)} screenshots identical")


if __name__ == "__main__":
    main()
