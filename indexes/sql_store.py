"""The connection every store of the library shares, and the helpers they all use.

``SQLStore`` is the base of the stores that make up ``indexes.library.Library`` (papers, citations,
people and identity, works and labels, the import log): one connection, one transaction, the two
query helpers. Plain SQL throughout, because sqlite-utils' bulk helpers commit on their own and
would break the all-or-nothing promise of ``transaction()``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Self

import sqlite_utils

from scholar_tui.indexes.db import LOCK_WAIT_S, fits_sqlite


class LibraryBusy(Exception):
    """Another connection held the write lock for longer than we wait; one line for the user."""


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def json_list(value: str | None) -> list:
    return json.loads(value) if value else []


def digits_fit_sqlite(digits: str) -> bool:
    """An id SQLite can hold (a 64-bit integer); larger ones name nothing and would overflow."""
    return digits.isascii() and len(digits) <= 19 and fits_sqlite(int(digits))


class SQLStore:
    """One connection's view of the library's tables; open one per thread."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self.db = db
        self.conn: sqlite3.Connection = db.conn

    def close(self) -> None:
        self.conn.close()

    def _one(self, sql: str, params: tuple | list = ()) -> Any:
        row = self.conn.execute(sql, params).fetchone()
        return row[0] if row else None

    def _rows(self, sql: str, params: tuple | list = ()) -> list[dict]:
        cursor = self.conn.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=False)) for row in cursor.fetchall()]

    # -- transactions --------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Self]:
        """All or nothing: an exception rolls every write back."""
        try:
            self.conn.execute("begin immediate")
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
            raise LibraryBusy(
                f"the library is busy: another import (or the app) has held its write lock for over "
                f"{LOCK_WAIT_S:.0f} s; try again when it has finished"
            ) from error
        try:
            yield self
        except BaseException:
            self.conn.execute("rollback")
            raise
        self.conn.execute("commit")
