"""The home screen's model (companion/ui/home_model.py) without a window."""

from __future__ import annotations

from companion.store import GameInfo
from companion.ui.games.home_model import game_row, home_rows, resume_text


def info(game_id: int, phase: str, scores: dict[str, int]) -> GameInfo:
    return GameInfo(id=game_id, name="Friday", created="2026-11-27T19:00:00Z",
                    updated="2026-11-27T21:30:12Z", phase=phase, players=["Ann", "Bob"],
                    scores=scores, steps=40)


def test_a_finished_game_shows_date_players_status_and_scores() -> None:
    row = game_row(info(3, "over", {"Ann": 101, "Bob": 97}))
    assert row.title == "2026-11-27 21:30 · Ann, Bob · finished"
    assert row.detail == "Friday · Ann 101 · Bob 97"
    assert row.finished and row.game_id == 3


def test_resume_names_the_unfinished_game() -> None:
    assert resume_text(info(4, "play", {})) == "Resume: 2026-11-27 21:30 · Ann, Bob · playing"
    assert resume_text(None) == ""
    assert [r.game_id for r in home_rows([info(4, "play", {}), info(3, "over", {})])] == [4, 3]
