"""Expedition dice as entered: tapped faces or a camera's reading, kept up to the capacity."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from companion.i18n import _
from companion.rules.ledger import describe
from companion.rules.option_types import AbilityNeed, BonusOffer, DiceOffer, HumanOffer
from companion.ui.kit.dice_camera_model import UNSURE
from companion.ui.kit.wording import word, words
from companion.ui.play.flows.choices import (
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


class Dice(Entry):
    """Expedition dice: rolled and entered (faces tapped, or a reading), kept up to the
    capacity, each Human kept observed or recruited, rerolls where the station allows. An
    Expedition ship's, or a bonus roll's (225, 321, A-3)."""

    ACTS: ClassVar[Mapping[str, str]] = {
        "die": "tap", "read": "read_taps", "camera": "read", "keep": "keep",
        "reroll": "reroll", "kept": "choose_kept", "human": "plan_human"}

    def __init__(self, offer: DiceOffer) -> None:
        self.dice: int | None = offer["dice"]
        self.capacity: int | None = offer["keep"]
        self.rerolls_allowed: int = offer["rerolls"] or 0
        self.rerolls = 0
        self.faces: list[str] = list(offer["faces"])
        self.human_offer: HumanOffer = offer["humans"]
        self.tapped = TappedDice()
        self.reading: DiceReading | None = None
        self.kept: Counter = Counter()
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

    def tap(self, face: str, step: int = 1) -> None:
        """One more (step=-1: one fewer) die rolled showing `face`; the last die rolled tapped
        in, they are the dice rolled ("These N dice" implied; Back takes the tap back)."""
        self.tapped.tap(face, step)
        if step > 0 and len(self.tapped.faces) == self.dice:
            self.read_taps()

    def read(self, reading: DiceReading) -> None:
        """The dice rolled (taps or camera); what was kept is chosen again."""
        unknown = [f for f in reading.faces if f not in self.faces]
        if unknown:
            raise FlowError(_("a die shows {faces}, not {face}").format(
                faces=words(self.faces), face=word(unknown[0])))
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
        """Keep one more (step < 0: fewer) die showing `face`, up to the capacity; at the
        capacity they are the dice kept ("Keep these" implied; Back takes the tap back)."""
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
        if step > 0 and self.kept.total() == self.capacity:
            self.choose_kept()

    def choose_kept(self) -> None:
        """The dice kept are chosen: each Human kept is asked next - unless the engine allows
        only one answer (Recruit refused: each is observed)."""
        if not self.kept.total():
            raise FlowError(_("keep at least one die"))
        self.kept_chosen = True
        allowed = [c.value for c in self.human_choices if c.allowed]
        if allowed == ["observe"]:
            self.humans = ["observe"] * len(self.humans)

    def plan_human(self, index: int, plan: str, where: Any = None) -> None:
        """Human `index` kept: "observe" or "recruit" (to `where` when there is a choice)."""
        choose_among(self.human_choices, plan)
        places = self.human_offer["where"]
        if plan == "recruit" and len(places) > 1 and where not in places:
            raise FlowError(_("where does the Human go? ({places})").format(
                places=", ".join(map(place_text, places))))
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

    def unanswered(self) -> list[str]:
        return self.dice_questions()

    def where(self) -> dict:
        """Where the Humans recruited go, when there was a choice."""
        return {"human": list(self.human_places)} if self.human_places else {}

    def detail(self) -> dict:
        """The dice rolled and kept, and each Human's plan (a bonus roll's details)."""
        return {"rolled": self.reading.faces if self.reading else [],
                "keep": list(self.kept.elements()), "humans": [p for p in self.humans if p]}

    def entry_lines(self) -> list[str]:
        gained = {f: n for f, n in self.kept.items() if f != "human" and n}
        lines = [_("gains {gain}").format(gain=describe(gained))] if gained else []
        labels = {c.value: c.label for c in self.human_choices}
        return lines + [_("Human {number}: {plan}").format(number=i + 1, plan=labels[p]) + (
            _(" to {place}").format(place=place_text(self.human_to[i])) if i in self.human_to
            else "")
            for i, p in enumerate(self.humans) if p]

    def panel(self, title: str, finish: tuple) -> Panel | None:
        """Tap the faces rolled, then the dice kept (and a reroll where allowed), then observe
        or recruit each Human kept; None once all is answered."""
        roll = _("Roll {dice} · keep {keep}").format(dice=self.dice, keep=self.capacity)
        if self.reading is None:
            entered = len(self.tapped.faces)
            buttons = [b for face in self.faces for b in (
                Button(f"die:{face}", f"{word(face)}: {self.tapped.counts.get(face, 0)}",
                       ("die", face, 1)),
                Button(f"die-less:{face}", f"{word(face)} −1", ("die", face, -1)))]
            return Panel(f"{title}: {roll}", [*buttons, Button(
                "action:dice", _("These {count} dice").format(count=entered), ("read",),
                entered == self.dice,
                _("enter the {dice} dice rolled ({entered} entered)").format(dice=self.dice,
                                                                             entered=entered),
                forward=True)],
                [_("Tap a face once per die showing it.")], cols=2, reads=self)
        if not self.kept_chosen:
            rolled = Counter(self.reading.faces)
            # tapped again once all of a face are kept, it keeps none of them
            buttons = [Button(f"keep:{face}", _("keep {face}: {kept} of {rolled}").format(
                    face=word(face), kept=self.kept[face], rolled=rolled[face]),
                    ("keep", face, 1 if self.kept[face] < rolled[face] else -self.kept[face]),
                    on=bool(self.kept[face]))
                for face in self.faces if rolled[face]]
            if self.rerolls < self.rerolls_allowed:
                buttons.append(Button("action:reroll", _("Reroll"), ("reroll",)))
            buttons.append(Button("action:kept", _("Keep these"), ("kept",),
                                  bool(self.kept.total()), _("keep at least one die"),
                                  forward=True))
            return Panel(_("{title}: {roll} · which dice are kept?").format(title=title,
                                                                             roll=roll),
                         buttons, [_("Rolled: {faces}").format(faces=words(self.reading.faces))],
                         cols=2)
        for index, plan in enumerate(self.humans):
            if plan is None:
                return Panel(_("{title}: Human {number}: observe or recruit?").format(
                    title=title, number=index + 1), self.human_buttons(index))
        return None

    def human_buttons(self, index: int) -> list[Button]:
        """Observe, or Recruit (to each free quarter when there is a choice)."""
        places = self.human_offer["where"]
        found = []
        for choice in self.human_choices:
            targets = places if choice.value == "recruit" and len(places) > 1 else [None]
            for where in targets:
                to = "" if where is None else _(" to {place}").format(place=place_text(where))
                found.append(Button(f"human:{choice.value}:{where}", choice.label + to,
                                    ("human", index, choice.value, where), choice.allowed,
                                    choice.reason or ""))
        return found
