"""A bulk write: many rows in one transaction, their word indexes and counts written once at its end.

Triggers keep the FTS5 word indexes (``papers_fts``, ``papers_fts_own_first``, ``paper_title_index``,
``person_name_index``, ``person_topic_index``) and the paper counts (``library_counts``) level with
every writer. Row by row that is cheap for a few rows and dear for an import of thousands: each statement on a table an
FTS5 index follows flushes FTS5's pending words to a new segment and merges segments. Inside
``deferred_upkeep`` (migration ``m016_bulk_writes``) the triggers leave the rows that arrive alone;
at its end each index gets those rows in one ``insert … select`` and the counts the papers added,
before the transaction commits. The result is the one the triggers would have written (the tests
compare both); outside it, every writer (an edit, a merge, a PDF) goes through the triggers as before.

The marks live in ``bulk_writes`` for the duration of one transaction only: the end of the bulk
write removes them, and a rollback takes them with everything else, so no other connection ever
sees one.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

CITED_WORK_SOURCE = "reference"  # PaSa's cited works (core/pasa/works.py): papers made of bibliography entries
# papers_fts_own_first (migration m019) holds a cited work at its id + this, an own paper at its id:
# FTS5 reads an own-papers search's matches below it only
CITED_ROWID_OFFSET = 1 << 40
OWN_FIRST_ROWID = f"case when source = '{CITED_WORK_SOURCE}' then id + {CITED_ROWID_OFFSET} else id end"
# What each content table's rows above the mark still need at the end: (index, the content table's
# rowid column, columns, the index's rowid when it is not that column).
WORD_INDEXES: dict[str, list[tuple[str, str, str, str | None]]] = {
    "papers": [
        ("papers_fts", "id", "title, abstract", None),
        ("papers_fts_own_first", "id", "title, abstract", OWN_FIRST_ROWID),
        ("paper_title_index", "id", "title_key", None),
    ],
    "person_names": [("person_name_index", "rowid", "name_key", None)],
    "people": [("person_topic_index", "id", "organization, organizations, interests", None)],
}
# SQLite's page cache during a bulk write, in KiB (negative: a size, not pages): the default 2 MB
# held almost none of the references' indexes (title key, ids, cited paper), whose inserts land all
# over them, so most inserts read pages back from the WAL. Given back when the bulk write ends.
BULK_CACHE = -(192 * 1024)


def in_bulk_write(conn: sqlite3.Connection) -> bool:
    return conn.execute("select 1 from bulk_writes limit 1").fetchone() is not None


def counted_papers(conn: sqlite3.Connection) -> int:
    """The papers, as ``library_counts`` holds them; counted when a bulk write has not counted its own yet."""
    if in_bulk_write(conn):
        return int(conn.execute("select count(*) from papers").fetchone()[0])
    return int(conn.execute("select rows from library_counts where name = 'papers'").fetchone()[0])


def counted_cited_works(conn: sqlite3.Connection) -> int:
    """Of the papers, PaSa's cited works, as ``library_counts`` holds them (m017's triggers; never a pass over
    ``papers``, 2 s at 100 k); counted when a bulk write has not counted its own yet."""
    if in_bulk_write(conn):
        return int(conn.execute("select count(*) from papers where source = ?", (CITED_WORK_SOURCE,)).fetchone()[0])
    return int(conn.execute("select rows from library_counts where name = 'cited_works'").fetchone()[0])


@contextmanager
def deferred_upkeep(conn: sqlite3.Connection) -> Iterator[None]:
    """Inside the caller's transaction: rows written in the block are indexed and counted at its end.

    Nothing in the block may read the word indexes or the counts for its own rows (they are not
    there yet); reads by id, title key or any B-tree index are unaffected. Nested use is one bulk
    write (the outer one finishes it). An exception leaves the marks for the caller's rollback."""
    if not conn.in_transaction:
        raise RuntimeError("deferred_upkeep runs inside a transaction: its marks must never be committed")
    if in_bulk_write(conn):
        yield
        return
    marks = {
        table: conn.execute(f"select coalesce(max(rowid), 0) from {table}").fetchone()[0] for table in WORD_INDEXES
    }
    conn.executemany("insert into bulk_writes (content, after_rowid) values (?, ?)", marks.items())
    cache = conn.execute("pragma cache_size").fetchone()[0]
    conn.execute(f"pragma cache_size = {BULK_CACHE}")
    try:
        yield
        finish(conn, marks)
    finally:
        conn.execute(f"pragma cache_size = {int(cache)}")


def finish(conn: sqlite3.Connection, marks: dict[str, int]) -> None:
    """The rows above each mark indexed and counted, and the marks removed (the triggers are whole again)."""
    conn.execute("delete from bulk_writes")
    for table, indexes in WORD_INDEXES.items():
        for index, key, columns, rowid in indexes:
            conn.execute(
                f"insert into {index} (rowid, {columns}) select {rowid or key}, {columns} from {table} where {key} > ?",
                (marks[table],),
            )
    conn.execute(
        "update library_counts set rows = rows + (select count(*) from papers where id > ?) where name = 'papers'",
        (marks["papers"],),
    )
    conn.execute(
        """update library_counts set rows = rows + (select count(*) from papers where id > ? and source = ?)
           where name = 'cited_works'""",
        (marks["papers"], CITED_WORK_SOURCE),
    )
