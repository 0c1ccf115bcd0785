"""What the end screen shows (plain Python, tested without Kivy): the final score sheet as in the
rulebook's table (companion.rules.report.final_score), the totals, the winner and any
tie-breaker; and the condition that triggered the end, in the engine's words."""

from __future__ import annotations

from dataclasses import dataclass

from companion.i18n import _
from companion.rules.catalogue import Catalogue
from companion.rules.report import final_score
from companion.rules.scoring import category_name, sheet_as_json, tiebreak_text
from companion.rules.state import State


@dataclass(frozen=True)
class EndSheet:
    """The score sheet: one row per category (label, one value per player), the winner."""

    names: list[str]
    colors: list[str]
    rows: list[tuple[str, list[int]]]
    totals: list[int]
    winner: str  # "Bob wins with 62 points" / "Ann and Bob share the win with 50 points"
    tiebreak: str


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
