"""The store's command-line sub-commands, as companion/cli.py registers them."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest
from store_helpers import LONG_GAME, commands, overlay_copy

from companion.store import Store
from companion.store.cli import add_commands, replay_into_db

REPO = Path(__file__).resolve().parent.parent.parent


def _run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="phoenix-companion")
    parser.add_argument("--overlay", type=Path, default=None)
    add_commands(parser.add_subparsers())
    args = parser.parse_args(argv)
    return args.run(args)


@pytest.fixture
def script(tmp_path) -> Path:
    path = tmp_path / "opening.jsonl"
    path.write_text("# the first commands of the long game\n"
                    + "\n".join(json.dumps(c) for c in commands()[:40]) + "\n")
    return path


def test_replay_into_db_commits_and_prints_each_command(tmp_path, script, capsys):
    db, overlay = tmp_path / "games.sqlite", overlay_copy(tmp_path)
    assert replay_into_db(script, db, overlay) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out[:40]] == [f"committed {n}" for n in range(1, 41)]
    assert out[0].startswith("committed 1: line 2 new_game")
    with Store.open(db, overlay=overlay, write=False) as store:
        assert store.resume().journal == 40


def test_a_refused_line_keeps_what_was_committed(tmp_path, script, capsys):
    lines = script.read_text().splitlines()
    lines.insert(11, json.dumps({"cmd": "draft_ship", "player": "Nobody", "ship": "x"}))
    script.write_text("\n".join(lines) + "\n")
    db, overlay = tmp_path / "games.sqlite", overlay_copy(tmp_path)
    assert replay_into_db(script, db, overlay) == 2
    captured = capsys.readouterr()
    assert "line 12" in captured.err and "Traceback" not in captured.err
    assert len(captured.out.splitlines()) == 10
    with Store.open(db, overlay=overlay, write=False) as store:
        assert store.resume().journal == 10


def test_show_games_export_import(tmp_path, script, capsys):
    db, overlay = tmp_path / "games.sqlite", overlay_copy(tmp_path)
    replay_into_db(script, db, overlay)
    capsys.readouterr()
    assert _run("--overlay", str(overlay), "show", "--db", str(db), "--json") == 0
    shown = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in shown["players"]] == ["Ann", "Bob", "Cat", "Dan"]
    assert _run("show", "--db", str(db), "--game", "1") == 0
    assert "Game 1: opening" in capsys.readouterr().out
    assert _run("games", "--db", str(db), "--json") == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert listed["id"] == 1 and listed["steps"] == 40 and not listed["finished"]
    assert _run("games", "--db", str(db)) == 0
    assert "opening" in capsys.readouterr().out
    record = tmp_path / "record.json"
    assert _run("export", "--db", str(db), "--game", "1", "--format", "record",
                "-o", str(record)) == 0
    capsys.readouterr()
    assert _run("export", "--db", str(db), "--game", "1", "--format", "csv") == 0
    assert capsys.readouterr().out.startswith("Category,Ann,Bob,Cat,Dan\n")
    assert _run("--overlay", str(overlay), "import", str(record), "--db", str(db)) == 0
    assert "as game 2" in capsys.readouterr().out
    with Store.open(db, overlay=overlay, write=False) as store:
        assert store.open_game(2).state == store.open_game(1).state


@pytest.mark.parametrize("case", ["missing", "foreign", "locked", "no-game", "bgstats-unfinished",
                                  "bad-record"])
def test_user_errors_exit_2_with_a_message(tmp_path, script, capsys, case):
    db = tmp_path / "games.sqlite"
    if case != "missing":
        replay_into_db(script, db, overlay_copy(tmp_path))
        capsys.readouterr()
    argv = ["games", "--db", str(db)]
    if case == "foreign":
        db.write_text("not a database\n" * 100)
    elif case == "no-game":
        argv = ["show", "--db", str(db), "--game", "7"]
    elif case == "bgstats-unfinished":
        argv = ["export", "--db", str(db), "--game", "1", "--format", "bgstats"]
    elif case == "bad-record":
        (tmp_path / "bad.json").write_text("{\"format\": 1}")
        argv = ["import", str(tmp_path / "bad.json"), "--db", str(db)]
    if case == "locked":
        with Store.open(db, overlay=tmp_path / "overlay.json"):
            assert replay_into_db(script, db, tmp_path / "overlay.json") == 2
    else:
        assert _run(*argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("phoenix-companion: ") and "Traceback" not in err
    assert {"missing": "no game database", "foreign": "not a Phoenix Companion database",
            "locked": "already open in another Phoenix Companion",
            "no-game": "no game 7", "bgstats-unfinished": "not over yet",
            "bad-record": "not a game record"}[case] in err


def test_the_replay_of_the_long_game_in_a_child_process(tmp_path):
    # The whole long game through replay_into_db in its own process, as the CLI runs it.
    db, overlay = tmp_path / "games.sqlite", overlay_copy(tmp_path)
    code = ("import sys; from pathlib import Path; from companion.store.cli import replay_into_db;"
            "sys.exit(replay_into_db(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))")
    done = subprocess.run([sys.executable, "-c", code, str(LONG_GAME), str(db), str(overlay)],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("committed ") == len(commands())
    assert "phase over" in done.stdout.splitlines()[-1]


def test_start_fresh_keeps_an_unusable_file_aside(tmp_path, capsys):
    """"A file that is not a database ...: a clear message; the file is never modified; the app
    can start a fresh database beside it (the old one kept, renamed with a timestamp).\""""
    db = tmp_path / "games.sqlite"
    db.write_text("a shopping list, not a database")
    assert _run("games", "--db", str(db)) == 2
    error = capsys.readouterr().err
    assert "not modified" in error and "--start-fresh" in error
    assert db.read_text() == "a shopping list, not a database"
    assert _run("games", "--db", str(db), "--start-fresh") == 0
    out = capsys.readouterr().out
    kept = sorted(tmp_path.glob("games-*.sqlite.old"))
    assert len(kept) == 1 and kept[0].read_text() == "a shopping list, not a database"
    assert f"kept it as {kept[0]}" in out and "no games yet" in out
    assert _run("games", "--db", str(db)) == 0  # the fresh database works


def test_a_bg_stats_export_names_the_game_by_the_configs_id(tmp_path, capsys):
    """`phoenix-companion --config PATH export --format bgstats` writes the BoardGameGeek id of
    the config's `[bgstats] bgg_id`, as the screen's export does; a bad one is warned of and the
    default (356414) written."""
    from companion.cli import main

    db = tmp_path / "games.sqlite"
    replay_into_db(Path(__file__).parents[2] / "examples" / "two-players-first-game.jsonl", db,
                   tmp_path / "overlay.json")
    config = tmp_path / "config.toml"
    config.write_text("[bgstats]\nbgg_id = 12345\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["--config", str(config), "export", "--db", str(db), "--game", "1",
                 "--format", "bgstats"]) == 0
    assert json.loads(capsys.readouterr().out)["games"][0]["bggId"] == 12345
    config.write_text("[bgstats]\nbgg_id = \"phoenix\"\n", encoding="utf-8")
    assert main(["--config", str(config), "export", "--db", str(db), "--game", "1",
                 "--format", "bgstats"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"][0]["bggId"] == 356414
    assert "bgstats.bgg_id" in err
