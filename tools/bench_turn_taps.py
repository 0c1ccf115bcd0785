"""Taps per turn: the example games played by touch in the app under a private Xvfb.

    .venv/bin/python tools/bench_turn_taps.py [--size WxH] [EXAMPLE ...]

Runs the driver tests/ui/drive_turns.py for each example of examples/ (all by default): the
example's setup stored with the tiles' values known, then every turn tapped as a table would -
the ship or Income, each panel's answers, the Diplomacy bonuses, Next. Prints per example the
turns, the median and most taps per turn (which turn), a histogram, and the slowest turns with
the panels their taps went to (the issue's budget: a median of at most 5, none over 12, Next
counted). Figures, never asserted; an example the driver cannot finish, or whose state differs
from the engine's replay, is printed with why (and the turns played until then), and the exit
status is 1. Without Xvfb it says so and measures nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from xvfb_display import app_environment, bench_display

REPO = Path(__file__).resolve().parent.parent
DRIVER = REPO / "tests" / "ui" / "drive_turns.py"
sys.path.insert(0, str(DRIVER.parent))

from drive_turns import figures  # noqa: E402 - the figures the driver reports
from harness import RESULT_PREFIX  # noqa: E402 - the driver's result line

SLOWEST = 5  # turns printed with their panels


def played(example: str, display: str, size: str) -> dict[str, Any]:
    """Run the driver on one example in its own data folders; what it reported."""
    with tempfile.TemporaryDirectory(prefix="phoenix-turns-") as home:
        command = [sys.executable, str(DRIVER), example, "--size", size,
                   "--db", str(Path(home) / "games.sqlite")]
        done = subprocess.run(command, env=app_environment(display, home), cwd=REPO,
                              capture_output=True, text=True, timeout=900)
    lines = [line for line in done.stdout.splitlines() if line.startswith(RESULT_PREFIX)]
    return json.loads(lines[-1][len(RESULT_PREFIX):]) if lines else {
        "ok": False, "turns": [],
        "error": f"the driver reported nothing (exit {done.returncode}): {done.stderr[-2000:]}"}


def report(example: str, result: dict[str, Any]) -> None:
    """One example's figures: the summary line, the histogram, the slowest turns."""
    turns = result.get("turns", [])
    if not result.get("ok"):
        where = "after the last turn" if result.get("differences") else \
            f"at turn {len(turns) + 1}"
        print(f"{example}: FAILED {where}: {result.get('error')}")
        if not turns:
            return
        print(f"  the {len(turns)} turns played before it:")
    found = figures([turn["taps"] for turn in turns])
    most = turns[found["max_turn"] - 1]
    print(f"{example}: {found['turns']} turns, median {found['median']} taps, "
          f"max {found['max']} (turn {found['max_turn']}, {most['what']})")
    for taps, count in found["histogram"].items():
        print(f"  {taps:>3} taps | {'#' * count} {count}")
    over = Counter(turn["what"].split(": ", 1)[1] for turn in turns if turn["taps"] > 12)
    if over:
        print(f"  over 12 taps: {sum(over.values())} turn(s) ("
              + ", ".join(f"{what} x{n}" for what, n in over.most_common()) + ")")
    print("  the slowest turn of each ship (or income), taps per panel:")
    slowest: dict[str, dict[str, Any]] = {}
    for turn in sorted(turns, key=lambda t: -t["taps"]):
        slowest.setdefault(turn["what"].split(": ", 1)[1], turn)
    for turn in list(slowest.values())[:SLOWEST]:
        scrolled = f" [scrolled into view: {', '.join(turn['scrolled'])}]" \
            if turn["scrolled"] else ""
        print(f"    turn {turn['turn']} {turn['what']}: {turn['taps']} taps - "
              f"{panels(turn['panels'])}{scrolled}")


def panels(tapped: list[list[Any]]) -> str:
    """The panels a turn's taps went to, without the "Ann uses Expedition L3: " every title of
    the action starts with; panels alike but for a number ("Human 1", "Human 2") as one."""
    found: list[list[Any]] = []  # [title, its pattern, taps, panels]
    for title, taps in tapped:
        short = re.sub(r"^.+? uses .+?: ", "", title)
        pattern = re.sub(r"\d+", "N", short)
        if found and found[-1][1] == pattern:
            found[-1][2:] = [found[-1][2] + taps, found[-1][3] + 1]
        else:
            found.append([short, pattern, taps, 1])
    return "; ".join(f"{pattern if count > 1 else short} {taps}"
                     + (f" ({count} panels)" if count > 1 else "")
                     for short, pattern, taps, count in found)


def main(argv: list[str] | None = None) -> int:
    every = sorted(path.stem for path in (REPO / "examples").glob("*.jsonl"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("examples", nargs="*", metavar="EXAMPLE",
                        help=f"examples to play (default: all of {', '.join(every)})")
    parser.add_argument("--size", default="800x480", help="window size WIDTHxHEIGHT")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.examples) - set(every))
    if unknown:
        parser.error(f"no such example: {', '.join(unknown)} (examples: {', '.join(every)})")
    failed = 0
    with bench_display("turn taps") as display:
        if display is None:
            return 0
        print(f"turn taps: examples/ played by touch ({args.size}, Xvfb; values known; "
              "Next counted; budget: median <= 5, none over 12)")
        for example in args.examples or every:
            result = played(example, display, args.size)
            report(example, result)
            failed += not result.get("ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
