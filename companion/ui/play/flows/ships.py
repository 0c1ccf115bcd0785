"""A ship's action, one flow per ship type (FLOWS, the one table of them; `ship_flow`): what
each panel asks (`action_panel`, its buttons' acts the flow's ACTS), the preview, and the
`use_ship` command the answers make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar, Generic, TypeVar, cast

from companion.i18n import _
from companion.rules import commands
from companion.rules.catalogue import Catalogue
from companion.rules.option_types import (
    ConstructionAction,
    DiplomacyAction,
    DismantleAction,
    ExpeditionAction,
    FarmAction,
    IceCollectorAction,
    SectorOffer,
    ShipAction,
    ShipOptions,
    TableOptions,
    TransportAction,
)
from companion.rules.options import options
from companion.rules.state import State
from companion.rules.words import design_name, ship_name
from companion.ui.kit.wording import word
from companion.ui.play.flows.abilities import (
    Abilities,
    BonusOffers,
    Judge,
    bonus_label,
    judge,
    question_word,
)
from companion.ui.play.flows.choices import (
    MOST_CHOICES,
    Answers,
    Button,
    Choice,
    Pages,
    Panel,
    choice_buttons,
    choose_among,
    count_text,
    paged,
    turn_player,
)
from companion.ui.play.flows.dice import Dice
from companion.ui.play.flows.parts import Tracks, Transactions

A = TypeVar("A", bound=ShipAction)  # a ship type's action (option_types.ShipAction)


class ShipFlow(Answers, Pages, Generic[A]):
    """Using one ship: what its action asks (its panels, what their buttons do: ACTS), the
    preview of what will be paid and gained, and the `use_ship` command. `A` is the shape of
    its action, which the ship's type picks (FLOWS: each flow is built for the action of its
    ship type)."""

    def __init__(self, found: TableOptions, judge: Judge | None = None) -> None:
        self.player: str = turn_player(found)
        self.ship: ShipOptions = found["ship"]
        self.action: A = cast(A, self.ship["action"])  # the ship's type picked this flow
        self.offers = None if judge is None else BonusOffers(judge, self.command)
        self.abilities = Abilities(self.ship["abilities"], self.offers)
        # the engine's question for each value the catalogue lacks, by its key
        self.asked_by = {m["key"]: m["question"] for m in found["missing"]}
        self.values: dict[str, Any] = {}  # the tile's values given (ship_flow), sent along

    @property
    def usable(self) -> bool:
        return self.ship["usable"]

    @property
    def reason(self) -> str | None:
        """Why the ship cannot be used now (an override can still send the command)."""
        return self.ship["reason"]

    def action_panel(self, title: str) -> Panel | None:
        """The action's own question now (None: nothing left to ask); the abilities' come
        after."""
        return None

    def details(self) -> dict:
        """The action's fields of the command."""
        return {}

    def questions(self) -> list[str]:
        """What the player has still to answer before confirming."""
        return [f"{source}: {question_word(what)}"
                for source, what in self.abilities.questions()]

    def needed(self) -> list[str]:
        """The catalogue keys the answers so far need that the catalogue lacks: the ship's
        cost and fee, its action's numbers, what the choices made print."""
        action = cast(Mapping[str, Any], self.action)
        return [*self.ship["missing"], *action.get("missing", []), *self.chosen_missing()]

    def chosen_missing(self) -> list[str]:
        """The catalogue keys the choices made so far need (a Sector's cost...)."""
        return []

    def unknown(self) -> tuple[str, str] | None:
        """The first value the tiles print that the answers so far need and the catalogue
        lacks, with the engine's question: asked before the preview (None: all known)."""
        return next(((key, self.asked_by[key]) for key in self.needed()
                     if key in self.asked_by and key not in self.values), None)

    def command(self) -> commands.UseShip:
        details, answers = self.details(), self.abilities.fields()
        where = {**answers.get("where", {}), **details.get("where", {})}
        values = {**self.values, **answers.pop("catalogue", {})}
        return commands.use_ship(self.player, self.ship["ship"], **{
            **details, **answers, **({"where": where} if where else {}),
            **({"catalogue": values} if values else {})})

    def preview(self) -> list[str]:
        """What will be paid and gained, in order, before confirming."""
        ship = self.ship
        lines = [_("{player} puts {gems} on {ship}").format(
            player=self.player, gems=count_text("gems", ship["cost"]),
            ship=ship_words(ship, self.player))]
        if ship["fee"] != 0 and ship["owner"] not in (None, self.player):
            lines.append(_("{player} pays {owner} the owner's fee: {gems}").format(
                player=self.player, owner=ship["owner"], gems=count_text("gems", ship["fee"])))
        lines += self.action_lines() + self.abilities.lines()
        for bonus in ship.get("diplomacy_bonuses", []):
            picks = _(" or ").join(bonus_label(levels, gives)
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
        return [(bonus["player"], bonus_label(bonus["options"][0], bonus["gives"][0]))
                for bonus in self.ship.get("diplomacy_bonuses", []) if bonus["automatic"]]


def ship_words(ship: ShipOptions, player: str) -> str:
    """A ship as players call it: 'Construction L2', "Bob's Transport L1", 'the neutral
    Dismantle'."""
    if ship["owner"] is None:
        return _("the neutral {ship}").format(ship=ship_name(ship["type"]))
    if ship["owner"] == player:
        return design_name(ship["design"])
    return _("{owner}'s {ship}").format(owner=ship["owner"], ship=design_name(ship["design"]))


class DismantleFlow(ShipFlow[DismantleAction]):
    """Dismantle: which unused ship of one's own, for its metal."""

    ACTS: ClassVar[Mapping[str, str]] = {"target": "choose", "page": "turn_page"}

    def __init__(self, found: TableOptions, judge: Judge | None = None) -> None:
        super().__init__(found, judge)
        # the metal once known (else it is asked once the ship is chosen)
        self.targets = [Choice(t["ship"], design_name(t["design"]) + (
                            "" if t["metal"] is None else f": {count_text('metal', t['metal'])}"))
                        for t in self.action["dismantle"]]
        self.target = self.targets[0].value if len(self.targets) == 1 else None

    def choose(self, ship_id: str) -> None:
        self.target = choose_among(self.targets, ship_id).value

    def action_panel(self, title: str) -> Panel | None:
        if self.target is not None:
            return None
        return Panel(_("{title}: which ship is dismantled?").format(title=title),
                     paged(choice_buttons("target", self.targets), self.page))

    def questions(self) -> list[str]:
        return ([_("which ship to dismantle")] if self.target is None else []) \
            + super().questions()

    def chosen_missing(self) -> list[str]:
        return [key for t in self.action["dismantle"] if t["ship"] == self.target
                for key in t["missing"]]

    def details(self) -> dict:
        return {} if self.target is None else {"dismantle": self.target}

    def action_lines(self) -> list[str]:
        return [] if self.target is None else [
            _("dismantles {ship}").format(ship=choose_among(self.targets, self.target).label)]


STACKS_SHOWN = 4  # a Construction's rows of Sectors on one panel (a row each stack, 48 px)


class ConstructionFlow(ShipFlow[ConstructionAction]):
    """Construction: which Sector (price after discounts; the ones that cannot be built with the
    engine's reason), then what its immediate abilities ask."""

    ACTS: ClassVar[Mapping[str, str]] = {"sector": "choose", "page": "turn_page"}

    def __init__(self, found: TableOptions, judge: Judge | None = None) -> None:
        super().__init__(found, judge)
        self.built = {s["number"]: s for s in self.action["sectors"]}
        self.sectors = [Choice(s["number"], _sector_label(s), s["allowed"], s["reason"])
                        for s in self.action["sectors"]]
        self.sector: int | None = None

    def choose(self, number: int) -> None:
        """Build Sector `number`: its immediate abilities join the ship's."""
        self.sector = choose_among(self.sectors, number).value
        self.abilities = Abilities(self.ship["abilities"] + self.built[number]["abilities"],
                                   self.offers)

    def action_panel(self, title: str) -> Panel | None:
        """Up to MOST_CHOICES Sectors as big buttons; more that can be built, grouped by stack
        (a row each: its level and wing, then its numbers and prices), those that cannot
        behind one button, paged."""
        if self.sector is not None:
            return None
        asked = _("{title}: which Sector?").format(title=title)
        buttons = choice_buttons("sector", self.sectors)
        allowed = [b for b in buttons if b.allowed]
        if len(allowed) <= MOST_CHOICES:
            return Panel(asked, paged(buttons, self.page), cols=2)
        others = [b for b in buttons if not b.allowed]
        row = {b.tag: self._stack(b.act[1]) for b in allowed}
        stacks = list(dict.fromkeys(row.values()))
        rows = [stacks[i:i + STACKS_SHOWN] for i in range(0, len(stacks), STACKS_SHOWN)]
        size = MOST_CHOICES - 1
        cannot = [others[i:i + size] for i in range(0, len(others), size)]
        pages = len(rows) + len(cannot)
        index = self.page % pages
        turn = (index + 1) % pages
        if index == len(rows) - 1 and others:
            label = _("Cannot be built now ({count})…").format(count=len(others))
        elif turn == 0 and others:
            label = _("Back to the Sectors that can be built")
        else:
            label = _("More… ({page} of {pages})").format(page=index + 1, pages=pages)
        more = [Button("action:more", label, ("page", turn))] if pages > 1 else []
        if index >= len(rows):  # the ones that cannot be built, with their reasons
            return Panel(asked, [*cannot[index - len(rows)], *more], cols=2)
        return Panel(asked, [replace(b, label=self._short(b.act[1]), row=row[b.tag])
                             for b in allowed if row[b.tag] in rows[index]] + more)

    def _stack(self, number: int) -> str:
        """A Sector's stack as a row names it: "1 · teal"."""
        offer = self.built[number]
        return f"{offer['level']} · {word(offer['wing'])}"

    def _short(self, number: int) -> str:
        """A Sector in its stack's row: "101 · 3 metal" ("101" while its price is asked)."""
        offer = self.built[number]
        return str(number) if offer["price"] is None else f"{number} · {_price(offer)}"

    def questions(self) -> list[str]:
        return ([_("which Sector")] if self.sector is None else []) + super().questions()

    def chosen_missing(self) -> list[str]:
        return [] if self.sector is None else self.built[self.sector]["missing"]

    def details(self) -> dict:
        return {} if self.sector is None else {"sector": self.sector}

    def action_lines(self) -> list[str]:
        if self.sector is None:
            return []
        offer = self.built[self.sector]
        return [_("builds Sector {number} ({wing} wing, Level {level}) for {price}").format(
            number=self.sector, wing=word(offer["wing"]), level=offer["level"],
            price=_price(offer))]


def _price(offer: SectorOffer) -> str:
    """'7 metal (9 - 2)', or the price when there is no discount."""
    price, cost = offer["price"], offer["cost"]
    if price is None:
        return _("the price on the tile")
    return _("{price} metal").format(price=price) + (
        f" ({cost} - {cost - price})" if cost is not None and cost != price else "")


def _sector_label(offer: SectorOffer) -> str:
    """'Sector 101 · teal · Level 1 · 3 metal' (no price while the tile's is not known: it is
    asked once the Sector is chosen)."""
    label = _("Sector {number} · {wing} · Level {level}").format(
        number=offer["number"], wing=word(offer["wing"]), level=offer["level"])
    return label if offer["price"] is None else f"{label} · {_price(offer)}"


class TransportFlow(ShipFlow[TransportAction], Transactions):
    """Transport: transactions (Aliens by colour, gold, trades, buying) up to the ship's limit."""

    def __init__(self, found: TableOptions, judge: Judge | None = None) -> None:
        ShipFlow.__init__(self, found, judge)
        Transactions.__init__(self, self.action, self.action["transactions"],
                              ship_words(self.ship, self.player))

    def action_panel(self, title: str) -> Panel | None:
        return self.panel(title, ("done",))

    def questions(self) -> list[str]:
        return ([_("a transaction")] if not self.items else []) + super().questions()

    def details(self) -> dict:
        return {"transactions": list(self.items)}

    def action_lines(self) -> list[str]:
        return self.entry_lines()


class ExpeditionFlow(ShipFlow[ExpeditionAction], Dice):
    """Terran Expedition: the ship's dice (Dice), with the station's rerolls."""

    def __init__(self, found: TableOptions, judge: Judge | None = None) -> None:
        ShipFlow.__init__(self, found, judge)
        Dice.__init__(self, self.action)

    def action_panel(self, title: str) -> Panel | None:
        return self.panel(title, ("done",))

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


class DiplomacyFlow(ShipFlow[DiplomacyAction], Tracks):
    """Diplomacy: which track(s), each with its lobbying cost."""

    def __init__(self, found: TableOptions, judge: Judge | None = None) -> None:
        ShipFlow.__init__(self, found, judge)
        Tracks.__init__(self, self.action, ship_words(self.ship, self.player))

    def action_panel(self, title: str) -> Panel | None:
        return self.panel(title, ("done",))

    def questions(self) -> list[str]:
        return ([_("which track")] if not self.chosen else []) + super().questions()

    def chosen_missing(self) -> list[str]:
        return self.tracks_missing()

    def details(self) -> dict:
        return {"tracks": list(self.chosen)}

    def action_lines(self) -> list[str]:
        return self.entry_lines()


class GainFlow(ShipFlow[FarmAction | IceCollectorAction]):
    """Farm, Ice Collector: nothing to ask."""

    def action_lines(self) -> list[str]:
        action = self.action
        gain = (count_text("food", action["food"]) if "food" in action
                else count_text("water", action["water"]))
        return [_("gains {gain}").format(gain=gain)]


FLOWS: dict[str, type[ShipFlow[Any]]] = {
    "dismantle": DismantleFlow, "construction": ConstructionFlow, "transport": TransportFlow,
    "expedition": ExpeditionFlow, "diplomacy": DiplomacyFlow, "farm": GainFlow,
    "ice_collector": GainFlow}


def ship_flow(state: State, catalogue: Catalogue, ship_id: str,
              values: Mapping[str, Any] | None = None) -> ShipFlow[Any]:
    """The flow for the active player's use of `ship_id`; `values` the tiles print that the
    catalogue lacks, given already (the options are judged with them, the command sends
    them)."""
    if values:
        state = cast(State, {**state, "learned": {**state["learned"], **values}})
    found = options(state, catalogue, ship=ship_id)
    flow = FLOWS[found["ship"]["type"]](found, judge(state, catalogue))
    flow.values = dict(values or {})
    return flow
