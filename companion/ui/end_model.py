"""What the end screen shows (plain Python, tested without Kivy): the final score sheet as in the
rulebook's table (companion.rules.report.final_score), the totals, the winner and any
tie-breaker; and the condition that triggered the end, in the engine's words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion import i18n
from companion.i18n import _
from companion.rules.catalogue import Catalogue
from companion.rules.report import final_score
from companion.rules.scoring import category_name, sheet_as_json, tiebreak_text
from companion.rules.state import Event, State

TRIGGER_PREFIX = "The end of the game is triggered: "
# The engine's end_triggered event (rules/turns.py), in English: a game played in English keeps
# its events' English texts when it is shown in German.
TRIGGER = "The end of the game is triggered: {conditions}. Everyone else gets one more turn."


def conditions_of(text: str) -> str:
    """The conditions an end_triggered event's text names, in the language it was written in
    (the one spoken now, or English); else the text up to its first full stop."""
    spoken = i18n._(TRIGGER)  # the engine's text, marked (and translated) in rules/turns.py
    for template in (spoken, TRIGGER):
        before, _marker, after = template.partition("{conditions}")
        if text.startswith(before) and text.endswith(after) \
                and len(text) >= len(before) + len(after):
            return text[len(before):len(text) - len(after)]
    return text.removeprefix(TRIGGER_PREFIX).split(". ", 1)[0]


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
                return conditions_of(event["text"])
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
    winner = (_("{player} wins with {points} points").format(player=winners[0], points=best)
              if len(winners) == 1
              else _("{players} share the win with {points} points").format(
                  players=_(" and ").join(winners), points=best))
    return EndSheet(names, [colors[n] for n in names],
                    [(category_name(label), values) for label, values in sheet.rows()],
                    totals, winner, tiebreak_text(sheet) or "")
