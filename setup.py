"""The one build step beyond pyproject.toml: the gettext catalogues (companion/i18n/<language>/
<part>.po) compiled to the .mo files the app reads with the standard library, so that Babel is
needed to build the app but not to run it (docs/translating.md, "How the catalogues are built").
"""

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

CATALOGUES = Path("companion", "i18n")  # in the project, and in the built package
SOURCE = Path(__file__).resolve().parent / CATALOGUES


def compile_catalogues(into: Path) -> None:
    """Each <language>/<part>.po of SOURCE compiled to into/<language>/<part>.mo (fuzzy and
    empty entries left out, as gettext's msgfmt does)."""
    for po in sorted(SOURCE.glob("*/*.po")):
        mo = into / po.relative_to(SOURCE).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.name)
        with mo.open("wb") as compiled:
            write_mo(compiled, catalog)


class BuildPy(build_py):
    """setuptools' build_py, then the catalogues compiled into the built package; for an editable
    install beside their .po files (setuptools then builds nothing: the source is the package)."""

    def run(self) -> None:
        super().run()
        compile_catalogues(SOURCE if self.editable_mode else Path(self.build_lib, CATALOGUES))


setup(cmdclass={"build_py": BuildPy})
