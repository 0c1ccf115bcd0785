"""An end-of-game position is checked before scoring: each problem names the player and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.catalogue_files import load_catalogue
from companion.rules.position import PositionError, parse_position, read_position
from companion.rules.report import score_position

CATALOGUE = load_catalogue()


def player(name: str = "Ann", **fields) -> dict:
    base = {"name": name, "hub": "B-3", "points": 0, "ships_left": 0, "gems": 0, "food": 0,
            "water": 0, "metal": 0, "sectors": []}
    return {**base, **fields}


def sector(number: int, residents: list[str], quarters: int = 3, **extra) -> dict:
    color = {0: "teal", 1: "brown", 2: "pink"}.get(number // 10 % 10, "teal")
    return {"number": number, "level": number // 100, "color": color, "quarters": quarters,
            "residents": residents, **extra}


def refused(*players: dict) -> PositionError:
    with pytest.raises(PositionError) as raised:
        parse_position({"players": list(players)}, CATALOGUE)
    return raised.value


def test_a_valid_position_parses():
    players = parse_position(
        {"players": [player(sectors=[sector(101, ["teal", "gold"])]), player("Bob")]}, CATALOGUE)
    assert [p.name for p in players] == ["Ann", "Bob"]
    assert players[0].sectors[0].residents == ("teal", "gold")


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"hub": "C-1"}, "hub", "unknown Station Hub"),
        ({"gems": -1}, "gems", "cannot be negative"),
        ({"food": "3"}, "food", "whole number"),
        ({"metal": True}, "metal", "whole number"),
        ({"sectors": [sector(999, [])]}, "number", "no Sector numbered 999"),
        ({"sectors": [sector(101, ["pink"])]}, "residents", "pink Alien cannot live in a teal"),
        ({"sectors": [sector(101, ["teal"] * 4)]}, "residents", "4 residents but only 3"),
        ({"sectors": [sector(101, ["dragon"])]}, "residents", "unknown resident"),
        ({"sectors": [{**sector(101, []), "level": 2}]}, "level", "Level-1 Sector"),
        ({"sectors": [{**sector(101, []), "color": "pink"}]}, "color", "as teal"),
        ({"sectors": [sector(201, [])]}, "sectors", "no Level-1 Sector"),
        ({"sectors": [sector(101, []), sector(102, [])]}, "sectors", "only one Sector of each"),
        ({"hub_residents": ["pink"]}, "hub_residents", "no living quarters"),
        ({"hub": "B-11", "hub_residents": ["teal"]}, "hub_residents", "do not fit"),
        ({"hub": "B-11", "hub_residents": ["pink"] * 4}, "hub_residents", "do not fit"),
        ({"hub": "A-11", "hub_residents": ["gold", "gold"]}, "hub_residents", "do not fit"),
        ({"colour": "red"}, "player", "unknown field"),
    ],
)
def test_bad_input_names_player_and_field(change, field, words):
    """Bad input is refused with a message naming the player and the field to fix."""
    error = refused(player(**change), player("Bob"))
    assert error.player == "Ann"
    assert field in error.field
    assert words in str(error)


def test_missing_field_is_named():
    ann = player()
    del ann["ships_left"]
    error = refused(ann, player("Bob"))
    assert (error.player, error.field) == ("Ann", "ships_left")
    assert "missing" in str(error)


def test_player_count_is_two_to_four():
    """"Two to four people play" (DESIGN.md); the setup tables cover 2p, 3p and 4p."""
    assert "2 to 4 players" in str(refused(player()))
    assert "2 to 4 players" in str(refused(*(player(f"P{i}") for i in range(5))))


def test_same_sector_in_two_stations_is_refused():
    """Each Sector tile exists once."""
    error = refused(player(sectors=[sector(101, [])]), player("Bob", sectors=[sector(101, [])]))
    assert "also by Ann" in str(error)


def test_duplicate_names_are_refused():
    assert "names must differ" in str(refused(player(), player()))


def test_108_lets_teal_sectors_hold_any_alien():
    """108: "Once the living quarters here are occupied, your teal Sectors can hold Aliens of
    any color (they can intermingle). If this Sector is later unoccupied, previously placed
    residents may stay in place" """
    station = [sector(101, []), sector(201, ["pink", "brown"]), sector(111, [])]
    with pytest.raises(PositionError):
        parse_position({"players": [player(sectors=station), player("Bob")]}, CATALOGUE)
    station = [sector(108, []), sector(201, ["pink", "brown"]), sector(111, ["brown"])]
    players = parse_position({"players": [player(sectors=station), player("Bob")]}, CATALOGUE)
    assert players[0].count("pink") == 1


def test_a9_builds_wings_in_any_order():
    """A-9: "You can build Sectors in any order. You can start with Level 1, 2, or 3 in any
    color. However, each wing must still all be the same color." """
    station = [sector(301, ["teal"]), sector(211, [])]
    players = parse_position({"players": [player(hub="A-9", sectors=station), player("Bob")]},
                             CATALOGUE)
    assert len(players[0].sectors) == 2


def test_gold_and_humans_live_anywhere():
    """"Humans and gold Aliens can go to any color of Sector." """
    station = [sector(111, ["gold", "human"]), sector(121, ["human", "gold"])]
    players = parse_position({"players": [player(sectors=station), player("Bob")]}, CATALOGUE)
    assert players[0].humans == 2


def test_a_position_is_scored_with_the_catalogue_it_is_read_with(tmp_path):
    """An example position "scores the same whatever the user's overlay says"
    (docs/catalogue.md): its own values, not the overlay's, are the ones it is scored with."""
    example = Path(__file__).resolve().parents[2] / "companion" / "data" / "examples"
    data = json.loads((example / "rulebook-3p.json").read_text())
    overlay = tmp_path / "overlay.json"
    overlay.write_text(json.dumps({"format": "phoenix-companion-catalogue-overlay", "version": 1,
                                   "values": {"sectors": {"101": {"quarters": 4}}}}))
    __, used = read_position(data, load_catalogue(overlay=overlay))
    assert used.field("sectors", 101, "quarters").value == 3  # the position's, not the overlay's
    sheet = score_position(data, load_catalogue(overlay=overlay))
    assert [p.total for p in sheet.players] == [p.total for p in score_position(
        data, load_catalogue()).players]
