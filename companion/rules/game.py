"""A game: the log of steps (one confirmed command each, with its events), undo and redo.

    game = Game(load_catalogue())
    game.execute({"cmd": "new_game", "players": [...], "aliens": {...}})
    game.undo(); game.redo()

Every command is validated against the current state and becomes events, or is refused with a
reason (`Refused`) or a question for a value the catalogue lacks (`Missing`). A command with
`"override": "why"` is applied in spite of the rules it breaks (recorded); `adjust` corrects any
counter with a note. The physical table is the truth.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.i18n import N_, _
from companion.rules import (
    abilities,
    actions,
    commands,
    diplomacy,
    income,
    setup,
    turns,
)
from companion.rules.catalogue import Catalogue
from companion.rules.message import join, message
from companion.rules.move import Missing, Move, Refused
from companion.rules.state import (
    Event,
    EventRecord,
    State,
    apply_ops,
    count,
    in_supply,
    learned_entry,
    new_state,
)
from companion.rules.words import COUNTERS, SUPPLY_COUNTERS, color_message

__all__ = ["Game", "Missing", "Refused", "Step"]


@dataclass
class Step:
    """One confirmed command and the events it produced."""

    command: dict
    events: list[EventRecord]
    inverse: list[list] = field(default_factory=list, repr=False)

    @property
    def learned(self) -> dict[str, Any]:
        """Catalogue values this step taught (for the user's overlay)."""
        return dict(learned_entry(e) for e in self.events if e["type"] == Event.LEARNED)


def adjust(move: Move) -> None:
    """`adjust`: {"who": player name or "supply", "counter", "delta" or "value", "note"}."""
    note = move.command.get("note")
    if not isinstance(note, str) or not note.strip():
        move.fail(_("an adjustment needs a note saying why"))
    who, counter = move.command.get("who"), move.command.get("counter")
    if who == "supply":
        if counter not in SUPPLY_COUNTERS:
            move.fail(_("the supply counts {counters}, not {counter}").format(
                counters=", ".join(SUPPLY_COUNTERS), counter=repr(counter)))
        path: list = ["supply", counter]
        current = in_supply(move.state, counter)
    else:
        player = move.player(who, key="who")
        if counter not in COUNTERS:
            move.fail(_("a player's counters are {counters}, not {counter}").format(
                counters=", ".join(COUNTERS), counter=repr(counter)))
        path = ["players", player, counter]
        current = count(move.state["players"][player], counter)
    delta = move.command.get("delta")
    if "value" in move.command:
        delta = move.command["value"] - current
    if isinstance(delta, bool) or not isinstance(delta, int):
        move.fail(_("give a whole-number \"delta\" or \"value\""))
    words = {"counter": color_message(counter), "delta": f"{delta:+d}", "note": note}
    move.emit(Event.ADJUSTED,
              message(N_("Adjusted the supply's {counter} by {delta}: {note}"), **words)
              if who == "supply" else
              message(N_("Adjusted {who}'s {counter} by {delta}: {note}"), who=who, **words),
              ["add", path, delta])


HANDLERS: dict[str, Callable[[Move], None]] = {
    "new_game": setup.new_game,
    "sector_display": setup.sector_display,
    "first_game_sets": setup.first_game_sets,
    "deal_hubs": setup.deal_hubs,
    "reveal_ships": setup.reveal_ships,
    "draft_ship": setup.draft_ship,
    "choose_hub": setup.choose_hub,
    "starting_bonus": setup.starting_bonus,
    "use_ship": actions.use_ship,
    "income": income.income,
    "human_then_income": income.human_then_income,
    "diplomacy_bonus": diplomacy.choose_bonus,
    "end_turn": turns.end_turn,
    "hub_power": abilities.hub_power,
    "adjust": adjust,
}


def remembered(state: State, learned: Mapping[str, Any]) -> dict[str, Any]:
    """The values a game learned that belong in the user's overlay for later games: none from
    an example game (`new_game` with `"example": true`), whose values are not the real ones."""
    return {} if state["options"].get("example") else dict(learned)


class Game:
    """The state of one game and the steps that made it."""

    def __init__(self, catalogue: Catalogue, state: State | None = None) -> None:
        self.catalogue = catalogue
        self.state = new_state() if state is None else state
        self.steps: list[Step] = []
        self.undone: list[Step] = []
        self._cleared: list[Step] = []  # the undone steps the last new step cleared

    @classmethod
    def restore(cls, catalogue: Catalogue, state: State, steps: list[Step],
                undone: list[Step]) -> Game:
        """A game as stored: its current state, its steps (with their inverse ops) and the
        undone steps that can be redone (last undone last)."""
        game = cls(catalogue, state)
        game.steps = list(steps)
        game.undone = list(undone)
        return game

    def execute(self, command: Mapping[str, Any]) -> Step:
        """Decide and apply one command; raise Refused or Missing (the state unchanged).

        `undo` and `redo` commands step back and forth through the log.
        """
        return self.perform(command)[1]

    def perform(self, command: Mapping[str, Any]) -> tuple[str, Step]:
        """`execute`, also saying what the log did: "new" (a step added), "undo" or "redo"."""
        malformed = commands.problem(command)
        if malformed:
            raise Refused(malformed)
        name = command["cmd"]
        if name == "undo":
            return name, self.undo()
        if name == "redo":
            return name, self.redo()
        handler = HANDLERS[name]
        copied = copy.deepcopy(dict(command))  # the step's own (the caller's stays as it is)
        move = Move(self.state, self.catalogue, copied)
        try:
            move.learn()  # values given on the line, before the rules that may ask for them
            handler(move)
            if move.overridden:
                move.emit(Event.OVERRIDDEN, message(N_("Applied in spite of: {rules} (override: "
                                                       "{reason})"),
                                                    rules=join("; ", move.overridden),
                                                    reason=move.override),
                          ["append", ["notes"], {"override": move.override,
                                                  "rules": move.overridden}])
        except BaseException:
            move.rollback()
            raise
        step = Step(copied, move.events, move.undo_ops())
        self.steps.append(step)
        self._cleared, self.undone = self.undone, []
        return "new", step

    def take_back(self, change: str) -> None:
        """Reverse what `perform` just did (its `change`): discard a new step, redo an undone
        one, undo a redone one."""
        {"new": self.discard_last, "undo": self.redo, "redo": self.undo}[change]()

    def discard_last(self) -> Step:
        """Take back the step just added, not keeping it for redo: what could be redone before
        it can be again."""
        step = self.steps.pop()
        apply_ops(self.state, step.inverse)
        self.undone, self._cleared = self._cleared, []
        return step

    def undo(self) -> Step:
        """Take back the last step (Refused when there is nothing to undo)."""
        if not self.steps:
            raise Refused(_("nothing to undo"))
        step = self.steps.pop()
        apply_ops(self.state, step.inverse)
        self.undone.append(step)
        return step

    def redo(self) -> Step:
        """Apply again the last undone step (Refused when there is none)."""
        if not self.undone:
            raise Refused(_("nothing to redo"))
        step = self.undone.pop()
        step.inverse = apply_ops(self.state, [op for e in step.events for op in e["ops"]])
        self.steps.append(step)
        return step

    @property
    def events(self) -> list[EventRecord]:
        return [e for step in self.steps for e in step.events]
