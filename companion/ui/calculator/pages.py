"""The score calculator's pages (its own screens, inside the calculator's screen): the start
page, a player's entries and station, the score sheet and the file chooser; each draws what the
controller (calculator.py) gives it. Layout in calculator.kv."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion import i18n, paths
from companion.i18n import N_, _, ability_text
from companion.rules.scoring import PLURALITY_ORDER, category_name, source_name, tiebreak_text
from companion.rules.words import SECTOR_COLORS
from companion.ui.calculator.form import LEVELS, NUMBER_FIELDS, Problem, ScoreForm
from companion.ui.calculator.popups import fill_dots
from companion.ui.kit.widgets import (
    ACCENT,
    BUTTON,
    ERROR,
    NOTICE,
    PANEL,
    TagButton,
    TagLabel,
    TagToggle,
    hex_color,
)

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "data" / "examples"


def and_names(names: list[str]) -> str:
    """Names joined by "and" in the player's language: "Ann and Bob"."""
    return _(" and ").join(names)


WING_TINT = {
    "teal": (0.05, 0.32, 0.33, 1),
    "pink": (0.42, 0.18, 0.30, 1),
    "brown": (0.33, 0.22, 0.13, 1),
}


WING_TEXT = {
    "teal": (0.25, 0.85, 0.85, 1),
    "pink": (1.0, 0.55, 0.75, 1),
    "brown": (0.85, 0.62, 0.42, 1),
}


WING_NAMES = {"teal": N_("Teal wing"), "pink": N_("Pink wing"), "brown": N_("Brown wing")}


# the file chooser's shortcuts (their tags are made from these English words) -> the words shown,
# translated where shown ("Home" is the folder's own name: as it is)
SHORTCUTS = {"Examples": N_("Examples"), "App data": N_("App data"), "Home": None,
             "USB drives": N_("USB drives"), "Mounted (/mnt)": N_("Mounted (/mnt)")}


def tile_text(text: str) -> str:
    """An ability's text as the sheet shows it: the tile's English in quotation marks, or its
    words in the language spoken now (i18n.ability_text)."""
    return _('"{text}"').format(text=ability_text(text))


class FieldButton(TagButton):
    """One entry of a player (caption above, value below); tapping it opens its keypad/picker."""

    key = StringProperty("")
    caption = StringProperty("")
    value = StringProperty("")


class SectorCell(TagButton):
    """One spot of the station grid (a wing colour and a level)."""

    level = NumericProperty(1)
    wing = StringProperty("teal")
    number = NumericProperty(0)  # 0: nothing built here


class StartScreen(Screen):
    """Choose the number of players, open a file, or load the rulebook example."""

    message = StringProperty("")
    tone = ColorProperty(NOTICE)
    clear_armed = BooleanProperty(False)


class PlayerScreen(Screen):
    """One player's entries (left) and station grid (right), with tabs for every player."""

    banner = StringProperty("")
    tone = ColorProperty(ERROR)
    show_hub_residents = BooleanProperty(False)
    hub_residents_text = StringProperty("")

    def on_kv_post(self, base_widget: Any) -> None:
        """Build the 3x3 station grid (wings across, levels down)."""
        grid = self.ids.station
        unit = App.get_running_app().unit
        grid.add_widget(TagLabel(text="", size_hint=(None, None), width=unit * 40,
                                 height=unit * 28))
        self.headings: list[tuple[TagLabel, Callable[[], str]]] = []
        for color in SECTOR_COLORS:
            label = TagLabel(tag=f"wing:{color}", color=WING_TEXT[color], bold=True,
                             size_hint_y=None, height=unit * 28)
            self.headings.append((label, lambda color=color: i18n._(WING_NAMES[color])))
            grid.add_widget(label)
        for level in LEVELS:
            label = TagLabel(tag=f"level:{level}", bold=True, size_hint_x=None,
                             width=unit * 40)
            self.headings.append((label, lambda level=level: _("L{level}").format(level=level)))
            grid.add_widget(label)
            for color in SECTOR_COLORS:
                cell = SectorCell(level=level, wing=color, tag=f"cell:{level}:{color}")
                cell.bind(on_release=lambda cell: self.manager.tap_cell(cell))
                grid.add_widget(cell)
        self.name_headings()

    def name_headings(self) -> None:
        """The wings' and levels' names, in the player's language."""
        for label, words in self.headings:
            label.text = words()

    def draw(self, form: ScoreForm, i: int, problem: Problem | None, notice: str,
             notice_ok: bool, show_player: Callable[[int], None]) -> None:
        """Player `i`'s page from the form: the tabs (a tap shows that player), the banner (the
        problem, else the notice), the entries and the station grid."""
        screen = self
        entry = form.players[i]
        tabs = screen.ids.tabs
        tabs.clear_widgets()
        for index, p in enumerate(form.players):
            tab = TagToggle(text=escape_markup(p.name), tag=f"tab:{index}", group="players",
                            allow_no_selection=False, markup=True,
                            state="down" if index == i else "normal")
            tab.error = problem is not None and problem.player == index
            tab.bind(on_release=lambda _b, index=index: show_player(index))
            tabs.add_widget(tab)
        shown = problem is not None and problem.player in (None, i)
        screen.banner = problem.message if shown else notice
        screen.tone = NOTICE if not shown and notice_ok else ERROR
        mine = problem if problem is not None and problem.player == i else None
        screen.name_headings()
        values = {"name": escape_markup(entry.name), "hub": entry.hub or _("choose")}
        for key in NUMBER_FIELDS:
            value = entry.numbers[key]
            values[key] = "—" if value is None else str(value)
        for widget in screen.ids.fields.children:
            widget.value = values[widget.key]
            widget.error = mine is not None and mine.field == widget.key
        hub_quarters = form.hub_quarters(i)
        screen.show_hub_residents = hub_quarters > 0
        screen.hub_residents_text = (
            _("Hub residents {count}/{quarters}").format(count=len(entry.hub_residents),
                                                         quarters=hub_quarters)
            if hub_quarters else "")
        fill_dots(screen.ids.hub_dots, entry.hub_residents, hub_quarters, "hubres:dot")
        small = int(15 * App.get_running_app().unit)
        for cell in screen.ids.station.children:
            if not isinstance(cell, SectorCell):
                continue
            sector = entry.at(cell.level, cell.wing)
            cell.number = sector.number if sector else 0
            cell.error = bool(sector and mine and mine.field == "sectors"
                              and sector.number in mine.sectors)
            fill_dots(cell.ids.dots, sector.residents if sector else [],
                      sector.quarters if sector else None, f"{cell.tag}:dot")
            if sector is None:
                cell.text = f"[color=#8a93a6]{escape_markup(_('+ add'))}[/color]"
                cell.bg = PANEL
                continue
            text = f"[b]{sector.number}[/b]"  # at the top; the dots below it
            if sector.needs_bonus_answer:
                answer = {True: _("bonus: yes"), False: _("bonus: no"),
                          None: _("bonus: ?")}[sector.bonus_active]
                text += f"  [size={small}]{escape_markup(answer)}[/size]"
            if sector.quarters is None:
                text += f"\n[size={small}]{escape_markup(_('living quarters?'))}[/size]"
            cell.text = text
            cell.bg = WING_TINT[sector.color]


class ScoreScreen(Screen):
    """The score sheet: the rulebook's table, the winner, the tie-break and the bonus lines."""

    winner = StringProperty("")
    notes = StringProperty("")

    def show(self, sheet: Any) -> None:
        """The sheet of a ScoreSheet: the table, the winner, the notes."""
        screen = self
        table = screen.ids.table
        table.clear_widgets()
        table.cols = len(sheet.players) + 1
        winners = set(sheet.winners)
        unit = App.get_running_app().unit
        label_width = unit * 250
        table.add_widget(TagLabel(text=_("Category"), tag="score:head:0", bold=True,
                                  halign="left", size_hint_x=None, width=label_width))
        for c, p in enumerate(sheet.players, start=1):
            head = TagLabel(text=f"[b]{escape_markup(p.name)}[/b]", tag=f"score:head:{c}",
                            markup=True, color=ACCENT if p.name in winners else (1, 1, 1, 1))
            head.font_size = unit * 20  # after the TagLabel rule's own size
            table.add_widget(head)
        rows = sheet.rows()
        pluralities = range(4, 4 + len(PLURALITY_ORDER))  # the rows of ScoreSheet.rows()
        for r, (label, values) in enumerate(rows, start=1):
            total = r == len(rows)  # the last row: TOTAL
            shade = BUTTON if total else ((0, 0, 0, 0) if r % 2 else (1, 1, 1, 0.04))
            label = category_name(label)  # the sheet keeps its labels in English
            table.add_widget(TagLabel(text=f"[b]{label}[/b]" if total else label, markup=True,
                                      tag=f"score:{r}:0", halign="left", size_hint_x=None,
                                      width=label_width, bg=shade))
            for c, value in enumerate(values, start=1):
                blank = r in pluralities and value == 0
                text = "" if blank else str(value)
                winner = total and sheet.players[c - 1].name in winners
                cell = TagLabel(text=f"[b]{text}[/b]" if total else text, markup=True,
                                tag=f"score:{r}:{c}", bg=shade,
                                color=ACCENT if winner else (0.93, 0.94, 0.96, 1))
                cell.font_size = unit * (30 if total else 22)  # after the TagLabel rule's
                table.add_widget(cell)
        best = max(p.total for p in sheet.players)
        if len(sheet.winners) == 1:
            screen.winner = _("Winner: {name} with {points}").format(name=sheet.winners[0],
                                                                      points=best)
        else:
            screen.winner = _("Shared victory: {names} ({points})").format(
                names=and_names(list(sheet.winners)), points=best)
        notes = []
        if sheet.tiebreak:
            notes.append(f"[b][color={hex_color(ACCENT)}]{escape_markup(_('Tie-breaker'))}"
                         f"[/color][/b]\n{escape_markup(tiebreak_text(sheet) or '')}")
        ranking = sorted(sheet.players, key=lambda p: (p.rank, -p.total))
        notes.append(f"[b]{escape_markup(_('Ranking'))}[/b]\n" + "\n".join(
            f"{p.rank}. {escape_markup(p.name)}  {p.total}" for p in ranking))
        for p in sheet.players:
            lines = [f"{escape_markup(source_name(b.source))}: [b]+{b.points}[/b]  "
                     f"{escape_markup(tile_text(b.text))}" for b in p.bonus_lines]
            if lines:
                heading = _("{name}: station bonuses").format(name=p.name)
                notes.append(f"[b]{escape_markup(heading)}[/b]\n" + "\n".join(lines))
        screen.notes = "\n\n".join(notes)
        screen.ids.notes_scroller.scroll_y = 1


class Notes(Label):
    """The score sheet's notes: as high as their text, inside a ScrollView."""

    tag = StringProperty("")


class FilesScreen(Screen):
    """A finger-sized file chooser for position files (.json): a tap on a file calls
    `opened` with its path."""

    folder = StringProperty("")
    message = StringProperty("")
    place = Path.home()  # the folder shown
    opened: Callable[[Path], None] = staticmethod(lambda _path: None)

    def list_folder(self, folder: Path) -> None:
        """Show a folder's sub-folders and .json files as big buttons."""
        screen = self
        try:
            entries = sorted(Path(folder).iterdir(), key=lambda p: (not p.is_dir(), p.name.lower()))
        except OSError as error:
            screen.message = _("Cannot open {folder}: {error}.").format(
                folder=folder, error=error.strerror or error)
            return
        self.place = Path(folder)
        screen.folder = str(self.place)
        side = screen.ids.shortcuts
        side.clear_widgets()
        for label, path in shortcuts():
            words = SHORTCUTS.get(label)
            button = TagButton(text=i18n._(words) if words else label,
                               tag=f"files:{label.lower().replace(' ', '-')}",
                               size_hint_y=None)
            button.bind(on_release=lambda _b, path=path: self.list_folder(path))
            side.add_widget(button)
        side.add_widget(filler())
        listing = screen.ids.listing
        listing.clear_widgets()
        if self.place.parent != self.place:
            up = TagButton(text=_("..  (up one folder)"), tag="files:up", size_hint_y=None)
            up.bind(on_release=lambda _b: self.list_folder(self.place.parent))
            listing.add_widget(up)
        shown = 0
        for path in entries:
            if path.name.startswith("."):
                continue
            if path.is_dir():
                button = TagButton(text=f"{path.name}/", tag=f"dir:{path.name}",
                                   size_hint_y=None, bg=PANEL)
                button.bind(on_release=lambda _b, path=path: self.list_folder(path))
            elif path.suffix.lower() == ".json":
                button = TagButton(text=path.name, tag=f"file:{path.name}", size_hint_y=None)
                button.bind(on_release=lambda _b, path=path: self.opened(path))
            else:
                continue
            listing.add_widget(button)
            shown += 1
        if not shown:
            listing.add_widget(TagLabel(text=_("No folders or .json files here."),
                                        size_hint_y=None))
        screen.ids.scroller.scroll_y = 1


def filler() -> Label:
    """An empty stretchy widget that pushes buttons to the top of a column."""
    return Label(text="")


def shortcuts() -> list[tuple[str, Path]]:
    """The chooser's folder shortcuts that exist on this machine (the English words: the
    words shown are SHORTCUTS')."""
    found = [("Examples", EXAMPLES_DIR), ("App data", paths.data_folder()),
             ("Home", Path.home())]
    found += [("USB drives", Path("/media")), ("Mounted (/mnt)", Path("/mnt"))]
    seen, result = set(), []
    for label, path in found:
        if path.is_dir() and (label, path) not in seen:
            seen.add((label, path))
            result.append((label, path))
    return result
