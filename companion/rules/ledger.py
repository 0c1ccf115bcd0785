"""Counters: what a player gains and pays (GEMs, points, food, water, metal).

The supply of GEMs and resources is unlimited ("The supply of resource cubes (food, water, and
metal) and GEMs is unlimited"), so only the player's side is counted.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.i18n import _
from companion.rules.move import Move
from companion.rules.state import Event, State, count
from companion.rules.words import amount, joined


def describe(amounts: Mapping[str, int]) -> str:
    """'3 GEMs and 1 metal' - amounts in a player's words."""
    parts = [amount(k, n) for k, n in amounts.items() if n]
    if not parts:
        return _("nothing")
    return joined(parts)


def gain(move: Move, player: int, amounts: Mapping[str, int], why: str) -> None:
    """The player takes `amounts` from the supply."""
    ops = [["add", ["players", player, k], n] for k, n in amounts.items() if n]
    if ops:
        move.emit(Event.GAIN, _("{player} gains {amounts}: {why}").format(
            player=move.name(player), amounts=describe(amounts), why=why), *ops)


def pay(move: Move, player: int, amounts: Mapping[str, int], why: str) -> None:
    """The player returns `amounts` to the supply; refused if they do not have them."""
    amounts = {k: n for k, n in amounts.items() if n}
    if not amounts:
        return
    short = shortfall(move.state, player, amounts, why)
    if short:
        move.check(False, short)
    ops = [["add", ["players", player, k], -n] for k, n in amounts.items()]
    move.emit(Event.PAY, _("{player} pays {amounts}: {why}").format(
        player=move.name(player), amounts=describe(amounts), why=why), *ops)


def shortfall(state: State, player: int, amounts: Mapping[str, int], why: str) -> str | None:
    """Why the player cannot pay `amounts` (what they cost and what the player has), or None."""
    have = state["players"][player]
    short = {k: count(have, k) for k, n in amounts.items() if count(have, k) < n}
    if not short:
        return None
    return _("{why} costs {amounts}; {player} has {has}").format(
        why=why, amounts=describe(amounts), player=have["name"],
        has=describe(short) if any(short.values()) else _("none"))


def give(move: Move, payer: int, receiver: int, gems: int, why: str) -> None:
    """One player pays another GEMs (the owner's fee)."""
    if not gems:
        return
    have = move.state["players"][payer]["gems"]
    move.check(have >= gems, _("{why}: {player} has {have} GEMs, needs {gems}").format(
        why=why, player=move.name(payer), have=have, gems=gems))
    move.emit(Event.FEE, _("{payer} pays {receiver} {gems} GEMs: {why}").format(
        payer=move.name(payer), receiver=move.name(receiver), gems=gems, why=why),
              ["add", ["players", payer, "gems"], -gems],
              ["add", ["players", receiver, "gems"], gems])
