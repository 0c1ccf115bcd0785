"""What a stored game looks like afterwards (plain Python, tested without Kivy): its log in the
engine's words, every player's score-track points by turn (the steps folded again from the
start), the final tally, and a per-player summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.i18n import _, ngettext
from companion.rules.catalogue import Catalogue
from companion.rules.message import event_text
from companion.rules.report import final_score
from companion.rules.state import Event, EventRecord, Player, State, apply_ops, new_state
from companion.rules.words import color_name
from companion.store import StoredGame
from companion.ui.kit.wording import track_short


@dataclass(frozen=True)
class Series:
    """One player's line on the chart: (turn, points) after each turn, then the final tally."""

    name: str
    color: str
    points: list[tuple[int, int]]


@dataclass(frozen=True)
class PlayerSummary:
    """What a player did over the game."""

    name: str
    color: str
    hub: str | None
    dismantled: int
    sectors: int
    residents: dict[str, int]
    diplomacy: dict[str, int]

    def text(self) -> str:
        """One line for the screen."""
        residents = ", ".join(f"{n} {color_name(s)}" for s, n in sorted(self.residents.items()))
        diplomacy = "  ".join(f"{track_short(t)} {v}" for t, v in self.diplomacy.items())
        ships = ngettext("{count} ship", "{count} ships", self.dismantled).format(
            count=self.dismantled)
        sectors = ngettext("{count} Sector", "{count} Sectors", self.sectors).format(
            count=self.sectors)
        return _("{name} ({color}, Hub {hub}): {ships} dismantled, {sectors} built; residents: "
                 "{residents}; Diplomacy: {diplomacy}").format(
            name=self.name, color=color_name(self.color), hub=self.hub or "-", ships=ships,
            sectors=sectors, residents=residents or _("none"), diplomacy=diplomacy)


@dataclass(frozen=True)
class History:
    """A game replayed step by step."""

    events: list[EventRecord]
    series: list[Series]
    turns: int
    summaries: list[PlayerSummary]
    final: bool  # the last point of each series is the final tally
    winners: tuple[str, ...]  # a finished game's, ties broken as the score sheet breaks them

    @property
    def log(self) -> list[str]:
        """The game's log, in the language spoken now (worded when read: statistics, which
        read none of it, word nothing)."""
        return [event_text(event) for event in self.events]


def history(steps: Sequence[Any], state: State, catalogue: Catalogue) -> History:
    """Fold the game's steps again from an empty state, sampling every player's points at the
    end of each turn; the final tally (the score sheet's totals) ends the lines of a finished
    game. `state` is the game's state now."""
    folded = new_state()
    events: list[EventRecord] = []
    by_turn: dict[int, list[int]] = {}
    dismantled: Counter[int] = Counter()
    for step in steps:
        for event in step.events:
            if event["type"] == Event.SHIP_DISMANTLED and folded["turn"]["active"] is not None:
                dismantled[folded["turn"]["active"]] += 1
            apply_ops(folded, event["ops"])
            events.append(event)
        if folded["players"]:
            by_turn[folded["turn"]["number"]] = [p["points"] for p in folded["players"]]
    players = state["players"]
    turns = sorted(by_turn)
    final = state["phase"] == "over"
    order = {p["name"]: i for i, p in enumerate(players)}
    scored = final_score(state, catalogue) if final else None
    sheet = {s.name: s.total for s in scored.players} if scored else {}
    series = [Series(p["name"], p["color"],
                     [(turn, by_turn[turn][order[p["name"]]]) for turn in turns]
                     + ([((turns[-1] if turns else 0) + 1, sheet[p["name"]])] if final else []))
              for p in players]
    summaries = [PlayerSummary(p["name"], p["color"], p["hub"], dismantled[i], len(p["sectors"]),
                               residents(p), dict(p["diplomacy"])) for i, p in enumerate(players)]
    return History(events, series, state["turn"]["number"], summaries, final,
                   scored.winners if scored else ())


def game_history(played: StoredGame) -> History:
    """A stored game's history (its steps folded again)."""
    return history(played.game.steps, played.state, played.catalogue)


def residents(player: Player) -> dict[str, int]:
    """A player's residents by species (Sectors and Hub)."""
    found = Counter(r for s in player["sectors"] for r in s["residents"])
    found.update(r for r in player["hub_slots"] if r is not None)
    return dict(found)


def minutes(created: str, updated: str) -> int:
    """A game's length in minutes, from its creation to its last step."""
    return max(0, round((datetime.fromisoformat(updated)
                         - datetime.fromisoformat(created)).total_seconds() / 60))
