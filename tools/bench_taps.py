"""Count the taps a table needs to set up a game, under a private Xvfb.

    .venv/bin/python tools/bench_taps.py [--size WxH] [--language de] [--shots DIR]

Runs each of tests/ui/drive_setup.py's TAP_SCENARIOS in the real app (a fresh process, data and
config folders of its own): from home's New game to the table, an example game's setup by
simulated touches, every value the tiles print known beforehand (drive_setup.known_values
writes them into that run's catalogue overlay), the names typed on the on-screen keyboard.
Prints one line per scenario ("setup, 2-player first game: 35 taps (target <= 35)"), then the
taps of each value card tests/ui/drive_values.py's "setup-cards" fills by touch (a Hub, a Hub
whose GEMs and resources are as on one known, a Sector, a ship); asserts nothing
(tests/ui/setup/test_setup_taps.py and tests/ui/kit/test_values.py do). Without Xvfb it says so
and counts nothing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from xvfb_display import app_environment, bench_display

REPO = Path(__file__).resolve().parent.parent
DRIVER = REPO / "tests" / "ui" / "drive_setup.py"
CARDS = REPO / "tests" / "ui" / "drive_values.py"
CARD_TARGETS = {"hub": ("a Hub (4 resources, its Diplomacy, its income)", 4),
                "hub_alike": ("a Hub's starting values, as on a Hub known", 4),
                "sector": ("a Sector", 5), "ship": ("a ship", 4)}
DRIVER_RESULT = "DRIVER-RESULT "  # the line a driver prints what it read on (tests/ui/harness)

sys.path.insert(0, str(DRIVER.parent))
sys.path.insert(0, str(REPO))
from drive_setup import TAP_SCENARIOS, known_values  # noqa: E402


def count(scenario: str, display: str, size: str, language: str,
          shots: Path | None, driver: Path = DRIVER) -> dict:
    """Run one scenario in its own app process; what its driver read (its taps included)."""
    with tempfile.TemporaryDirectory(prefix="phoenix-taps-") as home:
        env = app_environment(display, home)
        if scenario in TAP_SCENARIOS:
            known_values(TAP_SCENARIOS[scenario][0],
                         Path(home) / "data" / "catalogue-overlay.json")
        config = Path(home) / "config.toml"
        config.write_text(f'[display]\nlanguage = "{language}"\n', encoding="utf-8")
        command = [sys.executable, str(driver), scenario, "--size", size,
                   "--config", str(config)]
        if shots is not None:
            command += ["--shots", str(shots)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600,
                              cwd=REPO)
    lines = [line for line in done.stdout.splitlines() if line.startswith(DRIVER_RESULT)]
    if not lines:
        return {"ok": False, "error": f"exit {done.returncode}: {done.stderr[-2000:]}"}
    return json.loads(lines[-1][len(DRIVER_RESULT):])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="800x480", help="window size WIDTHxHEIGHT")
    parser.add_argument("--language", default="en", help="the app's language (en, de)")
    parser.add_argument("--shots", type=Path, default=None, help="folder for screenshots")
    args = parser.parse_args(argv)
    failed = False
    with bench_display("taps") as display:
        if display is None:
            return 0
        print(f"taps bench ({args.size}, {args.language}, every value known beforehand)")
        for scenario, (_example, target, words) in TAP_SCENARIOS.items():
            result = count(scenario, display, args.size, args.language, args.shots)
            if not result.get("ok"):
                print(f"  {words}: failed: {result.get('error')}")
                failed = True
                continue
            print(f"  {words}: {result['setup_taps']} taps (target <= {target})")
        result = count("setup-cards", display, args.size, args.language, args.shots, CARDS)
        if not result.get("ok"):
            print(f"  value cards: failed: {result.get('error')}")
            return 1
        for card, taps in result["card_taps"].items():
            words, target = CARD_TARGETS[card]
            print(f"  value card, {words}: {taps} taps (target <= {target})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
