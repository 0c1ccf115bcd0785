"""Income: the receipt, the optional income powers and the relocations, as one command."""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.i18n import _
from companion.rules import commands
from companion.rules.catalogue import Catalogue
from companion.rules.ledger import describe
from companion.rules.option_types import HumanThenIncomeOption, IncomeLine, Relocation, TableOptions
from companion.rules.options import options
from companion.rules.state import State
from companion.ui.kit.wording import ability_line, word
from companion.ui.play.flows.abilities import Abilities, BonusOffers, Judge, judge
from companion.ui.play.flows.choices import FlowError, place_text, turn_player


class IncomeFlow:
    """Income: eligibility and its reason, a receipt of every line, the optional income
    powers, relocations at 1 GEM each (or Hub A-8's Human first)."""

    def __init__(self, found: TableOptions, judge: Judge | None = None) -> None:
        self.player: str = turn_player(found)
        offer = found["income"]
        self.allowed: bool = offer["allowed"]
        self.reason: str | None = offer["reason"]
        self.lines: list[IncomeLine] = offer["lines"]
        self.abilities = Abilities(offer["powers"], None if judge is None
                                   else BonusOffers(judge, self.command))
        self.gems_per_move: int = offer["relocation_gems"]
        self.residents: list[Relocation] = offer["relocations"]
        self.moves: list[dict] = []
        self.human_offer: HumanThenIncomeOption | None = found["human_then_income"]
        self.human_first = False

    def receipt(self) -> list[str]:
        """One line per source of income, then the total."""
        total: Counter = Counter()
        found = []
        for line in self.lines:
            total.update(line["gains"])
            where = line["source"] + ("" if line["quarter"] is None
                                      else _(" quarter {quarter}").format(
                                          quarter=line["quarter"] + 1))
            per_ship = (_(": {gems} GEM x {ships} ships").format(gems=line["per_ship"],
                                                                 ships=line["ships"])
                        if line.get("per_ship") else "")
            found.append(f"{where}{per_ship} = {describe(line['gains'])}")
        return [*found, _("Total: {gains}").format(gains=describe(dict(total)))]

    def relocate(self, source: Any, slot: int, to: Any) -> None:
        """Move the resident in `source`'s quarter `slot` to `to` (1 GEM)."""
        if self.human_first:
            raise FlowError(_("Hub A-8's Human then income moves no resident"))
        for resident in self.residents:
            if (resident["from"], resident["slot"]) == (source, slot):
                if to not in resident["to"]:
                    raise FlowError(_("the {species} can go to {places}").format(
                        species=word(resident["species"]),
                        places=", ".join(map(place_text, resident["to"]))))
                self.moves.append({"from": source, "slot": slot, "to": to})
                return
        raise FlowError(_("no resident in {source} quarter {quarter}").format(
            source=place_text(source), quarter=slot + 1))

    def gain_human_first(self) -> None:
        """Hub A-8: gain a Human, then take income."""
        if not self.human_offer:
            raise FlowError(_("{player}'s Hub cannot gain a Human before income").format(
                player=self.player))
        if not self.human_offer["allowed"]:
            raise FlowError(self.human_offer["reason"])
        self.human_first, self.moves = True, []

    def command(self) -> commands.Income | commands.HumanThenIncome:
        if self.human_first:
            return commands.human_then_income(self.player, **self.abilities.fields())
        return commands.income(self.player, relocate=list(self.moves) or None,
                               **self.abilities.fields())

    def preview(self) -> list[str]:
        human = self.human_offer if self.human_first else None  # gain_human_first: an offer
        lines = [ability_line(human["source"], human["text"])] if human is not None else []
        lines += self.receipt() + self.abilities.lines()
        lines += [_("moves the resident of {source} quarter {quarter} to {to}: {gems} GEM").format(
                  source=m["from"], quarter=m["slot"] + 1, to=m["to"], gems=self.gems_per_move)
                  for m in self.moves]
        return lines


def income_flow(state: State, catalogue: Catalogue) -> IncomeFlow:
    return IncomeFlow(options(state, catalogue), judge(state, catalogue))
