"""Benchmark the dice camera: the read-once pipeline on one core, and the camera view under a
private Xvfb.

    .venv/bin/python tools/bench_camera.py [--cycles N] [--settle S] [--no-app]

The dice are read once they lie still (docs/dice.md, "Read once the dice lie still"): a motion
check on every frame, the full reader once the tray has been still for the settle time. The
camera is a SYNTHETIC one (vision.training.synth): one table of pip dice thrown again every
frame for MOVING_S (moving), then lying still for STILL_S with fresh sensor noise on every frame,
played at CAMERA_FPS frames a second, N times over. Pinned to one core where the OS allows it
(os.sched_setaffinity; threads started after inherit it) with cv2.setNumThreads(1), it prints:
- the motion check: ms per 640x480 frame (`StillTray.update`: shrink, grey, blur, compare);
  issue 29's target is 3 ms on one core;
- the settled read: `PipReader().read` (the whole search, as a roll's first read), ms per still
  frame, on the first 12 photos of `make bench`'s synthetic set (seed 1000, 640x480; target
  150 ms) and on 6 of them brought to 12 MP (4032x3024; target 400 ms); frames in memory, so no
  decoding is timed;
- still to read: `DiceWatcher` (camera and motion check in one thread, the full read in
  another, as in the app) with `PipReader().follower`: from the first still frame leaving the
  camera to the reading available (`settled()`), minus the settle time (target 300 ms); and how
  many full reads ran (one a stillness).
Then, in a fresh process under Xvfb (skipped, said so, without it; --no-app skips it), a
minimal Kivy app (800x480) with the real `DiceCameraView` (440x330, as on the action screen)
watching the same camera on the same one core, N cycles after a warm-up: the UI's frame time,
the live picture's redraws a second, camera frame to screen, still to the dice on screen minus
the settle time; the UI idle for contrast, and how long stopping the camera held the main
thread. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xvfb_display import BENCH_RESULT as RESULT_PREFIX
from xvfb_display import app_environment, app_figures, bench_display

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import cv2  # noqa: E402  (after the repository is importable)
import numpy as np  # noqa: E402

CAMERA_FPS = 30.0  # the synthetic camera's frame rate (a USB webcam's usual)
MOVING_S = 1.0  # each cycle: the dice thrown about for this long
STILL_S = 1.5  # then lying still for this long
THROWS = 12  # different throws played while moving (one a frame, round and round)
SIZE = (640, 480)
TWELVE_MP = (4032, 3024)
READ_SCENES = 12  # photos of the synthetic set read at 640x480
READ_SCENES_12MP = 6  # of them, brought to 12 MP
MOTION_FRAMES = 600  # frames timed for the motion check
WARM_UP_S = 2.0  # the app: from the first picture on screen to the first cycle measured
IDLE_S = 3.0
VIEW_SIZE = (440, 330)  # the camera picture on the action screen at 800x480
LONG_FRAME_MS = 33.4  # a frame this long drops at least one frame at 60 frames/s


# -- the synthetic camera ---------------------------------------------------------------------


def one_core() -> tuple[int | None, set[int]]:
    """Pin this thread to one core (threads started after inherit it) and OpenCV to one
    thread; the core (None where the OS cannot pin) and the cores it had."""
    cv2.setNumThreads(1)
    if not hasattr(os, "sched_setaffinity"):
        return None, set()
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})
    return min(cores), cores


@dataclass(frozen=True)
class Sequence:
    """The synthetic camera's pictures: throws of the dice (moving), and the last throw lying
    still with fresh sensor noise."""

    moving: list[np.ndarray]
    still: list[np.ndarray]
    dice: int


def sequence(seed: int = 29, size: tuple[int, int] = SIZE) -> Sequence:
    """One table of pip dice (SYNTHETIC), thrown THROWS times, then still."""
    from vision.training.synth import SynthParams, new_setup, roll

    rng = np.random.default_rng(seed)
    params = SynthParams(icon_dice=0, dice=(6, 6), die_px=(30.0, 50.0))
    setup, count = new_setup(rng, size, params)
    moving = [roll(rng, setup, count, params)[0] for _ in range(THROWS)]
    lying, dice = roll(rng, setup, count, params)
    still = [np.clip(lying + rng.normal(0, 3, lying.shape), 0, 255).astype(np.uint8)
             for _ in range(8)]
    return Sequence(moving, still, len(dice))


class PacedCamera:
    """Plays a Sequence in real time: MOVING_S of throws, STILL_S still, over and over, each
    frame when its time comes; notes when each cycle's first still frame left it."""

    name = "synthetic camera"

    def __init__(self, frames: Sequence, fps: float = CAMERA_FPS) -> None:
        self.frames = frames
        self.fps = fps
        self.still_at: list[float] = []  # time.monotonic of each cycle's first still frame
        self.start = 0.0
        self.index = 0

    def open(self) -> None:
        self.start, self.index = time.monotonic(), 0

    def read(self) -> np.ndarray:
        due = self.start + self.index / self.fps
        time.sleep(max(0.0, due - time.monotonic()))
        moving = round(MOVING_S * self.fps)
        at = self.index % (moving + round(STILL_S * self.fps))
        self.index += 1
        if at < moving:
            return self.frames.moving[at % len(self.frames.moving)]
        if at == moving:
            self.still_at.append(time.monotonic())
        return self.frames.still[at % len(self.frames.still)]

    def close(self) -> None:
        pass


# -- the pipeline, in this process ------------------------------------------------------------


def fastest_read(reader: Any, frame: np.ndarray, times: int) -> float:
    """The fastest of `times` reads of a frame, in milliseconds."""
    spent = []
    for _ in range(times):
        tick = time.perf_counter()
        reader.read(frame)
        spent.append((time.perf_counter() - tick) * 1000)
    return min(spent)


def motion_ms(frames: Sequence, size: tuple[int, int] | None = None) -> list[float]:
    """The motion check's ms per frame over the sequence played MOTION_FRAMES times (moving
    and still frames in the camera's order); `size`: the frames brought to it first."""
    from vision.settle import StillTray

    moving, still = round(MOVING_S * CAMERA_FPS), round(STILL_S * CAMERA_FPS)
    order = [frames.moving[k % len(frames.moving)] for k in range(moving)] + [
        frames.still[k % len(frames.still)] for k in range(still)]
    if size is not None:
        order = [cv2.resize(f, size, interpolation=cv2.INTER_LINEAR) for f in order[:40]]
    tray = StillTray(0.5)
    spent = []
    for k in range(MOTION_FRAMES if size is None else MOTION_FRAMES // 4):
        frame = order[k % len(order)]
        tick = time.perf_counter()
        tray.update(frame, k / CAMERA_FPS)
        spent.append((time.perf_counter() - tick) * 1000)
    return spent


def read_ms(reader: Any) -> dict[str, list[float]]:
    """The whole search's ms per photo (the fastest of its reads): the first READ_SCENES of the
    synthetic set at 640x480, READ_SCENES_12MP of them at 12 MP."""
    from vision.training.synth import SynthParams, render_scene

    rng = np.random.default_rng(1000)  # `make bench`'s synthetic set: build/dice-synth
    scenes = [render_scene(rng, SIZE, SynthParams(icon_dice=0))[0] for _ in range(READ_SCENES)]
    reader.read(scenes[0])  # the networks' first run
    small = [fastest_read(reader, frame, 3) for frame in scenes]
    big = [fastest_read(reader, cv2.resize(frame, TWELVE_MP, interpolation=cv2.INTER_LINEAR), 2)
           for frame in scenes[:READ_SCENES_12MP]]
    return {"640x480": small, "12MP": big}


def still_to_read(frames: Sequence, cycles: int, settle: float) -> dict[str, Any]:
    """The watcher as the app runs it: ms from each cycle's first still frame to its reading
    available, minus the settle time (the first cycle loads the networks: not counted)."""
    from vision.live import DiceWatcher
    from vision.pips import PipReader

    reader = PipReader()
    camera = PacedCamera(frames)
    watcher = DiceWatcher(lambda: camera, reader.follower, settle_seconds=settle)
    latencies: list[float] = []
    counts: list[int] = []
    seen = None
    with watcher:
        deadline = time.monotonic() + (cycles + 1) * (MOVING_S + STILL_S) + 30
        while len(latencies) < cycles and time.monotonic() < deadline:
            time.sleep(0.001)
            settled = watcher.settled()
            if settled is None or settled is seen or not camera.still_at:
                continue
            seen, now = settled, time.monotonic()
            if len(camera.still_at) > 1 and settled.seen_at >= camera.still_at[-1]:
                latencies.append((now - camera.still_at[-1] - settle) * 1000)
                counts.append(len(settled.reading.dice))
        cycles_seen = len(camera.still_at)
        reads = watcher.reads
    return {"ms": latencies, "dice": counts, "expected": frames.dice, "reads": reads,
            "stillnesses": cycles_seen}


def pipeline(cycles: int, settle: float) -> dict[str, Any]:
    """The pipeline's figures, pinned to one core."""
    from vision.pips import PipReader

    core, cores = one_core()
    try:
        frames = sequence()
        return {"core": core, "motion": motion_ms(frames),
                "motion_12mp": motion_ms(frames, TWELVE_MP), "read": read_ms(PipReader()),
                "still": still_to_read(frames, cycles, settle)}
    finally:  # Xvfb, started next, is no part of the app's core
        if cores:
            os.sched_setaffinity(0, cores)


def spread(values: list[float]) -> str:
    if not values:
        return "none measured"
    return (f"median {statistics.median(values):.1f} ms, worst {max(values):.1f} ms "
            f"(n={len(values)})")


def pinned(core: int | None) -> str:
    return "not pinned" if core is None else f"pinned to core {core}"


def report_pipeline(figures: dict[str, Any], settle: float) -> None:
    """Print the pipeline's figures, one line each."""
    print(f"camera bench: the read-once pipeline ({pinned(figures['core'])}, "
          f"OpenCV 1 thread; SYNTHETIC camera {SIZE[0]}x{SIZE[1]} at {CAMERA_FPS:.0f} frames/s: "
          f"dice thrown for {MOVING_S} s, still for {STILL_S} s; settle {settle} s)")
    motion = figures["motion"]
    print(f"  motion check per 640x480 frame: {spread(motion)}, p95 "
          f"{percentile(motion, 0.95):.2f} ms (target 3 ms)")
    print(f"  motion check per 12 MP frame: {spread(figures['motion_12mp'])}")
    read = figures["read"]
    print(f"  settled read (PipReader().read, decoding excluded), 640x480, {READ_SCENES} synthetic "
          f"photos: {spread(read['640x480'])} (target 150 ms)")
    print(f"  settled read, 12 MP ({READ_SCENES_12MP} of them at 4032x3024): "
          f"{spread(read['12MP'])} (target 400 ms)")
    still = figures["still"]
    right = sum(n == still["expected"] for n in still["dice"])
    print(f"  dice still to reading available, minus the settle time (DiceWatcher, "
          f"PipReader().follower): {spread(still['ms'])} (target 300 ms); full reads "
          f"{still['reads']} in {still['stillnesses']} stillnesses; {right} of "
          f"{len(still['dice'])} readings found all {still['expected']} dice")


# -- the app, under Xvfb ----------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def measure(cycles: int, settle: float, size: tuple[int, int]) -> dict[str, Any]:
    """In the app's process, on one core: show the camera, measure; returns the figures."""
    from companion.ui.shell.window import configure_kivy

    core, _cores = one_core()
    frames = sequence()
    configure_kivy(size=size)
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.widget import Widget

    from companion.ui.kit.dice_camera import DiceCameraView
    from vision.faces import Reading
    from vision.live import DiceWatcher
    from vision.pips import PipReader

    camera = PacedCamera(frames)
    figures: dict[str, Any] = {"core": core, "latency_ms": [], "draw_ms": [], "shown_ms": [],
                               "dice": [], "expected": frames.dice}
    ticks: list[float] = []  # when each clock frame ran (time.monotonic)
    flips: list[float] = []  # when each frame was drawn on screen
    phase = {"name": "warm-up"}
    marks: dict[str, float] = {}
    shown_for: set[int] = set()  # the cycles whose dice were drawn

    class BenchCameraView(DiceCameraView):
        """The real view, timing each picture it draws."""

        def draw(self) -> None:
            sighting, started = self._last, time.monotonic()
            super().draw()
            blitted = time.monotonic()
            if sighting is None or phase["name"] != "watching":
                return
            figures["latency_ms"].append((blitted - sighting.seen_at) * 1000)
            figures["draw_ms"].append((blitted - started) * 1000)
            cycle = len(camera.still_at) - 1
            if self.seen is not None and cycle not in shown_for and camera.still_at[-1] >= \
                    marks["watching"] and sighting.seen_at >= camera.still_at[-1]:
                shown_for.add(cycle)
                figures["shown_ms"].append((blitted - camera.still_at[-1] - settle) * 1000)
                figures["dice"].append(len(self.seen.dice))

    readers: list[PipReader] = []

    def read() -> Callable[[Any], Reading]:
        """As dice_watcher: the networks load in the watcher's reader thread, once."""
        if not readers:
            readers.append(PipReader())
        return readers[0].follower()

    watcher = DiceWatcher(lambda: camera, read, settle_seconds=settle)
    view = BenchCameraView(fit_mode="contain", size_hint=(None, None), size=VIEW_SIZE,
                           pos=((size[0] - VIEW_SIZE[0]) / 2, (size[1] - VIEW_SIZE[1]) / 2))
    root = Widget()
    root.add_widget(view)

    def tick(_dt: float) -> None:
        now = time.monotonic()
        ticks.append(now)
        name = phase["name"]
        if now - marks["start"] > (cycles + 2) * (MOVING_S + STILL_S) + 60:
            figures["error"] = f"stuck in {name} (camera problem: {watcher.problem})"
            app.stop()
        elif name == "warm-up":
            if "first" not in marks:
                if view._last is not None:
                    marks["first"] = now
            elif now - marks["first"] >= WARM_UP_S and readers:
                phase["name"], marks["watching"] = "watching", now
                marks["frames"] = watcher.frames
        elif name == "watching" and len(shown_for) >= cycles and camera.still_at[-1] + \
                STILL_S <= now:
            marks["watch_end"] = now
            figures["frames"] = watcher.frames - marks["frames"]
            view.stop()  # the watcher lets go without waiting for a read
            marks["stopped"] = time.monotonic()
            phase["name"] = "idle"
        elif name == "idle" and now - marks["stopped"] >= IDLE_S:
            marks["idle_end"] = now
            app.stop()

    class BenchApp(App):
        def build(self) -> Widget:
            return root

        def on_start(self) -> None:
            Window.bind(on_flip=lambda *_a: flips.append(time.monotonic()))
            marks["start"] = time.monotonic()
            view.watch(None, watcher)  # a preview: every sighting is drawn, none is taken
            Clock.schedule_interval(tick, 0)

    app = BenchApp()
    app.run()
    view.stop()
    if "error" in figures:
        return figures

    def frames_in(start: float, end: float) -> dict[str, Any]:
        inside = [t for t in ticks if start <= t <= end]
        gaps = [(b - a) * 1000 for a, b in itertools.pairwise(inside)]
        drawn = sum(start <= t <= end for t in flips)
        return {"gaps_ms": gaps, "loop_fps": len(gaps) / (end - start),
                "screen_fps": drawn / (end - start)}

    figures["first_s"] = marks["first"] - marks["start"]
    figures["watching"] = frames_in(marks["watching"], marks["watch_end"])
    figures["idle"] = frames_in(marks["stopped"], marks["idle_end"])
    figures["stop_ms"] = (marks["stopped"] - marks["watch_end"]) * 1000
    figures["seconds"] = marks["watch_end"] - marks["watching"]
    figures["camera_fps"] = figures["frames"] / figures["seconds"]
    figures["redraws"] = len(figures["latency_ms"]) / figures["seconds"]
    return figures


def report_app(figures: dict[str, Any], size: str, settle: float) -> None:
    """Print one line a figure."""
    def ui(name: str) -> str:
        part = figures[name]
        gaps = part["gaps_ms"]
        return (f"median {statistics.median(gaps):.1f} ms, p95 {percentile(gaps, 0.95):.1f} ms, "
                f"worst {max(gaps):.1f} ms, {sum(g > LONG_FRAME_MS for g in gaps)} of {len(gaps)} "
                f"over {LONG_FRAME_MS:.0f} ms; {part['loop_fps']:.1f} frames/s in the main loop, "
                f"{part['screen_fps']:.1f} redraws/s on screen")

    right = sum(n == figures["expected"] for n in figures["dice"])
    print(f"camera bench: the app ({size}, view {VIEW_SIZE[0]}x{VIEW_SIZE[1]}, Xvfb + Mesa "
          f"software rendering, {pinned(figures['core'])}; "
          f"the same camera; {figures['seconds']:.1f} s measured, "
          f"{len(figures['shown_ms'])} stillnesses)")
    print(f"  first picture on screen: {figures['first_s'] * 1000:.0f} ms after the view "
          "started")
    print(f"  camera frames taken: {figures['camera_fps']:.1f} frames/s; the live picture "
          f"drawn {figures['redraws']:.1f} times/s")
    print(f"  camera frame to screen (blitted): {spread(figures['latency_ms'])}; of which "
          f"drawing on the main thread: {spread(figures['draw_ms'])}")
    print(f"  dice still to their reading on screen, minus the settle time: "
          f"{spread(figures['shown_ms'])} (target 300 ms; {right} of {len(figures['dice'])} "
          f"found all {figures['expected']} dice)")
    print(f"  UI frame time while watching: {ui('watching')}")
    print(f"  UI frame time, camera stopped (idle): {ui('idle')}")
    print(f"  stopping the camera held the main thread {figures['stop_ms']:.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cycles", type=int, default=6,
                        help="stillnesses measured (each MOVING_S + STILL_S seconds)")
    parser.add_argument("--settle", type=float, default=0.5,
                        help="seconds still before the dice are read (the config's default)")
    parser.add_argument("--size", default="800x480", help="the app's window WIDTHxHEIGHT")
    parser.add_argument("--no-app", action="store_true", help="the pipeline only, no Xvfb")
    parser.add_argument("--app", action="store_true", help=argparse.SUPPRESS)  # the app's process
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))
    if args.app:
        figures = measure(args.cycles, args.settle, (width, height))
        print(RESULT_PREFIX + json.dumps(figures), flush=True)
        return 0
    report_pipeline(pipeline(args.cycles, args.settle), args.settle)
    if args.no_app:
        return 0
    with bench_display("camera app") as display:
        if display is None:
            return 0
        with tempfile.TemporaryDirectory(prefix="phoenix-bench-") as home:
            command = [sys.executable, __file__, "--app", "--cycles", str(args.cycles),
                       "--settle", str(args.settle), "--size", args.size]
            figures = app_figures(command, app_environment(display, home), timeout=600)
    if "error" in figures:
        print(f"camera app bench failed: {figures['error']}")
        return 1
    report_app(figures, args.size, args.settle)
    return 0


if __name__ == "__main__":
    sys.exit(main())
