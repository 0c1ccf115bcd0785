"""Benchmark the game store: commit time per command, resume time with and without snapshots.

    .venv/bin/python tools/bench_store.py [--dir FOLDER] [--snapshot-every N] [--runs N]

Replays the long legal game of tests/store/long_game.jsonl (1,000+ commands, with undos and
redos) into a fresh database in FOLDER (default: a temporary folder; give a folder on the SD
card to measure the Pi's real storage), one durable transaction per command, then reopens it.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from companion.rules.script import parse  # noqa: E402
from companion.store import DEFAULT_SNAPSHOT_EVERY, Store  # noqa: E402

SCRIPT = REPO / "tests" / "store" / "long_game.jsonl"
OVERLAY = REPO / "tests" / "store" / "long_game_overlay.json"


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def ms(seconds: float) -> str:
    """Milliseconds, for printing."""
    return f"{seconds * 1000:8.2f} ms"


def run(folder: Path, snapshot_every: int, runs: int) -> None:
    """Replay, time, reopen, time; print the figures."""
    commands = [line.command for line in parse(SCRIPT.read_text(encoding="utf-8").splitlines())]
    db = folder / "bench.sqlite"
    overlay = folder / "overlay.json"
    overlay.write_bytes(OVERLAY.read_bytes())
    store = Store.open(db, overlay=overlay, snapshot_every=snapshot_every)
    commit_times: list[float] = []
    original = store._commit

    def timed_commit(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            commit_times.append(time.perf_counter() - started)

    store._commit = timed_commit  # type: ignore[method-assign]
    played = store.new_game("benchmark")
    touch_times = []
    for command in commands:
        started = time.perf_counter()
        played.execute(command)
        touch_times.append(time.perf_counter() - started)
    game_id, steps, events = played.id, len(played.game.steps), len(played.game.events)
    store.close()
    size = db.stat().st_size + sum(p.stat().st_size for p in folder.glob("bench.sqlite-*"))
    print(f"database: {db} ({size / 1024:.0f} KiB), snapshot every {snapshot_every} events")
    print(f"game: {len(commands)} commands ({steps} live steps, {events} events)")
    print(f"commit of one command      median {ms(statistics.median(commit_times))}   "
          f"p99 {ms(percentile(commit_times, 0.99))}   max {ms(max(commit_times))}")
    print(f"command, engine + commit   median {ms(statistics.median(touch_times))}   "
          f"p99 {ms(percentile(touch_times, 0.99))}   max {ms(max(touch_times))}")

    started = time.perf_counter()
    store = Store.open(db, overlay=overlay, snapshot_every=snapshot_every)
    opened = time.perf_counter() - started
    print(f"open the database (lock, checks, quick_check)       {ms(opened)}")
    for use in (True, False):
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            store.open_game(game_id, use_snapshots=use)
            times.append(time.perf_counter() - started)
        label = "with snapshots   " if use else "without snapshots"
        print(f"resume the {len(commands)}-command game {label}   "
              f"median {ms(statistics.median(times))}   max {ms(max(times))}")
    store.close()


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=None,
                        help="folder for the database (default: a temporary folder)")
    parser.add_argument("--snapshot-every", type=int, default=DEFAULT_SNAPSHOT_EVERY)
    parser.add_argument("--runs", type=int, default=7, help="resume runs to take the median of")
    args = parser.parse_args(argv)
    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
        for old in args.dir.glob("bench.sqlite*"):
            old.unlink()
        run(args.dir, args.snapshot_every, args.runs)
    else:
        with tempfile.TemporaryDirectory(prefix="bench-store-") as folder:
            run(Path(folder), args.snapshot_every, args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
