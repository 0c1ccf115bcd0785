"""The score calculator's pop-ups: the Station Hubs to choose from, and the residents of a
Sector or of the Hub added by species buttons. Layout in calculator.kv."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.modalview import ModalView
from kivy.utils import escape_markup

from companion.i18n import _
from companion.rules.words import color_name, resource_name
from companion.ui.calculator.form import FormError, ScoreForm, species_label
from companion.ui.kit.widgets import (
    ACCENT,
    BUTTON,
    PANEL,
    SPECIES_RGBA,
    SPECIES_TEXT,
    ConfirmPopup,
    TagButton,
    TagLabel,
    resident_dot,
)


class Entries(Protocol):
    """What the residents pop-up needs of the calculator's controller."""

    form: ScoreForm
    problem: Any  # form.Problem or None

    def touched(self, player: int, key: str, number: int | None = None) -> None: ...

    def ask_quarters(self, player: int, number: int, then: Callable[[], None]) -> None: ...

    def refresh(self, *_args: Any) -> None: ...


def level_colour(level: int, colour: str | None) -> str:
    """A Sector's place in words: "Level-2 teal"."""
    return _("Level-{level} {colour}").format(level=level,
                                              colour=color_name(colour) if colour else "")


def fill_dots(box: Any, residents: list[str], quarters: int | None, tag: str) -> None:
    """Show residents as outlined dots with a letter, then a hollow dot per free quarter; more
    than four dots shrink to fit where four do."""
    box.clear_widgets()
    species = residents + [""] * max(0, (quarters or 0) - len(residents))
    side = App.get_running_app().unit * 28 * min(1, 4 / max(1, len(species)))
    for index, kind in enumerate(species):
        dot = resident_dot(kind, f"{tag}:{index}")
        dot.size = (side, side)
        box.add_widget(dot)


class HubPopup(ModalView):
    """The 24 Station Hubs as a grid of big buttons, each with its theme or first ability."""

    title = StringProperty("")
    message = StringProperty("")

    def __init__(self, title: str, form: ScoreForm, current: str | None,
                 on_pick: Callable[[str], str | None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title, self._on_pick = title, on_pick
        unit = App.get_running_app().unit
        for grid, prefix in ((self.ids.basic, "B"), (self.ids.advanced, "A")):
            for i in range(1, 13):
                hub = f"{prefix}-{i}"
                summary = escape_markup(form.hub_summary(hub, 30))
                button = TagButton(text=f"[b]{hub}[/b]\n[size={int(unit * 13)}]{summary}[/size]",
                                   tag=f"hub:{hub}", shorten=False,
                                   bg=ACCENT if hub == current else BUTTON)
                button.font_size = unit * 22  # after the TagButton rule's own size
                button.bind(on_release=lambda _b, hub=hub: self.pick(hub))
                grid.add_widget(button)

    def pick(self, hub: str) -> None:
        """Take this Hub, or stay open and say why it is refused."""
        self.message = self._on_pick(hub) or ""
        if not self.message:
            self.dismiss()


class ResidentsPopup(ModalView):
    """Residents of one Sector (or of the Hub), added left to right by species buttons."""

    title = StringProperty("")
    quarters_text = StringProperty("")
    quarters_editable = BooleanProperty(False)
    show_bonus = BooleanProperty(False)
    bonus_text = StringProperty("")
    message = StringProperty("")
    is_hub = BooleanProperty(False)

    def __init__(self, root: Entries, player: int, number: int | None,
                 **kwargs: Any) -> None:
        self.root_ctl, self.player, self.number = root, player, number
        super().__init__(**kwargs)
        self.is_hub = number is None
        self.refresh()

    def _sector(self) -> Any:
        return self.root_ctl.form.players[self.player].sector(self.number)

    def refresh(self) -> None:
        """Redraw the quarters, the resident slots and the bonus answer from the form."""
        form = self.root_ctl.form
        entry = form.players[self.player]
        if self.is_hub:
            residents, quarters = entry.hub_residents, form.hub_quarters(self.player)
            allowed = form.hub_quarter_species(self.player)
            self.title = _("{name} · Hub {hub} residents").format(name=entry.name, hub=entry.hub)
            self.quarters_text = _("{count} living quarters").format(count=quarters)
            hint = "; ".join("/".join(color_name(s) if s != "human" else resource_name(s)
                                      for s in q) for q in allowed)
            self.bonus_text = _("Quarters allow: {species}").format(species=hint) if hint else ""
        else:
            sector = self._sector()
            residents, quarters = sector.residents, sector.quarters
            self.title = _("{name} · Sector {number} · {place}").format(
                name=entry.name, number=sector.number,
                place=level_colour(sector.level, sector.color))
            self.quarters_editable = not sector.quarters_known
            self.quarters_text = (
                _("{count} living quarters").format(count=quarters) if sector.quarters_known
                else _("Living quarters: {count}  (change)").format(
                    count="?" if quarters is None else quarters)
            )
            self.show_bonus = sector.needs_bonus_answer
            self.bonus_text = _("Endgame bonus quarters occupied?")
            self.ids.bonus_yes.state = "down" if sector.bonus_active is True else "normal"
            self.ids.bonus_no.state = "down" if sector.bonus_active is False else "normal"
        self._draw_slots(residents, quarters)
        problem = self.root_ctl.problem
        if (not self.message and problem is not None and problem.player == self.player
                and self.number is not None and self.number in problem.sectors):
            self.message = problem.message

    def _draw_slots(self, residents: list[str], quarters: int | None) -> None:
        slots = self.ids.slots
        slots.clear_widgets()
        count = max(quarters or 0, len(residents))
        for i in range(count):
            species = residents[i] if i < len(residents) else None
            slot = TagLabel(
                tag=f"slot:{i}",
                text=species_label(species) if species else _("{number}\nfree").format(
                    number=i + 1),
            )
            slot.bg = SPECIES_RGBA[species] if species else PANEL
            slot.color = SPECIES_TEXT[species] if species else (0.6, 0.63, 0.7, 1)
            slots.add_widget(slot)
        if count == 0:
            slots.add_widget(TagLabel(text=_("How many living quarters? Tap the button "
                                             "above.")))

    def add(self, species: str) -> None:
        """A species button: the resident goes into the next free quarter."""
        self._act(lambda f: f.add_hub_resident(self.player, species) if self.is_hub
                  else f.add_resident(self.player, self.number, species))

    def remove_last(self) -> None:
        """Take the rightmost resident out."""
        self._act(lambda f: f.remove_last_hub_resident(self.player) if self.is_hub
                  else f.remove_last_resident(self.player, self.number))

    def answer_bonus(self, active: bool) -> None:
        """Yes/No: are the endgame bonus's living quarters occupied?"""
        self._act(lambda f: f.set_bonus_active(self.player, self.number, active))

    def edit_quarters(self) -> None:
        """Ask the keypad how many living quarters this Sector has (catalogue does not know)."""
        if not self.quarters_editable:
            return
        self.root_ctl.ask_quarters(self.player, self.number, then=self.refresh)

    def delete(self) -> None:
        """Remove this Sector from the station, once the player said Yes."""
        name = self.root_ctl.form.players[self.player].name

        def remove() -> None:
            self.root_ctl.form.remove_sector(self.player, self.number)
            self.root_ctl.touched(self.player, "sectors", self.number)
            self.dismiss()

        ConfirmPopup(_("Remove Sector {number} from {name}?").format(number=self.number,
                                                                       name=name),
                     remove).open(animation=False)

    def _act(self, action: Callable[[ScoreForm], None]) -> None:
        self.message = ""
        try:
            action(self.root_ctl.form)
        except FormError as error:
            self.message = sentence(str(error))
        self.root_ctl.touched(self.player, "hub_residents" if self.is_hub else "sectors",
                              self.number)
        self.refresh()

    def on_dismiss(self) -> None:
        """Show the changes on the player's page."""
        self.root_ctl.refresh()


def sentence(text: str) -> str:
    """A form's error as a sentence: capitalised, with its full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")
