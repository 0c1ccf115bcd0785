"""`phoenix-companion` on the command line: the documented contracts, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parents[1] / "companion" / "data" / "examples" / "rulebook-3p.json"


def run(*args: str, home: Path) -> subprocess.CompletedProcess:
    """Run the installed command's module in a fresh process with its own user data folder."""
    env = {**os.environ, "PHOENIX_COMPANION_HOME": str(home)}
    env.pop("PHOENIX_OVERLAY", None)
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, env=env, timeout=60)


def test_score_prints_the_rulebook_sheet(tmp_path):
    result = run("score", str(EXAMPLE), home=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["Category", "Anna", "Beth", "Connor"]
    total = next(line for line in lines if line.startswith("TOTAL"))
    assert total.split() == ["TOTAL", "142", "141", "159"]
    pink = next(line for line in lines if line.startswith("Pluralities: Ensaroo"))
    assert pink.split()[-2:] == ["7", "7"]
    assert "Winner: Connor" in result.stdout


def test_score_json_schema(tmp_path):
    result = run("score", str(EXAMPLE), "--json", home=tmp_path)
    assert result.returncode == 0, result.stderr
    sheet = json.loads(result.stdout)
    assert sheet["winners"] == ["Connor"]
    keys = {"name", "track", "sectors", "residents", "pluralities", "station_bonuses",
            "leftovers", "total", "rank"}
    for row in sheet["players"]:
        assert keys <= row.keys()
        assert set(row["pluralities"]) == {"teal", "pink", "brown", "gold", "human"}
    assert [(p["name"], p["total"], p["rank"]) for p in sheet["players"]] == [
        ("Anna", 142, 2), ("Beth", 141, 3), ("Connor", 159, 1)]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", "not valid JSON at line 1"),
        ('{"players": [{"name": "Ann"}, {"name": "Bob"}]}', "Ann: hub"),
        ('[1, 2]', "players"),
    ],
)
def test_bad_position_file_is_a_clear_error(tmp_path, content, words):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    result = run("score", str(bad), home=tmp_path)
    assert result.returncode == 2
    assert words in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_file_is_a_clear_error(tmp_path):
    result = run("score", str(tmp_path / "nowhere.json"), home=tmp_path)
    assert result.returncode == 2
    assert "no such file" in result.stderr


def test_unknown_command_is_refused(tmp_path):
    result = run("scroe", home=tmp_path)
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_catalogue_summary_counts_by_provenance(tmp_path):
    result = run("catalogue", "--summary", home=tmp_path)
    assert result.returncode == 0, result.stderr
    for word in ("hubs", "sectors", "ships", "diplomacy", "setup", "die", "rulebook",
                 "inferred", "user", "unknown"):
        assert word in result.stdout


# -- replay ---------------------------------------------------------------------------------

sys.path.insert(0, str(Path(__file__).parent / "rules"))
from tables import display_for, table_values  # noqa: E402

from companion.catalogue_files import load_catalogue  # noqa: E402

SETUP = [
    {"cmd": "new_game", "first_game": True,
     "players": [{"name": "Ann", "color": "red"}, {"name": "Bob", "color": "blue"}],
     "aliens": {"teal": 13, "pink": 12, "brown": 13, "gold": 12}},
    {"cmd": "sector_display", "sectors": display_for(2)},
    {"cmd": "first_game_sets", "sets": {"Ann": 1, "Bob": 3}},
    {"cmd": "starting_bonus", "player": "Ann"},
    {"cmd": "starting_bonus", "player": "Bob"},
]


def write_script(path: Path, commands: list[dict], comment: str = "# a test game") -> Path:
    path.write_text(comment + "\n" + "\n".join(json.dumps(c) for c in commands) + "\n")
    return path


def table_overlay(folder: Path) -> Path:
    """An overlay with the test table's values for everything the catalogue lacks."""
    overlay = folder / "overlay.json"
    overlay.write_text(json.dumps({"format": "phoenix-companion-catalogue-overlay", "version": 1,
                                   "values": table_values(load_catalogue())}))
    return overlay


def test_replay_prints_the_final_state(tmp_path):
    script = write_script(tmp_path / "game.jsonl", [
        *SETUP,
        {"cmd": "use_ship", "player": "Ann", "ship": "Ann:L3-dismantle",
         "dismantle": "Ann:L1-transport"},
        {"cmd": "end_turn"},
    ])
    overlay = table_overlay(tmp_path)
    result = run("--overlay", str(overlay), "replay", str(script), "--json", home=tmp_path)
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["phase"] == "play"
    assert state["active"] == "Bob"
    ann = state["players"][0]
    assert "Ann:L1-transport" not in ann["ships"]
    assert ann["metal"] == 3 + 6 + 2  # start 3 (test value), Transport worth 6, L3 ship +2
    text = run("--overlay", str(overlay), "replay", str(script), home=tmp_path)
    assert "Turn 2: Bob" in text.stdout


def test_refused_line_stops_with_its_number(tmp_path):
    script = write_script(tmp_path / "game.jsonl", [
        *SETUP, {"cmd": "income", "player": "Bob"}])
    result = run("--overlay", str(table_overlay(tmp_path)), "replay", str(script), home=tmp_path)
    assert result.returncode == 2
    assert "line 7: it is Ann's turn, not Bob's" in result.stderr
    assert "Traceback" not in result.stderr


def test_override_line_is_applied(tmp_path):
    script = write_script(tmp_path / "game.jsonl", [
        *SETUP, {"cmd": "income", "player": "Ann", "override": "Ann was stuck"}])
    result = run("--overlay", str(table_overlay(tmp_path)), "replay", str(script), "--json",
                 home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["overrides"][0]["override"] == "Ann was stuck"


def test_unknown_catalogue_value_is_asked_and_then_remembered(tmp_path):
    """Asked once through the command, then kept in the user's overlay for later games."""
    script = write_script(tmp_path / "game.jsonl", SETUP[:4])
    overlay = tmp_path / "mine.json"
    result = run("--overlay", str(overlay), "replay", str(script), home=tmp_path)
    assert result.returncode == 2
    assert 'line 5: How many gems does the back of Hub B-1 give at the start?' in result.stderr
    assert '"catalogue": {"hubs/B-1/starting_gems": ...}' in result.stderr
    answers = {"hubs/B-1/starting_gems": 10, "hubs/B-1/starting_food": 1,
               "hubs/B-1/starting_water": 1, "hubs/B-1/starting_metal": 2,
               "hubs/B-1/starting_diplomacy": {"fixed": {"construction": 1}, "choice": 0}}
    answered = [*SETUP[:3], {**SETUP[3], "catalogue": answers}]
    write_script(script, answered)
    result = run("--overlay", str(overlay), "replay", str(script), "--json", home=tmp_path)
    assert result.returncode == 0, result.stderr
    ann = json.loads(result.stdout)["players"][0]
    assert (ann["gems"], ann["metal"], ann["diplomacy"]["construction"]) == (10, 2, 1)
    stored = json.loads(overlay.read_text())["values"]["hubs"]["B-1"]
    assert stored["starting_gems"] == 10
    write_script(script, SETUP[:4])  # the next game needs no answer any more
    assert run("--overlay", str(overlay), "replay", str(script), home=tmp_path).returncode == 0


def test_malformed_script_line(tmp_path):
    script = tmp_path / "bad.jsonl"
    script.write_text('{"cmd": "new_game"\n')
    result = run("replay", str(script), home=tmp_path)
    assert result.returncode == 2
    assert "line 1: not valid JSON" in result.stderr
