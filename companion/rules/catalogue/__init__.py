"""The component catalogue: every Hub, Sector, ship, the Diplomacy board, the setup tables and
the Terran Expedition die, each value with its provenance, plus the user's values entered from
a physical copy (source "user", they win).

Plain data in, plain data out: `model` (the records and their fields), `schema` (the type of each
field, checked on the shipped data and on user values), `build` (a catalogue from the shipped
data and user values), `summary`. Reading the data files and the user's overlay file, and
writing the overlay, is companion/catalogue_files.py.
"""

from companion.rules.catalogue.build import build_catalogue
from companion.rules.catalogue.model import (
    KINDS,
    SOURCES,
    UNKNOWN,
    Ability,
    Catalogue,
    CatalogueError,
    Entry,
    Field,
    Hub,
    Overlay,
    Record,
    Sector,
    Ship,
    Shipped,
)
from companion.rules.catalogue.schema import (
    check_entry,
    check_values,
    parse_records,
    printed_field,
)
from companion.rules.catalogue.summary import format_summary, summary

__all__ = [
    "KINDS", "SOURCES", "UNKNOWN", "Ability", "Catalogue", "CatalogueError", "Entry", "Field",
    "Hub", "Overlay", "Record", "Sector", "Ship", "Shipped", "build_catalogue", "check_entry",
    "check_values", "format_summary", "parse_records", "printed_field", "summary",
]
