"""Benchmark choosing German: the time and memory its catalogues cost to load, as the app loads
them (the compiled .mo files, read with the standard library's gettext) and as it did before
issue 25 (the .po files read with Babel at run time), and the disk Babel took in the installed app.

    .venv/bin/python tools/bench_language.py [--runs N]

Each load runs in a fresh Python, so that the imports it needs are counted (Babel's import was
most of the old cost); prints the median of N runs; asserts nothing. Memory is the growth of the
process's resident set (Linux' /proc/self/status).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# Prints [seconds, bytes of resident memory, whether Babel was imported] for the load of German
# that LOADS names; run with the repository first on sys.path.
MEASURE = """
import json, sys, time
from companion import i18n

def resident():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024

before, start = resident(), time.perf_counter()
{load}
print(json.dumps([time.perf_counter() - start, resident() - before, "babel" in sys.modules]))
"""
LOADS = {
    "from the .mo files with the standard library (the app)": 'i18n.set_language("de")',
    "from the .po files with Babel (before issue 25)": """
import gettext, io
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

def read(path):
    with path.open("rb") as po:
        return read_po(po, locale="de")

for path in i18n.catalogue_files("de"):
    compiled = io.BytesIO()
    write_mo(compiled, read(path))
    compiled.seek(0)
    gettext.GNUTranslations(compiled)
quotes = {m.id: m.string for m in read(i18n.quotes_file("de")) if m.id and m.string
          and not m.fuzzy}
""",
}


def measure(load: str, runs: int) -> tuple[float, float, bool]:
    """Median milliseconds and MiB of `load` over `runs` fresh Pythons, and whether it imported
    Babel."""
    code = f"import sys; sys.path.insert(0, {str(REPO)!r})\n" + MEASURE.format(load=load)
    results = [json.loads(subprocess.run([sys.executable, "-c", code], check=True, text=True,
                                         capture_output=True, cwd=REPO).stdout)
               for _ in range(runs)]
    return (statistics.median(r[0] for r in results) * 1000,
            statistics.median(r[1] for r in results) / 2**20, any(r[2] for r in results))


def installed_mb(distribution: str) -> float | None:
    """The disk a distribution's installed files take, in MB (None where it is not installed)."""
    try:
        files = metadata.distribution(distribution).files or []
    except metadata.PackageNotFoundError:
        return None
    return sum(f.locate().stat().st_size for f in files if f.locate().is_file()) / 1e6


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh Pythons per figure")
    runs = parser.parse_args().runs
    babel = installed_mb("babel")
    for name, load in LOADS.items():
        if "babel" in load and babel is None:
            print(f"German loaded {name}: not measured (Babel is not installed)")
            continue
        ms, mib, imported = measure(load, runs)
        print(f"German loaded {name} in {ms:.1f} ms, {mib:.1f} MiB "
              f"(median of {runs}; Babel imported: {'yes' if imported else 'no'})")
    if babel is not None:
        print(f"Babel installed: {babel:.1f} MB (the app no longer needs it on the Pi)")


if __name__ == "__main__":
    main()
