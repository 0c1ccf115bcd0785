"""Names and text shown to people: how long a name may be, and printing without letting a name
(or a path) send escape codes or control characters to a terminal."""

from __future__ import annotations

import io
import os
import re
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TextIO

from companion.i18n import _

MAX_NAME = 40
"""The longest player or game name, in characters."""

_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with control characters (except newline and tab), escape codes and lone
    surrogates shown as escapes (\\x1b, \\ud800), safe to print to any terminal."""
    return _UNSAFE.sub(lambda found: ascii(found.group())[1:-1], text)


def name_problem(name: object, what: str | None = None) -> str | None:
    """Why `name` cannot be a player's or game's name (None: it can): it must be text, not
    empty, at most MAX_NAME characters, without control characters. `what` names it in the
    message (default "a name"; the caller gives it in the language spoken now)."""
    what = _("a name") if what is None else what
    if not isinstance(name, str) or not name.strip():
        return _("{what} cannot be empty").format(what=what)
    if len(name.strip()) > MAX_NAME:
        return _("{what} is {length} characters long; at most {most} are allowed").format(
            what=what, length=len(name.strip()), most=MAX_NAME)
    if _UNSAFE.search(name) or any(unicodedata.category(c) == "Cc" for c in name):
        return _("{what} cannot contain control characters ({name})").format(
            what=what, name=printable(name))
    return None


class _Escaping(io.TextIOBase):
    """A text stream that writes everything through printable() to another one."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return self._stream.isatty()


@contextmanager
def safe_output() -> Iterator[None]:
    """Within the block everything printed to stdout and stderr passes through printable(), so
    no name or path from a file can send escape codes or fail to encode."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaping(saved[0]), _Escaping(saved[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def os_error(program: str, error: OSError) -> int:
    """Report a file or output that failed in one line; the exit code (2, or 0 when the reader
    of the output went away, as with `... | head`). When stdout itself failed (a full device),
    it is pointed at /dev/null so that the interpreter's last flush stays quiet."""
    if error.filename is not None:
        print(f"{program}: {error.filename}: {error.strerror}", file=sys.stderr)
        return 2
    with suppress(OSError, ValueError, io.UnsupportedOperation):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if isinstance(error, BrokenPipeError):
        return 0
    print(_("{program}: cannot write the output ({error})").format(
        program=program, error=error.strerror or error), file=sys.stderr)
    return 2
