"""A stand-in for systemctl on PATH (tests/hardware/test_power.py, tests/ui/test_settings_power.py):
a small script that records its arguments, one call a line, and answers as told - exit 0, or
exit 1 with what systemctl says when polkit refuses."""

from __future__ import annotations

import shlex
from pathlib import Path

REFUSED = "Call to PowerOff failed: Access denied"  # systemctl's words when polkit says no


def fake_systemctl(folder: Path, *, status: int = 0, says: str = "",
                   sleeps: float = 0) -> Path:
    """Write `folder/bin/systemctl`, which appends its arguments to `folder/systemctl.log`,
    prints `says` on stderr, waits `sleeps` seconds and exits with `status`; returns the bin
    folder to put first on PATH."""
    bin_folder = folder / "bin"
    bin_folder.mkdir(parents=True, exist_ok=True)
    script = bin_folder / "systemctl"
    script.write_text("#!/bin/sh\n"
                      f'echo "$*" >> {shlex.quote(str(calls_file(folder)))}\n'
                      f"printf '%s' {shlex.quote(says)} >&2\n"
                      f"sleep {sleeps:g}\n"
                      f"exit {status}\n", encoding="utf-8")
    script.chmod(0o755)
    return bin_folder


def calls_file(folder: Path) -> Path:
    """Where the fake systemctl in `folder` records its calls."""
    return folder / "systemctl.log"


def calls(folder: Path) -> list[str]:
    """The fake's calls so far, each its arguments joined by spaces."""
    path = calls_file(folder)
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []
