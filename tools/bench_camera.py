"""Benchmark the live dice camera under a private Xvfb: frame to screen latency, UI frame time.

    .venv/bin/python tools/bench_camera.py [--seconds S] [--size WxH] [--opencv-threads N]

The expedition screen shows the camera's picture of the dice while the dice are read in a
background thread (`vision.live.DiceWatcher`); the main thread only draws the newest sighting
(`companion.ui.kit.dice_camera.DiceCameraView`), so the UI must never stall while the camera reads.
This starts `Xvfb` on a free display and, in a fresh process, a minimal Kivy app (800x480) with
the real `DiceCameraView` (440x330, as on the action screen) watching a camera played from the
three d6-tray photos in tests/vision/fixtures (640x640, looped) with `PipReader().follower`, the
camera unpaced (as fast as the reader allows). After a 2 s warm-up it measures for S seconds:
- camera frame to screen: from the frame being read by the camera (`Sighting.seen_at`) to its
  picture blitted into the view's texture on the main thread, and to the next frame drawn;
  median and worst, with the reading time per frame and the frames a second read;
- UI frame time while reading: the intervals between Kivy clock frames (median, p95, worst),
  the main loop's frames a second and the redraws a second on screen;
- the same UI figures for 3 s with the camera stopped (idle), for contrast, and how long
  stopping the camera held the main thread.
OpenCV (the reader's networks run on cv2.dnn) keeps its own thread count, as in the app, unless
--opencv-threads says otherwise.
Prints figures; asserts nothing. Without Xvfb it says so and measures nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from xvfb_display import BENCH_RESULT as RESULT_PREFIX
from xvfb_display import app_environment, app_figures, bench_display

REPO = Path(__file__).resolve().parent.parent
PHOTOS = REPO / "tests" / "vision" / "fixtures"
WARM_UP_S = 2.0
IDLE_S = 3.0
VIEW_SIZE = (440, 330)  # the camera picture on the action screen at 800x480
LONG_FRAME_MS = 33.4  # a frame this long drops at least one frame at 60 frames/s


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def measure(photos: Path, seconds: float, size: tuple[int, int],
            opencv_threads: int | None) -> dict[str, Any]:
    """In the app's process: show the camera, measure; returns the figures."""
    sys.path.insert(0, str(REPO))
    from companion.ui.shell.window import configure_kivy

    configure_kivy(size=size)
    import cv2
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.widget import Widget

    from companion.ui.kit.dice_camera import DiceCameraView
    from vision.camera import ImageCamera
    from vision.faces import Reading
    from vision.live import DiceWatcher, Sighting
    from vision.pips import PipReader

    if opencv_threads is not None:
        cv2.setNumThreads(opencv_threads)
    figures: dict[str, Any] = {"opencv_threads": cv2.getNumThreads(), "latency_ms": [],
                               "screen_ms": [], "draw_ms": [], "read_ms": [], "wait_ms": []}
    flips: list[float] = []  # when each frame was drawn on screen (time.monotonic)
    ticks: list[float] = []  # when each clock frame ran (time.monotonic)
    waiting: list[Sighting] = []  # blitted, not yet on screen
    phase = {"name": "warm-up"}

    def flipped(*_args: Any) -> None:
        now = time.monotonic()
        flips.append(now)
        if phase["name"] == "reading":
            figures["screen_ms"].extend((now - s.seen_at) * 1000 for s in waiting)
        waiting.clear()

    class BenchCameraView(DiceCameraView):
        """The real view, timing each picture it draws."""

        def draw(self) -> None:
            sighting, started = self._last, time.monotonic()
            super().draw()
            blitted = time.monotonic()
            if sighting is None or phase["name"] != "reading":
                return
            figures["latency_ms"].append((blitted - sighting.seen_at) * 1000)
            figures["draw_ms"].append((blitted - started) * 1000)
            figures["read_ms"].append(sighting.read_ms)
            figures["wait_ms"].append((started - sighting.seen_at) * 1000 - sighting.read_ms)
            waiting.append(sighting)

    readers: list[PipReader] = []

    def read() -> Callable[[Any], Reading]:
        """As dice_watcher: the networks load in the watcher's thread."""
        if not readers:
            readers.append(PipReader())
        return readers[0].follower()

    watcher = DiceWatcher(lambda: ImageCamera(photos, loop=True), read, max_fps=None)
    view = BenchCameraView(fit_mode="contain", size_hint=(None, None), size=VIEW_SIZE,
                           pos=((size[0] - VIEW_SIZE[0]) / 2, (size[1] - VIEW_SIZE[1]) / 2))
    root = Widget()
    root.add_widget(view)
    marks: dict[str, float] = {}

    def tick(_dt: float) -> None:
        now = time.monotonic()
        ticks.append(now)
        name = phase["name"]
        if now - marks["start"] > seconds + 60:
            figures["error"] = f"stuck in {name} (camera problem: {watcher.problem})"
            app.stop()
        elif name == "warm-up":
            if "first" not in marks:
                if view._last is not None:
                    marks["first"] = now
            elif now - marks["first"] >= WARM_UP_S:
                phase["name"], marks["reading"] = "reading", now
                marks["frames"] = watcher.frames
        elif name == "reading" and now - marks["reading"] >= seconds:
            marks["read_end"] = now
            figures["frames_read"] = watcher.frames - marks["frames"]
            view.stop()  # joins the watcher's thread: waits for the frame being read
            marks["stopped"] = time.monotonic()
            phase["name"] = "idle"
        elif name == "idle" and now - marks["stopped"] >= IDLE_S:
            marks["idle_end"] = now
            app.stop()

    class BenchApp(App):
        def build(self) -> Widget:
            return root

        def on_start(self) -> None:
            Window.bind(on_flip=flipped)
            marks["start"] = time.monotonic()
            view.watch(None, watcher)  # a preview: every sighting is drawn, none is taken
            Clock.schedule_interval(tick, 0)

    app = BenchApp()
    app.run()
    view.stop()
    if "error" in figures:
        return figures

    def frames(start: float, end: float) -> dict[str, Any]:
        inside = [t for t in ticks if start <= t <= end]
        gaps = [(b - a) * 1000 for a, b in itertools.pairwise(inside)]
        drawn = sum(start <= t <= end for t in flips)
        return {"gaps_ms": gaps, "loop_fps": len(gaps) / (end - start),
                "screen_fps": drawn / (end - start)}

    figures["first_s"] = marks["first"] - marks["start"]
    figures["reading"] = frames(marks["reading"], marks["read_end"])
    figures["idle"] = frames(marks["stopped"], marks["idle_end"])
    figures["stop_ms"] = (marks["stopped"] - marks["read_end"]) * 1000
    figures["read_fps"] = figures["frames_read"] / (marks["read_end"] - marks["reading"])
    figures["seconds"] = marks["read_end"] - marks["reading"]
    return figures


def report(figures: dict[str, Any], size: str) -> None:
    """Print one line a figure."""
    def spread(values: list[float]) -> str:
        return (f"median {statistics.median(values):.1f} ms, worst {max(values):.1f} ms "
                f"(n={len(values)})")

    def ui(name: str) -> str:
        part = figures[name]
        gaps = part["gaps_ms"]
        return (f"median {statistics.median(gaps):.1f} ms, p95 {percentile(gaps, 0.95):.1f} ms, "
                f"worst {max(gaps):.1f} ms, {sum(g > LONG_FRAME_MS for g in gaps)} of {len(gaps)} "
                f"over {LONG_FRAME_MS:.0f} ms; {part['loop_fps']:.1f} frames/s in the main loop, "
                f"{part['screen_fps']:.1f} redraws/s on screen")

    print(f"camera bench ({size}, view {VIEW_SIZE[0]}x{VIEW_SIZE[1]}, Xvfb + Mesa software "
          f"rendering; camera: the 3 photos of tests/vision/fixtures, 640x640, looped, "
          f"unpaced; reader: PipReader().follower, OpenCV threads {figures['opencv_threads']}; "
          f"{figures['seconds']:.1f} s measured)")
    print(f"  first picture on screen (networks loaded in the watcher's thread): "
          f"{figures['first_s']:.2f} s")
    print(f"  camera frames read: {figures['read_fps']:.1f} frames/s; reading the dice: median "
          f"{statistics.median(figures['read_ms']):.1f} ms a frame")
    print(f"  camera frame to screen (blitted): {spread(figures['latency_ms'])}")
    if figures["screen_ms"]:
        print(f"  camera frame to screen (next frame drawn): {spread(figures['screen_ms'])}")
    print(f"    of which reading the dice (watcher's thread): {spread(figures['read_ms'])}")
    print(f"    of which waiting for the view's next 1/15 s redraw: {spread(figures['wait_ms'])}")
    print(f"    of which drawing the picture on the main thread (overlay, blit): "
          f"{spread(figures['draw_ms'])}")
    print(f"  UI frame time while reading: {ui('reading')}")
    print(f"  UI frame time, camera stopped (idle): {ui('idle')}")
    print(f"  stopping the camera held the main thread {figures['stop_ms']:.1f} ms "
          "(waiting for the frame being read)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds measured reading")
    parser.add_argument("--size", default="800x480", help="window size WIDTHxHEIGHT")
    parser.add_argument("--opencv-threads", type=int, default=None,
                        help="OpenCV's threads for the reader (default: OpenCV's own, as the app)")
    parser.add_argument("--app", default=None, help=argparse.SUPPRESS)  # the photos' folder
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))
    if args.app is not None:  # the app's process, started below
        figures = measure(Path(args.app), args.seconds, (width, height), args.opencv_threads)
        print(RESULT_PREFIX + json.dumps(figures), flush=True)
        return 0
    with bench_display("camera") as display:
        if display is None:
            return 0
        with tempfile.TemporaryDirectory(prefix="phoenix-bench-") as home:
            photos = Path(home) / "photos"
            photos.mkdir()
            for photo in sorted(PHOTOS.glob("*.jpg")):
                shutil.copy(photo, photos)
            env = app_environment(display, home)
            command = [sys.executable, __file__, "--seconds", str(args.seconds), "--size",
                       args.size, "--app", str(photos)]
            if args.opencv_threads is not None:
                command += ["--opencv-threads", str(args.opencv_threads)]
            figures = app_figures(command, env, timeout=300)
    if "error" in figures:
        print(f"camera bench failed: {figures['error']}")
        return 1
    report(figures, args.size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
