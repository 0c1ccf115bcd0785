"""Exports: the game record imports back into an identical game; CSV score sheet; BG Stats."""

from __future__ import annotations

import csv
import io
import json

import pytest
from store_helpers import commands, overlay_copy, reference_game

from companion.rules.report import final_score
from companion.rules.scoring import sheet_as_json
from companion.store import RecordError, Store, StoreError
from companion.store.export import (
    bgstats_play,
    export_text,
    game_record,
    import_record,
    record_digest,
    score_csv,
)


def _signed(record: dict) -> dict:
    """A changed record with its digest made to match again (to test the checks behind it)."""
    return {**record, "digest": record_digest(record)}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A database with the long game played to its end (and a short unfinished one)."""
    folder = tmp_path_factory.mktemp("finished")
    path = folder / "games.sqlite"
    with Store.open(path, overlay=overlay_copy(folder), snapshot_every=50) as store:
        played = store.new_game("long")
        for command in commands():
            played.execute(command)
        short = store.new_game("short")
        for command in commands()[:30]:
            short.execute(command)
    return path, folder / "overlay.json", played.id, short.id


def _journal(store, game_id):
    return store.conn.execute("SELECT at, command FROM journal WHERE game_id = ? ORDER BY n",
                              (game_id,)).fetchall()


def test_a_record_imports_into_an_identical_game(finished, tmp_path):
    path, overlay, long_id, _ = finished
    with Store.open(path, overlay=overlay, write=False) as store:
        record = json.loads(export_text(store, long_id, "record"))
        original = store.open_game(long_id)
        journal = _journal(store, long_id)
    assert record["score_sheet"]["winners"]
    assert len(record["commands"]) == len(commands())
    assert record["overlay"]["values"]["hubs"]
    # Into another database (another table's Pi) with no overlay of its own.
    with Store.open(tmp_path / "other.sqlite", overlay=tmp_path / "empty.json") as other:
        game_id = import_record(other, record)
        copy = other.open_game(game_id)
        assert copy.state == original.state
        assert copy.game.steps == original.game.steps
        assert copy.game.undone == original.game.undone
        assert _journal(other, game_id) == journal
        assert other.game_info(game_id).finished
        assert other.check_snapshots(game_id) > 0
        again = game_record(other, game_id)
    assert again["commands"] == record["commands"]
    assert again["score_sheet"] == record["score_sheet"]


def test_a_record_of_an_unfinished_game_keeps_its_undone_steps(finished, tmp_path):
    path, overlay, _, short_id = finished
    with Store.open(path, overlay=overlay, write=False) as store:
        record = game_record(store, short_id)
    record["commands"] += [{"at": record["commands"][-1]["at"], "command": {"cmd": "undo"}}]
    before = reference_game(29)
    record["game"]["phase"] = before.state["phase"]
    record["score_sheet"] = sheet_as_json(final_score(before.state, before.catalogue))
    with Store.open(tmp_path / "other.sqlite", overlay=tmp_path / "none.json") as other:
        imported = other.open_game(import_record(other, _signed(record)))
        assert len(imported.game.undone) == 1
        assert other.resume().id == imported.id


@pytest.mark.parametrize("damage", ["score", "command", "format", "commands", "overlay"])
def test_a_bad_record_imports_nothing(finished, tmp_path, damage):
    path, overlay, long_id, _ = finished
    with Store.open(path, overlay=overlay, write=False) as store:
        record = game_record(store, long_id)
    if damage == "score":
        record["score_sheet"]["players"][0]["total"] += 1
    elif damage == "command":
        record["commands"][40]["command"] = {"cmd": "draft_ship", "player": "Nobody"}
    elif damage == "format":
        record["format"] = "something-else"
    elif damage == "commands":
        record["commands"] = [{"command": "end_turn"}]
    else:
        record["overlay"]["values"] = {"hubs": {"B-3": {"starting_gems": "lots"}}}
    with Store.open(tmp_path / "other.sqlite", overlay=tmp_path / "none.json") as other:
        with pytest.raises(RecordError, match=r"changed after it was exported|not a game record"):
            import_record(other, record)
        with pytest.raises(RecordError, match=r"nothing was imported|not a game record"):
            import_record(other, _signed(record))
        assert other.games() == []
        assert other.conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0] == 0


def test_the_csv_score_sheet(finished):
    path, overlay, long_id, _ = finished
    with Store.open(path, overlay=overlay, write=False) as store:
        rows = list(csv.reader(io.StringIO(score_csv(store, long_id))))
        played = store.open_game(long_id)
    sheet = final_score(played.state, played.catalogue)
    assert rows[0] == ["Category", "Ann", "Bob", "Cat", "Dan"]
    table = {row[0]: row[1:] for row in rows[1:]}
    assert table["TOTAL"] == [str(p.total) for p in sheet.players]
    assert table["Rank"] == [str(p.rank) for p in sheet.players]
    assert [n for n, w in zip(rows[0][1:], table["Winner"]) if w == "yes"] == list(sheet.winners)
    assert len(rows) == len(sheet.rows()) + 3


def test_the_bgstats_play(finished):
    path, overlay, long_id, short_id = finished
    with Store.open(path, overlay=overlay, write=False) as store:
        play_file = bgstats_play(store, long_id)
        played = store.open_game(long_id)
        with pytest.raises(StoreError, match="not over"):
            bgstats_play(store, short_id)
        assert bgstats_play(store, long_id)["plays"][0]["uuid"] == play_file["plays"][0]["uuid"]
    sheet = final_score(played.state, played.catalogue)
    [game] = play_file["games"]
    assert game["name"] == "Space Station Phoenix" and game["highestWins"] is True
    players = {p["id"]: p["name"] for p in play_file["players"]}
    [play] = play_file["plays"]
    assert play["gameRefId"] == game["id"]
    assert len(play["playDate"]) == 19 and play["durationMin"] >= 1
    scores = {players[s["playerRefId"]]: s for s in play["playerScores"]}
    for p in sheet.players:
        assert scores[p.name]["score"] == str(p.total)
        assert scores[p.name]["winner"] == (p.name in sheet.winners)
        assert scores[p.name]["rank"] == p.rank
    assert scores["Ann"]["startPlayer"] is True
    assert scores["Ann"]["role"].startswith("Hub ")
    json.dumps(play_file)
