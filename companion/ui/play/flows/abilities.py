"""The station's abilities a command fires: the engine's offer for each bonus action where it
fires, the choices and values the player gives for them."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from companion.i18n import _
from companion.rules.catalogue import Catalogue
from companion.rules.commands import CommandDict
from companion.rules.ledger import describe
from companion.rules.option_types import AbilityNeed, Asked, BonusOffer, Place
from companion.rules.options import bonus_offer
from companion.rules.state import State
from companion.ui.kit.wording import ability_line, source_name, word, words
from companion.ui.play.flows.choices import Entry, FlowError, place_text
from companion.ui.play.flows.parts import bonus_entry

# The engine's offer for a bonus action (source, kind), as the command now stands; None when
# the engine will not ask for it (BonusOffers).
OfferNow = Callable[[str, str], BonusOffer | None]


# options.bonus_offer with the game: (source, kind, command so far) -> the offer.
Judge = Callable[[str, str, CommandDict], BonusOffer | None]


class BonusOffers:
    """The engine's offer for each bonus action, judged where it fires: the flow's command as
    answered so far, run up to that bonus action (`options.bonus_offer` with the command), so
    Sector 321's dice see Sector 321 built and a transaction the resources just gained. Asked
    again only when the command changes (the bonus action's own details aside)."""

    def __init__(self, judge: Judge, command: Callable[[], CommandDict]) -> None:
        self.judge, self.command = judge, command
        self.known: dict[str, tuple[str, BonusOffer | None]] = {}

    def __call__(self, source: str, kind: str) -> BonusOffer | None:
        command = self.command()
        command["bonus"] = {k: v for k, v in command.get("bonus", {}).items() if k != source}
        key = json.dumps(command, sort_keys=True, default=str)
        if self.known.get(source, ("",))[0] != key:
            self.known[source] = (key, self.judge(source, kind, command))
        return self.known[source][1]


def judge(state: State, catalogue: Catalogue) -> Judge:
    """`options.bonus_offer` on this game."""
    return lambda source, kind, command: bonus_offer(state, catalogue, source, kind, command)


def question_word(what: str) -> str:
    """What an ability still asks (Abilities.questions: "choice", "where", "pay", "bonus") in
    the language spoken now."""
    return {"choice": _("choice"), "where": _("where"), "pay": _("pay"),
            "bonus": _("bonus")}.get(what, what)


class Abilities:
    """The abilities a command fires (`options`' needs) and the player's answers: whether to
    use an optional one, its choice, where a resident goes, the resource paid, a bonus action's
    details (entered on its entry, built from the engine's offer where it fires: `entry`)."""

    def __init__(self, needs: Sequence[AbilityNeed], offers: OfferNow | None = None) -> None:
        self.needs = {need["source"]: need for need in needs}
        self.used: set[str] = set()
        self.choices: dict[str, list[Any]] = {}
        self.where: dict[str, Any] = {}
        self.bonus: dict[str, Any] = {}
        self.offers = offers
        self.entries: dict[str, Entry] = {}
        self.built_from: dict[str, BonusOffer] = {}  # the offer each entry was built from
        self.values: dict[str, Any] = {}  # catalogue values given before a bonus action

    def entry(self, source: str) -> Entry | None:
        """The entry for `source`'s bonus action, built from the engine's offer as the answers
        now stand (kept while that offer stands, and once given); None when the engine will not
        ask for it (A-11 after five incomes)."""
        need = self._need(source)
        if not need.get("bonus"):
            return None
        if source in self.bonus and source in self.entries:
            return self.entries[source]
        offer = self.offers(source, need["kind"]) if self.offers is not None else None
        if offer is None:
            self.entries.pop(source, None)
            return None
        if self.built_from.get(source) is not offer:
            self.entries[source], self.built_from[source] = bonus_entry(need, offer), offer
        return self.entries[source]

    def asks(self, source: str) -> Asked | None:
        """A value the catalogue lacks that the engine needs before it gets to `source`'s
        bonus action (Sector 321's cost before its dice): {"key", "question"}, to give first
        (`values`) so the bonus action is offered where it fires; else None."""
        if source in self.bonus or self.entry(source) is None:
            return None
        return self.built_from[source].get("asks")

    def enter_again(self, source: str) -> None:
        """`source`'s bonus action to be entered afresh (its details dropped)."""
        self.bonus.pop(source, None)
        self.entries.pop(source, None)
        self.built_from.pop(source, None)

    def use(self, source: str, taken: bool = True) -> None:
        """Take (or leave) an optional ability."""
        if not self._need(source)["optional"]:
            raise FlowError(_("{source} is not optional: it fires by itself").format(source=source))
        (self.used.add if taken else self.used.discard)(source)

    def choose(self, source: str, value: Any) -> None:
        """The ability's choice (again for the next time when it is asked several times)."""
        need = self._need(source)
        if value not in need.get("choice", []):
            raise FlowError(_("{source}: {value} is not one of {choices}").format(
                source=source, value=word(value), choices=words(need.get("choice", []))))
        picked = self.choices.setdefault(source, [])
        if len(picked) >= need.get("times", 1):
            picked.clear()
        picked.append(value)

    def place(self, source: str, where: Any) -> None:
        """Where the resident the ability gains goes."""
        places = self.places(source)
        if where not in places:
            raise FlowError(_("{source}: the free quarters are in {places}").format(
                source=source, places=", ".join(map(place_text, places))))
        self.where[source] = where

    def give_bonus(self, source: str, detail: Any) -> None:
        """A bonus action's details (transactions, dice, tracks, a Sector number, A-11's and
        A-12's objects)."""
        if "bonus" not in self._need(source):
            raise FlowError(_("{source} has no bonus action").format(source=source))
        self.bonus[source] = detail

    def finish_bonus(self, source: str) -> None:
        """The details entered on `source`'s entry are its bonus action's."""
        entry = self.entry(source)
        if entry is None:
            raise FlowError(_("{source}: nothing to enter now").format(source=source))
        missing = entry.unanswered()
        if missing:
            raise FlowError(f"{source}: {missing[0]}")
        self.give_bonus(source, entry.detail())

    def places(self, source: str) -> list[Place]:
        """The free quarters for the resident `source` gains (of the species chosen)."""
        need = self._need(source)
        where = need.get("where", {})
        picked = self.choices.get(source) or need.get("choice") or list(where)
        return where.get(picked[0], []) if picked else []

    def questions(self) -> list[tuple[str, str]]:
        """What is still to answer, as (source, what): "choice", "where", "pay", "bonus"."""
        open_ = []
        for source, need in self.needs.items():
            if need["optional"] and source not in self.used:
                continue
            if len(need.get("choice", [])) > 1 and len(self.choices.get(source, [])) < need.get(
                    "times", 1):
                open_.append((source, "choice"))
            if len(self.places(source)) > 1 and source not in self.where:
                open_.append((source, "where"))
            if need.get("pay") and f"{source}:pay" not in self.choices:
                open_.append((source, "pay"))
            # No entry: the engine will not ask (A-11 after five incomes).
            if need.get("bonus") and source not in self.bonus \
                    and self.entry(source) is not None:
                open_.append((source, "bonus"))
        return open_

    def pay_with(self, source: str, resource: str) -> None:
        """The resource paid for an "any resource" cost."""
        if resource not in self._need(source).get("pay", []):
            raise FlowError(_("{source} is paid with one of {resources}").format(
                source=source, resources=words(self._need(source).get("pay", []))))
        self.choices[f"{source}:pay"] = [resource]

    def fields(self) -> dict:
        """The command fields the answers make (`use`, `choices`, `where`, `bonus`, and the
        `catalogue` values given before a bonus action)."""
        def asked_times(source: str) -> bool:
            """Whether `source`'s choice is asked several times (a list in the command)."""
            need = self.needs.get(source)
            return need is not None and bool(need.get("times"))

        choices = {source: picked if asked_times(source) else picked[0]
                   for source, picked in self.choices.items()}
        where = dict(self.where)
        for source, entry in self.entries.items():
            if source in self.bonus:
                where.update(entry.where())
        found = {"use": sorted(self.used), "choices": choices, "where": where,
                 "bonus": dict(self.bonus), "catalogue": dict(self.values)}
        return {key: value for key, value in found.items() if value}

    def lines(self) -> list[str]:
        """The abilities that fire, with their rule text (an optional one not taken says so),
        each bonus action given with what it does."""
        found = []
        for source, need in self.needs.items():
            unused = need["optional"] and source not in self.used
            to = (_(" (to {place})").format(place=place_text(self.where[source]))
                  if source in self.where and not unused else "")
            found.append(ability_line(source, need["text"]) + (_(" (not used)") if unused
                                                               else to))
            if source in self.bonus and source in self.entries and not unused:
                found += [f"{source_name(source)}: {line}"
                          for line in self.entries[source].entry_lines()]
        return found

    def _need(self, source: str) -> AbilityNeed:
        if source not in self.needs:
            raise FlowError(_("no ability of {source} fires here").format(source=source))
        return self.needs[source]


def bonus_label(levels: list[int], gives: list[dict] | None) -> str:
    """'2 GEMs', '1 point + 1 metal' (two levels), or 'level 3 (asked when chosen)' when the
    catalogue lacks what the board prints for a level."""
    if gives is None:
        return _("level {levels} (asked when chosen)").format(
            levels=" + ".join(map(str, levels)))
    return " + ".join(describe(amounts) for amounts in gives)
