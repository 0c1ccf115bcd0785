"""A private X display for the UI tests (tests/conftest.py) and the UI and camera benches
(tools/bench_ui.py, bench_camera.py): our own Xvfb on a free display number, chosen by Xvfb
itself (-displayfd); and how a bench runs its app there and reads its figures."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

SCREEN = "1920x1200x24"  # large enough for every window size the tests use


def find_xvfb() -> str | None:
    """The Xvfb program (None: not installed)."""
    if shutil.which("Xvfb"):
        return shutil.which("Xvfb")
    return "/usr/bin/Xvfb" if os.access("/usr/bin/Xvfb", os.X_OK) else None


def start_xvfb(xvfb: str, timeout: float = 30.0) -> tuple[subprocess.Popen, str]:
    """Start Xvfb on a free display: the process and ":N" (RuntimeError with Xvfb's own
    message when it does not start)."""
    read_end, write_end = os.pipe()
    with tempfile.TemporaryFile() as log:  # Xvfb's messages (a pipe nobody reads fills up)
        process = subprocess.Popen(
            [xvfb, "-displayfd", str(write_end), "-screen", "0", SCREEN, "-nolisten", "tcp",
             "-noreset"], pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=log)
        os.close(write_end)
        data = b""
        deadline = time.monotonic() + timeout
        try:
            # Xvfb writes the display number it chose, then a newline
            while not data.endswith(b"\n") and time.monotonic() < deadline \
                    and process.poll() is None:
                if select.select([read_end], [], [], 0.5)[0]:
                    data += os.read(read_end, 64)
        finally:
            os.close(read_end)
        if not data.endswith(b"\n"):
            process.kill()
            process.wait(timeout=10)
            log.seek(0)
            stderr = log.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"Xvfb did not start (exit {process.returncode}):\n{stderr}")
    return process, f":{int(data.strip())}"


def stop(process: subprocess.Popen) -> None:
    """End a process we started, waiting for it."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextmanager
def bench_display(bench: str) -> Iterator[str | None]:
    """A private display for a bench's app: ":N" while the block runs (its Xvfb stopped after),
    or None when Xvfb is not installed, said as "<bench> bench skipped: ..."."""
    program = find_xvfb()
    if program is None:
        print(f"{bench} bench skipped: Xvfb is not installed (deploy/system-packages.sh "
              "installs it)")
        yield None
        return
    xvfb, display = start_xvfb(program)
    try:
        yield display
    finally:
        stop(xvfb)


BENCH_RESULT = "BENCH-RESULT "  # the line a bench's app process prints its figures on


def app_environment(display: str, home: str) -> dict[str, str]:
    """The environment of an app a bench starts on `display`: a fresh Kivy home, data and config
    folders under `home` (never the user's own), software GL, no sound, no console log."""
    return {**os.environ, "DISPLAY": display, "KIVY_HOME": f"{home}/kivy",
            "PHOENIX_COMPANION_HOME": f"{home}/data", "XDG_DATA_HOME": f"{home}/xdg",
            "PHOENIX_COMPANION_CONFIG": f"{home}/config", "XDG_CONFIG_HOME": f"{home}/xdg-config",
            "LIBGL_ALWAYS_SOFTWARE": "1", "SDL_AUDIODRIVER": "dummy", "KIVY_AUDIO": "",
            "KIVY_NO_CONSOLELOG": "1"}


def app_figures(command: list[str], env: dict[str, str], timeout: float) -> dict:
    """Run a bench's app process; the figures it printed last after BENCH_RESULT, else
    {"error": what went wrong}."""
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    lines = [line for line in done.stdout.splitlines() if line.startswith(BENCH_RESULT)]
    return json.loads(lines[-1][len(BENCH_RESULT):]) if lines else {
        "error": f"the app reported nothing (exit {done.returncode}): {done.stderr[-2000:]}"}
