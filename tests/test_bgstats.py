"""The BG Stats play file against the fields real .bgsplay files carry (docs/store.md): a uuid
and a modificationDate on every game, player, location and play, stable across exports."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "ui"))

from test_play import replayed

from companion.store import Store, bgstats_play


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
