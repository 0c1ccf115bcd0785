"""Fixtures for the rules engine: a catalogue completed with a table's entries.

The shipped catalogue leaves unknown what only the physical tiles and cards print. A table fills
those in once (the user overlay). The values below are TEST VALUES, chosen to make arithmetic
easy to follow by hand; they are not claims about the real components.
"""

from __future__ import annotations

import json

import pytest

from companion.rules.catalogue import load_catalogue

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


@pytest.fixture(scope="session")
def table_catalogue(tmp_path_factory):
    """The shipped catalogue plus a table's entries for everything unknown."""
    overlay = tmp_path_factory.mktemp("table") / "overlay.json"
    values = table_values(load_catalogue())
    overlay.write_text(json.dumps({"format": "phoenix-companion-catalogue-overlay",
                                   "version": 1, "values": values}))
    return load_catalogue(overlay=overlay)
