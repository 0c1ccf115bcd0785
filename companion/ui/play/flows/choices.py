"""Choices on a flow's panels: what a player may pick, the panels and buttons that ask it
(`Panel`, `Button`: the screens show them), what a button does (`Answers`), a bonus action's
entry (`Entry`, each kind registered in parts.ENTRIES), and the flow's errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.i18n import _
from companion.rules.ledger import describe
from companion.rules.option_types import AbilityNeed, BonusOffer, TableOptions
from companion.ui.kit.wording import word


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


def turn_player(found: TableOptions) -> str:
    """The player whose turn it is (a turn's flows and the table are built during play)."""
    player = found["turn"]["player"]
    if player is None:
        raise FlowError(_("the game is not in play"))
    return player


def amounts_text(amounts: Mapping[str, int] | None) -> str:
    """'1 metal, 1 food', or that it is asked when chosen (before the preview) when the
    catalogue lacks it."""
    return _("asked when chosen") if amounts is None else describe(amounts)


def count_text(counter: str, n: int | None) -> str:
    """'3 metal', or 'metal (asked when chosen)' for a value the catalogue lacks: it is asked
    once chosen, before the preview, so a preview never shows it unknown."""
    if n is None:
        name = {"gems": _("GEMs"), "points": _("points")}.get(counter) or word(counter)
        return _("{counter} (asked when chosen)").format(counter=name)
    return describe({counter: n})


def choose_among(choices: Sequence[Choice], value: Any) -> Choice:
    """The offered choice for `value`; FlowError if it is not offered or not allowed now."""
    for choice in choices:
        if choice.value == value:
            if not choice.allowed:
                raise FlowError(choice.reason or _("{choice} cannot be taken now").format(
                    choice=choice.label))
            return choice
    raise FlowError(_("that is not on offer now"))


def place_text(where: Any) -> str:
    return _("the Hub") if where == "hub" else _("Sector {number}").format(number=where)


@dataclass(frozen=True)
class Button:
    """A big button: its text, what pressing it does, whether it can be pressed now (or why
    not), and whether it is on (a kept die, a chosen track)."""

    tag: str
    label: str
    act: tuple
    allowed: bool = True
    reason: str = ""
    on: bool = False
    color: str = ""  # a player's colour: the button is theirs
    forward: bool = False  # the panel's way on (Confirm, Done): in the bar, never moving
    row: str = ""  # a count in a row of counts (a die face's word): one row, one choice


@dataclass(frozen=True)
class Panel:
    """One decision: the question, its buttons, and lines to read (a running list, the
    preview, the engine's reason)."""

    title: str
    buttons: list[Button]
    lines: list[str] = field(default_factory=list)
    cols: int = 1
    reads: Any = None  # dice being entered (flows.dice.Dice): a camera may read them
    asks: tuple[str, str] | None = None  # a value the tile prints (key, question), asked now


def choice_buttons(kind: str, choices: Sequence[Choice]) -> list[Button]:
    """A flow's Choices as buttons (a disallowed one says why when pressed)."""
    return [Button(f"{kind}:{value_tag(c.value)}", c.label, (kind, c.value), c.allowed,
                   c.reason or "") for c in choices]


MOST_CHOICES = 8  # the most answers a panel shows; more are grouped (UI.md: "at most ~8")


def paged(buttons: Sequence[Button], page: int) -> list[Button]:
    """At most MOST_CHOICES answers: the ones allowed now first, the rest behind "More…" (its
    act ("page", the next page); the last page's goes back to the first)."""
    ordered = [b for b in buttons if b.allowed] + [b for b in buttons if not b.allowed]
    if len(ordered) <= MOST_CHOICES:
        return ordered
    size = MOST_CHOICES - 1
    pages = [ordered[i:i + size] for i in range(0, len(ordered), size)]
    page %= len(pages)
    return [*pages[page], Button("action:more", _("More… ({page} of {pages})").format(
        page=page + 1, pages=len(pages)), ("page", page + 1))]


class Pages:
    """A long list of choices shown page by page (`paged`): the page shown, and "More…"'s act
    ("page", n) turning it."""

    page = 0

    def turn_page(self, page: int) -> None:
        """Show page `page` of a long list of choices ("More…")."""
        self.page = page


def value_tag(value: Any) -> str:
    """A value in a tag: '101', 'construction', 'slot2-101', 'none' (A-12's nothing)."""
    if not isinstance(value, dict):
        return str(value)
    if "slot" in value:
        return f"slot{value['slot'] + 1}-{value['to'] or 'supply'}"
    if "resident" in value:
        return f"{value['resident']['from']}-{value['resident']['slot'] + 1}"
    return f"sector{value['sector']}" if "sector" in value else "none"


class Answers:
    """What the buttons of a flow's panels do: a button's act `(kind, *args)` calls the method
    ACTS names for `kind` (a class's own ACTS; the acts of a screen, such as confirm, are the
    screen's)."""

    ACTS: ClassVar[Mapping[str, str]] = {}

    def press(self, kind: str, *args: Any) -> None:
        """Do a button's act; FlowError when its answer is not on offer."""
        if kind not in self.ACTS:
            raise KeyError(f"{type(self).__name__} has no act {kind!r}")
        getattr(self, self.ACTS[kind])(*args)


class Entry(Answers):
    """A bonus action's details as entered, built from the engine's offer (`offered`): its panel
    now, what its buttons do (ACTS), its card at income (CARD: "pick", its choices one tap on
    the card, or "entry", entered in a pop-up), and the details it gives. Each kind is
    registered once, by the name the engine gives it (parts.ENTRIES); the ship actions that ask
    the same (Transport, Terran Expedition, Diplomacy) are entries too."""

    CARD: ClassVar[str] = "entry"

    @classmethod
    def offered(cls, need: AbilityNeed, offer: BonusOffer) -> Entry:
        """The entry for an ability's bonus action (`need`, options' ability needs) from the
        engine's offer (each entry takes the offer of its kind: a TypeError if it is not)."""
        raise NotImplementedError

    def panel(self, title: str, finish: tuple) -> Panel | None:
        """What it asks now (None: it is answered); a Done button's act is `finish`."""
        raise NotImplementedError

    def detail(self) -> Any:
        """The bonus action's details, as the command carries them."""
        raise NotImplementedError

    def entry_lines(self) -> list[str]:
        """What the details entered do, a line each."""
        raise NotImplementedError

    def unanswered(self) -> list[str]:
        """What is still to enter before the details can be given ([]: nothing)."""
        return [] if self.detail() else [_("choose one")]

    def where(self) -> dict:
        """Where what it gains goes, when there was a choice (the command's `where`)."""
        return {}

    def card_choices(self) -> list[Choice]:
        """A one-tap entry's choices, as buttons on its income card ([]: entered in a pop-up)."""
        return []

    def answer(self, value: Any) -> None:
        """A one-tap entry's answer (again: it replaces the one before)."""
        raise FlowError(_("that is not on offer now"))


def done_button(finish: tuple, ready: bool, why: str) -> Button:
    """Done (its act `finish`): pressed before anything is entered, it says `why`."""
    return Button("action:done", _("Done"), finish, ready, why, forward=True)
