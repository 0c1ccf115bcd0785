"""What the home screen shows (plain Python, tested without Kivy): the unfinished game to resume
and the list of past games from the store's game list."""

from __future__ import annotations

from dataclasses import dataclass

from companion.i18n import _
from companion.store import GameInfo
from companion.ui.games.past_game_model import minutes


def status_text(phase: str) -> str:
    """A game's phase in words ("playing"), in the language spoken now."""
    return {"new": _("not set up"), "setup": _("setting up"), "play": _("playing"),
            "over": _("finished")}.get(phase, phase)



@dataclass(frozen=True)
class GameRow:
    """One game of the list: what a player reads, and the game to open."""

    game_id: int
    title: str
    detail: str
    finished: bool
    summary: str  # the winner (a finished game) and the length in minutes


def game_row(info: GameInfo) -> GameRow:
    """A game's line: date, players and status, then the scores."""
    date = info.updated[:16].replace("T", " ")
    players = ", ".join(info.players) or _("no players yet")
    status = status_text(info.phase)
    scores = " · ".join(f"{name} {points}" for name, points in info.scores.items())
    return GameRow(info.id, f"{date} · {players} · {status}",
                   f"{info.name}" + (f" · {scores}" if scores else ""), info.finished,
                   winner_text(info) + _("{minutes} min").format(
                       minutes=minutes(info.created, info.updated)))


def winner_text(info: GameInfo) -> str:
    """"Winner: Bob · " for a finished game (the highest total; "Ann and Bob" share one)."""
    if not info.finished or not info.scores:
        return ""
    best = max(info.scores.values())
    return _("Winner: {players} · ").format(
        players=_(" and ").join(n for n, p in info.scores.items() if p == best))


def resume_text(info: GameInfo | None) -> str:
    """The resume button's text ("" when there is no unfinished game)."""
    if info is None:
        return ""
    row = game_row(info)
    return _("Resume: {game}").format(game=row.title)


def home_rows(games: list[GameInfo]) -> list[GameRow]:
    """The past games, most recent first (the store's order)."""
    return [game_row(info) for info in games]
