"""The turn's flows as plain data (no Kivy): what each panel asks, what will happen, and the one
engine command the answers make. Built only from `rules.options`: the engine decides every rule.

    flow = ship_flow(state, catalogue, "Ann:L1-construction")
    flow.sectors                      # Choices: buildable ones, the others with the reason
    flow.choose(101); flow.preview()  # ["Ann puts 2 GEMs on Ann:L1-construction", ...]
    outcome = send(game.execute, flow.command())
    outcome.refused / outcome.override("reason") / outcome.question / outcome.answer(8)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.i18n import _
from companion.rules.catalogue import Catalogue
from companion.rules.ledger import describe
from companion.rules.move import Missing, Refused
from companion.rules.options import bonus_offer, options
from companion.rules.state import State
from companion.rules.words import (
    COUNTERS,
    SUPPLY_COUNTERS,
    color_name,
    design_name,
    ship_name,
    track_name,
)

UNSURE = 0.9  # a die read with less certainty than this is marked for the player to check


def word(key: Any) -> str:
    """A colour, resource or die face in the language spoken now ("teal", "food", "human";
    rules.words.color_name); anything else (a Sector number, "hub", a name) as it is."""
    if not isinstance(key, str):
        return str(key)
    return _("unknown") if key == "unknown" else color_name(key)


def words(keys: Sequence[Any]) -> str:
    """Several keys as words, with commas: "food, water, human"."""
    return ", ".join(word(key) for key in keys)


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


def _amounts(amounts: Mapping[str, int] | None) -> str:
    return "?" if amounts is None else describe(amounts)


def _of(counter: str, n: int | None) -> str:
    """'3 metal', or '? metal' for a value the catalogue lacks (asked on confirming)."""
    if n is None:
        return {"gems": _("? GEMs"), "points": _("? points")}.get(counter) or f"? {word(counter)}"
    return describe({counter: n})


def _pick(choices: Sequence[Choice], value: Any) -> Choice:
    """The offered choice for `value`; FlowError if it is not offered or not allowed now."""
    for choice in choices:
        if choice.value == value:
            if not choice.allowed:
                raise FlowError(choice.reason or _("{choice} cannot be taken now").format(
                    choice=choice.label))
            return choice
    raise FlowError(_("{value} is not on offer").format(value=repr(value)))


# -- sending a command: accepted, refused (override) or a value to give -------------------------


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


# -- the station's abilities a command fires ------------------------------------------------------


# The engine's offer for a bonus action (source, kind), as the command now stands; None when
# the engine will not ask for it (BonusOffers).
OfferNow = Callable[[str, str], "dict | None"]
# options.bonus_offer with the game: (source, kind, command so far) -> the offer.
Judge = Callable[[str, str, dict], "dict | None"]


class BonusOffers:
    """The engine's offer for each bonus action, judged where it fires: the flow's command as
    answered so far, run up to that bonus action (`options.bonus_offer` with the command), so
    Sector 321's dice see Sector 321 built and a transaction the resources just gained. Asked
    again only when the command changes (the bonus action's own details aside)."""

    def __init__(self, judge: Judge, command: Callable[[], dict]) -> None:
        self.judge, self.command = judge, command
        self.known: dict[str, tuple[str, dict | None]] = {}

    def __call__(self, source: str, kind: str) -> dict | None:
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

    def __init__(self, needs: Sequence[dict], offers: OfferNow | None = None) -> None:
        self.needs = {need["source"]: need for need in needs}
        self.used: set[str] = set()
        self.choices: dict[str, list[Any]] = {}
        self.where: dict[str, Any] = {}
        self.bonus: dict[str, Any] = {}
        self.offers = offers
        self.entries: dict[str, Bonus] = {}
        self.built_from: dict[str, dict] = {}  # the offer each entry was built from
        self.values: dict[str, Any] = {}  # catalogue values given before a bonus action

    def entry(self, source: str) -> Bonus | None:
        """The entry for `source`'s bonus action, built from the engine's offer as the answers
        now stand (kept while that offer stands, and once given); None when the engine will not
        ask for it (A-11 after five incomes)."""
        need = self._need(source)
        if not need.get("bonus"):
            return None
        if source in self.bonus and source in self.entries:
            return self.entries[source]
        offer = (self.offers(source, need["kind"]) if self.offers is not None
                 else need.get("offer"))
        if offer is None:
            self.entries.pop(source, None)
            return None
        if self.built_from.get(source) is not offer:
            self.entries[source], self.built_from[source] = bonus_entry(need, offer), offer
        return self.entries[source]

    def asks(self, source: str) -> dict | None:
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
                source=source, value=repr(value), choices=need.get("choice", [])))
        picked = self.choices.setdefault(source, [])
        if len(picked) >= need.get("times", 1):
            picked.clear()
        picked.append(value)

    def place(self, source: str, where: Any) -> None:
        """Where the resident the ability gains goes."""
        places = self.places(source)
        if where not in places:
            raise FlowError(_("{source}: the free quarters are in {places}").format(
                source=source, places=places))
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
        missing = (entry.dice_questions() if isinstance(entry, Dice)
                   else [] if entry.detail() else [_("choose one")])
        if missing:
            raise FlowError(f"{source}: {missing[0]}")
        self.give_bonus(source, entry.detail())

    def places(self, source: str) -> list:
        """The free quarters for the resident `source` gains (of the species chosen)."""
        need = self._need(source)
        picked = self.choices.get(source) or need.get("choice") or list(need.get("where", {}))
        return need.get("where", {}).get(picked[0] if picked else None, [])

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
                source=source, resources=self._need(source).get("pay", [])))
        self.choices[f"{source}:pay"] = [resource]

    def fields(self) -> dict:
        """The command fields the answers make (`use`, `choices`, `where`, `bonus`, and the
        `catalogue` values given before a bonus action)."""
        choices = {source: picked if self.needs.get(source, {}).get("times") else picked[0]
                   for source, picked in self.choices.items()}
        where = dict(self.where)
        for source, entry in self.entries.items():
            if isinstance(entry, Dice) and entry.human_places and source in self.bonus:
                where["human"] = list(entry.human_places)
        found = {"use": sorted(self.used), "choices": choices, "where": where,
                 "bonus": dict(self.bonus), "catalogue": dict(self.values)}
        return {key: value for key, value in found.items() if value}

    def lines(self) -> list[str]:
        """The abilities that fire, with their rule text (an optional one not taken says so),
        each bonus action given with what it does."""
        found = []
        for source, need in self.needs.items():
            unused = need["optional"] and source not in self.used
            to = (_(" (to {place})").format(place=_place(self.where[source]))
                  if source in self.where and not unused else "")
            found.append(f"{source}: {need['text']}" + (_(" (not used)") if unused else to))
            if source in self.bonus and source in self.entries and not unused:
                found += [f"{source}: {line}" for line in self.entries[source].entry_lines()]
        return found

    def _need(self, source: str) -> dict:
        if source not in self.needs:
            raise FlowError(_("no ability of {source} fires here").format(source=source))
        return self.needs[source]


# -- using a ship --------------------------------------------------------------------------------


class ShipFlow:
    """Using one ship: what its action asks, the preview of what will be paid and gained, and
    the `use_ship` command."""

    def __init__(self, found: dict, judge: Judge | None = None) -> None:
        self.player: str = found["turn"]["player"]
        self.ship: dict = found["ship"]
        self.action: dict = self.ship["action"]
        self.offers = None if judge is None else BonusOffers(judge, self.command)
        self.abilities = Abilities(self.ship["abilities"], self.offers)

    @property
    def usable(self) -> bool:
        return self.ship["usable"]

    @property
    def reason(self) -> str | None:
        """Why the ship cannot be used now (an override can still send the command)."""
        return self.ship["reason"]

    def details(self) -> dict:
        """The action's fields of the command."""
        return {}

    def questions(self) -> list[str]:
        """What the player has still to answer before confirming."""
        return [f"{source}: {question_word(what)}"
                for source, what in self.abilities.questions()]

    def command(self) -> dict:
        details, answers = self.details(), self.abilities.fields()
        where = {**answers.get("where", {}), **details.get("where", {})}
        return {"cmd": "use_ship", "player": self.player, "ship": self.ship["ship"],
                **details, **answers, **({"where": where} if where else {})}

    def preview(self) -> list[str]:
        """What will be paid and gained, in order, before confirming."""
        ship = self.ship
        lines = [_("{player} puts {gems} on {ship} ({name})").format(
            player=self.player, gems=_of("gems", ship["cost"]), ship=ship["ship"],
            name=ship_name(ship["type"]))]
        if ship["fee"] != 0 and ship["owner"] not in (None, self.player):
            lines.append(_("{player} pays {owner} the owner's fee: {gems}").format(
                player=self.player, owner=ship["owner"], gems=_of("gems", ship["fee"])))
        lines += self.action_lines() + self.abilities.lines()
        for bonus in ship.get("diplomacy_bonuses", []):
            picks = _(" or ").join(_bonus_label(levels, gives)
                                   for levels, gives in zip(bonus["options"], bonus["gives"]))
            lines.append(_("Diplomacy bonus for {player}: {choices}").format(
                player=bonus["player"], choices=picks)
                + ("" if bonus["automatic"] else _(" (their choice)")))
        return lines

    def action_lines(self) -> list[str]:
        return []

    def automatic_bonuses(self) -> list[tuple[str, str]]:
        """The Diplomacy bonuses the engine gives by itself (one possible choice): (player,
        what they get), for the whole table to see once the action is confirmed."""
        return [(bonus["player"], _bonus_label(bonus["options"][0], bonus["gives"][0]))
                for bonus in self.ship.get("diplomacy_bonuses", []) if bonus["automatic"]]


class DismantleFlow(ShipFlow):
    """Dismantle: which unused ship of one's own, for its metal."""

    def __init__(self, found: dict, judge: Judge | None = None) -> None:
        super().__init__(found, judge)
        self.targets = [Choice(t["ship"], f"{design_name(t['design'])}: "
                                          f"{_of('metal', t['metal'])}")
                        for t in self.action["dismantle"]]
        self.target = self.targets[0].value if len(self.targets) == 1 else None

    def choose(self, ship_id: str) -> None:
        self.target = _pick(self.targets, ship_id).value

    def questions(self) -> list[str]:
        return ([_("which ship to dismantle")] if self.target is None else []) \
            + super().questions()

    def details(self) -> dict:
        return {} if self.target is None else {"dismantle": self.target}

    def action_lines(self) -> list[str]:
        return [] if self.target is None else [
            _("dismantles {ship}").format(ship=_pick(self.targets, self.target).label)]


class ConstructionFlow(ShipFlow):
    """Construction: which Sector (price after discounts; the ones that cannot be built with the
    engine's reason), then what its immediate abilities ask."""

    def __init__(self, found: dict, judge: Judge | None = None) -> None:
        super().__init__(found, judge)
        self.built = {s["number"]: s for s in self.action["sectors"]}
        self.sectors = [Choice(s["number"], _sector_label(s), s["allowed"], s["reason"])
                        for s in self.action["sectors"]]
        self.sector: int | None = None

    def choose(self, number: int) -> None:
        """Build Sector `number`: its immediate abilities join the ship's."""
        self.sector = _pick(self.sectors, number).value
        self.abilities = Abilities(self.ship["abilities"] + self.built[number]["abilities"],
                                   self.offers)

    def questions(self) -> list[str]:
        return ([_("which Sector")] if self.sector is None else []) + super().questions()

    def details(self) -> dict:
        return {} if self.sector is None else {"sector": self.sector}

    def action_lines(self) -> list[str]:
        if self.sector is None:
            return []
        offer = self.built[self.sector]
        return [_("builds Sector {number} ({wing} wing, Level {level}) for {price}").format(
            number=self.sector, wing=word(offer["wing"]), level=offer["level"],
            price=_price(offer))]


def _price(offer: dict) -> str:
    """'7 metal (9 - 2)', or the price when there is no discount."""
    price, cost = offer["price"], offer["cost"]
    if price is None:
        return _("? metal")
    return _("{price} metal").format(price=price) + (
        f" ({cost} - {cost - price})" if cost is not None and cost != price else "")


def _sector_label(offer: dict) -> str:
    return _("Sector {number} · {wing} · Level {level} · {price}").format(
        number=offer["number"], wing=word(offer["wing"]), level=offer["level"],
        price=_price(offer))


class Transactions:
    """Transport transactions (Aliens by colour, gold, trades, buying) up to the limit: a
    Transport ship's, or a bonus action's (B-5, 206, 218, 301, A-3)."""

    def __init__(self, offer: dict, limit: int | None, name: str) -> None:
        self.offer, self.limit, self.name = offer, limit, name
        self.residents = {item.get("color", "gold"): item
                          for item in [*offer["aliens"], offer["gold"]]}
        self.aliens = [Choice(color, _("{color} Alien ({left} left): {cost}").format(
                                  color=word(color), left=item["in_supply"],
                                  cost=_amounts(item["cost"])), item["allowed"],
                              item["reason"])
                       for color, item in self.residents.items()]
        self.trades = [Choice(pair, _("pay {one} and {other}").format(
                                  one=word(pair[0]), other=word(pair[1])))
                       for pair in offer["trade"]["pay"]]
        self.buy = Choice("buy", _("buy 1 resource for {gems} GEMs").format(
                              gems=offer["buy"]["gems"]),
                          offer["buy"]["allowed"], offer["buy"]["reason"])
        self.items: list[dict] = []

    def add_resident(self, color: str, where: Any = None) -> None:
        """An Alien of `color` ("gold" for a gold one), to `where` when there is a choice."""
        offer = self.residents[_pick(self.aliens, color).value]
        places = offer["where"]
        if where is None and len(places) == 1:
            where = places[0]
        if where not in places:
            raise FlowError(_("where does the {color} Alien go? ({places})").format(
                color=word(color), places=", ".join(map(str, places))))
        self._add({**({"type": "gold"} if color == "gold" else {"type": "alien", "color": color}),
                   "where": where})

    def add_trade(self, pay: Sequence[str], gain: str) -> None:
        pair = _pick(self.trades, sorted(pay, key=("food", "water", "metal").index)).value
        if gain not in self.offer["trade"]["gain"]:
            raise FlowError(_("a trade gains one of {resources}").format(
                resources=self.offer["trade"]["gain"]))
        self._add({"type": "trade", "pay": list(pair), "gain": gain})

    def add_buy(self, gain: str) -> None:
        _pick([self.buy], "buy")
        if gain not in self.offer["buy"]["gain"]:
            raise FlowError(_("buy one of {resources}").format(
                resources=self.offer["buy"]["gain"]))
        self._add({"type": "buy", "gain": gain})

    def remove(self, index: int) -> None:
        del self.items[index]

    def _add(self, item: dict) -> None:
        if self.limit is not None and len(self.items) >= self.limit:
            raise FlowError(_("{ship} makes at most {limit} transactions").format(
                ship=self.name, limit=self.limit))
        self.items.append(item)

    def entry_lines(self) -> list[str]:
        return [_transaction_line(item, self.residents, self.offer) for item in self.items]

    def detail(self) -> list[dict]:
        """The bonus action's details: the transactions, in order."""
        return list(self.items)


class TransportFlow(ShipFlow, Transactions):
    """Transport: transactions (Aliens by colour, gold, trades, buying) up to the ship's limit."""

    def __init__(self, found: dict, judge: Judge | None = None) -> None:
        ShipFlow.__init__(self, found, judge)
        Transactions.__init__(self, self.action, self.action["transactions"], self.ship["ship"])

    def questions(self) -> list[str]:
        return ([_("a transaction")] if not self.items else []) + super().questions()

    def details(self) -> dict:
        return {"transactions": list(self.items)}

    def action_lines(self) -> list[str]:
        return self.entry_lines()


def _transaction_line(item: dict, residents: dict, offer: dict) -> str:
    kind = item["type"]
    if kind in ("alien", "gold"):
        color = item.get("color", "gold")
        cost = _amounts(residents[color]["cost"])
        if item["where"] is None:
            return _("pays {cost} for a {color} Alien").format(cost=cost, color=word(color))
        return _("pays {cost} for a {color} Alien to {place}").format(
            cost=cost, color=word(color), place=_place(item["where"]))
    if kind == "trade":
        return _("trades {one} and {other} for 1 {gain}").format(
            one=word(item["pay"][0]), other=word(item["pay"][1]), gain=word(item["gain"]))
    return _("pays {gems} GEMs for 1 {gain}").format(gems=offer["buy"]["gems"],
                                                     gain=word(item["gain"]))


class DiceReading(Protocol):
    """Dice as read (by taps now, by the camera later): each die's face and how sure it is."""

    @property
    def faces(self) -> list[str]: ...

    @property
    def certainty(self) -> list[float]: ...


@dataclass
class TappedDice:
    """Dice entered by tapping faces: a counter per face; every die is certain."""

    counts: dict[str, int] = field(default_factory=dict)

    def tap(self, face: str, step: int = 1) -> None:
        """One more (step=-1: one fewer) die showing `face`."""
        self.counts[face] = max(0, self.counts.get(face, 0) + step)

    @property
    def faces(self) -> list[str]:
        return [face for face, n in self.counts.items() for _die in range(n)]

    @property
    def certainty(self) -> list[float]:
        return [1.0] * len(self.faces)


class Dice:
    """Expedition dice: rolled and entered (faces tapped, or a reading), kept up to the
    capacity, each Human kept observed or recruited, rerolls where the station allows. An
    Expedition ship's, or a bonus roll's (225, 321, A-3)."""

    def __init__(self, offer: dict) -> None:
        self.dice: int | None = offer["dice"]
        self.capacity: int | None = offer["keep"]
        self.rerolls_allowed: int = offer["rerolls"] or 0
        self.rerolls = 0
        self.faces: list[str] = list(offer["faces"])
        self.human_offer: dict = offer["humans"]
        self.tapped = TappedDice()
        self.reading: DiceReading | None = None
        self.kept: Counter = Counter()
        self.kept_chosen = False  # "Keep these" pressed: the Humans kept are asked next
        self.humans: list[str | None] = []
        self.human_to: dict[int, Any] = {}  # where each Human recruited goes, when chosen
        self.human_choices = [
            Choice("observe", _("Observe: {gain}").format(
                gain=_amounts(self.human_offer["observe"]))),
            Choice("recruit", _("Recruit: {cost}").format(
                cost=_amounts(self.human_offer["recruit"])),
                   self.human_offer["recruit_reason"] is None,
                   self.human_offer["recruit_reason"])]

    def read(self, reading: DiceReading) -> None:
        """The dice rolled (taps or camera); what was kept is chosen again."""
        unknown = [f for f in reading.faces if f not in self.faces]
        if unknown:
            raise FlowError(_("a die shows {faces}, not {face}").format(
                faces=words(self.faces), face=repr(unknown[0])))
        self.reading, self.kept, self.humans, self.human_to = reading, Counter(), [], {}
        self.kept_chosen = False

    def read_taps(self) -> None:
        """The faces tapped are the dice rolled (all of them, or it says how many)."""
        if len(self.tapped.faces) != self.dice:
            raise FlowError(_("enter the {dice} dice rolled ({entered} entered)").format(
                dice=self.dice, entered=len(self.tapped.faces)))
        self.read(TappedDice(dict(self.tapped.counts)))

    @property
    def unsure(self) -> list[int]:
        """The dice read with little certainty, for the player to check."""
        return [] if self.reading is None else [
            i for i, sure in enumerate(self.reading.certainty) if sure < UNSURE]

    def reroll(self) -> None:
        """Use one reroll (B-4, 315): the dice are entered again as they now lie."""
        if self.rerolls >= self.rerolls_allowed:
            raise FlowError(_("you may reroll {times} time(s)").format(
                times=self.rerolls_allowed))
        self.rerolls += 1
        self.reading, self.kept, self.humans, self.human_to = None, Counter(), [], {}
        self.tapped, self.kept_chosen = TappedDice(), False

    def keep(self, face: str, step: int = 1) -> None:
        """Keep one more (step=-1: one fewer) die showing `face`, up to the capacity."""
        rolled = Counter(self.reading.faces if self.reading else [])
        count = self.kept[face] + step
        if count < 0 or count > rolled[face]:
            raise FlowError(_("{count} dice show {face}").format(count=rolled[face],
                                                                 face=word(face)))
        if step > 0 and self.capacity is not None and sum(self.kept.values()) >= self.capacity:
            raise FlowError(_("keep at most {capacity} dice (the capacity)").format(
                capacity=self.capacity))
        self.kept[face] = count
        self.humans = (self.humans + [None] * count)[:self.kept["human"]]
        self.human_to = {i: p for i, p in self.human_to.items() if i < self.kept["human"]}

    def choose_kept(self) -> None:
        """The dice kept are chosen: each Human kept is asked next."""
        if not self.kept.total():
            raise FlowError(_("keep at least one die"))
        self.kept_chosen = True

    def plan_human(self, index: int, plan: str, where: Any = None) -> None:
        """Human `index` kept: "observe" or "recruit" (to `where` when there is a choice)."""
        _pick(self.human_choices, plan)
        places = self.human_offer["where"]
        if plan == "recruit" and len(places) > 1 and where not in places:
            raise FlowError(_("where does the Human go? ({places})").format(
                places=", ".join(map(str, places))))
        self.humans[index] = plan
        self.human_to.pop(index, None)
        if plan == "recruit" and len(places) > 1:
            self.human_to[index] = where

    @property
    def human_places(self) -> list[Any]:
        """Where the Humans recruited go, in the order they are recruited (the command's
        `"where": {"human": [...]}`), when there was a choice."""
        return [self.human_to[i] for i in sorted(self.human_to)]

    def dice_questions(self) -> list[str]:
        asked = []
        entered = len(self.reading.faces) if self.reading else 0
        if entered != self.dice:
            asked.append(_("the {dice} dice rolled ({entered} entered)").format(
                dice=self.dice, entered=entered))
        if not self.kept.total():
            asked.append(_("the dice kept"))
        return asked + [_("Human {number}: observe or recruit").format(number=i + 1)
                        for i, p in enumerate(self.humans) if p is None]

    def detail(self) -> dict:
        """The dice rolled and kept, and each Human's plan (a bonus roll's details)."""
        return {"rolled": self.reading.faces if self.reading else [],
                "keep": list(self.kept.elements()), "humans": [p for p in self.humans if p]}

    def entry_lines(self) -> list[str]:
        gained = {f: n for f, n in self.kept.items() if f != "human" and n}
        lines = [_("gains {gain}").format(gain=describe(gained))] if gained else []
        labels = {c.value: c.label for c in self.human_choices}
        return lines + [_("Human {number}: {plan}").format(number=i + 1, plan=labels[p]) + (
            _(" to {place}").format(place=_place(self.human_to[i])) if i in self.human_to
            else "")
            for i, p in enumerate(self.humans) if p]


class ExpeditionFlow(ShipFlow, Dice):
    """Terran Expedition: the ship's dice (Dice), with the station's rerolls."""

    def __init__(self, found: dict, judge: Judge | None = None) -> None:
        ShipFlow.__init__(self, found, judge)
        Dice.__init__(self, self.action)

    def questions(self) -> list[str]:
        return self.dice_questions() + super().questions()

    def details(self) -> dict:
        found: dict[str, Any] = self.detail()
        if self.rerolls:
            found["rerolls"] = self.rerolls
        if self.human_places:
            found["where"] = {"human": list(self.human_places)}
        return found

    def action_lines(self) -> list[str]:
        return self.entry_lines()


class Tracks:
    """Diplomacy tracks to advance on, each with its lobbying cost (or free): a Diplomacy
    ship's, or a bonus action's (117, 306, A-7)."""

    def __init__(self, offer: dict, name: str) -> None:
        self.most: int | None = offer["tracks_at_most"]
        self.name = name
        self.tracks = [Choice(t["track"], _("{track}: level {level} -> {next}, {cost}").format(
                                  track=track_name(t["track"]), level=t["level"],
                                  next=t["level"] + 1,
                                  cost=_("free") if t["cost"] == 0 else _of("gems", t["cost"])),
                              t["allowed"], t["reason"])
                       for t in offer["tracks"]]
        self.chosen: list[str] = []

    def choose(self, track: str) -> None:
        """Take (or, tapped again, leave) a track, up to the number of tracks."""
        if track in self.chosen:
            self.chosen.remove(track)
            return
        _pick(self.tracks, track)
        if self.most is not None and len(self.chosen) >= self.most:
            raise FlowError(_("{ship} advances on at most {most} track(s)").format(
                ship=self.name, most=self.most))
        self.chosen.append(track)

    def entry_lines(self) -> list[str]:
        return [_("lobbies: {track}").format(track=_pick(self.tracks, track).label)
                for track in self.chosen]

    def detail(self) -> list[str]:
        """The tracks chosen (a bonus action's details)."""
        return list(self.chosen)


class DiplomacyFlow(ShipFlow, Tracks):
    """Diplomacy: which track(s), each with its lobbying cost."""

    def __init__(self, found: dict, judge: Judge | None = None) -> None:
        ShipFlow.__init__(self, found, judge)
        Tracks.__init__(self, self.action, self.ship["ship"])

    def questions(self) -> list[str]:
        return ([_("which track")] if not self.chosen else []) + super().questions()

    def details(self) -> dict:
        return {"tracks": list(self.chosen)}

    def action_lines(self) -> list[str]:
        return self.entry_lines()


class Picks:
    """One of the choices the engine offers for a bonus action: 326's free Sector, A-11's Hub
    resident moving out, what A-12 returns to the supply."""

    def __init__(self, offer: dict, what: str) -> None:
        self.what = what
        self.choices = [Choice(c["detail"], _pick_label(what, c), c["allowed"], c["reason"])
                        for c in offer["choices"]]
        self.picked: Choice | None = None

    def pick(self, detail: Any) -> None:
        self.picked = _pick(self.choices, detail)

    def detail(self) -> Any:
        return None if self.picked is None else self.picked.value

    def entry_lines(self) -> list[str]:
        return [] if self.picked is None else [self.picked.label]


def _place(where: Any) -> str:
    return _("the Hub") if where == "hub" else _("Sector {number}").format(number=where)


def _pick_label(what: str, choice: dict) -> str:
    """'Sector 111 (brown wing)', 'teal from Hub quarter 3 to Sector 101', 'the teal in Sector
    102 quarter 1', 'Sector 102 and its residents (teal)', 'nothing: lose 5 points'."""
    detail = choice["detail"]
    if what == "sector":
        return _("Sector {number} ({wing} wing)").format(
            number=detail, wing=word(choice["wing"]) if choice["wing"] else "?")
    if what == "resident":
        species, quarter = word(choice["species"]), detail["slot"] + 1
        if detail["to"] is None:
            return _("{species} from Hub quarter {quarter} back to the supply").format(
                species=species, quarter=quarter)
        return _("{species} from Hub quarter {quarter} to Sector {number}").format(
            species=species, quarter=quarter, number=detail["to"])
    if "resident" in detail:
        where = detail["resident"]
        return _("the {species} in {place} quarter {quarter}").format(
            species=word(choice["species"]), place=_place(where["from"]),
            quarter=where["slot"] + 1)
    if "sector" in detail:
        return _("Sector {number} and its residents ({residents})").format(
            number=detail["sector"], residents=words(choice["residents"]) or _("none"))
    return _("nothing: lose {points} points").format(points=-choice["points"])


Bonus = Transactions | Dice | Tracks | Picks  # a bonus action's entry, by what it asks


def bonus_entry(need: dict, offer: dict) -> Bonus:
    """The entry for a bonus action's details, built from the engine's offer."""
    what = need["bonus"]
    if what == "transactions":
        return Transactions(offer, offer["transactions"], need["source"])
    if what == "dice":
        return Dice(offer)
    if what == "tracks":
        return Tracks(offer, need["source"])
    return Picks(offer, what)


class GainFlow(ShipFlow):
    """Farm, Ice Collector: nothing to ask."""

    def action_lines(self) -> list[str]:
        resource = "food" if "food" in self.action else "water"
        return [_("gains {gain}").format(gain=_of(resource, self.action[resource]))]


FLOWS: dict[str, type[ShipFlow]] = {
    "dismantle": DismantleFlow, "construction": ConstructionFlow, "transport": TransportFlow,
    "expedition": ExpeditionFlow, "diplomacy": DiplomacyFlow, "farm": GainFlow,
    "ice_collector": GainFlow}


def ship_flow(state: State, catalogue: Catalogue, ship_id: str) -> ShipFlow:
    """The flow for the active player's use of `ship_id`."""
    found = options(state, catalogue, ship=ship_id)
    return FLOWS[found["ship"]["type"]](found, judge(state, catalogue))


# -- income ----------------------------------------------------------------------------------------


class IncomeFlow:
    """Income: eligibility and its reason, a receipt of every line, the optional income
    powers, relocations at 1 GEM each (or Hub A-8's Human first)."""

    def __init__(self, found: dict, judge: Judge | None = None) -> None:
        self.player: str = found["turn"]["player"]
        offer = found["income"]
        self.allowed: bool = offer["allowed"]
        self.reason: str | None = offer["reason"]
        self.lines: list[dict] = offer["lines"]
        self.abilities = Abilities(offer["powers"], None if judge is None
                                   else BonusOffers(judge, self.command))
        self.gems_per_move: int = offer["relocation_gems"]
        self.residents = offer["relocations"]
        self.moves: list[dict] = []
        self.human_offer: dict | None = found["human_then_income"]
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
                        species=word(resident["species"]), places=resident["to"]))
                self.moves.append({"from": source, "slot": slot, "to": to})
                return
        raise FlowError(_("no resident in {source} quarter {quarter}").format(
            source=source, quarter=slot + 1))

    def gain_human_first(self) -> None:
        """Hub A-8: gain a Human, then take income."""
        if not self.human_offer:
            raise FlowError(_("{player}'s Hub cannot gain a Human before income").format(
                player=self.player))
        if not self.human_offer["allowed"]:
            raise FlowError(self.human_offer["reason"])
        self.human_first, self.moves = True, []

    def command(self) -> dict:
        if self.human_first:
            return {"cmd": "human_then_income", "player": self.player,
                    **self.abilities.fields()}
        found = {"cmd": "income", "player": self.player, **self.abilities.fields()}
        if self.moves:
            found["relocate"] = list(self.moves)
        return found

    def preview(self) -> list[str]:
        lines = ([f"{self.human_offer['source']}: {self.human_offer['text']}"]
                 if self.human_first else [])
        lines += self.receipt() + self.abilities.lines()
        lines += [_("moves the resident of {source} quarter {quarter} to {to}: {gems} GEM").format(
                  source=m["from"], quarter=m["slot"] + 1, to=m["to"], gems=self.gems_per_move)
                  for m in self.moves]
        return lines


def income_flow(state: State, catalogue: Catalogue) -> IncomeFlow:
    return IncomeFlow(options(state, catalogue), judge(state, catalogue))


# -- Diplomacy bonuses, Hub powers, corrections ------------------------------------------------


@dataclass(frozen=True)
class BonusPrompt:
    """One player's Diplomacy bonus choice (already given ones are automatic, not asked). A
    level whose bonus the catalogue lacks is offered too: choosing it, the engine asks what it
    gives (sent with `send`, answered like a ship's missing value)."""

    player: str
    track: str
    choices: list[Choice]

    def command(self, levels: list[int]) -> dict:
        return {"cmd": "diplomacy_bonus", "player": self.player,
                "levels": _pick(self.choices, levels).value}


def _bonus_label(levels: list[int], gives: list[dict] | None) -> str:
    """'2 GEMs', '1 point + 1 metal' (two levels), or 'level 3: ?' when the catalogue lacks
    what a level gives (asked when it is chosen)."""
    if gives is None:
        return _("level {levels}: ?").format(levels="+".join(map(str, levels)))
    return " + ".join(describe(amounts) for amounts in gives)


def bonus_prompts(state: State, catalogue: Catalogue) -> list[BonusPrompt]:
    """The Diplomacy bonus choices waiting, in turn order from the active player."""
    names = [p["name"] for p in state["players"]]
    active = state["turn"]["active"] or 0
    order = names[active:] + names[:active]
    found = [BonusPrompt(p["player"], p["track"], [
        Choice(o["levels"], _bonus_label(o["levels"], o["gives"])
               + (_(" (asked)") if o["gives"] is None else "")) for o in p["options"]])
        for p in options(state, catalogue)["pending"]]
    return sorted(found, key=lambda prompt: order.index(prompt.player))


class HubPowerFlow:
    """A Hub power used outside the main action (A-1, B-6): allowed or why not, what it asks."""

    def __init__(self, entry: dict) -> None:
        self.player: str = entry["player"]
        self.power = Choice(entry["source"], f"{entry['source']}: {entry['text']}",
                            entry["allowed"], entry["reason"])
        self.abilities = Abilities([entry])
        if entry["optional"]:
            self.abilities.use(entry["source"])

    def command(self) -> dict:
        return {"cmd": "hub_power", "player": self.player, "source": self.power.value,
                **self.abilities.fields()}


def hub_power_flows(state: State, catalogue: Catalogue) -> list[HubPowerFlow]:
    """Every player's Hub powers that can be used outside the main action."""
    return [HubPowerFlow(entry) for entry in options(state, catalogue)["hub_powers"]]


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
