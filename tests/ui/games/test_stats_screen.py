"""The statistics screen in the real app under Xvfb (tests/ui/drive_stats.py): two finished
example games and an unfinished one, the numbers read off the screen."""

from __future__ import annotations

from pathlib import Path

from ui_fixtures import SHOTS, replayed


def test_statistics_across_two_finished_games(run_ui_driver, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"
    replayed(db, "two-players-first-game.jsonl")  # Ann 42, Bob 62 (B-1, B-3)
    replayed(db, "four-players-draft.jsonl")  # Ann 40, Bob 36, Cat 41 wins, Dan -3
    replayed(db, "three-players-draft.jsonl", leave_out=40)  # unfinished: not counted
    result = run_ui_driver("drive_stats.py", "stats", shots=SHOTS, args=("--db", str(db)))
    assert result["info"] == "2 finished games"
    cells = result["cells"]
    table = {name: [cells[f"stats:{field}:{name}"] for field in ("games", "wins", "average")]
             for name in ("Ann", "Bob", "Cat", "Dan")}
    assert table == {"Ann": ["2", "0", "41.0"], "Bob": ["2", "1", "49.0"],
                     "Cat": ["1", "1", "41.0"], "Dan": ["1", "0", "-3.0"]}
    assert cells["stats:player:Bob"] == "Bob"
    hubs = {tag.rsplit(":", 1)[1]: text for tag, text in cells.items()
            if tag.startswith("stats:played:")}
    assert hubs == {"B-1": "1", "B-3": "1", "A-10": "1", "A-12": "1", "B-4": "1", "B-12": "1"}
    assert min(result["rows"]) >= 44 and result["home"] >= 48
    assert (SHOTS / "stats-800x480.png").stat().st_size > 10_000
