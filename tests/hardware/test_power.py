"""Shutting down and restarting the computer (hardware/power.py) with a fake systemctl first on
PATH (fake_systemctl.py) and a temporary folder standing in for /run/systemd/system: the right
arguments, a polkit refusal and other failures in words, and no power control without systemd."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from hardware import power
from hardware.power import PowerError, SystemPower, find_power

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fake_systemctl import REFUSED, calls, fake_systemctl


@pytest.fixture
def running(tmp_path: Path) -> Path:
    """A folder standing in for /run/systemd/system: systemd runs this computer."""
    folder = tmp_path / "run" / "systemd" / "system"
    folder.mkdir(parents=True)
    return folder


def systemctl_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **answer) -> None:
    """The fake systemctl, answering as told, first on PATH."""
    bin_folder = fake_systemctl(tmp_path, **answer)
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ['PATH']}")


def test_shut_down_and_restart_ask_systemctl_never_for_a_password(tmp_path, monkeypatch,
                                                                  running):
    systemctl_first(tmp_path, monkeypatch)
    machine = find_power(running)
    assert machine is not None and machine.systemctl == str(tmp_path / "bin" / "systemctl")
    machine.shutdown()
    assert calls(tmp_path) == ["--no-ask-password poweroff"]
    machine.restart()
    assert calls(tmp_path) == ["--no-ask-password poweroff", "--no-ask-password reboot"]


def test_the_folder_systemd_runs_in_is_read_from_the_environment(tmp_path, monkeypatch,
                                                                 running):
    systemctl_first(tmp_path, monkeypatch)
    monkeypatch.setenv("PHOENIX_SYSTEMD_RUNNING", str(running))
    assert find_power() is not None
    monkeypatch.setenv("PHOENIX_SYSTEMD_RUNNING", str(tmp_path / "nowhere"))
    assert find_power() is None


def test_not_offered_without_systemd_or_without_systemctl(tmp_path, monkeypatch, running):
    systemctl_first(tmp_path, monkeypatch)
    assert find_power(tmp_path / "nowhere") is None  # a laptop without systemd, a container
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert find_power(running) is None
    assert calls(tmp_path) == []


@pytest.mark.parametrize(("verb", "says"), [
    ("poweroff", REFUSED),
    ("reboot", "Interactive authentication required."),
    ("poweroff", "Failed to power off system via logind: Access denied\n"),  # older systemd
])
def test_a_refusal_says_to_run_the_install_again_and_how_to_do_it_until_then(
        tmp_path, monkeypatch, running, verb, says):
    systemctl_first(tmp_path, monkeypatch, status=1, says=says)
    machine = find_power(running)
    with pytest.raises(PowerError) as raised:
        machine.shutdown() if verb == "poweroff" else machine.restart()
    done = "shut down" if verb == "poweroff" else "restarted"
    assert str(raised.value) == (
        f"The Raspberry Pi may not be {done} from the screen (systemctl: {says.strip()}). Run "
        "sudo deploy/install.sh once more: it adds the rule that allows it. Until then use "
        f"sudo {verb} over SSH or at a keyboard.")
    assert calls(tmp_path) == [f"--no-ask-password {verb}"]


def test_another_failure_gives_systemctls_first_line_and_says_the_game_is_saved(
        tmp_path, monkeypatch, running):
    systemctl_first(tmp_path, monkeypatch, status=1, says=(
        'Operation inhibited by "apt" (user root), reason is "upgrade".\n'
        "Please retry operation after closing inhibitors and logging out other users."))
    with pytest.raises(PowerError) as raised:
        find_power(running).restart()
    assert str(raised.value) == (
        'The Raspberry Pi could not be restarted (systemctl: Operation inhibited by "apt" '
        '(user root), reason is "upgrade".). The game is saved: try again, or use sudo reboot '
        "over SSH or at a keyboard.")


def test_a_silent_failure_gives_the_exit_status(tmp_path, monkeypatch, running):
    systemctl_first(tmp_path, monkeypatch, status=3)
    with pytest.raises(PowerError, match=r"could not be shut down \(systemctl: exit status 3\)"):
        find_power(running).shutdown()


def test_systemctl_gone_or_hanging_is_said_in_words(tmp_path, monkeypatch, running):
    systemctl_first(tmp_path, monkeypatch, sleeps=5)
    monkeypatch.setattr(power, "TIMEOUT", 0.3)
    with pytest.raises(PowerError, match=r"could not be shut down \(systemctl: no answer "
                                         r"within 0.3 s\)"):
        find_power(running).shutdown()
    with pytest.raises(PowerError, match=r"could not be restarted \(systemctl: No such file "
                                         r"or directory\)"):
        SystemPower(str(tmp_path / "gone" / "systemctl")).restart()


def test_the_refusal_speaks_the_players_language(tmp_path, monkeypatch, running, german):
    systemctl_first(tmp_path, monkeypatch, status=1, says=REFUSED)
    with pytest.raises(PowerError) as raised:
        find_power(running).shutdown()
    assert str(raised.value).startswith("Der Raspberry Pi darf nicht vom Bildschirm aus "
                                        "heruntergefahren werden")
    assert "sudo deploy/install.sh noch einmal aus" in str(raised.value)
