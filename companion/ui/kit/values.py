"""Entering what a tile prints (values_model.py): the value card (`ValueCard`, `ask_card`) shows
one component like its tile - numbers as a row of buttons, a Sector's income icons as toggles
per living quarter, an ability's quarter tapped - with Skip / Ask during play (or Cancel) in a
bar that never scrolls away. The setup wizard's values step opens it per component, and the
engine's question during play (`ask_value`) opens the same card for the value it asks. The
value pop-up (`ValuePopup`) builds the few values a card cannot tap (a Diplomacy level's
bonus, a Hub's quarter income) from simple answers, and corrects one value on the catalogue
screen. Layout in values.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.i18n import _
from companion.rules.words import TRACKS, track_name
from companion.ui.kit.values_model import (
    ICONS,
    Card,
    Number,
    Slot,
    ValueEntry,
    choice_id,
    icon_name,
)
from companion.ui.kit.widgets import (
    PANEL,
    SELECTED,
    SPECIES_RGBA,
    SPECIES_TEXT,
    KeypadPopup,
    TagButton,
    TagLabel,
    TagToggle,
    fitting_font,
)

LAYOUT = str(Path(__file__).with_suffix(".kv"))
ROWS = 6  # a card's body holds at least this many rows' room
Take = Callable[[Any], str | None]  # the finished value: None when taken, else why not


def _load() -> None:
    if LAYOUT not in Builder.files:
        Builder.load_file(LAYOUT)


def ask_value(entry: ValueEntry, take: Take) -> None:
    """Ask `entry`'s value, the engine's question during play: on the component's card when a
    card taps it, else the keypad alone for a plain number, else the value pop-up."""
    card = Card([(entry.key, entry.question)], entry.catalogue, entry.entered)
    if card.slots[0].how != "other":
        ask_card(card, lambda values: take(values[entry.key]))
    elif isinstance(entry.part, Number):
        prompt = entry.prompt
        KeypadPopup(entry.question or prompt.title, None,
                    lambda n: _finish(entry, n, take), hint=prompt.hint).open()
    else:
        ask_value_popup(entry, take)


def _finish(entry: ValueEntry, answer: Any, take: Take) -> str | None:
    """Give one answer; a finished value goes to `take`. A refusal takes the answer back."""
    problem = (entry.message if not entry.answer(answer)
               else take(entry.value) if entry.complete else None)
    if problem:
        entry.back()
        entry.message = problem
    return problem


class ValuePopup(ModalView):
    """One value built from simple answers: the question, what is entered so far, the next
    question's buttons (a number: the keypad), Back (takes the last answer) and Cancel."""

    question = StringProperty("")
    so_far = StringProperty("")
    prompt = StringProperty("")
    message = StringProperty("")

    def __init__(self, entry: ValueEntry, take: Take, **kwargs: Any) -> None:
        self.entry, self.take = entry, take
        super().__init__(**kwargs)
        self.question = entry.question or entry.key
        self.refresh()

    def refresh(self) -> None:
        """Show the next question (a finished value closes the pop-up)."""
        entry = self.entry
        if entry.accepted:
            self.dismiss()
            return
        prompt = entry.prompt
        self.so_far = _("So far: {value}").format(value=entry.so_far) if entry.so_far else ""
        self.message = entry.message
        self.prompt = prompt.title if prompt else ""
        grid = self.ids.choices
        grid.clear_widgets()
        if prompt is None:
            return
        unit = App.get_running_app().unit
        if prompt.number:
            button = TagButton(text=_("Type the number"), tag="values:keypad",
                               font_size=unit * 22)
            button.bind(on_release=lambda _b: self.keypad())
            grid.add_widget(button)
            Clock.schedule_once(lambda _dt: self.keypad(), 0)
            return
        for label, value in prompt.choices:
            button = TagButton(text=label, tag=f"values:choice:{choice_id(value)}",
                               font_size=unit * 20)
            button.bind(on_release=lambda _b, v=value: self.answer(v))
            grid.add_widget(button)

    def keypad(self) -> None:
        prompt = self.entry.prompt
        if prompt is None or not prompt.number:
            return

        def typed(number: int) -> str | None:
            problem = _finish(self.entry, number, self.take)
            if not problem:
                Clock.schedule_once(lambda _dt: self.refresh(), 0)
            return problem

        KeypadPopup(prompt.title, None, typed, hint=prompt.hint).open()

    def answer(self, value: Any) -> None:
        _finish(self.entry, value, self.take)
        self.refresh()

    def back(self) -> None:
        """Take back the last answer (none given: close)."""
        if not self.entry.answers:
            self.dismiss()
            return
        self.entry.back()
        self.refresh()


W = TypeVar("W", bound=Widget)
Finish = Callable[[dict[str, Any]], str | None]  # the card's values by key: None when taken
Leave = Callable[[dict[str, Any]], None]  # Skip / Ask during play, with the values tapped


def ask_card(card: Card, finish: Finish, *, skip: Leave | None = None,
             later: Leave | None = None, back: Callable[[], None] | None = None,
             progress: str = "", done: float = 0.0) -> ValueCard:
    """Open `card`; its values go to `finish` once complete (a card with icons: on Done).
    With `skip` and `later` (the setup's values step) the bar offers Skip and Ask during play,
    and Back goes to `back`; without them, Cancel. `progress` and `done` (0..1) say how far the
    step is."""
    _load()
    view = ValueCard(card, finish, skip=skip, later=later, back=back, progress=progress,
                     done=done)
    view.open()
    return view


class Caption(Label):
    """A line of words across a card, as tall as its text wraps to (values.kv)."""

    tag = StringProperty("")


class ValueCard(ModalView):
    """A component's printed values on one card that looks like the tile: its number and
    colour on top, each value a row of big buttons, a Sector's living quarters side by side
    with their income icons and the ability's quarter, and a fixed bar at the bottom."""

    title = StringProperty("")
    tile = StringProperty("")
    tile_bg = ColorProperty(PANEL)
    tile_ink = ColorProperty((1, 1, 1, 1))
    progress = StringProperty("")
    done = NumericProperty(0.0)
    message = StringProperty("")
    offers = StringProperty("cancel")  # the bar: "cancel" (during play) or "skip" (setup)
    waits = StringProperty("")  # Done's words while the card waits for it
    ready = BooleanProperty(False)  # every value on the card answered: Done takes it
    alike = StringProperty("")  # another Hub's starting GEMs and resources, one tap (Card.alike)

    def __init__(self, card: Card, finish: Finish, *, skip: Leave | None = None,
                 later: Leave | None = None, back: Callable[[], None] | None = None,
                 progress: str = "", done: float = 0.0, **kwargs: Any) -> None:
        self.card, self.finish = card, finish
        self.question = card.slots[0].question if len(card.slots) == 1 else ""  # the engine's
        self._skip, self._later, self._back = skip, later, back
        super().__init__(**kwargs)
        self.offers = "skip" if skip is not None else "cancel"
        self.progress, self.done = progress, done
        self.title, self.tile = card.heading, card.chip
        if card.color in SPECIES_RGBA:
            self.tile_bg, self.tile_ink = SPECIES_RGBA[card.color], SPECIES_TEXT[card.color]
        self.refresh()

    @staticmethod
    def _unit(size: float) -> float:
        return float(App.get_running_app().unit * size)

    def _font(self, widget: W, size: float) -> W:
        """`widget` with its words `size` (x app.unit) big: set after it is built, since the
        kv rules' sizes, bound to app.unit, win over a size given to the constructor."""
        widget.font_size = self._unit(size)
        return widget

    def refresh(self) -> None:
        """Show the card as answered so far."""
        card = self.card
        self.message = card.message
        self.waits = _("Done") if card.waits else ""
        self.alike = card.alike_words
        self.ready = card.complete
        body = self.ids.body
        body.clear_widgets()
        if card.noted:
            self._caption(card.noted, "values:noted")
        shown = card.shown
        for slot in shown:
            if slot.how == "number":
                self._number_row(slot)
            elif slot.how == "diplomacy":
                self._diplomacy_row(slot)
            elif slot.how == "other":
                self._other_row(slot)
        quarters = [s for s in shown if s.how in ("icons", "ability")]
        if quarters:
            self._quarters(quarters)
        rows = sum(child.size_hint_y or 0 for child in body.children)
        if rows < ROWS:  # a short card keeps finger-sized rows, not stretched ones
            body.add_widget(Widget(size_hint_y=ROWS - rows))

    # -- rows ---------------------------------------------------------------------------------

    def _row(self, slot: Slot, lines: float = 1, width: float = 178,
             font: float = 17) -> BoxLayout:
        row = BoxLayout(spacing=self._unit(4), size_hint_y=lines)
        label = self._font(TagLabel(text=slot.label, tag=f"values:label:{_field(slot)}",
                                    halign="left", size_hint_x=None, width=self._unit(width),
                                    shorten=False), font)
        label.bind(size=lambda lb, size: setattr(lb, "text_size", (size[0], None)))
        row.add_widget(label)
        self.ids.body.add_widget(row)
        return row

    def _button(self, parent: Any, text: str, tag: str, on_tap: Callable[[], Any],
                chosen: bool = False, **style: Any) -> TagButton:
        font = style.pop("font", 20)
        button = self._font(TagButton(text=text, tag=tag,
                                      bg=SELECTED if chosen else style.pop("bg", PANEL),
                                      **style), font)
        if chosen:
            button.text = f"[b]{text}[/b]"
        button.bind(on_release=lambda _b: self.act(on_tap))
        parent.add_widget(button)
        return button

    def _numbers(self, row: BoxLayout, slot: Slot, numbers: tuple[int, ...], chosen: Any,
                 take: Callable[[int], bool], name: str, share: float = 1) -> None:
        per_row = min(len(numbers), 10) + 1
        grid = GridLayout(cols=per_row, spacing=self._unit(4), size_hint_x=share)
        row.add_widget(grid)
        for n in numbers:
            self._button(grid, str(n), f"values:{name}:{n}", lambda n=n: take(n),
                         chosen=chosen == n)
        other = chosen if isinstance(chosen, int) and chosen not in numbers else None
        self._button(grid, str(other) if other is not None else "…", f"values:{name}:keypad",
                     lambda: self._keypad(slot.label, other, take), chosen=other is not None)

    def _number_row(self, slot: Slot) -> None:
        lines = (len(slot.numbers) + 10) // 11
        row = self._row(slot, lines)
        self._numbers(row, slot, slot.numbers, self.card.values.get(slot.key),
                      lambda n: self.card.number(slot.key, n), _field(slot))

    def _diplomacy_row(self, slot: Slot) -> None:
        """A Hub's starting Diplomacy: one tap for none, one step on a track, or free steps;
        "Other…" for the tracks tapped once per step, then the free steps."""
        card = self.card
        row = self._row(slot, width=92, font=15)
        if not card.by_tracks(slot):
            value = card.values.get(slot.key)
            for name, words, preset in card.presets(slot):
                button = self._button(row, words, f"values:diplomacy:{name}",
                                      lambda n=name: card.preset(slot.key, n),
                                      chosen=value == preset, shorten=False, halign="center",
                                      size_hint_x=1.3 if name in TRACKS else 0.8)
                button.bind(size=self._fit)  # a long German track's name, whole
            self._button(row, _("Other…"), "values:diplomacy:other",
                         lambda: card.track_by_track(slot.key), font=14)
            return
        for track in TRACKS:
            steps = card.fixed.get(track, 0)
            text = track_name(track) + (f"\n+{steps}" if steps else "")
            self._button(row, text, f"values:track:{track}",
                         lambda t=track: card.track(slot.key, t), chosen=bool(steps), font=14,
                         size_hint_x=2.1, shorten=False)
        free = self._font(TagLabel(text=_("+ free"), size_hint_x=1.1, shorten=False,
                                   padding=(0, 0)), 15)
        row.add_widget(free)
        value = card.values.get(slot.key)
        self._numbers(row, slot, slot.numbers, value["choice"] if value else None,
                      lambda n: card.free(slot.key, n), "free", share=len(slot.numbers) + 1)

    def _fit(self, button: TagButton, size: tuple[float, float]) -> None:
        """A button's words as large as fit it whole (14 at most), wrapped between words."""
        unit = self._unit(1)
        button.text_size = (size[0] - 4 * unit, None)
        button.font_size = fitting_font(button.text, size[0] - 4 * unit, size[1] - 2 * unit,
                                        unit, (14, 13, 12, 11))

    def _other_row(self, slot: Slot) -> None:
        row = self._row(slot, 1)
        shown = self.card.shows(slot)
        self._button(row, shown or _("Enter"), f"values:other:{_field(slot)}",
                     lambda: self._other(slot), chosen=bool(shown), size_hint_x=0.5)

    def _quarters(self, slots: list[Slot]) -> None:
        """The Sector's living quarters side by side: each with its icon toggles (tapped once
        per icon; again for more, round to none) and the ability's quarter."""
        card = self.card
        abilities = [s for s in slots if s.how == "ability"]
        for slot in slots:
            if slot.how == "icons":
                self._caption(_("{icons}: tap each icon above its quarter (again for more)")
                              .format(icons=slot.label), f"values:label:{_field(slot)}")
        for slot in abilities:
            self._caption(_("Ability: “{text}” Tap the quarter that activates it.").format(
                text=slot.text), f"values:label:{_field(slot)}")
        quarters = card.boxes
        if quarters is None:
            self.ids.body.add_widget(self._font(TagLabel(
                text=_("Tap the number of living quarters first."), tag="values:quarters-first",
                size_hint_y=0.8), 17))
            return
        icons = any(s.how == "icons" for s in slots)
        boxes = BoxLayout(spacing=self._unit(8), size_hint_y=(2.2 if icons else 0) +
                          len(abilities))
        self.ids.body.add_widget(boxes)
        for quarter in range(quarters):
            box = BoxLayout(orientation="vertical", spacing=self._unit(3))
            boxes.add_widget(box)
            name = _("Quarter {number}").format(number=quarter + 1)
            box.add_widget(self._font(TagLabel(text=name, bold=True, size_hint_y=0.5,
                                               bg=self.tile_bg, color=self.tile_ink), 15))
            if icons:
                grid = GridLayout(cols=2, spacing=self._unit(3), size_hint_y=2)
                box.add_widget(grid)
                for resource in ICONS:
                    amount = card.icon_amount(quarter, resource)
                    text = icon_name(resource) + (f" ×{amount}" if amount > 1 else "")
                    self._toggle(grid, text, f"values:icon:{quarter}:{resource}", bool(amount),
                                 lambda q=quarter, r=resource: card.icon(q, r))
            for slot in abilities:
                here = card.values.get(slot.key) == quarter
                self._toggle(box, _("Ability") if here else _("Ability here?"),
                             f"values:ability:{_field(slot)}:{quarter}", here,
                             lambda s=slot, q=quarter: card.ability(s.key, q))

    def _caption(self, text: str, tag: str) -> None:
        self.ids.body.add_widget(Caption(text=text, tag=tag))

    def _toggle(self, parent: Any, text: str, tag: str, down: bool,
                on_tap: Callable[[], Any]) -> None:
        toggle = self._font(TagToggle(text=text, tag=tag,
                                      state="down" if down else "normal"), 16)
        toggle.bind(on_release=lambda _b: self.act(on_tap))
        parent.add_widget(toggle)

    # -- answers ------------------------------------------------------------------------------

    def act(self, tap: Callable[[], Any]) -> None:
        """One tap on the card; the card is taken once complete (unless it waits for Done)."""
        tap()
        if self.card.complete and not self.card.waits and not self.card.message:
            self.take()
        else:
            self.refresh()

    def take(self) -> None:
        """Give the card's values (Done, once complete); a refusal stays on the card."""
        if not self.card.complete:
            return
        values = self.card.result()
        problem = self.card.message or (self.finish(values) if values else None)
        if problem:
            self.card.message = problem
            self.refresh()
        else:
            self.dismiss()

    def _keypad(self, title: str, value: int | None, take: Callable[[int], bool]) -> None:
        def typed(number: int) -> str | None:
            if not take(number):
                return self.card.message
            Clock.schedule_once(lambda _dt: self.act(lambda: None), 0)
            return None
        KeypadPopup(title, value, typed).open()

    def _other(self, slot: Slot) -> None:
        def taken(value: Any) -> str | None:
            if not self.card.other(slot.key, value):
                return self.card.message
            Clock.schedule_once(lambda _dt: self.act(lambda: None), 0)
            return None
        ask_value_popup(self.card.entry(slot), taken)

    def skip(self) -> None:
        """Skip this card: what was tapped is kept, the rest asked when play needs it."""
        self._leave(self._skip)

    def later(self) -> None:
        """Ask during play: this card's and every later card's open values."""
        self._leave(self._later)

    def _leave(self, leave: Leave | None) -> None:
        values = self.card.result()
        self.dismiss()
        if leave is not None:
            leave(values)

    def back(self) -> None:
        self.dismiss()
        if self._back is not None:
            self._back()


def ask_value_popup(entry: ValueEntry, take: Take) -> None:
    """The value pop-up for a value a card cannot tap."""
    _load()
    ValuePopup(entry, take).open()


def _field(slot: Slot) -> str:
    return slot.key.split("/")[-1]
