"""The durable game store: an SQLite event log with undo/redo, resume, game list and export.

Only this package touches SQLite (see docs/store.md).
"""

from companion.store.db import (
    DEFAULT_SNAPSHOT_EVERY,
    GameInfo,
    Store,
    StoredGame,
    default_db_path,
    inspect_database,
    set_aside,
)
from companion.store.errors import (
    DamagedDatabase,
    NewerSchema,
    NoDatabase,
    NotADatabase,
    RecordError,
    StoreError,
    StoreLocked,
    UnknownGame,
    UnusableDatabase,
)

__all__ = [
    "DEFAULT_SNAPSHOT_EVERY",
    "DamagedDatabase",
    "GameInfo",
    "NewerSchema",
    "NoDatabase",
    "NotADatabase",
    "RecordError",
    "Store",
    "StoreError",
    "StoreLocked",
    "StoredGame",
    "UnknownGame",
    "UnusableDatabase",
    "default_db_path",
    "inspect_database",
    "set_aside",
]

from companion.store.export import (
    bgstats_play,
    export_text,
    game_record,
    import_record,
    score_csv,
)

__all__ += [
    "bgstats_play",
    "export_text",
    "game_record",
    "import_record",
    "score_csv",
]
