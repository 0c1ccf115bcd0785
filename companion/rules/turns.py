"""Whose turn it is, ending a turn, extra turns, and the end of the game.

"At the end of the player's turn, they must check to see if at least one of these conditions is
true" (40 points, all nine Sectors, 4 or fewer Aliens in the supply); "If the player has triggered
the end of the game, then everyone else gets one more turn (but that player does not)."
"""

from __future__ import annotations

from companion.i18n import N_, _
from companion.rules.message import Message, join, message
from companion.rules.move import Move
from companion.rules.state import Event, State, active_player, in_supply
from companion.rules.words import ALIEN_COLORS


def start_turn(move: Move, player: int, *, extra: bool = False) -> None:
    """Begin `player`'s turn (a new turn number: residents placed earlier now count)."""
    text = N_("{player} takes an additional turn") if extra else N_("{player} takes the turn")
    move.emit(Event.TURN_STARTED, message(text, player=move.name(player)),
              ["set", ["turn", "active"], player],
              ["add", ["turn", "number"], 1],
              ["set", ["turn", "acted"], False],
              ["set", ["turn", "action"], None],
              ["set", ["turn", "used"], []])


def require_main_action(move: Move, player: int) -> None:
    """The active player, in play, who has not yet taken this turn's action."""
    state = move.state
    if state["phase"] != "play":
        move.fail(_("the game is not in play") if state["phase"] != "over"
                  else _("the game is over"))
    active = active_player(state)
    move.check(player == active, message(N_("it is {active}'s turn, not {player}'s"),
                                         active=move.name(active), player=move.name(player)))
    move.check(not state["turn"]["acted"],
               message(N_("{player} has already taken an action this turn: end the turn first"),
                       player=move.name(player)))


def end_conditions(state: State, player: int, catalogue_conditions: dict) -> list[Message]:
    """Which end-of-game conditions the active player meets, as messages."""
    me = state["players"][player]
    met = []
    if me["points"] >= catalogue_conditions["points"]:
        met.append(message(N_("{player} has {points} points (40 or more)"),
                           player=me["name"], points=me["points"]))
    if len(me["sectors"]) >= catalogue_conditions["sectors"]:
        met.append(message(N_("{player} has built all nine Sectors"), player=me["name"]))
    aliens = sum(in_supply(state, c) for c in ALIEN_COLORS)
    if aliens <= catalogue_conditions["aliens_in_supply_at_most"]:
        met.append(message(N_("only {aliens} Aliens are left in the supply (4 or fewer)"),
                           aliens=aliens))
    return met


def end_turn(move: Move) -> None:
    """`end_turn`: the active player's turn is over (a button press or a tap). The end of the
    game is checked at the end of every turn, an additional turn's too."""
    state = move.state
    if state["phase"] != "play":
        move.fail(_("the game is not in play"))
    turn = state["turn"]
    active = active_player(state)
    move.check(turn["acted"], message(N_("{player} has not taken an action or income yet"),
                                      player=move.name(active)))
    waiting = sorted({move.name(p["player"]) for p in state["pending"]})
    move.check(not waiting, message(N_("waiting for {players} to choose a Diplomacy bonus"),
                                    players=", ".join(waiting)))
    if state["pending"]:
        move.emit(Event.PENDING_DROPPED,
                  message(N_("Unchosen Diplomacy bonuses are dropped (override)")),
                  ["set", ["pending"], []])
    end = state["end"]
    if end["triggered_by"] is None:
        conditions = {
            name: move.catalogue.field("setup", "end_conditions", name).value
            for name in ("points", "sectors", "aliens_in_supply_at_most")
        }
        met = end_conditions(state, active, conditions)
        if met:
            count = len(state["players"])
            others = [(active + i) % count for i in range(1, count)]
            move.emit(Event.END_TRIGGERED, message(N_("The end of the game is triggered: "
                                                      "{conditions}. Everyone else gets one "
                                                      "more turn."), conditions=join("; ", met)),
                      ["set", ["end", "triggered_by"], active],
                      ["set", ["end", "final_turns"], others])
    if turn["extra_turns"] > 0:  # "an additional turn before the next player's turn"
        move.emit(Event.EXTRA_TURN_TAKEN, message(N_("{player} takes an additional turn"),
                                                  player=move.name(active)),
                  ["add", ["turn", "extra_turns"], -1])
        start_turn(move, active, extra=True)
        return
    if end["triggered_by"] is not None:
        if not end["final_turns"]:
            move.emit(Event.GAME_OVER, message(N_("The game is over: final scoring")),
                      ["set", ["phase"], "over"], ["set", ["turn", "active"], None])
            return
        nxt = end["final_turns"][0]
        move.emit(Event.FINAL_TURN, message(N_("{player} takes their last turn"),
                                            player=move.name(nxt)),
                  ["remove_at", ["end", "final_turns"], 0])
        start_turn(move, nxt)
        return
    start_turn(move, (active + 1) % len(state["players"]))
