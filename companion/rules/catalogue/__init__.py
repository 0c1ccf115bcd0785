"""The component catalogue (a package; its parts are split out in the next steps)."""

from companion.rules.catalogue.schema import (
    DEFAULT_DATA_DIR,
    KINDS,
    OVERLAY_FORMAT,
    SOURCES,
    VERSION,
    Ability,
    Catalogue,
    CatalogueError,
    Field,
    check_entry,
    export_overlay,
    format_summary,
    import_overlay,
    load_catalogue,
    read_overlay,
    set_user_value,
    summary,
)

__all__ = [
    "DEFAULT_DATA_DIR", "KINDS", "OVERLAY_FORMAT", "SOURCES", "VERSION", "Ability", "Catalogue",
    "CatalogueError", "Field", "check_entry", "export_overlay", "format_summary",
    "import_overlay", "load_catalogue", "read_overlay", "set_user_value", "summary",
]
