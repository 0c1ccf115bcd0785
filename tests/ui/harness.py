"""Drive the real Kivy app by simulated touches, in a driver subprocess (see docs/ui-testing.md).

A scenario is a generator function `scenario(robot)`; it `yield`s whenever the app must get frames
to react (robot.tap() and robot.wait_for() are generators too: use `yield from`). The robot runs
the scenario from the Kivy clock, one step per frame, inside the app's own main loop, and finally
prints one line `DRIVER-RESULT {json}` on stdout that the pytest test parses.

Only this module and the driver scripts import Kivy in the test suite, and only in a subprocess
(a Kivy window can be created once per process).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

RESULT_PREFIX = "DRIVER-RESULT "
Steps = Generator[Any, None, None]


class DriverError(AssertionError):
    """The scenario could not go on (a widget never appeared, a wait timed out)."""


def in_view(widget: Any, scroller: Any) -> bool:
    """True when the widget's centre is inside the ScrollView's visible area."""
    x, y = widget.to_window(*widget.center)
    left, bottom = scroller.parent.to_window(*scroller.pos)
    return left <= x <= left + scroller.width and bottom <= y <= bottom + scroller.height


def plain(markup: str) -> str:
    """A Label text as read on screen: markup tags removed, escapes undone."""
    text = re.sub(r"\[/?(b|i|u|s|sub|sup|size|color|font|ref|anchor)(=[^\]]*)?\]", "", markup)
    return text.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")


class Robot:
    """Finds widgets by tag, taps them at their centre, reads texts, saves screenshots."""

    def __init__(self, app: Any, wait_timeout: float = 20.0) -> None:
        self.app = app
        self.wait_timeout = wait_timeout
        self.result: dict[str, Any] = {}
        self.taps = 0
        self.audit_taps = False  # audit the screen before every tap (tests/ui/drive_walk.py)
        self.audited: set[str] = set()  # the screens (and pop-ups) audited so far

    # finding ---------------------------------------------------------------------------------
    def _roots(self) -> list[Any]:
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        roots = list(Window.children)  # children[0] is the topmost
        if roots and isinstance(roots[0], ModalView):
            return roots[:1]  # an open pop-up covers (and blocks) everything beneath it
        return roots

    @staticmethod
    def _walk(widget: Any) -> Iterator[Any]:
        yield widget
        for child in widget.children:
            yield from Robot._walk(child)

    @staticmethod
    def _visible(widget: Any) -> bool:
        return Robot._shown(widget) and not widget.disabled

    def all(self, tag: str | Callable[[str], bool]) -> list[Any]:
        """Every visible widget whose tag matches (a string, or a predicate on the tag)."""
        match = tag if callable(tag) else (lambda t: t == tag)
        return [
            w for root in self._roots() for w in self._walk(root)
            if match(getattr(w, "tag", "") or "") and self._visible(w)
        ]

    def find(self, tag: str) -> Any | None:
        """The visible widget with this tag (topmost first), or None."""
        found = self.all(tag)
        return found[0] if found else None

    def text(self, tag: str) -> str:
        """What a tagged label or button shows, without markup ("" when not on screen)."""
        widget = self.find(tag)
        return plain(widget.text) if widget is not None else ""

    def read(self, tag: str) -> Generator[Any, None, str]:
        """Wait until the tagged widget is on screen, then return its text: `yield from`."""
        yield from self.wait_for(lambda: self.find(tag) is not None, f"widget {tag!r}")
        yield from self.frames(1)
        return self.text(tag)

    def popup(self) -> Any | None:
        """The open pop-up (ModalView), if any."""
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        top = Window.children[0] if Window.children else None
        return top if isinstance(top, ModalView) else None

    def audit(self) -> list[str]:
        """What a player must never read on the screen now (tests/ui/screen_audit.py): ids,
        English on a German screen, text cut off; each as "screen: finding: text", KNOWN left
        out."""
        from kivy.uix.label import Label
        from screen_audit import audit_label, tolerated

        from companion import i18n

        popup = self.popup()
        screen = type(popup).__name__ if popup is not None else str(self.app.screens.current)
        german = i18n.language() == "de"
        self.audited.add(screen)
        found = []
        for root in self._roots():
            for widget in self._walk(root):
                if not isinstance(widget, Label) or not self._shown(widget):
                    continue
                shown = plain(widget.text)
                if tolerated(screen, shown):
                    continue
                found += [f"{screen}: {finding}: {shown!r}"
                          for finding in audit_label(widget, shown, german)]
        return found

    @staticmethod
    def _shown(widget: Any) -> bool:
        """True when the widget is drawn: no ancestor transparent, not squeezed to nothing
        (a disabled button is shown, dimmed)."""
        w = widget
        while w is not None and w is not w.parent:
            if getattr(w, "opacity", 1) == 0:
                return False
            w = w.parent
        return widget.width > 1 and widget.height > 1

    def check_screen(self) -> None:
        """Fail the scenario (DriverError) with the audit's findings, one a line."""
        found = self.audit()
        if found:
            raise DriverError("the screen shows what a player must not read:\n  "
                              + "\n  ".join(found))

    # acting ----------------------------------------------------------------------------------
    def frames(self, count: int = 2) -> Steps:
        """Let the app run `count` frames (layout, drawing, scheduled callbacks)."""
        for _ in range(count):
            yield

    def wait_for(self, condition: Callable[[], Any], what: str) -> Steps:
        """Let frames pass until `condition()` is true; DriverError after the time-out."""
        deadline = time.monotonic() + self.wait_timeout
        while not condition():
            if time.monotonic() > deadline:
                raise DriverError(f"timed out waiting for {what}")
            yield

    def tap(self, tag: str) -> Steps:
        """Touch down and up at the centre of the widget with this tag, as a finger would.

        For a button, waits until it really fired (a ScrollView delays a tap's release by
        0.2 s); a tap that does not reach the button (covered, moved) is a DriverError.
        """
        from kivy.tests.common import UnitTestTouch
        from kivy.uix.behaviors import ButtonBehavior
        from kivy.uix.scrollview import ScrollView

        yield from self.wait_for(lambda: self.find(tag) is not None, f"widget {tag!r}")
        # Let a view that just appeared lay itself out (a frame with nothing to redraw is cheap).
        yield from self.frames(2)
        widget = self.find(tag)
        if widget is None:
            raise DriverError(f"widget {tag!r} disappeared")
        if self.audit_taps:
            self.check_screen()
        scroller = widget.parent
        while scroller is not None and not isinstance(scroller, ScrollView):
            scroller = scroller.parent if scroller.parent is not scroller else None
        if scroller is not None:
            # The ScrollView's scroll effects may still move from an earlier touch and would
            # take the scroll back: stop them, scroll, and set them where the scroll is.
            for effect in (scroller.effect_x, scroller.effect_y):
                if effect is not None:
                    effect.velocity = 0
                    effect.cancel()
            scroller.scroll_to(widget, padding=0, animate=False)
            scroller._update_effect_bounds()
            yield from self.frames(2)
            if not in_view(widget, scroller):
                raise DriverError(f"widget {tag!r} could not be scrolled into view")
        fired: list[bool] = []

        def on_release(*_args: Any) -> None:
            fired.append(True)

        is_button = isinstance(widget, ButtonBehavior)
        if is_button:
            widget.fbind("on_release", on_release)
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()
        self.taps += 1
        if is_button:
            try:
                yield from self.wait_for(lambda: fired, f"the tap on {tag!r} to register")
            finally:
                widget.funbind("on_release", on_release)
        yield

    def tap_keys(self, keys: str) -> Steps:
        """Tap keypad / keyboard keys one by one ("key:" tags)."""
        for key in keys:
            yield from self.tap(f"key:{'space' if key == ' ' else key.upper()}")

    def screenshot(self, path: Path) -> Steps:
        """Save what the window shows now as a PNG; in another language than English, named
        with it before the size ("settings-de-800x480.png")."""
        from kivy.core.window import Window

        from companion import i18n

        yield from self.frames(3)
        asked = self.result.get("size")
        if asked and list(Window.size) != asked:  # e.g. Kivy imported before it was configured
            raise DriverError(f"the window is {Window.size}, not the {asked} asked for")
        path = Path(path)
        spoken = i18n.language()
        if spoken != i18n.DEFAULT and f"-{spoken}-" not in path.name:
            stem, _sep, size = path.stem.rpartition("-")
            path = path.with_name(f"{stem}-{spoken}-{size}{path.suffix}")
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            saved = Window.screenshot(name=str(Path(tmp) / "shot.png"))
            shutil.move(saved, path)
        self.result.setdefault("screenshots", []).append(str(path))
        self.check_screen()


def run(scenarios: dict[str, Callable[..., Steps]], argv: list[str] | None = None,
        start: str | None = None) -> int:
    """Command line of a driver script: run one scenario in the real app, print the result;
    `start` opens the app on that screen (as `phoenix-companion --calculator` does)."""
    parser = argparse.ArgumentParser(description="drive the app by simulated touches")
    parser.add_argument("scenario", choices=sorted(scenarios))
    parser.add_argument("--size", default="800x480", help="window size WIDTHxHEIGHT")
    parser.add_argument("--shots", type=Path, default=None, help="folder for screenshots")
    parser.add_argument("--timeout", type=float, default=20.0, help="longest wait for a widget")
    parser.add_argument("--demo", action="store_true", help="start as `phoenix-companion --demo`")
    parser.add_argument("--db", type=Path, default=None, help="the game database")
    parser.add_argument("--fullscreen", action="store_true", help="fill the display")
    parser.add_argument("--config", type=Path, default=None, help="the app's config file")
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))

    from companion.ui.shell.window import configure_kivy

    configure_kivy(size=(width, height), fullscreen=args.fullscreen)
    from kivy.clock import Clock

    from companion.ui.shell.app import CompanionApp

    app = CompanionApp(demo=args.demo, start=start, db=args.db, config=args.config)
    robot = Robot(app, wait_timeout=args.timeout)
    robot.result.update({"scenario": args.scenario, "size": [width, height]})
    steps = scenarios[args.scenario](robot, size=(width, height), shots=args.shots)

    def step(_dt: float) -> bool:
        try:
            next(steps)
            return True
        except StopIteration:
            robot.result["ok"] = True
        except Exception as error:  # reported to the test as data, with the traceback
            robot.result["ok"] = False
            robot.result["error"] = f"{type(error).__name__}: {error}"
            robot.result["traceback"] = traceback.format_exc()
        robot.result["taps"] = robot.taps
        app.stop()
        return False

    def begin(_dt: float) -> None:
        from kivy.core.window import Window

        robot.result["window"] = list(Window.size)
        Clock.schedule_interval(step, 0)

    Clock.schedule_once(begin, 0.2)
    app.run()
    sys.stdout.write(RESULT_PREFIX + json.dumps(robot.result) + "\n")
    sys.stdout.flush()
    return 0 if robot.result.get("ok") else 1
