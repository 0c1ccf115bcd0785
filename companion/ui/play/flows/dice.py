"""Expedition dice as entered: tapped faces or a camera's reading; all kept at first, those put
back tapped, down to the capacity."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from companion.i18n import _, ngettext
from companion.rules.ledger import describe
from companion.rules.option_types import AbilityNeed, BonusOffer, DiceOffer, HumanOffer
from companion.ui.kit.dice_camera_model import UNSURE
from companion.ui.kit.wording import word, words
from companion.ui.play.flows.choices import (
    MOST_CHOICES,
    Button,
    Choice,
    Entry,
    FlowError,
    Panel,
    amounts_text,
    choose_among,
    place_text,
)


class DiceReading(Protocol):
    """Dice as read (by taps now, by the camera later): each die's face and how sure it is."""

    @property
    def faces(self) -> list[str]: ...

    @property
    def certainty(self) -> list[float]: ...


@dataclass
class TappedDice:
    """Dice entered by tapping how many show each face; every die is certain."""

    counts: dict[str, int] = field(default_factory=dict)

    @property
    def faces(self) -> list[str]:
        return [face for face, n in self.counts.items() for _die in range(n)]

    @property
    def certainty(self) -> list[float]:
        return [1.0] * len(self.faces)


class Dice(Entry):
    """Expedition dice: rolled and entered (how many show each face, or a reading), kept up
    to the capacity (every die rolled kept at first, how many of each face are kept tapped:
    those put back), the Humans kept observed or recruited (how many recruited, then where
    each goes when there is a choice), rerolls where the station allows. An Expedition
    ship's, or a bonus roll's (225, 321, A-3)."""

    ACTS: ClassVar[Mapping[str, str]] = {
        "die": "count", "read": "read_taps", "camera": "read", "keep": "keep",
        "reroll": "reroll", "kept": "choose_kept", "humans": "recruit",
        "human-to": "place_human"}

    def __init__(self, offer: DiceOffer) -> None:
        self.dice: int | None = offer["dice"]
        self.capacity: int | None = offer["keep"]
        self.rerolls_allowed: int = offer["rerolls"] or 0
        self.rerolls = 0
        self.faces: list[str] = list(offer["faces"])
        self.human_offer: HumanOffer = offer["humans"]
        self.tapped = TappedDice()
        self.rest: str | None = None  # the face whose count was the rest of the dice rolled
        self.reading: DiceReading | None = None
        self.kept: Counter = Counter()  # every die rolled, at first; may be over the capacity
        self.kept_chosen = False  # "Keep these" pressed: the Humans kept are asked next
        self.humans: list[str | None] = []
        self.human_to: dict[int, Any] = {}  # where each Human recruited goes, when chosen
        self.human_choices = [
            Choice("observe", _("Observe: {gain}").format(
                gain=amounts_text(self.human_offer["observe"]))),
            Choice("recruit", _("Recruit: {cost}").format(
                cost=amounts_text(self.human_offer["recruit"])),
                   self.human_offer["recruit_reason"] is None,
                   self.human_offer["recruit_reason"])]

    @classmethod
    def offered(cls, need: AbilityNeed, offer: BonusOffer) -> Dice:
        if "faces" not in offer:
            raise TypeError(f"{need['source']}: {sorted(offer)} is not a dice offer")
        return cls(offer)

    def count(self, face: str, count: int) -> None:
        """`count` dice rolled show `face` (tapped again: the new count); every face but one
        tapped, that one shows the rest; once the counts add up to the dice rolled, they are
        the dice rolled ("These N dice" implied; the dice kept are asked with the rest named;
        Back takes the tap back)."""
        others = len(self.tapped.faces) - self.tapped.counts.get(face, 0)
        if count < 0 or (self.dice is not None and others + count > self.dice):
            raise FlowError(_("{dice} dice rolled: {others} already show other faces").format(
                dice=self.dice, others=others))
        self.tapped.counts[face] = count
        untapped = [f for f in self.faces if f not in self.tapped.counts]
        rest = untapped[0] if len(untapped) == 1 else None
        if rest is not None and self.dice is not None:
            self.tapped.counts[rest] = self.dice - len(self.tapped.faces)
        if len(self.tapped.faces) == self.dice:
            self.read_taps()
            self.rest = rest

    def read(self, reading: DiceReading) -> None:
        """The dice rolled (taps or camera); what is kept is chosen again, from every die
        rolled kept (the Humans among them asked once chosen)."""
        unknown = [f for f in reading.faces if f not in self.faces]
        if unknown:
            raise FlowError(_("a die shows {faces}, not {face}").format(
                faces=words(self.faces), face=word(unknown[0])))
        self.reading, self.kept = reading, Counter(reading.faces)
        self.humans, self.human_to = [None] * self.kept["human"], {}
        self.kept_chosen, self.rest = False, None

    def read_taps(self) -> None:
        """The counts tapped are the dice rolled, face by face (all of them, or it says how
        many)."""
        if len(self.tapped.faces) != self.dice:
            raise FlowError(_("enter the {dice} dice rolled ({entered} entered)").format(
                dice=self.dice, entered=len(self.tapped.faces)))
        self.read(TappedDice({face: self.tapped.counts.get(face, 0) for face in self.faces}))

    @property
    def unsure(self) -> list[int]:
        """The dice read with little certainty, for the player to check."""
        return [] if self.reading is None else [
            i for i, sure in enumerate(self.reading.certainty) if sure < UNSURE]

    def reroll(self) -> None:
        """Use one reroll (B-4, 315): the dice are entered again as they now lie, the counts
        as they were read to start from ("These N dice" when none changed); once read, every
        die is kept again."""
        if self.rerolls >= self.rerolls_allowed:
            raise FlowError(_("you may reroll {times} time(s)").format(
                times=self.rerolls_allowed))
        self.rerolls += 1
        lying = Counter(self.reading.faces if self.reading else [])
        self.reading, self.kept, self.humans, self.human_to = None, Counter(), [], {}
        self.tapped = TappedDice({face: lying[face] for face in self.faces})
        self.kept_chosen, self.rest = False, None

    def keep(self, face: str, count: int) -> None:
        """Keep `count` dice showing `face`, 0 to those rolled (the rest put back; tapped
        again: the new count); the dice kept may be over the capacity meanwhile. Put back
        down to the capacity, they are the dice kept ("Keep these" implied; Back takes the
        tap back)."""
        rolled = Counter(self.reading.faces if self.reading else [])
        if count < 0 or count > rolled[face]:
            raise FlowError(_("{count} dice show {face}").format(count=rolled[face],
                                                                 face=word(face)))
        before = self.kept.total()
        self.kept[face] = count
        self.humans, self.human_to, self.kept_chosen = [None] * self.kept["human"], {}, False
        if self.capacity is not None and before > self.capacity == self.kept.total():
            self.choose_kept()

    def kept_refused(self) -> str | None:
        """Why the dice kept now cannot be chosen (none kept, more than the capacity); None:
        they can."""
        kept = self.kept.total()
        if not kept:
            return _("keep at least one die")
        if self.capacity is not None and kept > self.capacity:
            return ngettext("put back {count} die: keep at most {capacity} (the capacity)",
                            "put back {count} dice: keep at most {capacity} (the capacity)",
                            kept - self.capacity).format(count=kept - self.capacity,
                                                         capacity=self.capacity)
        return None

    def choose_kept(self) -> None:
        """The dice kept are chosen (at least one, at most the capacity): the Humans kept are
        asked next - unless the engine allows only one answer (Recruit refused: each is
        observed)."""
        refused = self.kept_refused()
        if refused is not None:
            raise FlowError(refused)
        self.kept_chosen = True
        allowed = [c.value for c in self.human_choices if c.allowed]
        if allowed == ["observe"]:
            self.humans = ["observe"] * len(self.humans)

    def recruit(self, count: int, where: Any = None) -> None:
        """`count` of the Humans kept are recruited (the first ones; the first to `where`,
        when given), the rest observed."""
        if count:
            choose_among(self.human_choices, "recruit")
        if not 0 <= count <= len(self.humans):
            raise FlowError(_("{count} Humans are kept").format(count=len(self.humans)))
        plans: list[str | None] = ["recruit"] * count
        self.humans = plans + ["observe"] * (len(self.humans) - count)
        self.human_to = {}
        if count and where is not None:
            self.place_human(where)

    def place_human(self, where: Any) -> None:
        """The next Human recruited goes to `where` (one of the engine's places)."""
        places = self.human_offer["where"]
        if where not in places:
            raise FlowError(_("where does the Human go? ({places})").format(
                places=", ".join(map(place_text, places))))
        index = next((i for i, plan in enumerate(self.humans)
                      if plan == "recruit" and i not in self.human_to), None)
        if index is None:  # every Human recruited has its place
            raise FlowError(_("that is not on offer now"))
        self.human_to[index] = where

    def unplaced(self) -> int | None:
        """The first Human recruited still to be placed, when the engine offers a choice of
        places (None: none)."""
        if len(self.human_offer["where"]) < 2:
            return None
        return next((i for i, plan in enumerate(self.humans)
                     if plan == "recruit" and i not in self.human_to), None)

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
        if not self.kept_chosen:
            asked.append(_("the dice kept"))
        if any(p is None for p in self.humans):
            asked.append(_("the Humans kept: observe or recruit"))
        unplaced = self.unplaced()
        return asked + ([] if unplaced is None else [
            _("Human {number}: where it goes").format(number=unplaced + 1)])

    def unanswered(self) -> list[str]:
        return self.dice_questions()

    def where(self) -> dict:
        """Where the Humans recruited go, when there was a choice."""
        return {"human": list(self.human_places)} if self.human_places else {}

    def detail(self) -> dict:
        """The dice rolled and kept (none until they are chosen: never more than the
        capacity), and each Human's plan (a bonus roll's details)."""
        return {"rolled": self.reading.faces if self.reading else [],
                "keep": list(self.kept.elements()) if self.kept_chosen else [],
                "humans": [p for p in self.humans if p]}

    def entry_lines(self) -> list[str]:
        gained = {f: n for f, n in self.kept.items() if f != "human" and n}
        lines = [_("gains {gain}").format(gain=describe(gained))] if gained else []
        labels = {c.value: c.label for c in self.human_choices}
        return lines + [_("Human {number}: {plan}").format(number=i + 1, plan=labels[p]) + (
            _(" to {place}").format(place=place_text(self.human_to[i])) if i in self.human_to
            else "")
            for i, p in enumerate(self.humans) if p]

    def panel(self, title: str, finish: tuple) -> Panel | None:
        """How many dice show each face, then how many of each are kept (and a reroll where
        allowed), then how many Humans kept are recruited and where each goes; None once all
        is answered."""
        roll = _("Roll {dice} · keep {keep}").format(dice=self.dice, keep=self.capacity)
        if self.reading is None:
            return self.roll_panel(f"{title}: {roll}")
        if not self.kept_chosen:
            return self.keep_panel(_("{title}: {roll} · which dice are kept?").format(
                title=title, roll=roll))
        if any(plan is None for plan in self.humans):
            return self.humans_panel(title)
        unplaced = self.unplaced()
        if unplaced is not None:
            return Panel(_("{title}: where does recruited Human {number} go?").format(
                title=title, number=unplaced + 1), [
                Button(f"human-to:{where}", place_text(where), ("human-to", where))
                for where in self.human_offer["where"]])
        return None

    def roll_panel(self, title: str) -> Panel:
        """A row per face: how many dice show it (0 to the dice rolled), the count tapped lit
        (a face not tapped has none lit: it may be the rest)."""
        entered = len(self.tapped.faces)
        rows = [Button(f"die:{face}:{n}", str(n), ("die", face, n),
                       entered - self.tapped.counts.get(face, 0) + n <= (self.dice or 0),
                       _("{dice} dice rolled: {others} already show other faces").format(
                           dice=self.dice, others=entered - self.tapped.counts.get(face, 0)),
                       on=self.tapped.counts.get(face) == n, row=word(face))  # untapped: none lit
                for face in self.faces for n in range(0, (self.dice or 0) + 1)]
        return Panel(title, [*rows, Button(
            "action:dice", _("These {count} dice").format(count=entered), ("read",),
            entered == self.dice,
            _("enter the {dice} dice rolled ({entered} entered)").format(dice=self.dice,
                                                                         entered=entered),
            forward=True)],
            [_("Tap how many dice show each face (the last face left is the rest): {entered} "
               "of {dice} entered.").format(entered=entered, dice=self.dice)], reads=self)

    def keep_panel(self, title: str) -> Panel:
        """The dice rolled, face by face (the rest named); a row per face rolled: how many of
        it are kept (0 to those rolled; all of them at first), the count kept lit; a reroll
        where allowed; Keep these (dim with why while none or more than the capacity are
        kept)."""
        assert self.reading is not None
        rolled = Counter(self.reading.faces)
        buttons = [Button(f"keep:{face}:{n}", str(n), ("keep", face, n),
                          on=self.kept[face] == n, row=word(face))
                   for face in self.faces if rolled[face] for n in range(0, rolled[face] + 1)]
        if self.rerolls < self.rerolls_allowed:
            buttons.append(Button("action:reroll", _("Reroll"), ("reroll",)))
        refused = self.kept_refused()
        buttons.append(Button("action:kept", _("Keep these"), ("kept",), refused is None,
                              refused or "", forward=True))
        # one line, so that the rows stay in view under the rule of a bonus roll
        faces = ", ".join(f"{word(face)} ×{rolled[face]}" + (
            _(" (the rest)") if face == self.rest else "") for face in self.faces if rolled[face])
        return Panel(title, buttons, [_("Rolled: {faces} · tap what is put back").format(
            faces=faces)])

    def humans_panel(self, title: str) -> Panel:
        """The Humans kept, all on one panel: how many are recruited, the rest observed (one
        recruited: to each place the engine offers, when there is a choice); Recruit as the
        engine allows it, dim with its reason when not."""
        count = len(self.humans)
        recruit = self.human_choices[1]
        places = self.human_offer["where"]
        asked = _("{title}: the Humans kept ({count}) - observe or recruit?").format(
            title=title, count=count)
        buttons = [Button("humans:0", self.humans_label(0), ("humans", 0))]
        for n in range(1, count + 1):
            targets = places if n == 1 and len(places) > 1 else [None]
            buttons += [Button(f"humans:{n}" if where is None else f"humans:{n}:{where}",
                               self.humans_label(n, where), ("humans", n, where),
                               recruit.allowed, recruit.reason or "") for where in targets]
        if len(buttons) <= MOST_CHOICES:
            return Panel(asked, buttons)
        # too many to show whole: how many are recruited, a row of counts (where each goes
        # is asked next, one Human at a time)
        return Panel(asked, [Button(f"humans:{n}", str(n), ("humans", n), n == 0 or
                                    recruit.allowed, recruit.reason or "", row=_("Recruit"))
                             for n in range(count + 1)],
                     [self.humans_label(0), _("Recruit: {cost}").format(
                         cost=amounts_text(self.human_offer["recruit"]))])

    def humans_label(self, recruited: int, where: Any = None) -> str:
        """'Observe all 2: 2 points', 'Recruit 1 to Sector 221, observe 1', 'Recruit all 2:
        1 metal, 1 food and 1 water each'; one Human kept: 'Observe: 1 point', 'Recruit: ...
        to Sector 221'."""
        count = len(self.humans)
        observe, recruit = self.human_choices
        to = "" if where is None else _(" to {place}").format(place=place_text(where))
        if count == 1:
            return (recruit.label + to) if recruited else observe.label
        if recruited == 0:
            gain = {k: v * count for k, v in self.human_offer["observe"].items()}
            return _("Observe all {count}: {gain}").format(count=count, gain=describe(gain))
        if recruited == count:
            return _("Recruit all {count}: {cost} each").format(
                count=count, cost=amounts_text(self.human_offer["recruit"]))
        return _("Recruit {recruit}{to}, observe {observe}").format(
            recruit=recruited, to=to, observe=count - recruited)
