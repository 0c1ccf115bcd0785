"""Benchmark the touchscreen app under a private Xvfb: cold start, touch to screen, memory.

    .venv/bin/python tools/bench_ui.py [--taps N] [--size WxH] [--phones N]

Starts `Xvfb` on a free display and the app (as `phoenix-companion --demo`) in a fresh process,
then prints
- cold start: from starting the process to the first frame drawn with the demo game on screen;
- touch to screen for a turn action: Next and Undo tapped N times each (a simulated touch on the
  button, as a finger would), the time from dispatching the touch to the frame drawn after the
  active player's name changed; median and worst, and how much of it the app's handling took;
- resident memory (RSS) of the app process mid-game, after the taps.
With --phones N, N players' phones follow the game all along (companion.web): a process of its
own holds N live pages open (server-sent events, each from an address of its own on loopback,
as phones on a Wi-Fi would be, in English and German by turns), and the bench also prints how
long each step took from the touch to every phone (the page's data received).
Prints figures; asserts nothing. Without Xvfb it says so and measures nothing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from xvfb_display import BENCH_RESULT as RESULT_PREFIX
from xvfb_display import app_environment, app_figures, bench_display

REPO = Path(__file__).resolve().parent.parent


def rss_mb() -> float:
    """This process's resident memory in MB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def follow_pages(links: list[str], arrivals: Path) -> None:
    """The phones' process: one live page per link, each from its own loopback address; every
    page received is written to `arrivals` as a line {"phone", "version", "at"} (epoch s)."""
    lock = threading.Lock()

    def phone(number: int, link: str) -> None:
        parts = urlsplit(link)
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=600,
                                                source_address=(f"127.0.0.{number + 2}", 0))
        language = ("en", "de")[number % 2]
        connection.request("GET", f"{parts.path}/live?lang={language}")
        reply = connection.getresponse()
        event = ""
        for raw in reply:
            line = raw.decode().rstrip("\n")
            if line.startswith("event:"):
                event = line.partition(":")[2].strip()
            elif line.startswith("data:") and event == "page":
                version = json.loads(line.partition(":")[2])["version"]
                with lock, arrivals.open("a") as out:
                    out.write(json.dumps({"phone": number, "version": version,
                                          "at": time.time()}) + "\n")

    threads = [threading.Thread(target=phone, args=(n, link), daemon=True)
               for n, link in enumerate(links)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def phone_arrivals(arrivals: Path) -> list[dict[str, Any]]:
    if not arrivals.exists():
        return []
    return [json.loads(line) for line in arrivals.read_text().splitlines() if line.strip()]


def measure(launched: float, taps: int, size: tuple[int, int], phones: int) -> dict[str, Any]:
    """In the app's process: run the demo and measure; returns the figures."""
    sys.path.insert(0, str(REPO))
    from companion.ui.shell.window import configure_kivy

    configure_kivy(size=size)
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from companion.ui.shell.app import CompanionApp

    app = CompanionApp(demo=True)
    figures: dict[str, Any] = {"touch_ms": {"next": [], "undo": []}, "handled_ms": [],
                               "steps": []}
    folder = tempfile.TemporaryDirectory(prefix="phoenix-phones-")
    arrivals = Path(folder.name) / "arrivals.jsonl"
    clients: list[subprocess.Popen] = []
    flips: list[float] = []
    Window.bind(on_flip=lambda *_a: flips.append(time.perf_counter()))

    def widget(tag: str) -> Any:
        def walk(node: Any) -> Any:
            if getattr(node, "tag", None) == tag and node.opacity and not node.disabled:
                return node
            return next((found for child in node.children
                         if (found := walk(child)) is not None), None)
        return walk(Window)

    def until(condition: Callable[[], Any], what: str) -> Generator[None, None, None]:
        deadline = time.monotonic() + 30
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {what} within 30 s")
            yield

    def touch(tag: str) -> tuple[float, float]:
        """Tap the widget: when the touch was sent, and when the app had handled it."""
        button = widget(tag)
        x, y = button.to_window(*button.center)
        sent = time.perf_counter()
        finger = UnitTestTouch(x, y)
        finger.touch_down()
        finger.touch_up()
        return sent, time.perf_counter()

    def active() -> str:
        label = widget("table:active")
        return label.text if label is not None else ""

    def scenario() -> Generator[None, None, None]:
        started = len(flips)  # the main loop runs: the app has started
        yield from until(lambda: len(flips) > started, "first frame")
        figures["start_s"] = time.time() - launched
        yield from until(lambda: widget("bonus:0") is not None, "Diplomacy bonus prompt")
        if phones:
            yield from until(lambda: app.phones.serving, "the phones' server")
            port, tokens = app.phones.server.port, app.phones.hub.tokens()
            links = [f"http://127.0.0.1:{port}/p/{tokens[n % len(tokens)]}"
                     for n in range(phones)]
            clients.append(subprocess.Popen([sys.executable, __file__, "--follow",
                                             str(arrivals), *links]))
            yield from until(lambda: len(phone_arrivals(arrivals)) >= phones, "every phone")
        touch("bonus:0")  # Bob's Diplomacy bonus: the table comes next
        yield from until(active, "table")
        for _ in range(taps):
            for kind in ("next", "undo"):
                yield from (None for _frame in range(2))  # laid out, as a finger finds it
                before = active()
                epoch = time.time()
                sent, handled = touch(f"table:{kind}")
                if phones:
                    figures["steps"].append((app.phones.hub.snapshot.version, epoch))
                yield from until(lambda b=before: active() != b, f"turn change after {kind}")
                drawn = len(flips)
                yield from until(lambda d=drawn: len(flips) > d, "frame")
                figures["touch_ms"][kind].append((flips[drawn] - sent) * 1000)
                figures["handled_ms"].append((handled - sent) * 1000)
        if phones:
            last = figures["steps"][-1][0]
            yield from until(lambda: sum(a["version"] >= last for a in phone_arrivals(arrivals))
                             >= phones, "the last step on every phone")
            figures["arrivals"] = phone_arrivals(arrivals)
        figures["rss_mb"] = rss_mb()

    steps = scenario()

    def step(_dt: float) -> bool:
        try:
            next(steps)
            return True
        except StopIteration:
            pass
        except Exception as error:
            figures["error"] = f"{type(error).__name__}: {error}"
        app.stop()
        return False

    Clock.schedule_interval(step, 0)
    try:
        app.run()
    finally:
        for client in clients:
            client.terminate()
            client.wait(10)
        folder.cleanup()
    return figures


def report(figures: dict[str, Any]) -> None:
    """Print the figures with their targets."""
    every = figures["touch_ms"]["next"] + figures["touch_ms"]["undo"]
    print(f"ui bench (--demo, {figures['size']}, Xvfb + Mesa software rendering)")
    print(f"  cold start to the first interactive frame: {figures['start_s']:.2f} s "
          "(target < 2 s)")
    for kind, times in figures["touch_ms"].items():
        print(f"  touch to screen, {kind.capitalize()} x{len(times)}: median "
              f"{statistics.median(times):.1f} ms, worst {max(times):.1f} ms")
    print(f"  touch to screen, all {len(every)} turn actions: median "
          f"{statistics.median(every):.1f} ms (target < 50), worst {max(every):.1f} ms "
          "(target < 100)")
    print(f"    of which the app's handling (command, commit, refresh): median "
          f"{statistics.median(figures['handled_ms']):.1f} ms; the rest is layout and drawing")
    print(f"  resident memory mid-game: {figures['rss_mb']:.0f} MB (target < 200 MB)")
    if figures["steps"]:
        phones = figures["phones"]
        seen = {}
        for arrival in figures["arrivals"]:
            key = (arrival["phone"], arrival["version"])
            seen[key] = min(seen.get(key, arrival["at"]), arrival["at"])
        late = [(seen[(n, version)] - epoch) * 1000 for version, epoch in figures["steps"]
                for n in range(phones) if (n, version) in seen]
        missed = len(figures["steps"]) * phones - len(late)
        print(f"  with {phones} phones following the game (their pages live):")
        print(f"    a step from the touch to each phone's page: median "
              f"{statistics.median(late):.0f} ms, worst {max(late):.0f} ms (target < 1000); "
              f"{missed} pages skipped (a phone given the newest step instead)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--taps", type=int, default=20, help="Next and Undo taps, each")
    parser.add_argument("--size", default="800x480", help="window size WIDTHxHEIGHT")
    parser.add_argument("--phones", type=int, default=0,
                        help="phones following the game all along (live pages)")
    parser.add_argument("--app", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--follow", nargs="+", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.follow is not None:  # the phones' process, started by the app's
        follow_pages(args.follow[1:], Path(args.follow[0]))
        return 0
    width, height = (int(n) for n in args.size.lower().split("x"))
    if args.app is not None:  # the app's process, started below
        figures = measure(args.app, args.taps, (width, height), args.phones)
        print(RESULT_PREFIX + json.dumps(figures), flush=True)
        return 0
    with bench_display("ui") as display:
        if display is None:
            return 0
        with tempfile.TemporaryDirectory(prefix="phoenix-bench-") as home:
            env = app_environment(display, home)
            if args.phones:  # the phones reach it on loopback, whatever network is up
                config = Path(env["PHOENIX_COMPANION_CONFIG"])
                config.mkdir(parents=True)
                (config / "config.toml").write_text('[phones]\naddress = "127.0.0.1"\n')
            command = [sys.executable, __file__, "--taps", str(args.taps), "--size", args.size,
                       "--phones", str(args.phones), "--app", repr(time.time())]
            figures = app_figures(command, env, timeout=600)
    if "error" in figures:
        print(f"ui bench failed: {figures['error']}")
        return 1
    figures["size"], figures["phones"] = args.size, args.phones
    report(figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
