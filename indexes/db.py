"""The one place that opens the SQLite database and the LanceDB directory."""

from __future__ import annotations

import sqlite3
import time

import sqlite_utils

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.migrations import migrate

LOCK_WAIT_S = 30.0
"""How long a writer waits for another writer's lock before giving up (SQLite's busy timeout)."""


def fits_sqlite(number: int) -> bool:
    """Whether SQLite can hold ``number`` (a signed 64-bit integer): an id or a limit beyond that
    names nothing, and binding it raises OverflowError."""
    return -(2**63) <= number < 2**63


def open_database(where: Locations) -> sqlite_utils.Database:
    """The project's database, in WAL mode, migrated to the current schema.

    A connection belongs to the thread that uses it; open one per worker thread.
    """
    where.data_dir.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(where.database_file, timeout=LOCK_WAIT_S, check_same_thread=False)
    db = sqlite_utils.Database(connection)
    _use_wal(connection)
    db.execute("pragma synchronous = normal")
    db.execute("pragma foreign_keys = on")
    migrate(db)
    return db


def _use_wal(connection: sqlite3.Connection) -> None:
    """WAL mode, which lets the TUI read while a worker writes (NORMAL sync is still crash-safe in it).

    The mode is kept in the file, so this only changes a new database; but changing it takes a lock
    SQLite does not wait for (the busy timeout does not apply), and two processes opening a new
    database at once (two imports into a fresh home) got "database is locked": wait as for any lock.
    """
    deadline = time.monotonic() + LOCK_WAIT_S
    while True:
        try:
            connection.execute("pragma journal_mode = wal")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def open_vectors(where: Locations):
    """The LanceDB connection (one table per index, created by the features that own them)."""
    import lancedb

    where.lancedb_dir.mkdir(parents=True, exist_ok=True)
    return lancedb.connect(str(where.lancedb_dir))


def replace_table(db, name: str, data) -> None:
    """Write ``data`` as LanceDB table ``name``, replacing the table if it is there.

    Overwriting a table that is not there makes lance log a warning onto the CLI's stderr.
    """
    db.create_table(name, data, mode="overwrite" if name in db.list_tables().tables else "create")
