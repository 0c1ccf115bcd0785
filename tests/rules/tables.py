"""A table's catalogue values and a game played through the engine, for tests and benchmarks.

The shipped catalogue leaves unknown what only the physical tiles and cards print. A table fills
those in once (the user overlay). The values below are TEST VALUES, chosen to make arithmetic
easy to follow by hand; they are not claims about the real components.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.catalogue_files import load_catalogue
from companion.rules.catalogue import Catalogue
from companion.rules.game import Game
from companion.rules.move import Move
from companion.rules.station import sector_layout

SHIP_TEST_VALUES = {
    "cost": lambda level: {1: 2, 2: 3, 3: 4}.get(level, 4),
    "fee": lambda level: 1,
    "metal_value": lambda level: {1: 4, 2: 6, 3: 8}.get(level, 6),
    "transactions": lambda level: 3,
    "extra_metal": lambda level: 2,
    "duration": lambda level: 7,
    "capacity": lambda level: 5,
    "metal_discount": lambda level: 1,
    "tracks": lambda level: 1,
}


def table_values(catalogue) -> dict:
    """Overlay values for every unknown field the engine asks about."""
    values: dict = {}

    def put(kind, record, name, value):
        values.setdefault(kind, {}).setdefault(str(record), {})[name] = value

    for kind, record, name in catalogue.unknown_fields():
        if kind == "hubs":
            hub = catalogue.hubs[record]
            simple = {"starting_gems": 8, "starting_food": 2, "starting_water": 2,
                      "starting_metal": 3, "income_gems_per_ship": 1, "income_fixed_gems": 0,
                      "starting_diplomacy": {"fixed": {}, "choice": 0}}
            if name in simple:
                put(kind, record, name, simple[name])
            elif name == "quarter_income":
                put(kind, record, name, [{"gems": 1}] * len(hub.living_quarters))
        elif kind == "sectors":
            sector = catalogue.sectors[int(record)]
            if name == "cost":
                put(kind, record, name, {1: 3, 2: 6, 3: 9}[sector.level])
            elif name == "quarters":
                put(kind, record, name, sector.level + 1)
            elif name.startswith("abilities."):
                put(kind, record, name, 0)
            elif name == "income_icons":
                put(kind, record, name, [])
            elif name == "income_icons_complete":
                put(kind, record, name, True)
        elif kind == "ships" and name in SHIP_TEST_VALUES:
            put(kind, record, name, SHIP_TEST_VALUES[name](catalogue.ships[record].level))
        elif kind == "diplomacy":
            if name == "lobbying_cost":
                put(kind, record, name, int(record.split("-")[1]))
            elif name == "bonus_transport":
                put(kind, record, name, {"food": 1})
            elif name == "bonus_expedition":
                put(kind, record, name, {"water": 1})
    # The income example's icons, with the quarters they sit over.
    put("sectors", 121, "income_icons", [{"resource": "food", "amount": 1, "quarter": 0},
                                         {"resource": "water", "amount": 1, "quarter": 1}])
    put("sectors", 221, "income_icons", [{"resource": "metal", "amount": 1, "quarter": 0},
                                         {"resource": "food", "amount": 1, "quarter": 1}])
    return values


def table_catalogue_at(folder: Path) -> Catalogue:
    """The shipped catalogue plus the table's entries, with the overlay written in `folder`."""
    overlay = Path(folder) / "table-overlay.json"
    overlay.write_text(json.dumps({"format": "phoenix-companion-catalogue-overlay",
                                   "version": 1, "values": table_values(load_catalogue())}))
    return load_catalogue(overlay=overlay)


# -- a table ready to play --------------------------------------------------------------------


NAMES = ("Ann", "Bob", "Cat", "Dan")
COLORS = ("red", "blue", "yellow", "green")
ALIENS_DRAWN = {2: {"teal": 13, "pink": 12, "brown": 13, "gold": 12},
                3: {"teal": 18, "pink": 17, "brown": 18, "gold": 17},
                4: {"teal": 23, "pink": 22, "brown": 23, "gold": 22}}


def display_for(count: int) -> list[int]:
    """One Sector per player from each of the nine stacks (numbers ending 1..count)."""
    return [level * 100 + tens * 10 + n for level in (1, 2, 3) for tens in (0, 1, 2)
            for n in range(1, count + 1)]


class Table:
    """A game played through the engine, with helpers to set the scene for one rule."""

    def __init__(self, catalogue, hubs=("B-3", "B-5"), ships=None):
        self.catalogue = catalogue
        self.game = Game(catalogue)
        count = len(hubs)
        self.names = NAMES[:count]
        self.run({"cmd": "new_game", "advanced": True,
                  "players": [{"name": n, "color": c} for n, c in zip(self.names, COLORS)],
                  "aliens": ALIENS_DRAWN[count]})
        self.run({"cmd": "sector_display", "sectors": display_for(count)})
        spare = [h for h in catalogue.hubs if h not in hubs]
        self.run({"cmd": "deal_hubs", "hubs": {n: [h, spare[i]] for i, (n, h)
                                               in enumerate(zip(self.names, hubs))}})
        ships = ships or {3: ["L3-dismantle", "L3-expedition"], 2: ["L2-transport", "L2-farm"]}
        for level in (3, 2):
            revealed = (ships[level] * 9)[:{2: 5, 3: 7, 4: 9}[count]]
            self.run({"cmd": "reveal_ships", "ships": revealed})
            while self.game.state["setup"]["step"] == "draft":
                player = self.game.state["setup"]["draft_order"][0]
                offered = self.game.state["setup"]["revealed"]
                self.run({"cmd": "draft_ship", "player": self.names[player],
                          "ship": offered[0]})
        for name, hub in zip(self.names, hubs):
            self.run({"cmd": "choose_hub", "player": name, "hub": hub})

    @property
    def state(self):
        return self.game.state

    def run(self, command):
        """Execute a command; return its step."""
        return self.game.execute(command)

    def setup_bonuses(self, **extra):
        """Every player takes their starting bonuses (extra: per-name command fields)."""
        for name in self.names:
            self.run({"cmd": "starting_bonus", "player": name, **extra.get(name, {})})

    def player(self, name):
        return self.state["players"][self.names.index(name)]

    def set(self, name, **counters):
        """Set a player's counters through adjustments (as a table would correct them)."""
        for counter, value in counters.items():
            self.run({"cmd": "adjust", "who": name, "counter": counter, "value": value,
                      "note": "test scene"})

    def put_sector(self, name, number, residents=(), *, placed_turn=0):
        """Give a player a built Sector with residents already settled (active)."""
        move = Move(self.state, self.catalogue, {})
        info = self.catalogue.sectors[number]
        sector = {"number": number, "level": info.level, "color": info.color,
                  "residents": list(residents), "placed_turn": [placed_turn] * len(residents),
                  **sector_layout(move, number)}
        self.player(name)["sectors"].append(sector)
        if number in self.state["display"]:
            self.state["display"].remove(number)
        return sector

    def end_turn(self):
        return self.run({"cmd": "end_turn"})
