"""What the end screen shows (plain Python, tested without Kivy): the final score sheet as in the
rulebook's table (companion.rules.report.final_score), the totals, the winner and any
tie-breaker; and the condition that triggered the end, in the engine's words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.catalogue import Catalogue
from companion.rules.report import final_score
from companion.rules.scoring import sheet_as_json
from companion.rules.state import Event, State

TRIGGER_PREFIX = "The end of the game is triggered: "


@dataclass(frozen=True)
class EndSheet:
    """The score sheet: one row per category (label, one value per player), the winner."""

    names: list[str]
    colors: list[str]
    rows: list[tuple[str, list[int]]]
    totals: list[int]
    winner: str  # "Bob wins with 62 points" / "Ann and Bob share the win with 50 points"
    tiebreak: str


def trigger_condition(steps: Sequence[Any]) -> str:
    """The condition that triggered the end ("Ann has 41 points (40 or more)"), from the
    engine's end_triggered event, looked for from the newest step back; "" when there is none
    (call it once the end is triggered: options()["end"]["triggered_by"])."""
    for step in reversed(steps):
        for event in step.events:
            if event["type"] == Event.END_TRIGGERED:
                return event["text"].removeprefix(TRIGGER_PREFIX).split(". ", 1)[0]
    return ""


def end_sheet(state: State, catalogue: Catalogue) -> EndSheet:
    """The finished game's sheet."""
    sheet = final_score(state, catalogue)
    scored = sheet_as_json(sheet)
    names = [p["name"] for p in scored["players"]]
    colors = {p["name"]: p["color"] for p in state["players"]}
    totals = [p["total"] for p in scored["players"]]
    winners = scored["winners"]
    best = max(totals)
    winner = (f"{winners[0]} wins with {best} points" if len(winners) == 1
              else f"{' and '.join(winners)} share the win with {best} points")
    return EndSheet(names, [colors[n] for n in names], sheet.rows(), totals, winner,
                    scored["tiebreak"] or "")
