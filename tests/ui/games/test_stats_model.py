"""Statistics across finished games (companion.ui.games.stats_model), without a window: two
replayed example games and an unfinished one."""

from __future__ import annotations

from pathlib import Path

from ui_fixtures import replayed

from companion.store import Store
from companion.ui.games.stats_model import PlayerStats, store_statistics


def test_wins_averages_and_hubs_of_the_finished_games(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    for example in ("two-players-first-game", "two-players-first-game", "four-players-draft"):
        replayed(db, f"{example}.jsonl")  # Ann 42, Bob 62 (twice); Ann 40, Bob 36, Cat 41, Dan -3
    replayed(db, "three-players-draft.jsonl", leave_out=40)  # unfinished: not counted
    with Store.open(db, overlay=tmp_path / "overlay.json", write=False) as store:
        stats = store_statistics(store)
    assert stats.games == 3
    assert stats.players == [PlayerStats("Bob", 3, 2, 160 / 3), PlayerStats("Cat", 1, 1, 41.0),
                             PlayerStats("Ann", 3, 0, 124 / 3), PlayerStats("Dan", 1, 0, -3.0)]
    assert [p.average_text() for p in stats.players] == ["53.3", "41.0", "41.3", "-3.0"]
    assert stats.hubs == [("B-1", 2), ("B-3", 2), ("A-10", 1), ("A-12", 1), ("B-4", 1),
                          ("B-12", 1)]  # most played first, then B-4 before B-12


def test_no_finished_games(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "three-players-draft.jsonl", leave_out=40)
    with Store.open(db, overlay=tmp_path / "overlay.json", write=False) as store:
        stats = store_statistics(store)
    assert (stats.games, stats.players, stats.hubs) == (0, [], [])
