"""What the search index reads from SQLite: the change counter, the papers changed since a value
of it, papers in id chunks, and the words ranking (FTS5) — never the whole library at once.

The counter, the change log and ``papers_fts`` are kept by triggers on ``papers`` (migration
``m013_search_changes``), so every writer of the library keeps them, whoever it is.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

import numpy as np

from scholar_tui.indexes.text_rank import STOP_WORDS

WORD = re.compile(r"[^\W_]+")
CHUNK = 500  # ids per SQL statement (SQLite allows 32,766 parameters; small keeps memory flat)


def counter(conn: sqlite3.Connection) -> int:
    """The number of paper changes SQLite has seen (bumped by the triggers)."""
    row = conn.execute("select seq from search_counter where id = 1").fetchone()
    return int(row[0]) if row else 0


def origin(conn: sqlite3.Connection) -> str:
    """This database's random mark: a snapshot made from another one (a replaced or emptied
    scholar.db, whose counter starts again) is not trusted row by row."""
    row = conn.execute("select origin from search_counter where id = 1").fetchone()
    return str(row[0]) if row else ""


def changed_since(conn: sqlite3.Connection, seq: int) -> np.ndarray:
    """Ids of papers inserted, changed or deleted after the counter stood at ``seq``."""
    rows = conn.execute("select paper_id from search_changes where seq > ?", (seq,)).fetchall()
    return np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))


def paper_ids(conn: sqlite3.Connection) -> np.ndarray:
    """Every paper's id, ascending (8 bytes a paper; the rows themselves are read in chunks)."""
    return np.fromiter((row[0] for row in conn.execute("select id from papers order by id")), dtype=np.int64)


def paper_count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("select count(*) from papers").fetchone()[0])


def papers_by_id(conn: sqlite3.Connection, ids: np.ndarray | list[int]) -> Iterator[list[dict]]:
    """The id, title, abstract and date of these papers, ``CHUNK`` at a time (gone ones left out)."""
    ids = [int(paper_id) for paper_id in ids]
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        rows = conn.execute(f"select id, title, abstract, date from papers where id in ({marks}) order by id", chunk)
        yield [{"id": row[0], "title": row[1], "abstract": row[2], "date": row[3]} for row in rows]


def fts_query(query: str) -> str:
    """The query's words as an FTS5 OR of quoted terms (no FTS5 syntax gets through from the
    user); stop words left out, as the BM25 analyzer did. '' when no word is left."""
    words = dict.fromkeys(word.lower() for word in WORD.findall(query))
    kept = [word for word in words if word not in STOP_WORDS] or list(words)
    return " OR ".join(f'"{word}"' for word in kept)


def text_ranking(
    conn: sqlite3.Connection,
    query: str,
    *,
    before: str | None = None,
    within: set[int] | None = None,
    depth: int = 50,
) -> list[int]:
    """Paper ids by BM25 over titles and abstracts (FTS5), best first, with the search's filters:
    published strictly before ``before`` (papers without a date left out), only ``within``."""
    match = fts_query(query)
    if not match:
        return []
    sql = "select papers_fts.rowid from papers_fts"
    where = ["papers_fts match ?"]
    params: list = [match]
    if before:
        sql += " join papers on papers.id = papers_fts.rowid"
        where.append("papers.date is not null and papers.date != '' and papers.date < ?")
        params.append(before)
    if within is not None:
        where.append("papers_fts.rowid in (select value from json_each(?))")
        params.append("[" + ",".join(str(int(paper_id)) for paper_id in within) + "]")
    sql += " where " + " and ".join(where) + " order by bm25(papers_fts) limit ?"
    params.append(depth)
    return [row[0] for row in conn.execute(sql, params)]


def searchable_count(conn: sqlite3.Connection, before: str | None, within: set[int] | None) -> int:
    """How many papers a search with these filters may return."""
    where, params = [], []
    if before:
        where.append("date is not null and date != '' and date < ?")
        params.append(before)
    if within is not None:
        where.append("id in (select value from json_each(?))")
        params.append("[" + ",".join(str(int(paper_id)) for paper_id in within) + "]")
    sql = "select count(*) from papers" + (" where " + " and ".join(where) if where else "")
    return int(conn.execute(sql, params).fetchone()[0])
