"""Shared fixtures. UI tests: a private Xvfb display, and a runner for driver scripts in it.

The UI harness is described in docs/ui-testing.md. Xvfb is required (never skipped): CI runs the
UI tests like every other test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests" / "rules"))  # the test table (tables.py), for every folder
sys.path.insert(0, str(REPO / "tools"))  # the private X display, shared with tools/bench_ui.py
from tables import Table, table_catalogue_at  # noqa: E402
from xvfb_display import find_xvfb, start_xvfb, stop  # noqa: E402

# CI replays the same hypothesis examples on every run (a red CI always means a change broke
# something); a developer's runs draw new examples each time and keep the failures they find.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")
RESULT_PREFIX = "DRIVER-RESULT "
# the tests read English (the command lines they start follow the environment's language; a
# test of German sets its own)
os.environ["PHOENIX_LANGUAGE"] = "en"


@pytest.fixture(autouse=True)
def own_user_folders(tmp_path_factory: pytest.TempPathFactory,
                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test has its own empty data and config folders (the command lines it starts too),
    so that no test reads, writes or moves the user's own settings, games or calibration."""
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("PHOENIX_COMPANION_HOME", str(home / "data"))
    monkeypatch.setenv("PHOENIX_COMPANION_CONFIG", str(home / "config"))
    monkeypatch.delenv("PHOENIX_OVERLAY", raising=False)  # the catalogue overlay: theirs too


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Every test ends in English, whatever language it switched to (the tests read English)."""
    yield
    from companion import i18n

    if i18n.language() != i18n.DEFAULT:
        i18n.set_language(i18n.DEFAULT)


@pytest.fixture
def german() -> Iterator[None]:
    """The test speaks German (English again after it)."""
    from companion import i18n

    i18n.set_language("de")
    yield


@pytest.fixture(scope="session")
def xvfb_display() -> Iterator[str]:
    """A private X display (":N") served by our own Xvfb for the whole session."""
    xvfb = find_xvfb()
    if xvfb is None:
        pytest.fail(
            "Xvfb is not installed, and the UI tests need it (they are never skipped). "
            "Run `make test` as root (it installs xvfb and Mesa via deploy/system-packages.sh), "
            "or install them: sudo apt-get install xvfb xauth libgl1-mesa-dri",
            pytrace=False,
        )
    try:
        process, display = start_xvfb(xvfb)
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        yield display
    finally:
        stop(process)


@pytest.fixture
def run_ui_driver(
    xvfb_display: str, tmp_path_factory: pytest.TempPathFactory
) -> Callable[..., dict[str, Any]]:
    """Run a driver script (tests/ui/drive_*.py) in the real app and return what it read.

    Each run is its own process (a Kivy window can be created only once per process), with the
    private display, a fresh KIVY_HOME, data folder (PHOENIX_COMPANION_HOME) and config folder
    (PHOENIX_COMPANION_CONFIG), and a time-out; `python` runs it with another installed copy of
    the app (the Pi install's venv).
    """

    def run(script: str, scenario: str, *, size: str = "800x480", shots: Path | None = None,
            timeout: float = 600.0, extra_env: dict[str, str] | None = None,
            args: tuple[str, ...] = (), python: Path | None = None) -> dict[str, Any]:
        home = tmp_path_factory.mktemp("ui-home")
        env = {
            **os.environ,
            "DISPLAY": xvfb_display,
            "KIVY_HOME": str(home / "kivy"),
            "PHOENIX_COMPANION_HOME": str(home / "data"),
            "PHOENIX_COMPANION_CONFIG": str(home / "config"),
            "XDG_DATA_HOME": str(home / "xdg"),
            "XDG_CONFIG_HOME": str(home / "xdg-config"),
            "LIBGL_ALWAYS_SOFTWARE": "1",
            "SDL_AUDIODRIVER": "dummy",
            "KIVY_AUDIO": "",
            **(extra_env or {}),
        }
        env.pop("PHOENIX_OVERLAY", None)
        command = [str(python or sys.executable), str(REPO / "tests" / "ui" / script), scenario,
                   "--size", size]
        if shots is not None:
            command += ["--shots", str(shots)]
        command += list(args)
        try:
            done = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired as error:
            pytest.fail(f"{script} {scenario} did not finish within {timeout} s\n"
                        f"stderr:\n{(error.stderr or b'')[-3000:]!r}", pytrace=False)
        lines = [line for line in done.stdout.splitlines() if line.startswith(RESULT_PREFIX)]
        if not lines:
            pytest.fail(f"{script} {scenario} reported nothing (exit {done.returncode})\n"
                        f"stdout:\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-4000:]}",
                        pytrace=False)
        result = json.loads(lines[-1][len(RESULT_PREFIX):])
        if not result.get("ok"):
            pytest.fail(f"{script} {scenario} failed: {result.get('error')}\n"
                        f"{result.get('traceback', '')}\nstderr:\n{done.stderr[-3000:]}",
                        pytrace=False)
        return result

    return run


@pytest.fixture(scope="session")
def table_catalogue(tmp_path_factory) -> Any:
    """The shipped catalogue plus a table's entries for everything unknown."""
    return table_catalogue_at(tmp_path_factory.mktemp("table"))


@pytest.fixture
def table(table_catalogue) -> Table:
    """A 2-player game (Ann: B-3, Bob: B-5) at the start of play."""
    table = Table(table_catalogue)
    table.setup_bonuses()
    return table
