"""The BG Stats play file against the fields real .bgsplay files carry (docs/store.md): a uuid
and a modificationDate on every game, player, location and play, stable across exports; the
createPlay link made from the same play (companion.export)."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from urllib.parse import parse_qs, quote

sys.path.insert(0, str(Path(__file__).resolve().parent / "ui"))

from ui_fixtures import replayed

from companion import export
from companion.store import Store, bgstats_play, export_text
from companion.ui.kit.qr_model import module_pixels, qr_matrix


def test_every_entry_has_a_stable_uuid_and_a_modification_date(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "two-players-first-game.jsonl")
    with Store.open(db, overlay=tmp_path / "overlay.json", write=False) as store:
        game_id = store.games()[0].id
        first, again = bgstats_play(store, game_id), bgstats_play(store, game_id)
        assert "bggId" not in bgstats_play(store, game_id, bgg_id=None)["games"][0]
    assert first == again  # the same game exported twice is the same play
    [game], [location], [play] = first["games"], first["locations"], first["plays"]
    assert game["bggId"] == 356414
    for entry in (game, location, play, *first["players"]):
        assert uuid.UUID(entry["uuid"]).version == 5
    for entry in (game, location, *first["players"]):
        assert len(entry["modificationDate"]) == 19
    assert play["locationRefId"] == location["id"]
    assert sorted(p["name"] for p in first["players"]) == ["Ann", "Bob"]
    assert {p["playerRefId"] for p in play["playerScores"]} == {p["id"] for p in first["players"]}
    assert len({e["uuid"] for e in (game, location, play, *first["players"])}) == 5


def test_the_createplay_link_carries_the_play_files_data(tmp_path: Path) -> None:
    """BG Stats' createPlay link: the URL-encoded JSON decodes to the play file's own game,
    players, scores and stable ids, with the configured BoardGameGeek id."""
    db = tmp_path / "games.sqlite"
    replayed(db, "two-players-first-game.jsonl")
    with Store.open(db, overlay=tmp_path / "overlay.json", write=False) as store:
        game_id = store.games()[0].id
        link = export.create_play_link(store, game_id, 12345)
        play_file = bgstats_play(store, game_id, 12345)
        saved = json.loads(export_text(store, game_id, "bgstats", 12345))
        assert link == export.create_play_link(store, game_id, 12345)  # stable
    assert saved == play_file and saved["games"][0]["bggId"] == 12345
    address, _, query = link.partition("?")
    assert address == "https://app.bgstatsapp.com/createPlay.html"
    [(key, [text])] = parse_qs(query).items()
    assert key == "data" and quote(text, safe="") == query.removeprefix("data=")
    data = json.loads(text)
    [play] = play_file["plays"]
    assert data["game"] == {"bggId": 12345, "highestWins": True,
                            "name": "Space Station Phoenix", "noPoints": False,
                            "sourceGameId": play_file["games"][0]["uuid"]}
    assert (data["board"], data["location"], data["sourceName"]) == (
        "", "Phoenix Companion table", "Phoenix Companion")
    assert data["sourcePlayId"] == play["uuid"] and data["comments"] == play["comments"]
    assert (data["playDate"], data["durationMin"]) == (play["playDate"], play["durationMin"])
    uuids = {p["name"]: p["uuid"] for p in play_file["players"]}
    assert data["players"] == [
        {"startPlayer": True, "name": "Ann", "rank": 2, "role": "Hub B-1", "score": 42,
         "sourcePlayerId": uuids["Ann"], "winner": False},
        {"startPlayer": False, "name": "Bob", "rank": 1, "role": "Hub B-3", "score": 62,
         "sourcePlayerId": uuids["Bob"], "winner": True}]


def test_a_four_player_link_fits_the_screen_at_three_pixels_a_module(tmp_path: Path) -> None:
    """The longest example's QR code, quiet zone included, fits 800x480's pop-up (468 px)."""
    db = tmp_path / "games.sqlite"
    replayed(db, "four-players-draft.jsonl")
    with Store.open(db, overlay=tmp_path / "overlay.json", write=False) as store:
        link = export.create_play_link(store, store.games()[0].id, 356414)
    assert module_pixels(468, len(qr_matrix(link))) >= 3
