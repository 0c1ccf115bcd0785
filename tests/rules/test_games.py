"""Complete scripted games, checked every few commands against states worked out by hand.

Each file in tests/rules/games/ is a game script (docs/game-scripts.md) with extra lines
`{"check": {...}}` giving what the table should look like at that point: players' counters, ship
counts, Diplomacy levels, Sectors with their residents, the supply, whose turn it is, the end of the
game and the final score. The expectations were computed by hand from the rulebook and the test
table's values (tests/rules/tables.py), not by running the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.rules.game import Game
from companion.rules.report import final_score, summary
from companion.rules.scoring import sheet_as_json
from companion.rules.script import parse

GAMES = sorted((Path(__file__).parent / "games").glob("*.jsonl"))


def check(expected: dict, game: Game, line: int) -> None:
    """Compare the parts of the state a check line names."""
    state, catalogue = game.state, game.catalogue
    report = summary(state, catalogue)
    players = {p["name"]: p for p in report["players"]}
    for key, want in expected.items():
        where = f"line {line}: {key}"
        if key in players:
            have = players[key]
            for field, value in want.items():
                if field == "ships":
                    assert len(have["ships"]) == value, f"{where}.ships"
                elif field == "sectors":
                    sectors = {str(s["number"]): s["residents"] for s in have["sectors"]}
                    for number, residents in value.items():
                        assert sectors.get(number) == residents, f"{where}.sectors.{number}"
                elif field == "sector_numbers":
                    assert [s["number"] for s in have["sectors"]] == value, f"{where}.sectors"
                elif field == "diplomacy":
                    for track, level in value.items():
                        assert have["diplomacy"][track] == level, f"{where}.diplomacy.{track}"
                else:
                    assert have[field] == value, f"{where}.{field}: {have[field]} != {value}"
        elif key == "supply":
            for species, count in want.items():
                assert report["supply"][species] == count, f"{where}.{species}"
        elif key == "end":
            assert {k: report["end"][k] for k in want} == want, where
        elif key == "score":
            sheet = sheet_as_json(final_score(state, catalogue))
            rows = {p["name"]: p for p in sheet["players"]}
            for name, fields in want.items():
                if name == "winners":
                    assert sheet["winners"] == fields, where
                    continue
                for field, value in fields.items():
                    assert rows[name][field] == value, f"{where}.{name}.{field}"
        else:
            assert report[key] == want, f"{where}: {report[key]} != {want}"


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_scripted_game(table_catalogue, path):
    game = Game(table_catalogue)
    lines = path.read_text().splitlines()
    checks = 0
    for number, text in enumerate(lines, start=1):
        if text.startswith('{"check"'):
            check(json.loads(text)["check"], game, number)
            checks += 1
            continue
        for line in parse([text]):
            game.execute(line.command)
    assert checks >= 5
    assert game.state["phase"] == "over"
