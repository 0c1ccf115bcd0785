"""Choices on a flow's panels: what a player may pick, and the flow's errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import _
from companion.rules.ledger import describe
from companion.rules.option_types import TableOptions
from companion.ui.kit.wording import word


class FlowError(ValueError):
    """An answer the flow does not offer (the message says why, in a player's words)."""


@dataclass(frozen=True)
class Choice:
    """One thing a player may pick on a panel: what it stands for, its label, and whether it
    can be taken now (or why not)."""

    value: Any
    label: str
    allowed: bool = True
    reason: str | None = None


def turn_player(found: TableOptions) -> str:
    """The player whose turn it is (a turn's flows and the table are built during play)."""
    player = found["turn"]["player"]
    if player is None:
        raise FlowError(_("the game is not in play"))
    return player


def amounts_text(amounts: Mapping[str, int] | None) -> str:
    return "?" if amounts is None else describe(amounts)


def count_text(counter: str, n: int | None) -> str:
    """'3 metal', or '? metal' for a value the catalogue lacks (asked on confirming)."""
    if n is None:
        return {"gems": _("? GEMs"), "points": _("? points")}.get(counter) or f"? {word(counter)}"
    return describe({counter: n})


def choose_among(choices: Sequence[Choice], value: Any) -> Choice:
    """The offered choice for `value`; FlowError if it is not offered or not allowed now."""
    for choice in choices:
        if choice.value == value:
            if not choice.allowed:
                raise FlowError(choice.reason or _("{choice} cannot be taken now").format(
                    choice=choice.label))
            return choice
    raise FlowError(_("{value} is not on offer").format(value=repr(value)))


def place_text(where: Any) -> str:
    return _("the Hub") if where == "hub" else _("Sector {number}").format(number=where)
