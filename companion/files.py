"""A user's files: reading text and JSON with every failure turned into a message naming the
file, and writing so that a crash never leaves half a file and nothing is written through a link
or onto a device.

Every JSON reader of the app uses `parse_json` (or `read_json`): it refuses nesting deeper than
MAX_DEPTH, numbers longer than MAX_NUMBER_DIGITS digits, NaN/Infinity and lone surrogates (which
cannot be stored or printed), each with a message instead of a crash.
"""

from __future__ import annotations

import json
import math
import os
import stat
import tempfile
from contextlib import suppress
from pathlib import Path
from typing import Any

from companion.i18n import _

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects accepted in a JSON file."""
MAX_NUMBER_DIGITS = 30
"""The longest number (in characters) accepted in a JSON file."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest text file read."""


class JsonFileError(ValueError):
    """A JSON file that cannot be used; the message names the file and what is wrong."""


class _BadValue(ValueError):
    """A JSON value the app does not accept (raised inside the parser's hooks)."""


def _integer(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS:
        raise _BadValue(_("a number of {count} digits (at most {most})").format(
            count=len(text), most=MAX_NUMBER_DIGITS))
    return int(text)


def _real(text: str) -> float:
    value = float(text) if len(text) <= MAX_NUMBER_DIGITS else math.inf
    if not math.isfinite(value):
        shown = text[:20] + ("..." if len(text) > 20 else "")
        raise _BadValue(_("the number {number} is too long or too large").format(number=shown))
    return value


def _constant(text: str) -> Any:
    raise _BadValue(_("{text} is not a number JSON allows").format(text=text))


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object; a key given twice is refused (JSON readers differ on which one wins)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for twice, _value in pairs:  # the first key given a second time
            if twice in seen:
                break
            seen.add(twice)
        raise _BadValue(_("the key {key} appears twice in one object; keep one").format(
            key=printable_repr(twice)))
    return value


def _check_tree(value: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH and strings with lone surrogates (iteratively)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            _check_string(item)
            continue
        if not isinstance(item, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise _BadValue(_("nested more than {levels} levels deep").format(levels=MAX_DEPTH))
        if isinstance(item, dict):
            for key, child in item.items():
                _check_string(key)
                pending.append((child, depth + 1))
        else:
            pending.extend((child, depth + 1) for child in item)


def _check_string(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _BadValue(_("the text {text} holds a lone surrogate (\\ud800-\\udfff), which is "
                          "not a character").format(text=printable_repr(text))) from None


def printable_repr(text: str, limit: int = 40) -> str:
    """A short quoted form of `text` that is safe to print (escapes, surrogates escaped)."""
    shown = text if len(text) <= limit else text[:limit] + "..."
    return ascii(shown)


def load_json(text: str) -> Any:
    """The value of a JSON text, or JsonFileError saying what is wrong (without where it came
    from): invalid JSON (line and column), too deep, a huge number, a lone surrogate, a key
    given twice in one object."""
    try:
        value = json.loads(text, parse_int=_integer, parse_float=_real,
                           parse_constant=_constant, object_pairs_hook=_object)
        _check_tree(value)
    except json.JSONDecodeError as error:
        raise JsonFileError(_("not valid JSON at line {line}, column {column}: {error}").format(
            line=error.lineno, column=error.colno, error=error.msg)) from None
    except RecursionError:
        raise JsonFileError(_("not usable JSON: nested more than {levels} levels deep").format(
            levels=MAX_DEPTH)) from None
    except _BadValue as error:
        raise JsonFileError(_("not usable JSON: {error}").format(error=error)) from None
    return value


def parse_json(text: str, show: str) -> Any:
    """The value of a JSON text, or JsonFileError naming `show` (where the text came from) and
    what is wrong (see load_json)."""
    try:
        return load_json(text)
    except JsonFileError as error:
        raise JsonFileError(f"{show}: {error}") from None


def is_version(found: object, version: int) -> bool:
    """Is a file's "version" value `version` (a whole number: JSON's true is not 1)?"""
    return type(found) is int and found == version


def read_text(path: Path | str, *, show: str | None = None,
              limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes, or JsonFileError naming it
    (missing, a folder, a device or FIFO, too large, unreadable, not UTF-8). Never blocks on a
    FIFO."""
    show = show or str(path)
    data = _regular_file(path, show, limit, follow=True)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise JsonFileError(_("{file}: not UTF-8 text (line {line}, byte {byte}); save it as "
                              "UTF-8").format(file=show, line=line, byte=error.start)) from None


def _regular_file(path: Path | str, show: str, limit: int, *, follow: bool) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, never blocking on a FIFO (and not
    through a symbolic link unless `follow`); JsonFileError naming it as `show` otherwise."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise JsonFileError(_("{file}: no such file").format(file=show)) from None
    except OSError as error:
        raise JsonFileError(_("{file}: cannot read it ({error})").format(
            file=show, error=error.strerror)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise JsonFileError(_("{file}: not a regular file ({kind}); give the path of a "
                                  "file").format(file=show, kind=file_kind(info.st_mode)))
        if info.st_size > limit:
            raise JsonFileError(_("{file}: too large ({size} bytes; at most {most})").format(
                file=show, size=info.st_size, most=limit))
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)
        if len(data) > limit:  # it grew while being read
            raise JsonFileError(_("{file}: too large (at most {most} bytes)").format(
                file=show, most=limit))
        return data
    except OSError as error:
        raise JsonFileError(_("{file}: cannot read it ({error})").format(
            file=show, error=error.strerror)) from None
    finally:
        os.close(fd)


def read_json(path: Path | str, *, show: str | None = None) -> Any:
    """The parsed content of a JSON file, or JsonFileError (see read_text and parse_json);
    messages name the file as `show` (default: the path)."""
    show = show or str(path)
    return parse_json(read_text(path, show=show), show)


def read_script(path: Path) -> list[str]:
    """The lines of a game script file (an initial byte-order mark skipped), split on newlines
    so the numbers match an editor's; JsonFileError naming the file when it is not a readable
    regular file of UTF-8 text (see read_text)."""
    return read_text(path).removeprefix("\ufeff").split("\n")


def file_kind(mode: int) -> str:
    """What a file of this st_mode is, in words (a folder, a FIFO, a device, ...)."""
    kinds = [(stat.S_ISDIR, _("a folder")), (stat.S_ISLNK, _("a symbolic link")),
             (stat.S_ISFIFO, _("a FIFO")), (stat.S_ISCHR, _("a device")),
             (stat.S_ISBLK, _("a device")), (stat.S_ISSOCK, _("a socket"))]
    return next((name for test, name in kinds if test(mode)), _("not a regular file"))


def check_target(path: Path | str, *, linked_folder: bool = True) -> None:
    """Refuse (JsonFileError) to replace anything at `path` that is not a regular file of its
    own: a symbolic link, a folder, a device such as /dev/null, a FIFO, a socket, or a file with
    another name (a hard link: replacing it would leave the other name with the old content,
    writing into it would change both). With `linked_folder=False`, a folder that is itself a
    symbolic link is refused too (the file would land in the link's target)."""
    path = Path(path)
    if not linked_folder and path.parent.is_symlink():
        raise JsonFileError(_("{file}: its folder {folder} is a symbolic link; nothing was "
                              "written (give the folder's own path)").format(
                                  file=path, folder=path.parent))
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise JsonFileError(_("{file}: cannot write it ({error})").format(
            file=path, error=error.strerror)) from None
    if not stat.S_ISREG(info.st_mode):
        raise JsonFileError(_("{file}: is {kind}, not a regular file; nothing was written "
                              "(choose a file name)").format(file=path,
                                                              kind=file_kind(info.st_mode)))
    if info.st_nlink > 1:
        raise JsonFileError(_("{file}: the file has another name (a hard link), which would be "
                              "left with the old content; nothing was written (choose another "
                              "file name, or remove the other name)").format(file=path))


def read_bytes(path: Path | str, *, limit: int = MAX_FILE_BYTES, follow: bool = False) -> bytes:
    """The bytes of a regular file of at most `limit` bytes, opened without blocking on a FIFO
    and without following a symbolic link (unless `follow`); JsonFileError naming it otherwise
    (a link, a device, too large)."""
    return _regular_file(path, str(path), limit, follow=follow)


def make_private_folder(folder: Path) -> None:
    """Create a folder (and its parents) if missing; the folder itself is made 0700."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)


def write_text_atomically(path: Path | str, text: str, *, linked_folder: bool = True) -> None:
    """Write a UTF-8 text file with write_atomically."""
    write_atomically(path, text.encode("utf-8"), linked_folder=linked_folder)


def write_atomically(path: Path | str, data: bytes, *, linked_folder: bool = True) -> None:
    """Write a file so that a crash leaves either the old or the new content, never a mix:
    a temporary file beside it (0600, created O_EXCL so nothing is followed), flushed to disk,
    then renamed over it, and the folder flushed. Anything at `path` that is not a regular file
    of its own (a link, a device, a FIFO, a socket, a folder, a hard-linked file) is refused
    before anything is written (check_target), and checked again just before the rename.
    Every writer of the app's files uses this."""
    path = Path(path)
    check_target(path, linked_folder=linked_folder)
    make_private_folder(path.parent)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        check_target(path, linked_folder=linked_folder)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def _fsync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename in it) to disk; a folder that cannot be opened for
    that (some filesystems) is left as it is."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        with suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
