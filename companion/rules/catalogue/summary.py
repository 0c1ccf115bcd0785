"""How much of the catalogue is known: the fields per source, and the table the command line
prints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.catalogue.model import KINDS, SOURCES, Catalogue


def summary(catalogue: Catalogue) -> dict[str, dict[str, int]]:
    """Per kind, how many fields come from each source (Sector ability links count as fields)."""
    counts = {kind: dict.fromkeys(SOURCES, 0) for kind in KINDS}
    for kind, _record, _name, field in catalogue.iter_fields():
        counts[kind][field.source] += 1
    return counts


def format_summary(counts: Mapping[str, Mapping[str, int]]) -> str:
    """A readable table of `summary()` for `phoenix-companion catalogue --summary`."""
    header = ("kind", *SOURCES, "total")
    rows: list[list[Any]] = [[kind, *(counts[kind].get(s, 0) for s in SOURCES),
             sum(counts[kind].get(s, 0) for s in SOURCES)] for kind in counts]
    totals: list[Any] = ["total", *(sum(r[i] for r in rows) for i in range(1, len(header)))]
    table = [list(header), *rows, totals]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(header))]

    def line(row: list[Any]) -> str:
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths, strict=True)))

    rule = "  ".join("-" * w for w in widths)
    out = [line(table[0]), rule, *(line(r) for r in table[1:-1]), rule, line(totals)]
    known = totals[1] + totals[2] + totals[3]
    out.append(f"{known} of {totals[-1]} fields known; {totals[4]} still unknown "
               "(printed only on the physical components: enter them from your copy).")
    return "\n".join(out)
