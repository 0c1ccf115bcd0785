"""A text as data: a message key (the English words, marked for translation) and its parameters,
worded in the language spoken now only when it is shown.

    note = message(N_("{player} pays {amounts}: {why}"), player="Ann",
                   amounts=amount_message("gems", 3), why=message(N_("a trade")))
    say(note)   # "Ann pays 3 GEMs: a trade", or in German once German is chosen

A message is JSON data (an event stores it; the store writes it as it is), and so are its
parameters: numbers and names stay as they are (a player's name, a Hub "B-3", a ship id: never
translated); whatever is worded in the reader's language is a message itself, nested (a ship
type, a colour, a reason); a list of values is worded item by item and joined (`join`); a
number-dependent text carries both forms and its number (`plural`, worded with ngettext).

The key is the English text exactly as the catalogues have it (`companion/i18n/de/*.po`): mark
it where it is written, `message(N_("..."), ...)`, so tests/test_translations.py sees it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NotRequired, TypedDict

from companion import i18n

__all__ = ["Joined", "Message", "event_text", "is_message", "join", "message", "plural", "say"]


class Message(TypedDict):
    """Words as data: `_(key).format(**params)`, each parameter worded first (`say`)."""

    key: str  # the English text, as marked: N_("...")
    params: dict[str, Any]  # name -> a number, a name, a nested Message or Joined
    plural: NotRequired[str]  # a number-dependent text: ngettext(key, plural, n)
    n: NotRequired[int]


class Joined(TypedDict):
    """Values worded one by one and joined by `join`: punctuation ("; " between the rules an
    override broke), or a word, itself a message (" or ")."""

    join: str | Message
    items: list[Any]


def message(key: str, /, **params: Any) -> Message:
    """The message `key` (mark it: `message(N_("..."), ...)`) with its parameters."""
    return {"key": key, "params": params}


def plural(singular: str, plural_form: str, n: int, /, **params: Any) -> Message:
    """A number-dependent message (both forms marked with N_): worded with ngettext for `n`."""
    return {"key": singular, "params": params, "plural": plural_form, "n": n}


def join(separator: str | Message, items: Iterable[Any]) -> Joined:
    """`items` worded one by one and joined by `separator`."""
    return {"join": separator, "items": list(items)}


def is_message(value: Any) -> bool:
    """Whether `value` is a Message (a key and its parameters)."""
    return (isinstance(value, Mapping) and isinstance(value.get("key"), str)
            and isinstance(value.get("params"), Mapping))


def say(value: Any) -> str:
    """`value` in words, in the language spoken now: a Message worded (its parameters first), a
    Joined list joined, anything else as it is written (`str`)."""
    worded = _worded(value)
    return worded if isinstance(worded, str) else str(worded)


def _worded(value: Any) -> Any:
    """A parameter worded for `str.format`: messages and joined lists become text; numbers stay
    numbers (a placeholder may format them), other values as they are."""
    if is_message(value):
        return _message_text(value)
    if isinstance(value, Mapping) and "join" in value and isinstance(value.get("items"), list):
        return say(value["join"]).join(say(item) for item in value["items"])
    return value


def _message_text(value: Mapping[str, Any]) -> str:
    """A message in words. Should its translation not fit its stored parameters (a game stored
    by another version of the app), the English is worded instead, and failing that the key."""
    key, params = value["key"], {name: _worded(p) for name, p in value["params"].items()}
    count, form = value.get("n"), value.get("plural")
    if isinstance(form, str) and isinstance(count, int):
        english, translated = (key if count == 1 else form), i18n.ngettext(key, form, count)
    else:
        english, translated = key, i18n._(key)
    for text in (translated, english):
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError):
            continue
    return english


def event_text(event: Mapping[str, Any]) -> str:
    """An event's words for the players, in the language spoken now: its message worded; an
    event stored before events carried messages has its words as played (`"text"`)."""
    if "message" in event:
        return say(event["message"])
    text = event.get("text")
    return text if isinstance(text, str) else ""
