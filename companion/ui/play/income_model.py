"""What the income screen shows (plain Python, tested without Kivy): the receipt, the optional
powers as cards, the relocations on offer, and a preview made by the engine itself (the command
run on a copy of the game), so the residents' left shift is what the engine will do."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from companion.i18n import _, ability_text
from companion.rules import commands
from companion.rules.catalogue import Catalogue
from companion.rules.commands import attempt
from companion.rules.game import Game
from companion.rules.message import event_text
from companion.rules.state import Player, State
from companion.rules.words import color_name
from companion.ui.kit.values_model import value_word
from companion.ui.kit.wording import ALIEN_LETTERS
from companion.ui.play.flows.choices import Choice
from companion.ui.play.flows.income import IncomeFlow


@dataclass(frozen=True)
class PowerCard:
    """An income power: its text, whether it may be left, and what it asks: a choice or a
    one-tap bonus action (a track, A-11's move, A-12's return) as buttons on the card, or a
    bonus action of several steps (transactions, dice) entered in a pop-up."""

    source: str
    text: str
    optional: bool
    choices: list[Choice]  # the card's buttons; [] if none
    kind: str  # "choice", "pick" (one tap), "entry" (the pop-up) or ""


@dataclass(frozen=True)
class Relocation:
    """One move on offer: a resident and a quarter it may go to."""

    source: Any
    slot: int
    to: Any
    label: str


def place_name(where: Any) -> str:
    """'Sector 121' or 'the Hub'."""
    return _("the Hub") if where == "hub" else _("Sector {number}").format(number=where)


def power_cards(flow: IncomeFlow) -> list[PowerCard]:
    """The income powers that fire, as cards (the fixed ones too, so the receipt is whole)."""
    cards = []
    for source, need in flow.abilities.needs.items():
        entry = flow.abilities.entry(source)
        if entry is not None:  # a bonus action: its entry says which card (Entry.CARD)
            cards.append(PowerCard(source, ability_text(need["text"]), need["optional"],
                                   entry.card_choices(), entry.CARD))
        elif len(need.get("choice", [])) > 1:
            cards.append(PowerCard(source, ability_text(need["text"]), need["optional"],
                                   [Choice(c, value_word(str(c))) for c in need["choice"]],
                                   "choice"))
        else:
            cards.append(PowerCard(source, ability_text(need["text"]), need["optional"], [], ""))
    return cards


def relocations(flow: IncomeFlow) -> list[Relocation]:
    """Every resident and each place it may be moved to, at the flow's price per move."""
    found = []
    for resident in flow.residents:
        letter = ALIEN_LETTERS.get(resident["species"], "H")
        for to in resident["to"]:
            found.append(Relocation(
                resident["from"], resident["slot"], to,
                _("{species} ({letter}) in {place} quarter {quarter} -> {to}: {gems} GEM").format(
                    species=color_name(resident["species"]), letter=letter,
                    place=place_name(resident["from"]), quarter=resident["slot"] + 1,
                    to=place_name(to), gems=flow.gems_per_move)))
    return found


def residents_text(player: Player, where: Any) -> str:
    """A place's residents by letter, left to right ("P P -"; "-" an empty quarter)."""
    if where == "hub":
        slots = [r for r in player["hub_slots"]]
    else:
        sector = next(s for s in player["sectors"] if s["number"] == where)
        slots = sector["residents"] + [None] * (sector["quarters"] - len(sector["residents"]))
    return " ".join("-" if r is None else ALIEN_LETTERS.get(r, "H") for r in slots) or "-"


def dry_run(state: State, catalogue: Catalogue,
            command: commands.Income | commands.HumanThenIncome) -> list[str]:
    """What the command would do, in the engine's words, on a scratch copy of the game (a
    preview: nothing is stored, so it is no door for commands); then for each place a resident
    leaves, its residents before -> after (the left shift)."""
    game = Game(catalogue, copy.deepcopy(state))
    outcome = attempt(game, command)
    if outcome.refused is not None:
        return [_("Refused: {reason}").format(reason=outcome.refused)]
    if outcome.missing:
        return [_("Asked on confirming: {question}").format(question=outcome.question)]
    lines = [event_text(event) for event in outcome.step.events]
    name = command.get("player")
    before = next(p for p in state["players"] if p["name"] == name)
    after = next(p for p in game.state["players"] if p["name"] == name)
    relocated: list[dict[str, Any]] = []  # A-8's Human then income relocates none
    if "relocate" in command:
        relocated = command["relocate"]
    for place in dict.fromkeys(move["from"] for move in relocated):
        lines.append(f"{place_name(place)}: {residents_text(before, place)} -> "
                     f"{residents_text(after, place)}")
    return lines
