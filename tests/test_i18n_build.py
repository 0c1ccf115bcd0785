"""The catalogues are compiled as the app is built (setup.py) and read without Babel: the wheel
that the Pi installs holds a .mo for every .po, with the same translations, and speaks German
where Babel cannot be imported; in the source folder (an editable install, `make test`) the .mo
files beside the .po are up to date with them."""

from __future__ import annotations

import gettext
import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[1]
CATALOGUES = REPO / "companion" / "i18n"
SOURCES = sorted(CATALOGUES.glob("*/*.po"))
# What deploy/install.sh copies to build the wheel (a copy: the build writes build/ and
# *.egg-info beside the sources), setup.py among them: it compiles the catalogues.
BUILT_FROM = ("pyproject.toml", "setup.py", "README.md", "companion", "vision", "hardware",
              "examples")


def po_translations(path: Path) -> dict[str | tuple[str, int], str]:
    """A .po file's translations as Babel reads them, keyed as gettext keys a .mo's (a plural's
    forms by its singular and their index); fuzzy and empty ones left out, as compiling does."""
    with path.open("rb") as po:
        catalog = read_po(po, locale=path.parent.name)
    found: dict[str | tuple[str, int], str] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not all(
                message.string if isinstance(message.string, tuple) else (message.string,)):
            continue
        if isinstance(message.id, tuple):
            found.update({(message.id[0], n): form for n, form in enumerate(message.string)})
        else:
            found[message.id] = message.string
    return found


def mo_translations(compiled: bytes) -> dict[str | tuple[str, int], str]:
    """A .mo file's translations as gettext reads them (its header left out)."""
    translations = gettext.GNUTranslations(io.BytesIO(compiled))
    catalog = dict(translations._catalog)  # type: ignore[attr-defined]
    del catalog[""]
    return catalog


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app's wheel, built as the Pi's install builds it (pip, in an isolated build
    environment that installs the [build-system] requirements: Babel among them), from a copy
    of the sources without any .mo."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    for name in BUILT_FROM:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy2(REPO / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                    "--disable-pip-version-check", "-w", str(out), str(source)],
                   check=True, capture_output=True, timeout=300)
    [built] = out.glob("*.whl")
    return built


def test_the_wheel_holds_every_catalogue_compiled_with_the_same_translations(
        wheel: Path) -> None:
    assert SOURCES, "no catalogue found: the search is broken"
    with zipfile.ZipFile(wheel) as built:
        for po in SOURCES:
            name = po.relative_to(REPO).with_suffix(".mo").as_posix()
            assert name in built.namelist(), f"{wheel.name} has no {name}"
            assert mo_translations(built.read(name)) == po_translations(po), name


def test_the_built_app_speaks_german_where_babel_cannot_be_imported(
        wheel: Path, tmp_path: Path) -> None:
    """The wheel unpacked and run by a Python that sees only it and the standard library (-S:
    not even the venv's site-packages, where Babel is)."""
    with zipfile.ZipFile(wheel) as built:
        built.extractall(tmp_path)
    check = f"""
import importlib.util, sys
sys.path.insert(0, {str(tmp_path)!r})
assert importlib.util.find_spec("babel") is None, "Babel is importable: the check is broken"
from companion import i18n
assert i18n.__file__.startswith({str(tmp_path)!r}), i18n.__file__
i18n.set_language("de")
assert i18n._("Back") == "Zurück", i18n._("Back")
assert i18n.ngettext("{{count}} more turn after this one", "{{count}} more turns after this one",
                     2) == "noch {{count}} Züge nach diesem"
assert i18n.quote_rendering(
    "Each player starts with a fixed set of five Level-1 ships.").startswith("Jeder Spieler")
assert not [name for name in sys.modules if name.split(".")[0] == "babel"]
"""
    result = subprocess.run([sys.executable, "-S", "-I", "-c", check], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_the_compiled_catalogues_in_the_source_folder_are_up_to_date() -> None:
    """The .mo files that the editable install compiled beside the .po files (the app and the
    tests read them from there) give the .po files' translations, edits included."""
    stale = [po.relative_to(REPO).as_posix() for po in SOURCES
             if not po.with_suffix(".mo").is_file()
             or mo_translations(po.with_suffix(".mo").read_bytes()) != po_translations(po)]
    assert not stale, "compiled catalogues missing or older than their .po; compile them " \
        "again: .venv/bin/python -m pip install --no-deps -e . (docs/translating.md)\n" + \
        "\n".join(stale)
