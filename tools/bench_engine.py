"""Benchmark of the rules engine: replay a 400-command 4-player game, fold its events, score it,
and ask `options` mid-game.

    .venv/bin/python tools/bench_engine.py [--commands 400] [--repeat 20]

The game is played by a seeded random player at a 4-player table (every command it makes is one
the engine accepts), using the test table's catalogue values for what the shipped catalogue
leaves unknown. Prints the median and best of each timing; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "rules")]

from tables import Table, table_catalogue_at  # noqa: E402

from companion.rules.game import Game, Missing, Refused  # noqa: E402
from companion.rules.options import options  # noqa: E402
from companion.rules.report import final_score  # noqa: E402
from companion.rules.state import fold  # noqa: E402

FACES = ("food", "water", "metal", "human")
RESOURCES = ("food", "water", "metal")


def candidate(state: dict, rng: random.Random) -> dict:
    """One command a random player might make now (the engine may refuse it)."""
    names = [p["name"] for p in state["players"]]
    active = state["turn"]["active"]
    me = names[active]
    if state["pending"]:
        pending = state["pending"][0]
        return {"cmd": "diplomacy_bonus", "player": names[pending["player"]],
                "levels": rng.choice(pending["options"])}
    if state["turn"]["acted"]:
        return {"cmd": "end_turn"}
    free = [(sid, s) for sid, s in state["ships"].items() if s["used_by"] is None]
    if rng.random() < 0.15 or not free:
        return {"cmd": "income", "player": me}
    sid, ship = rng.choice(free)
    command = {"cmd": "use_ship", "player": me, "ship": sid,
               "choices": {"B-3": rng.choice(("teal", "pink", "brown", "gold"))}}
    kind = ship["type"]
    if kind == "dismantle":
        own = [s for s, x in state["ships"].items()
               if x["owner"] == active and x["used_by"] is None and s != sid]
        command["dismantle"] = rng.choice(own) if own else None
    elif kind == "construction":
        command["sector"] = rng.choice(state["display"]) if state["display"] else None
    elif kind == "expedition":
        rolled = [rng.choice(FACES) for _ in range(8)]
        command.update(rolled=rolled)
    elif kind == "transport":
        command["transactions"] = [rng.choice([
            {"type": "alien", "color": rng.choice(("teal", "pink", "brown"))},
            {"type": "gold"},
            {"type": "trade", "pay": [rng.choice(RESOURCES), rng.choice(RESOURCES)],
             "gain": rng.choice(RESOURCES)},
            {"type": "buy", "gain": rng.choice(RESOURCES)},
        ]) for _ in range(rng.randint(1, 3))]
    elif kind == "diplomacy":
        command["tracks"] = [rng.choice(("dismantle", "construction", "transport",
                                         "expedition"))]
    return command


def expedition_fits(command: dict, game: Game) -> list[dict]:
    """Expedition commands for each duration/capacity the ship might have."""
    rolled = command["rolled"]
    variants = []
    for dice in range(6, 9):
        for keep in range(1, 5):
            kept = rolled[:keep]
            variants.append({**command, "rolled": rolled[:dice], "keep": kept,
                             "humans": ["observe" for f in kept if f == "human"]})
    return variants


def play(catalogue, commands: int, seed: int) -> list[dict]:
    """A legal 4-player game of `commands` commands (setup included)."""
    table = Table(catalogue, hubs=("B-3", "B-5", "A-2", "A-4"))
    table.setup_bonuses(Cat={}, Dan={"discard": ["Dan:L1-diplomacy"]})
    script = [step.command for step in table.game.steps]
    rng = random.Random(seed)
    game = table.game
    while len(script) < commands and game.state["phase"] == "play":
        command = candidate(game.state, rng)
        tries = expedition_fits(command, game) if "rolled" in command else [command]
        for attempt in tries:
            try:
                game.execute(attempt)
            except (Refused, Missing):
                continue
            script.append(attempt)
            break
    return script


def timed(function, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        catalogue = table_catalogue_at(Path(folder))
    script = play(catalogue, args.commands, args.seed)
    game = Game(catalogue)
    for command in script:
        game.execute(command)
    events = game.events

    def replay() -> None:
        fresh = Game(catalogue)
        for command in script:
            fresh.execute(command)

    replay_ms = timed(replay, args.repeat)
    fold_ms = timed(lambda: fold(events), args.repeat)
    score_ms = timed(lambda: final_score(game.state, catalogue), args.repeat * 10)
    middle = Game(catalogue)  # mid-game: half the commands played
    for command in script[: len(script) // 2]:
        middle.execute(command)
    construction = next(sid for sid, s in middle.state["ships"].items()
                        if s["type"] == "construction")
    options_ms = timed(lambda: options(middle.state, catalogue), args.repeat * 5)
    ship_ms = timed(lambda: options(middle.state, catalogue, ship=construction), args.repeat * 5)
    players = len(game.state["players"])
    print(f"game: {len(script)} commands, {len(events)} events, {players} players, "
          f"turn {game.state['turn']['number']}, phase {game.state['phase']}")
    for label, values in (("replay (validate + apply every command)", replay_ms),
                          ("fold of the stored events", fold_ms),
                          ("final scoring", score_ms),
                          (f"options, mid-game (turn {middle.state['turn']['number']})",
                           options_ms),
                          (f"options with a chosen ship ({construction})", ship_ms)):
        print(f"{label}: median {statistics.median(values):.2f} ms, "
              f"best {min(values):.2f} ms over {len(values)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
