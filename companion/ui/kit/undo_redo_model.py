"""What the Undo and Redo buttons say (plain Python, tested without Kivy): each names its step
after what the player did ("Undo: Bob builds Sector 214", "Redo: Cat takes income")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.i18n import _
from companion.rules.message import event_text

QUIET_EVENTS = ("learned", "pay", "fee")  # not what a step is named after
# Events that sum up their whole step, named after even though they come last (income: the
# ships reset and the income paid come first).
SUMMARY_EVENTS = ("income_taken",)


def step_name(events: Sequence[Mapping[str, Any]]) -> str:
    """A step named after what the player did: the event summing it up ("Cat takes income"),
    else its first event that is not bookkeeping (a ship used, a bonus chosen, a turn begun, a
    correction); "" when it has none."""
    texts = ([event_text(e) for e in events if e["type"] in SUMMARY_EVENTS]
             or [event_text(e) for e in events if e["type"] not in QUIET_EVENTS]
             or [event_text(e) for e in events])
    return texts[0] if texts else ""


def undo_text(events: Sequence[Mapping[str, Any]] | None) -> str:
    """The Undo button's words for the last step's events ("Undo: Cat takes income"); "" when
    there is nothing to undo."""
    return _("Undo: {step}").format(step=step_name(events)) if events else ""


def redo_text(events: Sequence[Mapping[str, Any]] | None) -> str:
    """The Redo button's words for the step Redo applies again ("Redo: Cat takes income"); ""
    when there is nothing to redo."""
    return _("Redo: {step}").format(step=step_name(events)) if events else ""
