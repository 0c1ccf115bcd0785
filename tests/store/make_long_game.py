"""Write the long game script the crash test and the benchmark replay (deterministic).

    .venv/bin/python tests/store/make_long_game.py

A seeded random table proposes commands in the manner of tests/rules/test_engine_properties.py;
only the commands the engine accepts are written (with some undos and redos), so the script is a
legal game of at least 1,000 commands. It needs the catalogue completed with the test values of
tests/rules/tables.py (written beside it as long_game_overlay.json).
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SCRIPT = HERE / "long_game.jsonl"
OVERLAY = HERE / "long_game_overlay.json"
SEED = 1
LENGTH = 3000

sys.path.insert(0, str(REPO))

from companion.catalogue_files import load_catalogue  # noqa: E402
from companion.rules.game import Missing, Refused  # noqa: E402


def rules_fixtures():
    """tests/rules/tables.py as a module of its own (Table, table_values)."""
    spec = importlib.util.spec_from_file_location("long_game_rules_fixtures",
                                                  REPO / "tests" / "rules" / "tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FACES = ("food", "water", "metal", "human")
COLORS = ("teal", "pink", "brown", "gold")
RESOURCES = ("food", "water", "metal")
TRACKS = ("dismantle", "construction", "transport", "expedition")


def propose(state: dict, rng: random.Random) -> dict:
    """One command a player at the table might make now (the engine may refuse it)."""
    names = [p["name"] for p in state["players"]]
    active = state["turn"]["active"]
    if active is None:  # undone back into the setup: no one's turn (the engine refuses it)
        return {"cmd": "end_turn"}
    me = names[active]
    if state["pending"] and rng.random() < 0.8:
        pending = rng.choice(state["pending"])
        return {"cmd": "diplomacy_bonus", "player": names[pending["player"]],
                "levels": rng.choice(pending["options"])}
    roll = rng.random()
    if roll < 0.25:
        return {"cmd": "end_turn"}
    if roll < 0.33:
        return {"cmd": "income", "player": me}
    if roll < 0.335:
        who = rng.choice(names)
        return {"cmd": "adjust", "who": who, "counter": rng.choice(("gems", "food", "metal")),
                "delta": rng.randint(1, 4), "note": "the table counted again"}
    free = [(sid, s["type"]) for sid, s in state["ships"].items() if s["used_by"] is None]
    if not free:
        return {"cmd": "income", "player": me}
    sid, kind = rng.choice(free)
    command = {"cmd": "use_ship", "player": me, "ship": sid,
               "choices": {"B-3": rng.choice(COLORS)}}
    if kind == "dismantle":
        own = [s for s, x in state["ships"].items()
               if x["owner"] == active and x["used_by"] is None and s != sid]
        if own:
            command["dismantle"] = rng.choice(own)
    elif kind == "construction" and state["display"]:
        command["sector"] = rng.choice(state["display"])
    elif kind == "expedition":
        rolled = [rng.choice(FACES) for _ in range(6)]
        kept = rolled[: rng.randint(1, 4)]
        command.update(rolled=rolled, keep=kept,
                       humans=[rng.choice(["observe", "recruit"]) for f in kept if f == "human"])
    elif kind == "transport":
        transactions = []
        for _ in range(rng.randint(1, 3)):
            kind_of = rng.choice(("alien", "gold", "trade", "buy"))
            if kind_of == "alien":
                transactions.append({"type": "alien", "color": rng.choice(COLORS[:3])})
            elif kind_of == "gold":
                transactions.append({"type": "gold"})
            elif kind_of == "trade":
                transactions.append({"type": "trade", "pay": [rng.choice(RESOURCES),
                                                             rng.choice(RESOURCES)],
                                     "gain": rng.choice(RESOURCES)})
            else:
                transactions.append({"type": "buy", "gain": rng.choice(RESOURCES)})
        command["transactions"] = transactions
    elif kind == "diplomacy":
        command["tracks"] = [rng.choice(TRACKS)]
    return command


def generate(seed: int = SEED, length: int = LENGTH) -> tuple[list[dict], dict]:
    """(commands, overlay values): a legal game of `length` commands, with undos and redos."""
    fixtures = rules_fixtures()
    values = fixtures.table_values(load_catalogue())
    overlay = {"format": "phoenix-companion-catalogue-overlay", "version": 1, "values": values}
    OVERLAY.write_text(json.dumps(overlay, indent=1, sort_keys=True) + "\n")
    catalogue = load_catalogue(overlay=OVERLAY)
    commands: list[dict] = []

    class Recording(fixtures.Table):
        def run(self, command):
            step = self.game.execute(command)
            commands.append(command)
            return step

    rng = random.Random(seed)
    table = Recording(catalogue, hubs=("B-3", "B-5", "A-2", "A-4"))
    table.setup_bonuses()
    for name in table.names:
        table.set(name, gems=25, food=8, water=8, metal=14)
    game = table.game
    refused = 0
    while len(commands) < length and game.state["phase"] == "play":
        command = propose(game.state, rng)
        if refused >= 40:  # nothing the random player tries is allowed: income, as the rules say
            me = game.state["players"][game.state["turn"]["active"]]["name"]
            command = {"cmd": "income", "player": me, "override": "the table moves on"}
            if game.state["turn"]["acted"]:
                command = {"cmd": "end_turn", "override": "the table moves on"}
        try:
            table.run(command)
        except (Refused, Missing):
            refused += 1
            if refused > 400:  # even an override is refused: stop here
                break
            continue
        refused = 0
        if rng.random() < 0.05:
            table.run({"cmd": "undo"})
            if rng.random() < 0.3:
                table.run({"cmd": "undo"})
            if rng.random() < 0.6:
                table.run({"cmd": "redo"})
    return commands, overlay


def main() -> int:
    """Write long_game.jsonl and long_game_overlay.json; print what was written."""
    commands, _ = generate()
    with SCRIPT.open("w", encoding="utf-8") as out:
        out.write("# A long legal game for the store's crash test and benchmark "
                  "(tests/store/make_long_game.py)\n")
        for command in commands:
            out.write(json.dumps(command, separators=(",", ":")) + "\n")
    print(f"wrote {len(commands)} commands to {SCRIPT.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
