"""Counters: what a player gains and pays (GEMs, points, food, water, metal).

The supply of GEMs and resources is unlimited ("The supply of resource cubes (food, water, and
metal) and GEMs is unlimited"), so only the player's side is counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.i18n import N_
from companion.rules.message import Joined, Message, message, say
from companion.rules.move import Move
from companion.rules.state import Event, State, count
from companion.rules.words import amount_message, joined_message


def describe(amounts: Mapping[str, int]) -> str:
    """'3 GEMs and 1 metal' - amounts in a player's words."""
    return say(describe_message(amounts))


def describe_message(amounts: Mapping[str, int]) -> Message | Joined | Any:
    """`describe` as a message."""
    parts = [amount_message(k, n) for k, n in amounts.items() if n]
    if not parts:
        return message(N_("nothing"))
    return joined_message(parts)


def gain(move: Move, player: int, amounts: Mapping[str, int], why: Message) -> None:
    """The player takes `amounts` from the supply."""
    ops = [["add", ["players", player, k], n] for k, n in amounts.items() if n]
    if ops:
        move.emit(Event.GAIN, message(N_("{player} gains {amounts}: {why}"),
                                      player=move.name(player),
                                      amounts=describe_message(amounts), why=why), *ops)


def pay(move: Move, player: int, amounts: Mapping[str, int], why: Message) -> None:
    """The player returns `amounts` to the supply; refused if they do not have them."""
    amounts = {k: n for k, n in amounts.items() if n}
    if not amounts:
        return
    short = shortfall(move.state, player, amounts, why)
    if short:
        move.check(False, short)
    ops = [["add", ["players", player, k], -n] for k, n in amounts.items()]
    move.emit(Event.PAY, message(N_("{player} pays {amounts}: {why}"), player=move.name(player),
                                 amounts=describe_message(amounts), why=why), *ops)


def shortfall(state: State, player: int, amounts: Mapping[str, int],
              why: Message) -> Message | None:
    """Why the player cannot pay `amounts` (what they cost and what the player has), or None."""
    have = state["players"][player]
    short = {k: count(have, k) for k, n in amounts.items() if count(have, k) < n}
    if not short:
        return None
    return message(N_("{why} costs {amounts}; {player} has {has}"),
                   why=why, amounts=describe_message(amounts), player=have["name"],
                   has=describe_message(short) if any(short.values()) else message(N_("none")))


def give(move: Move, payer: int, receiver: int, gems: int, why: Message) -> None:
    """One player pays another GEMs (the owner's fee)."""
    if not gems:
        return
    have = move.state["players"][payer]["gems"]
    move.check(have >= gems, message(N_("{why}: {player} has {have} GEMs, needs {gems}"),
                                     why=why, player=move.name(payer), have=have, gems=gems))
    move.emit(Event.FEE, message(N_("{payer} pays {receiver} {gems} GEMs: {why}"),
                                 payer=move.name(payer), receiver=move.name(receiver),
                                 gems=gems, why=why),
              ["add", ["players", payer, "gems"], -gems],
              ["add", ["players", receiver, "gems"], gems])
