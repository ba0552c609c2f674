"""The SQLite schema, as an ordered list of named migrations.

Each migration runs once, in order, inside one transaction; applied names are recorded in
``_migrations``. Later features append their own migrations here: never edit one that shipped.
A migration uses DDL and ``db.execute`` only (sqlite-utils' bulk inserts commit on their own).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import sqlite_utils

Migration = Callable[[sqlite_utils.Database], None]
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(function: Migration) -> Migration:
    MIGRATIONS.append((function.__name__, function))
    return function


@migration
def m001_llm_calls(db: sqlite_utils.Database) -> None:
    """Every prompt and response, as simonw/llm logs them: enough to replay and to audit."""
    db["llm_calls"].create(
        {
            "id": int,
            "datetime_utc": str,
            "backend": str,
            "model": str,
            "kind": str,
            "prompt": str,
            "messages_json": str,
            "options_json": str,
            "schema_json": str,
            "grammar": str,
            "response": str,
            "logprobs_json": str,
            "finish_reason": str,
            "prompt_tokens": int,
            "completion_tokens": int,
            "duration_ms": float,
        },
        pk="id",
    )
    db["llm_calls"].create_index(["datetime_utc"])


def applied(db: sqlite_utils.Database) -> list[str]:
    if "_migrations" not in db.table_names():
        return []
    return [row["name"] for row in db.query("select name from _migrations order by rowid")]


def migrate(db: sqlite_utils.Database) -> list[str]:
    """Apply what is missing; returns the names applied now."""
    db.execute("create table if not exists _migrations (name text primary key, applied_at text)")
    done = set(applied(db))
    newly: list[str] = []
    for name, function in MIGRATIONS:
        if name in done:
            continue
        # An explicit transaction: Python's sqlite3 does not open one for DDL by itself, and a
        # failing migration must leave the schema as it was.
        db.conn.execute("begin")
        try:
            function(db)
            db.conn.execute(
                "insert into _migrations (name, applied_at) values (?, ?)",
                [name, datetime.now(timezone.utc).isoformat()],
            )
        except BaseException:
            db.conn.execute("rollback")
            raise
        db.conn.execute("commit")
        newly.append(name)
    return newly
