"""Shutting down and restarting the computer the app runs on, so that a kiosk can be switched
off from its screen instead of by pulling the plug (which can spoil the SD card).

It runs `systemctl --no-ask-password poweroff` (or `reboot`) as the app's user: systemctl asks
systemd-logind, and polkit decides; the install adds a polkit rule that allows the player the
logind actions power-off and reboot (with their -multiple-sessions variants, for when someone is
logged in over SSH too). `--no-ask-password` makes a refusal come back at once instead of
waiting for a password nobody can type. systemctl returns as soon as logind has queued the job,
so a call takes a moment, not the whole shutdown. Offered only where systemd runs the computer
(`/run/systemd/system` exists, sd_booted(3)'s test) and systemctl is on PATH. Knows nothing of
the game.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from companion.i18n import _

SYSTEMD_RUNNING = Path("/run/systemd/system")  # there only when systemd booted the computer
TIMEOUT = 30.0  # seconds for systemctl to answer (logind queues the job and returns)
# systemctl's and polkit's words for "this user may not": a polkit rule is missing
_REFUSED = ("access denied", "authentication required", "not authorized", "permission denied")


class PowerError(Exception):
    """The computer could not be shut down or restarted; the message says why and what to do."""


class SystemPower:
    """The computer's power through systemd: `shutdown()` and `restart()`, gpiozero-style.

    Each call runs systemctl once and returns when systemd has accepted the job (the computer
    then goes down while the app is still running), or raises PowerError with systemctl's
    reason in words."""

    def __init__(self, systemctl: str) -> None:
        self.systemctl = systemctl

    def __repr__(self) -> str:
        return f"SystemPower({self.systemctl!r})"

    def shutdown(self) -> None:
        """Power the computer off."""
        self._run("poweroff", _("shut down"))

    def restart(self) -> None:
        """Restart the computer."""
        self._run("reboot", _("restarted"))

    def _run(self, verb: str, done: str) -> None:
        """`systemctl --no-ask-password <verb>`; `done` is the verb's words for a refusal
        ("shut down", "restarted")."""
        try:
            answer = subprocess.run([self.systemctl, "--no-ask-password", verb],
                                    capture_output=True, text=True, timeout=TIMEOUT,
                                    check=False)
        except subprocess.TimeoutExpired:
            raise self._failed(verb, done, _("no answer within {seconds} s").format(
                seconds=f"{TIMEOUT:g}")) from None
        except OSError as error:
            raise self._failed(verb, done, error.strerror or str(error)) from error
        if answer.returncode == 0:
            return
        said = (answer.stderr or "").strip() or (answer.stdout or "").strip()
        detail = said.splitlines()[0][:200] if said else _("exit status {status}").format(
            status=answer.returncode)
        if any(words in said.lower() for words in _REFUSED):
            raise PowerError(_(
                "The Raspberry Pi may not be {done} from the screen (systemctl: {detail}). Run "
                "sudo deploy/install.sh once more: it adds the rule that allows it. Until then "
                "use sudo {command} over SSH or at a keyboard.").format(
                    done=done, detail=detail, command=verb))
        raise self._failed(verb, done, detail)

    @staticmethod
    def _failed(verb: str, done: str, detail: str) -> PowerError:
        """Any other failure, in words."""
        return PowerError(_(
            "The Raspberry Pi could not be {done} (systemctl: {detail}). The game is saved: "
            "try again, or use sudo {command} over SSH or at a keyboard.").format(
                done=done, detail=detail, command=verb))


def find_power(running: Path | None = None) -> SystemPower | None:
    """The computer's power control where systemd runs the computer (`running` exists: default
    $PHOENIX_SYSTEMD_RUNNING, else /run/systemd/system) and systemctl is on PATH; else None (a
    computer started without systemd, a container, another OS)."""
    running = running or Path(os.environ.get("PHOENIX_SYSTEMD_RUNNING") or SYSTEMD_RUNNING)
    systemctl = shutil.which("systemctl")
    if not running.is_dir() or systemctl is None:
        return None
    return SystemPower(systemctl)
