"""Sending a flow's command: accepted, refused (an override possible) or a value to give; and
the commands of the table's own buttons."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.i18n import _
from companion.rules.move import Missing, Refused
from companion.rules.words import COUNTERS, SUPPLY_COUNTERS
from companion.ui.play.flows.choices import FlowError


@dataclass(frozen=True)
class Outcome:
    """What the engine said to a command: a step, a refusal quoting the rule, or a question."""

    command: dict
    step: Any = None
    refused: str | None = None
    key: str | None = None
    question: str | None = None

    def override(self, reason: str) -> dict:
        """The refused command again, applied in spite of the rule (the reason is recorded)."""
        if not reason.strip():
            raise FlowError(_("an override needs a reason"))
        return {**self.command, "override": reason}

    def answer(self, value: Any) -> dict:
        """The command again with the value the engine asked for."""
        if self.key is None:
            raise FlowError(_("the engine asked for no value"))
        return {**self.command, "catalogue": {**self.command.get("catalogue", {}),
                                              self.key: value}}


def send(execute: Callable[[dict], Any], command: dict) -> Outcome:
    """Run `command` through `execute` (`Game.execute`, `StoredGame.execute`)."""
    try:
        return Outcome(command, step=execute(command))
    except Refused as refused:
        return Outcome(command, refused=refused.reason)
    except Missing as missing:
        return Outcome(command, key=missing.key, question=missing.question)


def end_turn() -> dict:
    return {"cmd": "end_turn"}


def undo() -> dict:
    return {"cmd": "undo"}


def adjust(who: str, counter: str, note: str, *, delta: int | None = None,
           value: int | None = None) -> dict:
    """A correction of any counter (a player's, or the supply's), with a note saying why."""
    counters = SUPPLY_COUNTERS if who == "supply" else COUNTERS
    if counter not in counters:
        raise FlowError(_("{who} counts {counters}").format(who=who,
                                                          counters=", ".join(counters)))
    if not note.strip():
        raise FlowError(_("a correction needs a note saying why"))
    if (delta is None) == (value is None):
        raise FlowError(_("give the change or the new value"))
    change = {"delta": delta} if value is None else {"value": value}
    return {"cmd": "adjust", "who": who, "counter": counter, **change, "note": note}
