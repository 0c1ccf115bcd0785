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
