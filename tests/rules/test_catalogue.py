"""The component catalogue: shipped data, provenance, abilities, overlay, export/import, summary.

Self-contained: reads only the shipped companion/data, docs/catalogue.md and files it writes under
tmp_path.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables import Table, display_for, table_catalogue_at

from companion import cli
from companion.catalogue_files import (
    DEFAULT_DATA_DIR,
    export_overlay,
    import_overlay,
    load_catalogue,
    read_overlay,
    set_user_value,
)
from companion.rules import effects
from companion.rules.catalogue import (
    KINDS,
    SOURCES,
    CatalogueError,
    Field,
    check_entry,
    format_summary,
    summary,
)
from companion.rules.effects import validate_ability
from companion.rules.game import Game
from companion.rules.message import event_text
from companion.rules.move import Refused
from companion.rules.position import parse_position

HUB_IDS = [f"B-{i}" for i in range(1, 13)] + [f"A-{i}" for i in range(1, 13)]
SECTOR_NUMBERS = [lvl * 100 + tens * 10 + unit
                  for lvl in (1, 2, 3) for tens in (0, 1, 2) for unit in range(1, 9)]


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    return path


def copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    target.mkdir()
    for kind in KINDS:
        shutil.copy(DEFAULT_DATA_DIR / f"{kind}.json", target / f"{kind}.json")
    return target


def overlay_doc(values) -> dict:
    return {"format": "phoenix-companion-catalogue-overlay", "version": 1, "values": values}


# --- counts ------------------------------------------------------------------------------------

def test_hubs_24(cat):
    """"Space Station parts: ..., 12 Basic Station Hubs, 12 Advanced Station Hubs";
    "Hubs used in the Basic Game start with "B" while Hubs used in the Advanced Game start with
    "A"."""
    assert sorted(cat.hubs) == sorted(HUB_IDS)
    for hid, hub in cat.hubs.items():
        assert hub.game == ("basic" if hid.startswith("B") else "advanced")


def test_sectors_72_numbers_levels(cat):
    """"24 Level-3 Sectors, 24 Level-2 Sectors, 24 Level-1 Sectors"; "The first digit matches the
    Sector's level.\""""
    assert sorted(cat.sectors) == SECTOR_NUMBERS
    for number, sector in cat.sectors.items():
        assert sector.number == number
        assert sector.level == number // 100
    for level in (1, 2, 3):
        assert sum(1 for s in cat.sectors.values() if s.level == level) == 24


def test_sector_colours(cat):
    """"she decides to build Sector 218, a Level-2 brown Sector." The rest follow the tens digit
    (x0x teal, x1x brown, x2x pink), inferred with the reasoning recorded."""
    assert cat.sectors[218].color == "brown"
    assert cat.sectors[218]["color"].source == "rulebook"
    expected = {0: "teal", 1: "brown", 2: "pink"}
    for number, sector in cat.sectors.items():
        assert sector.color == expected[number // 10 % 10]
        if number != 218:
            assert sector["color"].source == "inferred"
    stacks: dict = {}
    for sector in cat.sectors.values():
        stacks.setdefault(sector.stack, []).append(sector.number)
    assert len(stacks) == 9 and all(len(v) == 8 for v in stacks.values())


def test_sector_218_cost_and_unknown_costs(cat):
    """"Sector 218 costs 9 metal to build." Every other cost is printed only on the tile."""
    assert cat.sectors[218].cost == Field(9, "rulebook", "Sector 218 costs 9 metal to build.")
    for number, sector in cat.sectors.items():
        assert not sector.quarters.known
        if number != 218:
            assert not sector.cost.known and sector.cost.value is None


def test_income_icons_from_the_income_example(cat):
    """"Sector 121 provides 1 food because there is a resident above the food icon. It does not
    provide 1 water because there is not a resident above the water icon." / "Sector 221 provides
    1 metal and 1 food because there are residents above those icons.\""""
    icons = {n: [i["resource"] for i in cat.sectors[n]["income_icons"].value] for n in (121, 221)}
    assert icons == {121: ["food", "water"], 221: ["metal", "food"]}
    assert not cat.sectors[121]["income_icons_complete"].known


def test_first_game_sectors(cat):
    """"For the first game: Use only the Sectors whose Sector Numbers end with 1, 2, 3, or 4\""""
    first = sorted(n for n, s in cat.sectors.items() if s.value("first_game"))
    assert first == [n for n in SECTOR_NUMBERS if n % 10 <= 4]


def test_ship_decks(cat):
    """"Ship cards: 20 Level-1 ships (1-dot ship icon), 18 Level-2 ships (2-dot ship icon),
    16 Level-3 ships (3-dot ship icon)\""""
    sizes = {cat.ships[f"deck-L{n}"].value("level"): cat.ships[f"deck-L{n}"].value("size")
             for n in (1, 2, 3)}
    assert sizes == {1: 20, 2: 18, 3: 16}


def test_level1_ships(cat):
    """"Each player starts with a fixed set of five Level-1 ships." / "He chooses his own Level-1
    Terran Expedition ship and places 3 GEMs" / "The ship has a duration of 6" / "The ship has a
    capacity of 4" / "The Level-1 Transport ship is worth 6 metal when dismantled." / "He uses his
    own Level-1 Diplomacy ship, so he places 3 GEMs\""""
    level1 = {s.type: s for s in cat.ships.values() if s.group == "level1"}
    assert sorted(level1) == sorted(effects.SHIP_TYPES)
    assert all(s.level == 1 for s in level1.values())
    exp = level1["expedition"]
    assert (exp.value("cost"), exp.value("duration"), exp.value("capacity")) == (3, 6, 4)
    assert level1["transport"].value("metal_value") == 6
    assert level1["diplomacy"].value("cost") == 3
    assert all(not s["fee"].known for s in level1.values())


def test_named_deck_designs(cat):
    """Paul's Level-2 Dismantle ship (3 GEMs, one extra metal), Sofia's Level-2 Transport ship
    (3 GEMs, "up to 4 transactions"), Anna's Level-3 Construction ship (8 GEMs, "a 2 metal
    discount"), "Farm (+4 food)", "Ice Collector (+5 water)", "Level-3 Diplomacy ships let players
    do the above action on 2 different Diplomacy tracks at once\""""
    ships = cat.ships
    assert (ships["L2-dismantle"].value("cost"), ships["L2-dismantle"].value("extra_metal")) \
        == (3, 1)
    assert (ships["L2-transport"].value("cost"), ships["L2-transport"].value("transactions")) \
        == (3, 4)
    assert (ships["L3-construction"].value("cost"),
            ships["L3-construction"].value("metal_discount")) == (8, 2)
    assert ships["L2-construction"].value("metal_discount") == 1
    assert ships["L2-farm"].value("food") == 4 and ships["L3-ice_collector"].value("water") == 5
    assert ships["L3-diplomacy"].value("tracks") == 2
    designs = [s for s in ships.values() if s.group == "deck_design"]
    assert all(not s["count"].known for s in designs)  # deck composition is unknown


def test_five_neutral_ships(cat):
    """"The Neutral Ship board depicts five neutral ships, which are available for players to use
    just like any player's ship.\""""
    neutral = [s for s in cat.ships.values() if s.group == "neutral"]
    assert sorted(s.type for s in neutral) == sorted(effects.SHIP_TYPES)
    assert all(s["type"].known and not s["cost"].known for s in neutral)
    assert cat.setup["components"].value("neutral_ships") == 5


def test_die(cat):
    """"Every Terran Expedition die is identical and has the following faces: 2 food, 2 water,
    1 metal, 1 Human." / "14 Terran Expedition dice\""""
    die = cat.die["expedition_die"]
    assert sorted(die.value("faces")) == ["food", "food", "human", "metal", "water", "water"]
    assert die.value("dice") == 14


def test_setup_tables(cat):
    """"2p: 16 / 3p: 20 / 4p: 24", "2p: 50 / 3p: 70 / 4p: 90", "2p: 5 / 3p: 7 / 4p: 9",
    "P2: 1 / P3: 2 / P4: 3"; "If any player has 40 or more points ..."""
    def row(record, prefix="players_"):
        return [cat.setup[record].value(f"{prefix}{n}") for n in (2, 3, 4)]

    assert row("humans_on_terra") == [16, 20, 24]
    assert row("aliens_drawn") == [50, 70, 90]
    assert row("ships_revealed_per_draft") == [5, 7, 9]
    assert row("turn_order_gems", "player_") == [1, 2, 3]
    components = cat.setup["components"]
    assert (components.value("aliens_per_color"), components.value("humans"),
            components.value("expedition_dice")) == (25, 24, 14)
    draft = cat.setup["draft"]
    assert draft.value("level3_order") == ["turn_order", "reverse_turn_order"]
    assert draft.value("level2_order") == ["reverse_turn_order", "turn_order"]
    end = cat.setup["end_conditions"]
    assert (end.value("points"), end.value("sectors"), end.value("aliens_in_supply_at_most")) \
        == (40, 9, 4)
    assert cat.setup["sector_display"].value("first_game_number_endings") == [1, 2, 3, 4]


def test_first_game_sets(cat):
    """"Station Hub  B-1 Construction  B-2 Transport  B-3 Dismantle  B-4 Terran Expedition" and
    the B-2 exception: "takes the following Level-2 ships ...: Transport, Dismantle.\""""
    sets = [cat.setup[f"first_game_set_{n}"] for n in (1, 2, 3, 4)]
    assert [s.value("hub") for s in sets] == ["B-1", "B-2", "B-3", "B-4"]
    assert sets[1].value("level3_ships") == ["ice_collector", "construction"]
    assert [s.value("level2_ships") for s in sets] == [["dismantle"], ["farm"], ["construction"],
                                                      ["transport"]]
    assert cat.setup["first_game_b2"].value("level2_ships_instead") == ["transport", "dismantle"]
    assert [cat.hubs[h].value("theme") for h in ("B-1", "B-2", "B-3", "B-4")] == \
        ["construction", "transport", "dismantle", "expedition"]


def test_diplomacy_board(cat):
    """"The first level bonus is 2 GEMs." "The second level bonus is 1 point." "A player can also
    gain metal from the Diplomacy tracks for Construction and Dismantling.\""""
    board = cat.diplomacy["board"]
    assert board.value("tracks") == ["dismantle", "construction", "transport", "expedition"]
    assert cat.diplomacy["level-1"].value("bonus_transport") == {"gems": 2}
    assert cat.diplomacy["level-2"].value("bonus_expedition") == {"points": 1}
    level3 = cat.diplomacy["level-3"]
    assert level3.value("bonus_dismantle") == {"metal": 1}
    assert level3["bonus_construction"].source == "inferred"
    assert not level3["bonus_transport"].known and not level3["bonus_expedition"].known
    assert all(not cat.diplomacy[f"level-{n}"]["lobbying_cost"].known for n in range(1, 6))


# --- Hubs --------------------------------------------------------------------------------------

def test_hub_income(cat):
    """A-4/A-5: "During income, gain 2 GEMs per ship." A-1: "Note that income is 10 regardless of
    the number of ships you have.\""""
    assert cat.hubs["A-4"].income_gems_per_ship.value == 2
    assert cat.hubs["A-5"].income_gems_per_ship.value == 2
    assert cat.hubs["A-1"].income_fixed_gems.value == 10
    assert cat.hubs["A-1"].income_gems_per_ship.value == 0
    for hid in HUB_IDS:
        if hid not in ("A-1", "A-4", "A-5"):
            assert not cat.hubs[hid].income_gems_per_ship.known


def test_hub_living_quarters(cat):
    """B-11: "This Hub has living quarters for 3 pink Aliens (also usable by Humans and gold
    Aliens)." A-11: "place them on the corresponding spaces on the front side of the Station
    Hub.\""""
    assert cat.hubs["B-11"].living_quarters == [["pink", "gold", "human"]] * 3
    assert cat.hubs["A-11"].living_quarters == [["brown"], ["pink"], ["teal"], ["gold"],
                                                ["human"]]
    for hid in HUB_IDS:
        if hid not in ("B-11", "A-11"):
            assert cat.hubs[hid].living_quarters == []


def test_hub_setup_changes(cat):
    """"During setup, take a free Level-1 brown Sector." (B-7) ... "During setup, draw three
    extra Level-2 ships from the deck and keep two of them." (B-2) ... "you may move up two spaces
    on one Diplomacy track or one space each on two different tracks" (A-5, A-7, A-12)."""
    free = {h: cat.hubs[h].value("setup_free_sectors") for h in HUB_IDS}
    assert {h: v for h, v in free.items() if v} == {
        "B-6": [{"level": 1, "color": "brown"}], "B-7": [{"level": 1, "color": "brown"}],
        "B-8": [{"level": 1, "color": "teal"}], "B-9": [{"level": 1, "color": "teal"}],
        "B-10": [{"level": 1, "color": "pink"}], "B-11": [{"level": 1, "color": "pink"}],
    }
    assert cat.hubs["A-6"].value("setup_private_sectors") == 9
    changes = {h: cat.hubs[h].value("setup_ship_changes") for h in HUB_IDS}
    assert {h for h, v in changes.items() if v} == {"B-2", "B-6", "A-1", "A-4", "A-5", "A-8",
                                                    "A-9"}
    assert changes["B-2"] == [{"op": "draw", "level": 2, "draw": 3, "keep": 2}]
    assert changes["A-5"] == [{"op": "discard", "level": 1, "ship": "diplomacy", "count": 1},
                              {"op": "discard", "level": 2, "ship": "any", "count": 1}]
    assert cat.hubs["B-11"].value("setup_residents") == {"pink": 3}
    assert sum(cat.hubs["A-11"].value("setup_residents").values()) == 5
    diplomacy = {h for h in HUB_IDS if cat.hubs[h]["starting_diplomacy"].known}
    assert diplomacy == {"A-5", "A-7", "A-12"}
    assert cat.hubs["A-7"].value("starting_diplomacy") == {"fixed": {}, "choice": 2}
    for hid in HUB_IDS:
        for name in ("starting_gems", "starting_food", "starting_water", "starting_metal"):
            assert not cat.hubs[hid][name].known


# --- abilities ---------------------------------------------------------------------------------

# Every Sector the Reference Guide lists, with the (trigger, kind) of each of its abilities.
GUIDE_SECTORS = {
    101: ["income/gain_one_of"], 104: ["ship_action/gain"], 105: ["ship_action/gain"],
    106: ["gain_alien/gain"], 107: ["ship_action/gain"], 108: ["continuous/placement_rule"],
    112: ["ship_action/gain_any_resources"], 115: ["gain_human/gain"], 116: ["ship_action/gain"],
    117: ["ship_action/diplomacy_action"], 118: ["ship_action/gain"], 122: ["ship_action/gain"],
    124: ["ship_action/expedition_bonus"], 125: ["ship_action/gain_one_of"],
    126: ["gain_human/gain"], 128: ["income/gain_any_resources"],
    204: ["ship_action/expedition_bonus"], 206: ["ship_action/transport_transaction"],
    207: ["ship_action/gain_residents"], 208: ["ship_action/extra_turn"],
    211: ["ship_action/build_discount"], 212: ["ship_action/gain"],
    214: ["ship_action/extra_transactions"], 215: ["gain_human/human_cost_discount"],
    217: ["gain_human/gain_any_resources"], 218: ["income/transport_transaction"],
    222: ["income/gain_residents"], 225: ["income/expedition_roll"], 226: ["income/gain_per"],
    227: ["ship_action/gain_residents"], 228: ["income/gain_any_resources"],
    301: ["built/extra_turn", "ship_action/transport_transaction"], 302: ["built/gain"],
    303: ["ship_action/gain_residents"], 304: ["ship_action/gain"], 305: ["game_end/points_per"],
    306: ["game_end/points_per", "ship_action/diplomacy_action"],
    307: ["built/gain_residents", "income/gain_residents"],
    308: ["income/gain_per", "game_end/points_per"], 311: ["built/gain_residents"],
    312: ["ship_action/gain"], 313: ["built/gain"], 314: ["ship_action/expedition_bonus"],
    315: ["ship_action/reroll"], 316: ["game_end/points_per"], 317: ["built/gain"],
    318: ["built/gain_residents", "ship_action/gain_residents"],
    321: ["built/expedition_roll", "ship_action/gain"], 322: ["ship_action/gain_residents"],
    323: ["built/extra_turn"], 324: ["built/gain_residents", "ship_action/gain"],
    325: ["game_end/points_per", "ship_action/gain_residents"],
    326: ["built/free_sector", "ship_action/build_discount"],
    327: ["game_end/points_per", "ship_action/expedition_bonus"],
    328: ["built/diplomacy_action", "ship_action/gain"],
}


def test_every_reference_guide_sector_ability(cat):
    """"Reference Guide: Sectors" - every listed Sector has its abilities; the others (their
    abilities are printed only on the tiles) have none recorded."""
    for number, sector in cat.sectors.items():
        got = [f"{a.trigger}/{a.kind}" for a in sector.abilities]
        assert got == GUIDE_SECTORS.get(number, []), number


def test_every_hub_has_abilities(cat):
    """"Detailed explanations for all Station Hubs may be found in the Reference Guide.\""""
    for hid, hub in cat.hubs.items():
        assert hub.abilities, hid
        for ability in hub.abilities:
            assert not ability.quarter.known  # hubs need no residents


def test_all_abilities_valid(cat):
    for component in [*cat.hubs.values(), *cat.sectors.values()]:
        for ability in component.abilities:
            assert validate_ability(ability) == [], (component, ability)
            assert ability.text.strip()


def test_shipped_ability_entries_valid():
    for kind in ("hubs", "sectors"):
        data = json.loads((DEFAULT_DATA_DIR / f"{kind}.json").read_text(encoding="utf-8"))
        for rid, record in data["records"].items():
            for entry in record["abilities"]:
                assert validate_ability(entry, sector=kind == "sectors") == [], (rid, entry)


def test_level3_immediate_abilities_need_no_resident(cat):
    """"No residents are required to activate immediate bonus actions!\""""
    for sector in cat.sectors.values():
        for ability in sector.abilities:
            if ability.trigger == "built":
                assert sector.level == 3
                assert ability.quarter.known and ability.quarter.value is None
            else:
                assert not ability.quarter.known


def test_207_condition(cat):
    """"When using a Transport ship to gain at least 3 Aliens of a single color, gain an extra one
    of the same color without paying resources for it.\""""
    (ability,) = cat.sectors[207].abilities
    assert ability.params["condition"] == {"aliens_of_one_color_gained_at_least": 3}
    assert ability.params["species"] == "same_as_condition"


ENDGAME = {
    "B-1": [("level3_sectors", 2, 1)], "B-4": [("human", 1, 1)], "B-5": [("full_sectors", 2, 1)],
    "B-6": [("brown", 1, 1)], "B-7": [("brown", 1, 1)], "B-8": [("teal", 1, 1)],
    "B-9": [("teal", 1, 1)], "B-10": [("pink", 1, 1)], "B-11": [("pink", 1, 1)],
    "B-12": [("human", 1, 1)], "A-4": [("ships_left", 2, 1)], "A-6": [("sectors", 1, 1)],
    305: [("metal", 1, 3)], 306: [("teal", 1, 1)], 308: [("human", 1, 1)],
    316: [("brown", 1, 1)], 325: [("pink", 1, 1)], 327: [("human", 1, 1)],
}


def test_endgame_abilities(cat):
    """"At the end of the game, score 2 points per Sector you have that has residents filling all
    available living quarters." (B-5); "At the end of the game, gain 1 point for every 3 metal you
    possess (rounded down)." (305); A-1: "score 20 points if you have no remaining ships, 15 points
    if you have one left, 10 points for two left, and 5 points if you have three remaining
    ships.\""""
    for component in [*cat.hubs, *cat.sectors]:
        found = cat.endgame_abilities(component)
        if component == "A-1":
            (table,) = found
            assert table.kind == "points_table"
            assert dict(table.params) == {"count": "ships_left",
                                          "table": {"0": 20, "1": 15, "2": 10, "3": 5}}
            continue
        got = [(a.params["count"], a.params["points"], a.params.get("every", 1))
               for a in found]
        assert got == ENDGAME.get(component, []), component
        assert all(a.kind == "points_per" and a.trigger == "game_end" for a in found)
        assert all(a.params["count"] in effects.POINT_COUNTS for a in found)
    assert cat.endgame_abilities(cat.sectors[305]) == cat.endgame_abilities(305)


# --- provenance --------------------------------------------------------------------------------

def test_every_field_has_provenance(cat):
    """Rulebook fields carry their quote, inferred ones their reasoning, unknown ones nothing."""
    seen = 0
    for _kind, _record, _name, field in cat.iter_fields():
        seen += 1
        assert field.source in ("rulebook", "inferred", "unknown")
        if field.source in ("rulebook", "inferred"):
            assert isinstance(field.note, str) and field.note.strip()
        else:
            assert field.value is None and field.note is None
    assert seen == sum(sum(c.values()) for c in summary(cat).values())


def test_shipped_files_use_only_the_three_field_forms():
    for kind in KINDS:
        data = json.loads((DEFAULT_DATA_DIR / f"{kind}.json").read_text(encoding="utf-8"))
        assert data["format"] == "phoenix-companion-catalogue" and data["kind"] == kind
        for record in data["records"].values():
            for field in record["fields"].values():
                assert field is None or set(field) in ({"value", "source", "quote"},
                                                       {"value", "source", "reason"})


def test_summary_adds_up(cat):
    counts = summary(cat)
    assert set(counts) == set(KINDS)
    for kind, by_source in counts.items():
        assert set(by_source) == set(SOURCES)
        assert sum(by_source.values()) == sum(1 for k, *_ in cat.iter_fields() if k == kind)
    assert counts["die"] == {"rulebook": 2, "inferred": 0, "user": 0, "unknown": 0}
    assert counts["sectors"]["user"] == 0
    text = format_summary(counts)
    total = sum(sum(c.values()) for c in counts.values())
    assert "rulebook" in text and str(total) in text.splitlines()[-2]


def test_unknown_fields_listed(cat):
    unknown = cat.unknown_fields()
    assert ("sectors", "101", "cost") in unknown
    assert ("sectors", "218", "cost") not in unknown
    assert ("sectors", "305", "abilities.0.quarter") in unknown


# --- overlay -----------------------------------------------------------------------------------

def test_missing_overlay_is_empty(tmp_path):
    catalogue = load_catalogue(overlay=tmp_path / "none.json")
    assert summary(catalogue)["sectors"]["user"] == 0


def test_overlay_wins_and_is_user(tmp_path):
    overlay = tmp_path / "overlay.json"
    set_user_value(overlay, "sectors", "218", "quarters", 3)
    set_user_value(overlay, "sectors", 218, "cost", 10)
    set_user_value(overlay, "hubs", "b-5", "starting_gems", 10)
    set_user_value(overlay, "sectors", "305", "abilities.0.quarter", 2)
    catalogue = load_catalogue(overlay=overlay)
    assert catalogue.sectors[218].quarters == Field(3, "user", None)
    assert catalogue.sectors[218].cost == Field(10, "user", None)
    assert catalogue.hubs["B-5"]["starting_gems"].value == 10
    assert catalogue.endgame_abilities(305)[0].quarter == Field(2, "user", None)
    assert catalogue.field("sectors", 305, "abilities.0.quarter").source == "user"
    assert summary(catalogue)["sectors"]["user"] == 3
    data = json.loads(overlay.read_text(encoding="utf-8"))
    assert data["format"] == "phoenix-companion-catalogue-overlay"
    assert data["values"]["sectors"]["218"] == {"cost": 10, "quarters": 3}
    set_user_value(overlay, "sectors", "218", "cost", None)  # None removes the entry
    assert load_catalogue(overlay=overlay).sectors[218].cost.source == "rulebook"
    assert load_catalogue().sectors[218].quarters.source == "unknown"  # no overlay: shipped


@pytest.mark.parametrize(("kind", "record", "field", "value", "words"), [
    ("sectors", "218", "cost", "nine", ["218", "'cost'", "whole number", "'nine'"]),
    ("sectors", "999", "cost", 3, ["999"]),
    ("sectors", "218", "price", 3, ["218", "'price'"]),
    ("hubs", "B-5", "living_quarters", [["purple"]], ["B-5", "'living_quarters'"]),
    ("ships", "L1-expedition", "type", "transport", ["L1-expedition", "'type'"]),
    ("sectors", "305", "abilities.5.quarter", 0, ["305", "abilities.5.quarter"]),
    ("planets", "x", "y", 1, ["planets"]),
])
def test_set_user_value_refuses_bad_values(tmp_path, kind, record, field, value, words):
    overlay = tmp_path / "overlay.json"
    set_user_value(overlay, "sectors", "101", "cost", 5)
    before = overlay.read_bytes()
    with pytest.raises(CatalogueError) as error:
        set_user_value(overlay, kind, record, field, value)
    for word in words:
        assert word in str(error.value)
    assert overlay.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["overlay.json"]  # no temporary left


@pytest.mark.parametrize(("key", "value", "problem", "number"), [
    ("sectors/218/quarters", 0, "expected a whole number 1 or more, got 0", (1, None)),
    ("sectors/218/level", 4, "expected a whole number 1 to 3, got 4", (1, 3)),
    ("sectors/218/cost", "nine", "expected a whole number, got 'nine'", (0, None)),
    ("sectors/218/color", "red", "expected one of teal, pink, brown; got 'red'", None),
    ("sectors/218/price", 3, "no such field (expected one of level, color, cost, quarters, "
     "income_icons, income_icons_complete, first_game)", None),
    ("sectors/999/cost", 3, None, None),
])
def test_a_refused_entry_says_its_problem_and_range_apart_from_its_words(cat, key, value,
                                                                         problem, number):
    """A screen says a refusal in its own (the player's) words from these, not from the text."""
    with pytest.raises(CatalogueError) as error:
        check_entry(key, value, cat.shipped)
    assert (error.value.problem, error.value.number) == (problem, number)
    assert problem is None or str(error.value).endswith(f": {problem}")


def test_export_import_round_trip(tmp_path):
    overlay, exported, other = tmp_path / "a.json", tmp_path / "out.json", tmp_path / "b.json"
    set_user_value(overlay, "sectors", "101", "quarters", 2)
    set_user_value(overlay, "ships", "L1-transport", "cost", 2)
    set_user_value(overlay, "diplomacy", "level-1", "lobbying_cost", 1)
    assert export_overlay(overlay, exported) == 3
    set_user_value(other, "hubs", "A-2", "starting_gems", 12)
    set_user_value(other, "sectors", "101", "quarters", 4)  # replaced by the import
    assert import_overlay(other, exported) == 3
    merged = read_overlay(other)
    assert merged == {"sectors": {"101": {"quarters": 2}}, "ships": {"L1-transport": {"cost": 2}},
                      "diplomacy": {"level-1": {"lobbying_cost": 1}},
                      "hubs": {"A-2": {"starting_gems": 12}}}
    assert export_overlay(tmp_path / "missing.json", tmp_path / "empty.json") == 0


@pytest.mark.parametrize(("values", "words"), [
    ({"sectors": {"218": {"cost": "nine"}}}, ["218", "'cost'", "'nine'"]),
    ({"sectors": {"999": {"cost": 3}}}, ["999"]),
    ({"hubs": {"B-5": {"shoe_size": 3}}}, ["B-5", "'shoe_size'"]),
    ({"ships": {"L1-transport": {"cost": -1}}}, ["L1-transport", "'cost'"]),
    ({"sectors": {"101": {"quarters": True}}}, ["101", "'quarters'"]),
])
def test_import_refuses_malformed_overlay(tmp_path, values, words):
    """A malformed file is refused with a message naming file, record and field; the existing
    overlay stays untouched."""
    overlay = tmp_path / "overlay.json"
    set_user_value(overlay, "sectors", "101", "cost", 5)
    before = overlay.read_bytes()
    bad = write_json(tmp_path / "bad.json", overlay_doc(values))
    with pytest.raises(CatalogueError) as error:
        import_overlay(overlay, bad)
    for word in ["bad.json", *words]:
        assert word in str(error.value)
    assert overlay.read_bytes() == before
    with pytest.raises(CatalogueError) as error:  # the same file used as the overlay itself
        load_catalogue(overlay=bad)
    assert "bad.json" in str(error.value)


def test_malformed_overlay_json_names_file_and_line(tmp_path):
    bad = tmp_path / "overlay.json"
    bad.write_text('{"format": "phoenix-companion-catalogue-overlay",\n  "version": 1,\n  oops}\n',
                   encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"overlay\.json: not valid JSON at line 3"):
        load_catalogue(overlay=bad)
    with pytest.raises(CatalogueError, match="overlay"):
        write_json(bad, {"format": "something-else", "version": 1, "values": {}})
        load_catalogue(overlay=bad)
    with pytest.raises(CatalogueError, match="no such file"):
        import_overlay(tmp_path / "o.json", tmp_path / "absent.json")


# --- malformed shipped data --------------------------------------------------------------------

def _break(tmp_path: Path, kind: str, change) -> Path:
    data_dir = copy_data(tmp_path)
    path = data_dir / f"{kind}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["records"])
    write_json(path, data)
    return data_dir


@pytest.mark.parametrize(("kind", "change", "words"), [
    ("sectors", lambda r: r["218"]["fields"].update(
        cost={"value": "nine", "source": "rulebook", "quote": "Sector 218 costs 9 metal."}),
     ["sectors.json", "record 218", "field 'cost'", "expected a whole number, got 'nine'"]),
    ("sectors", lambda r: r["218"]["fields"]["cost"].pop("quote"),
     ["sectors.json", "record 218", "field 'cost'"]),
    ("sectors", lambda r: r["101"]["fields"].update(
        color={"value": "teal", "source": "inferred", "reason": ""}),
     ["sectors.json", "record 101", "field 'color'"]),
    ("sectors", lambda r: r["101"]["fields"].pop("quarters"),
     ["sectors.json", "record 101", "field 'quarters'", "missing"]),
    ("sectors", lambda r: r["305"]["abilities"][0].update(count="gems"),
     ["sectors.json", "record 305", "abilities[0]", "count"]),
    ("sectors", lambda r: r["104"]["abilities"][0].pop("quarter"),
     ["sectors.json", "record 104", "abilities[0]", "quarter"]),
    ("hubs", lambda r: r["B-5"]["fields"].update(
        starting_gems={"value": 5, "source": "user", "quote": "x"}),
     ["hubs.json", "record B-5", "field 'starting_gems'", "source"]),
    ("hubs", lambda r: r["A-1"]["abilities"][0].update(kind="teleport"),
     ["hubs.json", "record A-1", "abilities[0]", "teleport"]),
    ("ships", lambda r: r["L1-expedition"]["fields"].update(
        duration={"value": 0, "source": "rulebook", "quote": "x"}),
     ["ships.json", "record L1-expedition", "field 'duration'"]),
    ("setup", lambda r: r["humans_on_terra"]["fields"].update(players_5=None),
     ["setup.json", "record humans_on_terra", "field 'players_5'"]),
    ("die", lambda r: r["expedition_die"]["fields"]["faces"].update(value=["food"]),
     ["die.json", "record expedition_die", "field 'faces'"]),
])
def test_malformed_data_refused(tmp_path, kind, change, words):
    data_dir = _break(tmp_path, kind, change)
    with pytest.raises(CatalogueError) as error:
        load_catalogue(data_dir=data_dir)
    for word in words:
        assert word in str(error.value)


def test_malformed_data_json_names_line(tmp_path):
    data_dir = copy_data(tmp_path)
    path = data_dir / "hubs.json"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4] + ","  # a trailing comma before the next key's closing structure
    path.write_text("\n".join(lines[:5]) + "\n}}\n", encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"hubs\.json: not valid JSON at line \d+, column \d+"):
        load_catalogue(data_dir=data_dir)


def test_different_data_dirs_load_independently(tmp_path):
    data_dir = _break(tmp_path, "sectors", lambda r: r["101"]["fields"].update(
        cost={"value": 4, "source": "inferred", "reason": "a test copy"}))
    assert load_catalogue(data_dir=data_dir).sectors[101].cost.value == 4
    assert not load_catalogue().sectors[101].cost.known


def test_catalogue_values_cannot_corrupt_the_cache():
    first = load_catalogue()
    first.hubs["B-11"]["living_quarters"].value.append(["teal"])
    first.hubs["A-1"].abilities[1].params["table"]["4"] = 1
    second = load_catalogue()
    assert len(second.hubs["B-11"].living_quarters) == 3
    assert "4" not in second.hubs["A-1"].abilities[1].params["table"]


# --- the effect vocabulary ---------------------------------------------------------------------

@pytest.mark.parametrize(("entry", "word"), [
    ({"trigger": "lunch", "kind": "gain", "amounts": {"gems": 1}, "text": "x"}, "trigger"),
    ({"trigger": "income", "kind": "gain", "text": "x"}, "amounts"),
    ({"trigger": "income", "kind": "gain", "amounts": {"gems": 0}, "text": "x"}, "amounts"),
    ({"trigger": "ship_action", "kind": "gain", "amounts": {"gems": 1}, "text": "x"}, "ship"),
    ({"trigger": "ship_action", "ship": "transport", "kind": "build_discount", "metal": 1,
      "text": "x"}, "construction"),
    ({"trigger": "game_end", "kind": "points_per", "count": "gems", "points": 1, "text": "x"},
     "count"),
    ({"trigger": "game_end", "kind": "gain", "amounts": {"gems": 1}, "text": "x"}, "game_end"),
    ({"trigger": "income", "kind": "gain", "amounts": {"gems": 1}, "text": "x", "colour": 1},
     "colour"),
    ({"trigger": "income", "kind": "gain", "amounts": {"gems": 1}, "text": ""}, "text"),
    ({"trigger": "income", "kind": "gain_residents", "species": "same_as_condition", "count": 1,
      "text": "x"}, "condition"),
])
def test_validate_ability_reports_problems(entry, word):
    problems = validate_ability(entry)
    assert problems and any(word in p for p in problems), problems


def test_validate_ability_quarter_rules():
    entry = {"trigger": "income", "kind": "gain", "amounts": {"gems": 1}, "text": "x"}
    assert validate_ability(entry) == []
    assert any("quarter" in p for p in validate_ability(entry, sector=True))
    assert validate_ability({**entry, "quarter": None}, sector=True) == []
    assert any("quarter" in p for p in validate_ability({**entry, "quarter": None}))


def test_vocabulary_is_documented():
    assert all(kind.description for kind in effects.KINDS.values())
    assert set(effects.POINT_COUNTS) == {"human", "teal", "pink", "brown", "gold",
                                         "level3_sectors", "sectors", "full_sectors",
                                         "ships_left", "metal"}


# --- property: overlay round trip --------------------------------------------------------------

EDITS = st.one_of(
    st.tuples(st.just("sectors"), st.sampled_from([str(n) for n in SECTOR_NUMBERS]),
              st.just("cost"), st.integers(0, 30)),
    st.tuples(st.just("sectors"), st.sampled_from([str(n) for n in SECTOR_NUMBERS]),
              st.just("quarters"), st.integers(1, 6) | st.none()),
    st.tuples(st.just("sectors"), st.sampled_from(["305", "306", "308", "316", "325", "327"]),
              st.just("abilities.0.quarter"), st.integers(0, 5)),
    st.tuples(st.just("hubs"), st.sampled_from(HUB_IDS),
              st.sampled_from(["starting_gems", "starting_food", "starting_water",
                               "starting_metal", "income_gems_per_ship"]),
              st.integers(0, 20)),
    st.tuples(st.just("ships"), st.sampled_from(["L1-dismantle", "L2-farm", "neutral-transport"]),
              st.sampled_from(["cost", "fee"]), st.integers(0, 9)),
    st.tuples(st.just("diplomacy"), st.sampled_from([f"level-{n}" for n in range(1, 6)]),
              st.just("lobbying_cost"), st.integers(0, 9)),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EDITS, max_size=12))
def test_property_set_export_import_round_trip(edits):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        overlay = root / "overlay.json"
        model: dict = {}
        for kind, record, field, value in edits:
            set_user_value(overlay, kind, record, field, value)
            fields = model.setdefault(kind, {}).setdefault(record, {})
            if value is None:
                fields.pop(field, None)
            else:
                fields[field] = value
        model = {k: {r: f for r, f in recs.items() if f} for k, recs in model.items()}
        model = {k: recs for k, recs in model.items() if recs}
        assert read_overlay(overlay) == model
        count = export_overlay(overlay, root / "exported.json")
        assert count == sum(len(f) for recs in model.values() for f in recs.values())
        assert import_overlay(root / "fresh.json", root / "exported.json") == count
        assert read_overlay(root / "fresh.json") == model
        mine, theirs = load_catalogue(overlay=overlay), load_catalogue(overlay=root / "fresh.json")
        assert summary(mine) == summary(theirs)
        for kind, recs in model.items():
            for record, fields in recs.items():
                for field, value in fields.items():
                    assert theirs.field(kind, record, field) == Field(value, "user", None)


def test_docs_example_runs(capsys):
    """docs/catalogue.md's first Python block runs and prints what its comments say."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "catalogue.md"
    block = docs.read_text(encoding="utf-8").split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, str(docs), "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2 brown (2, 'brown')"
    assert "Field(value=3, source='user', note=None)" in out


# --- section 6: where the data leans on guesses ------------------------------------------------

def test_level2_expedition_ship_of_the_anatomy_example(cat):
    """"Anatomy of a Ship": "(e.g., 8 metal)", "(e.g., 4 GEMs)", "an additional 2 GEMs to the
    owner", "this is a Level-2 ship", "For example, a Terran Expedition ship." The duration,
    capacity and how many such cards the deck holds are not given."""
    ship = cat.ships["L2-expedition"]
    assert (ship.group, ship.type, ship.level) == ("deck_design", "expedition", 2)
    assert {n: ship.value(n) for n in ("cost", "fee", "metal_value")} == \
        {"cost": 4, "fee": 2, "metal_value": 8}
    quotes = {n: ship[n].note for n in ("type", "level", "cost", "fee", "metal_value")}
    assert all(ship[n].source == "rulebook" for n in quotes)
    assert quotes == {
        "type": "Ship Type: This is indicated by the icon and the background color. For "
                "example, a Terran Expedition ship.",
        "level": "Ship Level: The two windows/dots indicate that this is a Level-2 ship.",
        "cost": "Cost to Use: If any player wants to use this ship, they must place the shown "
                "GEMs on the ship (e.g., 4 GEMs).",
        "fee": "Also, if that player is not the ship's owner, they must pay an additional 2 GEMs "
               "to the owner of this ship.",
        "metal_value": "Metal Value: If the owner dismantles this ship, they will gain the shown "
                       "number of metal (e.g., 8 metal).",
    }
    assert not any(ship[n].known for n in ("count", "duration", "capacity"))


def test_level2_expedition_can_be_drafted(table_catalogue):
    """A Level-2 design like any other: revealed and drafted, its values asked for in play."""
    table = Table(table_catalogue, ships={3: ["L3-dismantle", "L3-expedition"],
                                          2: ["L2-expedition", "L2-farm"]})
    assert "Ann:L2-expedition" in table.state["ships"]


def test_no_provenance_cites_the_german_summary(cat):
    """The German summary is not the rulebook (it prices the gold Alien with a GEM); no value
    rests on it."""
    notes = [f.note for *_, f in cat.iter_fields() if f.note]
    texts = [a.text for c in [*cat.hubs.values(), *cat.sectors.values()] for a in c.abilities]
    for text in notes + texts:
        assert "German" not in text and "fünf" not in text and "Alternativ" not in text, text


def test_guessed_ship_types_say_they_are_to_be_confirmed(cat):
    """Types the rulebook does not state are inferred, with the reason it is believed and a call
    to confirm it from the components; the neutral Diplomacy ship is the rulebook's (A-7)."""
    guessed = ["L1-dismantle", "L1-construction", *(f"neutral-{k}" for k in
                                                    ("dismantle", "construction", "expedition",
                                                     "transport"))]
    for design in guessed:
        field = cat.ships[design]["type"]
        assert field.source == "inferred" and field.note.startswith("To be confirmed from the")
    diplomacy = cat.ships["neutral-diplomacy"]["type"]
    assert diplomacy.source == "rulebook" and "or the neutral one" in diplomacy.note


def _new_game(catalogue, values=None):
    game = Game(catalogue)
    game.execute({"cmd": "new_game", "players": [{"name": "Ann", "color": "red"},
                                                 {"name": "Bob", "color": "blue"}],
                  "aliens": {"teal": 13, "pink": 12, "brown": 13, "gold": 12}})
    given = {"catalogue": values} if values else {}
    step = game.execute({"cmd": "sector_display", "sectors": display_for(2), **given})
    return game, " ".join(event_text(e) for e in step.events)


def test_display_shows_the_colours_it_assumes(table_catalogue):
    """Placement depends on a Sector's colour, inferred from its number (218's is the
    rulebook's): the display says which colour it assumes."""
    _, text = _new_game(table_catalogue)
    assert "Sector 214 (assumed pink, from its number)" not in text  # 214 is not on display
    assert "Sector 101 (assumed teal, from its number)" in text
    assert "Sector 112 (assumed brown, from its number)" in text
    assert "Sector 322 (assumed pink, from its number)" in text


def test_construction_shows_the_assumed_colour(table):
    table.set("Ann", metal=20)
    step = table.run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-construction",
                      "sector": 101})
    assert any("adds Sector 101 (assumed teal, from its number) to their station" in event_text(e)
               for e in step.events)


SWAP = {"sectors/101/color": "pink", "sectors/121/color": "teal"}


def _build_with_swapped_colours(game):
    """Ann builds 101 (pink on this table) and then a pink Level-2 Sector on it."""
    run = game.execute
    hubs = {"Ann": ["B-3", "B-8"], "Bob": ["B-5", "B-4"]}
    run({"cmd": "deal_hubs", "hubs": hubs})
    for ships in (["L3-dismantle"] * 5, ["L2-farm"] * 5):
        run({"cmd": "reveal_ships", "ships": ships})
        for _ in range(4):
            player = game.state["setup"]["draft_order"][0]
            run({"cmd": "draft_ship", "player": ["Ann", "Bob"][player], "ship": ships[0]})
    run({"cmd": "choose_hub", "player": "Ann", "hub": "B-3"})
    run({"cmd": "choose_hub", "player": "Bob", "hub": "B-5"})
    for name in ("Ann", "Bob"):
        run({"cmd": "starting_bonus", "player": name})
    run({"cmd": "adjust", "who": "Ann", "counter": "metal", "value": 30, "note": "test scene"})
    step = run({"cmd": "use_ship", "player": "Ann", "ship": "Ann:L1-construction",
                "sector": 101})
    ann = game.state["players"][0]
    assert ann["sectors"][0]["color"] == "pink"
    run({"cmd": "end_turn"})
    run({"cmd": "use_ship", "player": "Bob", "ship": "Bob:L2-farm"})
    run({"cmd": "end_turn"})
    with pytest.raises(Refused, match="needs its Level-1 Sector"):
        run({"cmd": "use_ship", "player": "Ann", "ship": "Bob:L1-construction", "sector": 201})
    run({"cmd": "use_ship", "player": "Ann", "ship": "Bob:L1-construction", "sector": 221})
    assert [(s["number"], s["color"]) for s in ann["sectors"]] == [(101, "pink"), (221, "pink")]
    return " ".join(event_text(e) for e in step.events)


def test_sector_colour_corrected_on_a_script_line(table_catalogue):
    """"catalogue": {"sectors/N/color": ...} on a line: the display takes it (its stacks), the
    event shows the colour plainly, and placement follows it."""
    game, text = _new_game(table_catalogue, SWAP)
    assert "Sector 101 (pink)" in text and "Sector 121 (teal)" in text
    assert "Sector 102 (assumed teal, from its number)" in text
    assert "adds Sector 101 (pink) to their station" in _build_with_swapped_colours(game)


def test_sector_colour_corrected_with_the_cli(tmp_path, capsys):
    """`phoenix-companion catalogue --set sectors/N/color=...` writes the overlay in one step; a
    game on that catalogue places by it."""
    table_catalogue_at(tmp_path)
    overlay = tmp_path / "table-overlay.json"
    for key, color in SWAP.items():
        assert cli.main(["--overlay", str(overlay), "catalogue", "--set", f"{key}={color}"]) == 0
    assert "sectors/121/color = \"teal\" entered in" in capsys.readouterr().out
    catalogue = load_catalogue(overlay=overlay)
    assert catalogue.sectors[101]["color"] == Field("pink", "user", None)
    game, text = _new_game(catalogue)
    assert "Sector 101 (pink)" in text
    assert "adds Sector 101 (pink) to their station" in _build_with_swapped_colours(game)
    assert cli.main(["--overlay", str(overlay), "catalogue", "--unset",
                     "sectors/101/color"]) == 0
    assert load_catalogue(overlay=overlay).sectors[101]["color"].source == "inferred"


@pytest.mark.parametrize(("argument", "words"), [
    ("sectors/214/color=red", ["record 214", "'color'", "'red'"]),
    ("sectors/214/colour=pink", ["record 214", "'colour'", "no such field"]),
    ("sectors/214=pink", ["KIND/RECORD/FIELD"]),
    ("sectors/214/color=", ["KIND/RECORD/FIELD=VALUE"]),
    ("sectors/214/color=null", ["--unset"]),
    ("sectors/999/color=pink", ["record 999"]),
    ("ships/L1-transport/type=farm", ["cannot be changed"]),
    ("sectors/214/cost=" + "[" * 100_000, ["sectors/214/cost", "nested more than 64 levels"]),
    ("sectors/214/cost=" + "9" * 5000, ["sectors/214/cost", "a number of 5000 digits"]),
])
def test_cli_set_refuses_bad_entries(tmp_path, capsys, argument, words):
    overlay = tmp_path / "overlay.json"
    assert cli.main(["--overlay", str(overlay), "catalogue", "--set", argument]) == 2
    error = capsys.readouterr().err
    assert all(word in error for word in words), error
    assert not overlay.exists()


EXAMPLE = DEFAULT_DATA_DIR / "examples" / "rulebook-3p.json"


def test_rulebook_example_says_what_the_rulebook_does_not_give(cat):
    """Its totals are the rulebook's; the note names the values the rulebook leaves open, and
    the position reader ignores it."""
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    note = data["note"]
    for words in ("142", "141", "159", "living quarters", "Beth's Hub", "ships left",
                  "food, water and metal", "not the rulebook's"):
        assert words in note
    assert [p.name for p in parse_position(data, cat)] == ["Anna", "Beth", "Connor"]


def _readings() -> list[tuple[list[str], str, str]]:
    docs = Path(__file__).resolve().parents[2] / "docs" / "catalogue.md"
    section = docs.read_text(encoding="utf-8").split("## Readings", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[1].startswith('"'):
            rows.append(([c.strip() for c in cells[0].split(",")], cells[1][1:-1], cells[2]))
    return rows


def test_readings_are_listed_with_their_sentences(cat):
    """docs/catalogue.md lists the readings taken where the text leaves a question open, each
    with the sentence it reads, found verbatim in that component's text."""
    rows = _readings()
    listed = {component for components, *_ in rows for component in components}
    assert {"B-12", "318", "B-3", "A-11", "A-1", "A-7"} <= listed
    for components, sentence, reading in rows:
        first = components[0]
        item = cat.hubs[first] if "-" in first else cat.sectors[int(first)]
        texts = [a.text for a in item.abilities] + [f.note or "" for f in item.fields.values()]
        assert any(sentence in text for text in texts), (first, sentence)
        assert reading
