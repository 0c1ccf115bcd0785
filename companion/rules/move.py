"""A move being decided: the command, the events it has produced so far, and the rule checks.

Events are applied to the state as they are emitted, so each later check sees the effect of the
earlier ones (a Transport that trades for water, then pays that water for an Alien). If the move is
refused, everything it applied is rolled back exactly. A command marked `"override": "reason"` turns
rule refusals into recorded notes: the physical table is the truth.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from companion.i18n import N_, _
from companion.rules.catalogue import Catalogue, CatalogueError, check_entry, printed_field
from companion.rules.message import Message, message, say
from companion.rules.names import normal_name
from companion.rules.state import Event, EventRecord, State, apply_ops
from companion.rules.words import component_message, field_message, value_message


class Refused(Exception):
    """A command the rules do not allow; the reason names the rule in a player's words (a
    message is worded at once, in the language spoken now)."""

    def __init__(self, reason: str | Message) -> None:
        self.reason = say(reason)
        super().__init__(self.reason)


class Missing(Exception):
    """A value the catalogue does not know and the command did not give: ask the player.

    `key` is "kind/record/field" (e.g. "ships/L1-transport/cost"); resubmit the command with
    `"catalogue": {key: value}`.
    """

    def __init__(self, key: str, question: str) -> None:
        self.key = key
        self.question = question
        super().__init__(_("{question} (give it as catalogue {key})").format(
            question=question, key=repr(key)))


def printed_refusal(key: str, value: Any, catalogue: Catalogue) -> str | None:
    """Why a game line or record cannot give `value` for catalogue `key` (None: it can): the
    rulebook prints another value there. A printed value is the same on every copy; a game
    cannot change it for itself or, through the overlay, for every later game."""
    printed = printed_field(key, catalogue.shipped)
    if printed is None or (_agrees(value, printed.value) if printed.value is not None
                           else value is None):  # a printed null: "does not apply"
        return None
    return _('"catalogue" key "{key}": the rulebook prints this value ({printed}: "{quote}"), '
             'so a game cannot change it to {value}; take {key} out of the line (if your copy '
             'really differs, correct it on the Catalogue screen or with phoenix-companion '
             'catalogue --set)').format(key=key, printed=json.dumps(printed.value),
                                        quote=printed.note, value=json.dumps(value))


def overlay_refusal(values: Mapping[str, Any], catalogue: Catalogue) -> str | None:
    """`printed_refusal` for the first of a game's own catalogue values ({kind: {record:
    {field: value}}}, as a game record carries them) that the rulebook prints otherwise."""
    for kind, records in values.items():
        for record, fields in records.items():
            for field, value in fields.items():
                refusal = printed_refusal(f"{kind}/{record}/{field}", value, catalogue)
                if refusal:
                    return refusal
    return None


def _agrees(given: Any, printed: Any) -> bool:
    """Whether `given` says what `printed` says, filling in only what it leaves open (a null
    inside it: Sector 121's income icons are printed without their living quarters)."""
    if isinstance(printed, Mapping):
        return (isinstance(given, Mapping) and given.keys() == printed.keys()
                and all(_agrees(given[k], printed[k]) for k in printed))
    if isinstance(printed, list):
        return (isinstance(given, list) and len(given) == len(printed)
                and all(_agrees(g, p) for g, p in zip(given, printed, strict=True)))
    if printed is None:
        return True
    return type(given) is type(printed) and given == printed


class Move:
    """Decides one command against the live state, emitting events as it goes."""

    def __init__(self, state: State, catalogue: Catalogue, command: Mapping[str, Any]) -> None:
        self.state = state
        self.catalogue = catalogue
        self.command = command
        self.override = command.get("override")
        self.overridden: list[Message] = []  # the rules an override broke
        self.events: list[EventRecord] = []
        self.cursors: dict[str, int] = {}  # choices given as lists, consumed in order
        self._inverse: list[list] = []

    # -- emitting ---------------------------------------------------------------------------

    def emit(self, kind: Event, words: Message, *ops: Sequence[Any]) -> None:
        """Record an event (its words as a message: worded when shown) and apply its ops to the
        state at once."""
        event: EventRecord = {"type": str(kind), "message": words,
                              "ops": [list(op) for op in ops]}
        self._inverse.append(apply_ops(self.state, event["ops"]))
        self.events.append(event)

    def undo_ops(self) -> list[list]:
        """The ops that take the state back to before this move, in order."""
        return [op for inverse in reversed(self._inverse) for op in inverse]

    def rollback(self) -> None:
        """Undo everything this move applied."""
        while self._inverse:
            apply_ops(self.state, self._inverse.pop())
        self.events.clear()

    # -- checking ---------------------------------------------------------------------------

    def check(self, ok: bool, reason: Message) -> None:
        """A rule check: refuse with `reason` unless the command overrides it (then the reason
        is kept, as a message, in the override's note)."""
        if ok:
            return
        if not self.override:
            raise Refused(reason)
        self.overridden.append(reason)

    def fail(self, reason: str | Message) -> NoReturn:
        """A command that cannot be carried out at all (malformed, unknown name)."""
        raise Refused(reason)

    # -- catalogue values -------------------------------------------------------------------

    def learn(self) -> None:
        """Learn the values the command gives as `"catalogue": {"kind/record/field": value}`.

        Each is checked against the catalogue's fields and kept for the rest of the game (a
        `learned` event, which the shell also stores in the user's overlay), asked for or not.
        """
        given = self.command.get("catalogue")
        if given is None:
            return
        if not isinstance(given, Mapping):
            self.fail(_('"catalogue" takes an object of "kind/record/field": value '
                        '(e.g. {"sectors/214/cost": 8})'))
        learned = self.state["learned"]
        for key, value in given.items():
            try:
                key = check_entry(key, value, self.catalogue.shipped)
            except CatalogueError as error:
                self.fail(str(error))
            refusal = printed_refusal(key, value, self.catalogue)
            if refusal:
                self.fail(refusal)
            if key not in learned or learned[key] != value:
                kind, record, field = key.split("/", 2)
                self.emit(Event.LEARNED, message(N_("Learned from the components: {component}, "
                                                    "{field}: {value}"),
                                                 component=component_message(kind, record),
                                                 field=field_message(kind, field),
                                                 value=value_message(value)),
                          ["set", ["learned", key], value])

    def value(self, kind: str, record: str | int, field: str, question: str) -> Any:
        """A catalogue value: learned in this game (given on this line or an earlier one), or
        shipped; an unknown one raises Missing with `question`."""
        key = f"{kind}/{record}/{field}"
        learned = self.state["learned"]
        if key in learned:
            return learned[key]
        known = self.catalogue.field(kind, record, field)
        if known.known:
            return known.value
        raise Missing(key, question)

    # -- players ----------------------------------------------------------------------------

    def player(self, name: Any = None, *, key: str = "player") -> int:
        """The index of the player the command names (default: its `player` field)."""
        name = self.command.get(key) if name is None else name
        typed = normal_name(name) if isinstance(name, str) else name  # as new_game keeps names
        for index, player in enumerate(self.state["players"]):
            if player["name"] in (name, typed):
                return index
        names = ", ".join(p["name"] for p in self.state["players"])
        self.fail(_("no player called {name} (players: {names})").format(name=repr(name),
                                                                         names=names))

    def name(self, index: int) -> str:
        return self.state["players"][index]["name"]
