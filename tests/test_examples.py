"""The example games in examples/, replayed as a newcomer does: the real command line, an empty
catalogue overlay, every value the catalogue lacks given with "catalogue" on the lines.

The values the examples give are EXAMPLE values (the test table's), not the real components'; the
scores below were worked out by hand for the same games (tests/rules/games/*.jsonl).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import run

EXAMPLES = Path(__file__).parents[1] / "examples"
# name: (players, {name: hand-worked total}, winners)
SCORES = {
    # Ann: 41 on the track + 7 resources left (1 point). Bob: 8 on the track, Sectors 101 and
    # 111 (Level 1, 4 each) and 201 (Level 2, 6), 5 residents (2 each), sole plurality of teal,
    # gold and Humans (10 each).
    "two-players-first-game": ({"Ann": 42, "Bob": 8 + 14 + 10 + 30}, ["Bob"]),
    # Cat's Hub A-4: "score 2 points per ship you have left" - 6 ships, 12 points.
    "three-players-draft": ({"Ann": 43, "Bob": 29, "Cat": 61}, ["Cat"]),
    "four-players-draft": ({"Ann": 40, "Bob": 36, "Cat": 41, "Dan": -3}, ["Cat"]),
}


def replay(script: Path, overlay: Path, *extra: str) -> tuple[int, str, str]:
    result = run("--overlay", str(overlay), "replay", str(script), *extra, home=overlay.parent)
    return result.returncode, result.stdout, result.stderr


def commands(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def test_there_are_examples_for_two_three_and_four_players():
    assert sorted(p.stem for p in EXAMPLES.glob("*.jsonl")) == sorted(SCORES)


@pytest.mark.parametrize("name", sorted(SCORES))
def test_an_example_replays_to_the_end_from_an_empty_overlay(tmp_path, name):
    script = EXAMPLES / f"{name}.jsonl"
    code, out, err = replay(script, tmp_path / "overlay.json", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["phase"] == "over"
    totals, winners = SCORES[name]
    assert {p["name"]: p["total"] for p in report["score"]["players"]} == totals
    assert report["score"]["winners"] == winners
    code, out, err = replay(script, tmp_path / "overlay.json")
    assert code == 0, err
    assert "TOTAL" in out and f"Winner: {winners[0]}" in out
    assert not (tmp_path / "overlay.json").exists()  # example values never reach the overlay


def test_an_example_stored_in_a_database_keeps_its_values_out_of_the_overlay(tmp_path):
    script = EXAMPLES / "two-players-first-game.jsonl"
    overlay = tmp_path / "overlay.json"
    code, out, err = replay(script, overlay, "--db", str(tmp_path / "games.sqlite"))
    assert code == 0, err
    assert "phase over" in out
    assert not overlay.exists()


@pytest.mark.parametrize("name", sorted(SCORES))
def test_an_example_marks_its_values_and_has_no_checks(name):
    text = (EXAMPLES / f"{name}.jsonl").read_text()
    assert "# EXAMPLE VALUES" in text and "NOT the real components'" in text
    lines = [json.loads(line) for line in commands(text)]
    assert lines[0]["cmd"] == "new_game" and lines[0]["example"] is True
    assert all("cmd" in line and "check" not in line for line in lines)
    assert any("catalogue" in line for line in lines)


def test_values_are_kept_in_the_overlay_and_asked_no_more(tmp_path):
    """"the value is remembered for the rest of the game and stored in your catalogue overlay
    for later games" (docs/game-scripts.md): the second game gives no values at all."""
    overlay = tmp_path / "overlay.json"
    lines = commands((EXAMPLES / "three-players-draft.jsonl").read_text())
    own = tmp_path / "own.jsonl"  # a table's own game: the same values, not marked as examples
    own.write_text("\n".join([lines[0].replace('"example": true, ', ""), *lines[1:]]) + "\n")
    assert replay(own, overlay)[0] == 0
    stored = json.loads(overlay.read_text())["values"]
    # Given on the choose_hub and reveal_ships lines, before any line asked for them.
    assert stored["hubs"]["A-2"]["starting_gems"] == 8
    assert stored["ships"]["L3-expedition"]["capacity"] == 5
    bare = [json.dumps({k: v for k, v in json.loads(line).items() if k != "catalogue"})
            for line in commands(own.read_text())]
    second = tmp_path / "second.jsonl"
    second.write_text("\n".join(bare) + "\n")
    code, out, err = replay(second, overlay, "--json")
    assert code == 0, err
    assert {p["name"]: p["total"] for p in json.loads(out)["score"]["players"]} \
        == SCORES["three-players-draft"][0]
    code, _, err = replay(second, tmp_path / "empty.json")
    assert code == 2 and '"catalogue": {"hubs/A-2/starting_gems": ...}' in err


def test_a_refused_line_prints_the_state_just_before_it(tmp_path):
    """With --json a script writer sees where they stand: the state before the refused line on
    stdout, the line's number and reason on stderr, exit 2."""
    opening = commands((EXAMPLES / "two-players-first-game.jsonl").read_text())[:5]
    script = tmp_path / "game.jsonl"
    script.write_text("\n".join([*opening, '{"cmd": "income", "player": "Bob"}']) + "\n")
    code, out, err = replay(script, tmp_path / "overlay.json", "--json")
    assert code == 2
    assert "line 6: it is Ann's turn, not Bob's" in err
    state = json.loads(out)
    assert (state["phase"], state["active"]) == ("play", "Ann")
    # Hubs B-1 and B-3 give 8 GEMs (example values); Bob, second in turn order, 1 more.
    assert [p["gems"] for p in state["players"]] == [8, 9]
    code, out, err = replay(script, tmp_path / "overlay.json")
    assert code == 2 and out == ""
