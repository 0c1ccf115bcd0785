"""The words of the .kv files, in the language spoken now:
`#:import tr companion.ui.kit.tr.tr`, then `text: tr._('Back')`; kv re-evaluates such a rule
when the language changes (without a restart). Python code uses companion.i18n's `_` and
redraws on `refresh()`.
"""

from __future__ import annotations

import itertools
from typing import Any

from kivy.event import Observable

from companion import i18n


class Translator(Observable):
    """kv's way to `companion.i18n._`: each rule that reads `tr._` is told of a new language."""

    def __init__(self) -> None:
        super().__init__()
        self._rules: dict[int, tuple[Any, tuple]] = {}
        self._uids = itertools.count(1)
        i18n.on_change(self.changed)

    def _(self, text: str) -> str:
        """`text` in the language spoken now."""
        return i18n._(text)

    def fbind(self, name: str, func: Any, *args: Any, **kwargs: Any) -> int:
        """kv binds a rule to `_`: remembered, to be run again on a change of language."""
        if name != "_":
            return super().fbind(name, func, *args, **kwargs)
        uid = next(self._uids)
        self._rules[uid] = (func, args)
        return uid

    def unbind_uid(self, name: str, uid: int) -> None:
        if name != "_":
            super().unbind_uid(name, uid)
            return
        self._rules.pop(uid, None)

    def funbind(self, name: str, func: Any, *args: Any, **kwargs: Any) -> None:
        if name != "_":
            super().funbind(name, func, *args, **kwargs)
            return
        for uid, rule in list(self._rules.items()):
            if rule == (func, args):
                del self._rules[uid]

    def changed(self) -> None:
        """Every rule that reads `tr._` again (those of widgets gone are forgotten)."""
        for uid, (func, args) in list(self._rules.items()):
            try:
                func(args[0] if len(args) == 1 else args, None, None)
            except ReferenceError:
                self._rules.pop(uid, None)


tr = Translator()
