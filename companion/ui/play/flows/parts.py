"""The parts a bonus action is entered with: transactions, Diplomacy tracks, picks of residents
or Sectors, or dice. ENTRIES is the one table of them, by the name the engine gives the detail
(`options.BONUS_DETAILS`); `bonus_entry` builds the entry for the engine's need."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from companion.i18n import _
from companion.rules.ledger import describe
from companion.rules.option_types import (
    AbilityNeed,
    BonusOffer,
    Pick,
    PicksBonus,
    Place,
    ResidentOffer,
    TracksOffer,
    TransactionsOffer,
)
from companion.rules.words import track_name
from companion.ui.kit.wording import ALIEN_LETTERS, word, words
from companion.ui.play.flows.choices import (
    Button,
    Choice,
    Entry,
    FlowError,
    Pages,
    Panel,
    amounts_text,
    choice_buttons,
    choose_among,
    count_text,
    done_button,
    paged,
    place_text,
)
from companion.ui.play.flows.dice import Dice


class Transactions(Entry):
    """Transport transactions (Aliens by colour, gold, trades, buying) up to the limit: a
    Transport ship's, or a bonus action's (B-5, 206, 218, 301, A-3)."""

    ACTS: ClassVar[Mapping[str, str]] = {"alien": "add_resident", "trade": "add_trade",
                                         "buy": "add_buy", "remove": "remove",
                                         "group": "open"}

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
        self.group: tuple[str, ...] = ()  # the group of transactions shown (open)
        self.buy = Choice("buy", _("buy 1 resource for {gems} GEMs").format(
                              gems=offer["buy"]["gems"]),
                          offer["buy"]["allowed"], offer["buy"]["reason"])
        self.items: list[dict] = []

    @classmethod
    def offered(cls, need: AbilityNeed, offer: BonusOffer) -> Transactions:
        if "aliens" not in offer:
            raise TypeError(f"{need['source']}: {sorted(offer)} is not a transactions offer")
        return cls(offer, offer["transactions"], need["source"])

    def add_resident(self, color: str, where: Any = None) -> None:
        """An Alien of `color` ("gold" for a gold one), to `where` when there is a choice."""
        offer = self.residents[choose_among(self.aliens, color).value]
        places = offer["where"]
        if where is None and len(places) == 1:
            where = places[0]
        if where not in places:
            raise FlowError(_("where does the {color} Alien go? ({places})").format(
                color=word(color), places=", ".join(map(place_text, places))))
        self._add({**({"type": "gold"} if color == "gold" else {"type": "alien", "color": color}),
                   "where": where})

    def add_trade(self, pay: Sequence[str], gain: str) -> None:
        pair = choose_among(self.trades, sorted(pay, key=("food", "water", "metal").index)).value
        if gain not in self.offer["trade"]["gain"]:
            raise FlowError(_("a trade gains one of {resources}").format(
                resources=words(self.offer["trade"]["gain"])))
        self._add({"type": "trade", "pay": list(pair), "gain": gain})

    def add_buy(self, gain: str) -> None:
        choose_among([self.buy], "buy")
        if gain not in self.offer["buy"]["gain"]:
            raise FlowError(_("buy one of {resources}").format(
                resources=words(self.offer["buy"]["gain"])))
        self._add({"type": "buy", "gain": gain})

    def remove(self, index: int) -> None:
        del self.items[index]
        self.group = ()

    def _add(self, item: dict) -> None:
        if self.limit is not None and len(self.items) >= self.limit:
            raise FlowError(_("{ship} makes at most {limit} transactions").format(
                ship=self.name, limit=self.limit))
        self.items.append(item)
        self.group = ()

    def entry_lines(self) -> list[str]:
        return [transaction_line(item, self.residents, self.offer) for item in self.items]

    def detail(self) -> list[dict]:
        """The bonus action's details: the transactions, in order."""
        return list(self.items)

    def open(self, *group: str) -> None:
        """Show a group of transactions: ("alien", colour) its quarters, ("trade",) what a
        trade gains, ("trade", gain) what it pays, ("buy",) what is bought."""
        self.group = group

    def panel(self, title: str, finish: tuple) -> Panel | None:
        """What kind first - the Aliens by colour, Trade…, Buy… - then, for a trade or a buy,
        what is gained and paid, for an Alien with a choice its quarter; the transactions
        chosen so far as lines (the last with a remove button), Done. None once the limit is
        reached: nothing more can be added (Back takes the last one back)."""
        if self.limit is not None and len(self.items) >= self.limit:
            return None
        question = (_("{title}: transactions") if self.limit is None
                    else _("{title}: transactions ({made} of {limit})"))
        chosen = self.entry_lines()
        lines = chosen or [_("No transaction yet.")]
        done = done_button(finish, bool(self.detail()), _("add a transaction"))
        heading = question.format(title=title, made=len(self.items), limit=self.limit)
        if self.group:
            return Panel(heading, [*self.group_buttons(*self.group), done], lines, cols=2)
        buttons = []
        for choice in self.aliens:
            color = choice.value
            places: Sequence[Place | None] = self.residents[color]["where"] or [None]
            label = f"({ALIEN_LETTERS[color]}) {choice.label}"
            if len(places) == 1:
                buttons.append(Button(f"alien:{color}:{places[0]}", label,
                                      ("alien", color, places[0]), choice.allowed,
                                      choice.reason or ""))
            else:
                buttons.append(Button(f"alien:{color}", f"{label} …", ("group", "alien", color),
                                      choice.allowed, choice.reason or ""))
        if self.trades:
            buttons.append(Button("group:trade", _("Trade 2 resources for 1 …"),
                                  ("group", "trade")))
        buttons.append(Button("group:buy", _("Buy 1 resource for {gems} …").format(
            gems=describe({"gems": self.offer["buy"]["gems"]})), ("group", "buy"),
            self.buy.allowed, self.buy.reason or ""))
        if chosen:
            last = len(chosen) - 1
            buttons.append(Button(f"remove:{last}", _("remove: {transaction}").format(
                transaction=chosen[last]), ("remove", last)))
        return Panel(heading, [*buttons, done], lines, cols=2)

    def group_buttons(self, kind: str, *which: str) -> list[Button]:
        """The buttons of a group the kinds panel opened (`open`)."""
        if kind == "alien":
            color = which[0]
            return [Button(f"alien:{color}:{where}", _("{color} Alien to {place}").format(
                        color=word(color), place=place_text(where)), ("alien", color, where))
                    for where in self.residents[color]["where"]]
        if kind == "trade" and not which:
            return [Button(f"trade-for:{gain}", _("get {gain}").format(
                gain=describe({gain: 1})), ("group", "trade", gain))
                    for gain in self.offer["trade"]["gain"]]
        if kind == "trade":
            gain = which[0]
            return [Button(f"trade:{'+'.join(pair.value)}:{gain}",
                           _("pay {one} and {other} for {gain}").format(
                               one=word(pair.value[0]), other=word(pair.value[1]),
                               gain=describe({gain: 1})), ("trade", pair.value, gain))
                    for pair in self.trades]
        return [Button(f"buy:{gain}", _("buy {gain} for {gems}").format(
                    gain=describe({gain: 1}), gems=describe({"gems": self.offer["buy"]["gems"]})),
                       ("buy", gain), self.buy.allowed, self.buy.reason or "")
                for gain in self.offer["buy"]["gain"]]


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
        return _("trades {one} and {other} for {gain}").format(
            one=word(item["pay"][0]), other=word(item["pay"][1]),
            gain=describe({item["gain"]: 1}))
    return _("pays {gems} for {gain}").format(gems=describe({"gems": offer["buy"]["gems"]}),
                                              gain=describe({item["gain"]: 1}))


class Tracks(Entry):
    """Diplomacy tracks to advance on, each with its lobbying cost (or free): a Diplomacy
    ship's, or a bonus action's (117, 306, A-7); a bonus action's is one tap on its income
    card."""

    ACTS: ClassVar[Mapping[str, str]] = {"track": "choose"}
    CARD = "pick"

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
        self.missing = {t["track"]: t["missing"] for t in offer["tracks"]}
        self.chosen: list[str] = []

    @classmethod
    def offered(cls, need: AbilityNeed, offer: BonusOffer) -> Tracks:
        if "tracks" not in offer:
            raise TypeError(f"{need['source']}: {sorted(offer)} is not a tracks offer")
        return cls(offer, need["source"])

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

    def tracks_missing(self) -> list[str]:
        """The catalogue keys the tracks chosen need (a lobbying cost the board prints)."""
        return [key for track in self.chosen for key in self.missing[track]]

    def entry_lines(self) -> list[str]:
        return [_("lobbies: {track}").format(track=choose_among(self.tracks, track).label)
                for track in self.chosen]

    def detail(self) -> list[str]:
        """The tracks chosen (a bonus action's details)."""
        return list(self.chosen)

    def panel(self, title: str, finish: tuple) -> Panel | None:
        """Each track (a chosen one on), and Done; None once as many as the ship allows are
        chosen (Done implied; Back takes the last one back)."""
        if self.most is not None and len(self.chosen) >= self.most:
            return None
        question = (_("{title}: lobby on which track?") if self.most is None
                    else _("{title}: lobby on which track (up to {most})?"))
        return Panel(question.format(title=title, most=self.most), [
            *(Button(b.tag, b.label, b.act, b.allowed, b.reason, b.act[1] in self.chosen)
              for b in choice_buttons("track", self.tracks)),
            done_button(finish, bool(self.detail()), _("choose a track"))])

    def card_choices(self) -> list[Choice]:
        return self.tracks

    def answer(self, value: Any) -> None:
        self.chosen.clear()
        self.choose(value)


class Picks(Entry, Pages):
    """One of the choices the engine offers for a bonus action, picked with one tap: 326's free
    Sector, A-11's Hub resident moving out, what A-12 returns to the supply (a subclass each:
    its question and how a choice reads)."""

    ACTS: ClassVar[Mapping[str, str]] = {"pick": "pick", "page": "turn_page"}
    CARD = "pick"

    def __init__(self, offer: PicksBonus) -> None:
        self.choices = [Choice(c["detail"], self.label(c), c["allowed"], c["reason"])
                        for c in offer["choices"]]
        self.picked: Choice | None = None

    @classmethod
    def offered(cls, need: AbilityNeed, offer: BonusOffer) -> Picks:
        if "choices" not in offer:
            raise TypeError(f"{need['source']}: {sorted(offer)} is not an offer of choices")
        return cls(offer)

    def question(self) -> str:
        """The panel's title, with {title} the screen's."""
        raise NotImplementedError

    def label(self, choice: Pick) -> str:
        """A choice of the engine's offer as a player reads it."""
        raise NotImplementedError

    def pick(self, detail: Any) -> None:
        self.picked = choose_among(self.choices, detail)

    def detail(self) -> Any:
        return None if self.picked is None else self.picked.value

    def entry_lines(self) -> list[str]:
        return [] if self.picked is None else [self.picked.label]

    def panel(self, title: str, finish: tuple) -> Panel | None:
        if self.picked is not None:
            return None
        return Panel(self.question().format(title=title),
                     paged(choice_buttons("pick", self.choices), self.page))

    def card_choices(self) -> list[Choice]:
        return self.choices

    def answer(self, value: Any) -> None:
        self.pick(value)


class SectorPick(Picks):
    """326's free Sector: 'Sector 111 (brown wing)'."""

    def question(self) -> str:
        return _("{title}: which free Sector?")

    def label(self, choice: Pick) -> str:
        return _("Sector {number} ({wing} wing)").format(
            number=choice["detail"], wing=word(choice["wing"]) if choice["wing"] else "?")


class ResidentPick(Picks):
    """A-11's Hub resident moving out: 'teal from Hub quarter 3 to Sector 101'."""

    def question(self) -> str:
        return _("{title}: which Hub resident moves out?")

    def label(self, choice: Pick) -> str:
        detail = choice["detail"]
        species, quarter = word(choice["species"]), detail["slot"] + 1
        if detail["to"] is None:
            return _("{species} from Hub quarter {quarter} back to the supply").format(
                species=species, quarter=quarter)
        return _("{species} from Hub quarter {quarter} to Sector {number}").format(
            species=species, quarter=quarter, number=detail["to"])


class ReturnedPick(Picks):
    """What A-12 returns to the supply: 'the teal in Sector 102 quarter 1', 'Sector 102 and its
    residents (teal)', 'nothing: lose 5 points'."""

    def question(self) -> str:
        return _("{title}: what is returned to the supply?")

    def label(self, choice: Pick) -> str:
        detail = choice["detail"]
        if "resident" in detail:
            where = detail["resident"]
            return _("the {species} in {place} quarter {quarter}").format(
                species=word(choice["species"]), place=place_text(where["from"]),
                quarter=where["slot"] + 1)
        if "sector" in detail:
            return _("Sector {number} and its residents ({residents})").format(
                number=detail["sector"], residents=words(choice["residents"]) or _("none"))
        return _("nothing: lose {points} points").format(points=-choice["points"])


# The entries, by the name the engine gives a bonus action's details (the need's "bonus",
# `options.BONUS_DETAILS`): one line per kind; the class is all the table app does with it.
ENTRIES: dict[str, type[Entry]] = {
    "transactions": Transactions, "dice": Dice, "tracks": Tracks, "sector": SectorPick,
    "resident": ResidentPick, "returned": ReturnedPick}



def bonus_entry(need: AbilityNeed, offer: BonusOffer) -> Entry:
    """The entry for a bonus action's details, built from the engine's offer."""
    return ENTRIES[need["bonus"]].offered(need, offer)
