"""The parts a bonus action is entered with: transactions, Diplomacy tracks, picks of residents
or Sectors, or dice (`bonus_entry` gives the part for the engine's need)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.i18n import _
from companion.rules.option_types import (
    AbilityNeed,
    BonusOffer,
    Pick,
    PicksBonus,
    ResidentOffer,
    TracksOffer,
    TransactionsOffer,
)
from companion.rules.words import track_name
from companion.ui.kit.wording import word, words
from companion.ui.play.flows.choices import (
    Choice,
    FlowError,
    amounts_text,
    choose_among,
    count_text,
    place_text,
)
from companion.ui.play.flows.dice import Dice


class Transactions:
    """Transport transactions (Aliens by colour, gold, trades, buying) up to the limit: a
    Transport ship's, or a bonus action's (B-5, 206, 218, 301, A-3)."""

    def __init__(self, offer: TransactionsOffer, limit: int | None, name: str) -> None:
        self.offer, self.limit, self.name = offer, limit, name
        self.residents: dict[str, ResidentOffer] = {
            item.get("color", "gold"): item for item in [*offer["aliens"], offer["gold"]]}
        self.aliens = [Choice(color, _("{color} Alien ({left} left): {cost}").format(
                                  color=word(color), left=item["in_supply"],
                                  cost=amounts_text(item["cost"])), item["allowed"],
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
        offer = self.residents[choose_among(self.aliens, color).value]
        places = offer["where"]
        if where is None and len(places) == 1:
            where = places[0]
        if where not in places:
            raise FlowError(_("where does the {color} Alien go? ({places})").format(
                color=word(color), places=", ".join(map(str, places))))
        self._add({**({"type": "gold"} if color == "gold" else {"type": "alien", "color": color}),
                   "where": where})

    def add_trade(self, pay: Sequence[str], gain: str) -> None:
        pair = choose_among(self.trades, sorted(pay, key=("food", "water", "metal").index)).value
        if gain not in self.offer["trade"]["gain"]:
            raise FlowError(_("a trade gains one of {resources}").format(
                resources=self.offer["trade"]["gain"]))
        self._add({"type": "trade", "pay": list(pair), "gain": gain})

    def add_buy(self, gain: str) -> None:
        choose_among([self.buy], "buy")
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
        return [transaction_line(item, self.residents, self.offer) for item in self.items]

    def detail(self) -> list[dict]:
        """The bonus action's details: the transactions, in order."""
        return list(self.items)


def transaction_line(item: dict, residents: Mapping[str, ResidentOffer],
                     offer: TransactionsOffer) -> str:
    kind = item["type"]
    if kind in ("alien", "gold"):
        color = item.get("color", "gold")
        cost = amounts_text(residents[color]["cost"])
        if item["where"] is None:
            return _("pays {cost} for a {color} Alien").format(cost=cost, color=word(color))
        return _("pays {cost} for a {color} Alien to {place}").format(
            cost=cost, color=word(color), place=place_text(item["where"]))
    if kind == "trade":
        return _("trades {one} and {other} for 1 {gain}").format(
            one=word(item["pay"][0]), other=word(item["pay"][1]), gain=word(item["gain"]))
    return _("pays {gems} GEMs for 1 {gain}").format(gems=offer["buy"]["gems"],
                                                     gain=word(item["gain"]))


class Tracks:
    """Diplomacy tracks to advance on, each with its lobbying cost (or free): a Diplomacy
    ship's, or a bonus action's (117, 306, A-7)."""

    def __init__(self, offer: TracksOffer, name: str) -> None:
        self.most: int | None = offer["tracks_at_most"]
        self.name = name
        self.tracks = [Choice(t["track"], _("{track}: level {level} -> {next}, {cost}").format(
                                  track=track_name(t["track"]), level=t["level"],
                                  next=t["level"] + 1,
                                  cost=_("free") if t["cost"] == 0
                                  else count_text("gems", t["cost"])),
                              t["allowed"], t["reason"])
                       for t in offer["tracks"]]
        self.chosen: list[str] = []

    def choose(self, track: str) -> None:
        """Take (or, tapped again, leave) a track, up to the number of tracks."""
        if track in self.chosen:
            self.chosen.remove(track)
            return
        choose_among(self.tracks, track)
        if self.most is not None and len(self.chosen) >= self.most:
            raise FlowError(_("{ship} advances on at most {most} track(s)").format(
                ship=self.name, most=self.most))
        self.chosen.append(track)

    def entry_lines(self) -> list[str]:
        return [_("lobbies: {track}").format(track=choose_among(self.tracks, track).label)
                for track in self.chosen]

    def detail(self) -> list[str]:
        """The tracks chosen (a bonus action's details)."""
        return list(self.chosen)


class Picks:
    """One of the choices the engine offers for a bonus action: 326's free Sector, A-11's Hub
    resident moving out, what A-12 returns to the supply."""

    def __init__(self, offer: PicksBonus, what: str) -> None:
        self.what = what
        self.choices = [Choice(c["detail"], pick_label(what, c), c["allowed"], c["reason"])
                        for c in offer["choices"]]
        self.picked: Choice | None = None

    def pick(self, detail: Any) -> None:
        self.picked = choose_among(self.choices, detail)

    def detail(self) -> Any:
        return None if self.picked is None else self.picked.value

    def entry_lines(self) -> list[str]:
        return [] if self.picked is None else [self.picked.label]


def pick_label(what: str, choice: Pick) -> str:
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
            species=word(choice["species"]), place=place_text(where["from"]),
            quarter=where["slot"] + 1)
    if "sector" in detail:
        return _("Sector {number} and its residents ({residents})").format(
            number=detail["sector"], residents=words(choice["residents"]) or _("none"))
    return _("nothing: lose {points} points").format(points=-choice["points"])


Bonus = Transactions | Dice | Tracks | Picks  # a bonus action's entry, by what it asks


def bonus_entry(need: AbilityNeed, offer: BonusOffer) -> Bonus:
    """The entry for a bonus action's details, built from the engine's offer: what it asks is
    the need's `bonus`, and the offer's shape (option_types.BonusOffer) says the same."""
    if "aliens" in offer:  # "transactions"
        return Transactions(offer, offer["transactions"], need["source"])
    if "faces" in offer:  # "dice"
        return Dice(offer)
    if "tracks" in offer:  # "tracks"
        return Tracks(offer, need["source"])
    return Picks(offer, need["bonus"])  # "sector", "resident", "returned"
