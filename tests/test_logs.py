"""The app's log (companion.logs): stderr at the config's [logging] level, with syslog priorities
when stderr is systemd's journal stream ($JOURNAL_STREAM), from the handler and the real app."""

from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.logs import setup_logging

STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"


@pytest.fixture
def restore_root_logger():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_a_terminal_gets_time_level_and_logger(restore_root_logger):
    stream = io.StringIO()
    setup_logging("warning", stream)
    setup_logging("warning", stream)  # again: still one handler
    logging.getLogger("companion.test").info("not shown")
    logging.getLogger("companion.test").warning("the camera is gone")
    assert re.fullmatch(f"{STAMP} WARNING companion.test: the camera is gone\n",
                        stream.getvalue())


def journal_run(tmp_path: Path, code: str, args: list[str], env: dict[str, str],
                until: str | None = None) -> list[str]:
    """Run Python with its stderr a file that $JOURNAL_STREAM names (as systemd does); the
    lines written (stopped once `until` is among them)."""
    log = tmp_path / "journal"
    with log.open("w") as stderr:
        status = os.fstat(stderr.fileno())
        env = {**os.environ, **env, "JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}"}
        process = subprocess.Popen([sys.executable, "-c", code, *args], stderr=stderr,
                                   stdout=subprocess.DEVNULL, env=env, cwd=tmp_path)
        try:
            deadline = time.monotonic() + 90
            while process.poll() is None and time.monotonic() < deadline:
                if until is not None and until in log.read_text():
                    break
                time.sleep(0.1)
        finally:
            process.terminate()
            process.wait(timeout=30)
    return log.read_text().splitlines()


def test_the_journal_gets_priorities_and_no_time(tmp_path):
    code = ("import logging, sys; from companion.logs import setup_logging; "
            "setup_logging(sys.argv[1]); log = logging.getLogger('companion.test'); "
            "log.debug('d'); log.info('i'); log.warning('w'); log.error('e')")
    assert journal_run(tmp_path, code, ["debug"], {}) == [
        "<7>DEBUG companion.test: d", "<6>INFO companion.test: i",
        "<4>WARNING companion.test: w", "<3>ERROR companion.test: e"]
    assert journal_run(tmp_path, code, ["error"], {}) == ["<3>ERROR companion.test: e"]


def test_the_app_logs_to_the_journal_at_the_configured_level(tmp_path, xvfb_display):
    config = tmp_path / "config.toml"
    config.write_text('[logging]\nlevel = "info"\n[display]\nfulscreen = true\n')
    lines = journal_run(tmp_path, "from companion.cli import main; main()",
                        ["--config", str(config), "--calculator"],
                        {"DISPLAY": xvfb_display, "KIVY_HOME": str(tmp_path / "kivy"),
                         "PHOENIX_COMPANION_HOME": str(tmp_path / "data"),
                         "LIBGL_ALWAYS_SOFTWARE": "1", "SDL_AUDIODRIVER": "dummy",
                         "KIVY_AUDIO": ""},
                        until="Start application main loop")
    assert "<6>INFO kivy: Base: Start application main loop" in lines
    assert any(line.startswith("<4>WARNING companion.config: ") and "display.fulscreen" in line
               for line in lines)
    assert not [line for line in lines if line.startswith("<7>")]  # no debug at level info
