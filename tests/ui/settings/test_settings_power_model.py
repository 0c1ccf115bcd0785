"""Switching the Pi off from the settings screen, without a window (settings_model.PowerSwitch):
the words around Shut down and Restart, and a tap's outcome with a fake systemctl on PATH."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from companion.ui.settings.settings_model import POWER_ACTIONS, PowerSwitch, choices
from hardware.power import SystemPower

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hardware"))
from fake_systemctl import REFUSED, calls, fake_systemctl


def test_the_buttons_and_the_line_under_the_heading(tmp_path):
    assert choices(POWER_ACTIONS) == [("shutdown", "Shut down"), ("restart", "Restart")]
    assert PowerSwitch(None).note().startswith("Shut down and Restart are offered where "
                                               "systemd runs the computer")
    offered = PowerSwitch(SystemPower(str(tmp_path / "systemctl")))
    assert "pull the plug" in offered.note() and "The game is saved" in offered.note()


def test_what_is_asked_and_said_while_the_pi_goes_down():
    assert PowerSwitch.question("shutdown") == ("Shut down the Raspberry Pi? The game is saved: "
                                                "it resumes where it was at the next start.")
    assert PowerSwitch.question("restart").startswith("Restart the Raspberry Pi? The game is "
                                                      "saved")
    assert PowerSwitch.going("shutdown") == ("Shutting down… wait until the green light stops "
                                             "blinking before you pull the plug.")
    assert PowerSwitch.going("restart").startswith("Restarting…")


def test_in_german(german):
    assert choices(POWER_ACTIONS) == [("shutdown", "Herunterfahren"), ("restart", "Neu starten")]
    assert PowerSwitch.question("shutdown").startswith("Den Raspberry Pi herunterfahren?")
    assert PowerSwitch.going("shutdown").startswith("Herunterfahren… warte, bis das grüne Licht")


def test_a_tap_runs_systemctl_and_a_refusal_comes_back_in_words(tmp_path):
    systemctl = fake_systemctl(tmp_path) / "systemctl"
    switch = PowerSwitch(SystemPower(str(systemctl)))
    assert switch.switch("shutdown") is None
    assert switch.switch("restart") is None
    assert calls(tmp_path) == ["--no-ask-password poweroff", "--no-ask-password reboot"]
    refused = tmp_path / "refused"
    switch = PowerSwitch(SystemPower(str(fake_systemctl(refused, status=1, says=REFUSED)
                                         / "systemctl")))
    assert switch.switch("shutdown").startswith("The Raspberry Pi may not be shut down from "
                                                f"the screen (systemctl: {REFUSED}).")
    assert calls(refused) == ["--no-ask-password poweroff"]


def test_not_offered_runs_nothing_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", f"{fake_systemctl(tmp_path)}{os.pathsep}{os.environ['PATH']}")
    switch = PowerSwitch(None)
    assert switch.switch("shutdown") == switch.note()
    assert calls(tmp_path) == []
