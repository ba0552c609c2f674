"""The one place that opens the SQLite database and the LanceDB directory."""

from __future__ import annotations

import functools
import os
import sqlite3
import time

import sqlite_utils

from scholar_tui.config.files import StateError, refuse_special_file, shown_path
from scholar_tui.config.locations import Locations, make_folder
from scholar_tui.indexes.migrations import migrate

LOCK_WAIT_S = 30.0
"""How long a writer waits for another writer's lock before giving up (SQLite's busy timeout)."""


def fits_sqlite(number: int) -> bool:
    """Whether SQLite can hold ``number`` (a signed 64-bit integer): an id or a limit beyond that
    names nothing, and binding it raises OverflowError."""
    return -(2**63) <= number < 2**63


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """The row id an ``insert`` statement gave (``lastrowid`` is typed optional: it is None only
    when the statement inserted nothing, which an insert without ``or ignore`` never does)."""
    if cursor.lastrowid is None:
        raise sqlite3.DatabaseError("the insert stored no row")
    return cursor.lastrowid


def open_database(where: Locations) -> sqlite_utils.Database:
    """The project's database, in WAL mode, migrated to the current schema.

    A connection belongs to the thread that uses it; open one per worker thread.
    """
    make_folder(where.data_dir)
    connection = None
    try:
        refuse_special_file(where.database_file, "the database")
        connection = sqlite3.connect(where.database_file, timeout=LOCK_WAIT_S, check_same_thread=False)
        db = sqlite_utils.Database(connection)
        _use_wal(connection)
        db.execute("pragma synchronous = normal")
        db.execute("pragma foreign_keys = on")
        migrate(db)
        _check_counted_tables(db, where)
    except StateError as error:
        _close(connection)
        raise StateError(f"{error}: {RESTORE}") from error
    except (sqlite3.DatabaseError, OSError) as error:
        _close(connection)
        raise StateError(database_problem(where, error)) from error
    return db


RESTORE = (
    "restore a backup copy, or move it aside and re-import your files "
    "(`scholar-tui doctor --repair` rebuilds the search caches and says what it cannot fix)"
)


def database_problem(where: Locations, error: Exception) -> str:
    """One line for an error SQLite (or the file system) gave on the database: which file, what
    is wrong with it, and what to do."""
    file = shown_path(where.database_file)
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    if "locked" in reason or "busy" in reason:
        return f"the database {file} is busy (another import or the app holds its lock): try again when it has finished"
    if not os.access(where.data_dir, os.W_OK) or "readonly" in reason or "read-only" in reason:
        return (
            f"the data folder {shown_path(where.data_dir)} is read-only ({reason}): make it writable, "
            "or set SCHOLAR_TUI_HOME (or --home) to a writable folder"
        )
    return f"the database {file} cannot be used ({reason}): {RESTORE}"


def _close(connection: sqlite3.Connection | None) -> None:
    if connection is not None:
        connection.close()


@functools.cache
def _expected_tables() -> frozenset[str]:
    """The tables the migrations make, from a fresh database in memory (once per process)."""
    db = sqlite_utils.Database(sqlite3.connect(":memory:"))
    migrate(db)
    names = frozenset(db.table_names())
    db.conn.close()
    return names


def check_tables(db: sqlite_utils.Database, where: Locations) -> None:
    """StateError when tables the migrations made are gone (dropped by hand, or damage), which
    the first query naming one would find. The app checks at start and the doctor; a command
    does not pay for it (a fresh schema in memory, 10-80 ms): its query's error is one line too."""
    _refuse_missing(sorted(_expected_tables() - set(db.table_names())), where)


# The tables m017's stored counts stand for: ``library stats`` and a search's readiness read the counts,
# never ``papers``, so a dropped papers table would go unseen by the query that used to fail on it.
COUNTED_TABLES = ("papers", "library_counts")


def _check_counted_tables(db: sqlite_utils.Database, where: Locations) -> None:
    """StateError (``RESTORE`` added by the caller) when a table the stored counts stand for is gone;
    one lookup in the schema, at every open."""
    marks = ", ".join("?" for _ in COUNTED_TABLES)
    found = {
        row[0]
        for row in db.execute(
            f"select name from sqlite_master where type = 'table' and name in ({marks})", COUNTED_TABLES
        )
    }
    missing = [name for name in COUNTED_TABLES if name not in found]
    if missing:
        raise StateError(_lacks(missing, where))


def _lacks(missing: list[str], where: Locations) -> str:
    return (
        f"the database {shown_path(where.database_file)} lacks the table"
        f"{'s' if len(missing) > 1 else ''} {', '.join(missing)} (damaged or edited by hand)"
    )


def _refuse_missing(missing: list[str], where: Locations) -> None:
    if missing:
        raise StateError(f"{_lacks(missing, where)}: {RESTORE}")


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

    make_folder(where.lancedb_dir)
    return lancedb.connect(str(where.lancedb_dir))


def replace_table(db, name: str, data) -> None:
    """Write ``data`` as LanceDB table ``name``, replacing the table if it is there.

    Overwriting a table that is not there makes lance log a warning onto the CLI's stderr.
    """
    db.create_table(name, data, mode="overwrite" if name in db.list_tables().tables else "create")
