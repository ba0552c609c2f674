"""What the search index reads from SQLite: the change counter, the papers changed since a value
of it, papers in id chunks, and the words ranking (FTS5) — never the whole library at once.

The counter, the change log and ``papers_fts`` are kept by triggers on ``papers`` (migration
``m013_search_changes``), so every writer of the library keeps them, whoever it is; so is
``papers_fts_own_first`` (m019: the same words, the cited works' rows moved above the own papers'),
which a search of the own papers reads.

The words ranking is the library's BM25 (indexes/text_rank.py: Snowball stems, stop words dropped
after stemming, title and abstract one document, idf ln(1 + (N − n + 0.5)/(n + 0.5))), the one
searches ranked with before FTS5 (issue #24). FTS5 finds the candidates (``POOL_PER_DEPTH`` times
the depth asked, by its own bm25 over its Porter stems); only they are read and re-scored. The
collection statistics come from FTS5's own tables, by key: the paper count and the word count from
its averages record, each query word's document frequency and the stop words' occurrences from its
vocabulary (``papers_fts_terms``, migration ``m015_papers_fts_terms``).
"""

from __future__ import annotations

import functools
import re
import sqlite3
import unicodedata
from collections.abc import Callable, Iterator

import numpy as np

# PaSa's cited works (core/pasa/works.py), CITED_WORK_SOURCE: a library search for a person leaves
# them out unless asked (``own_only``); PaSa's own searches keep them.
from scholar_tui.indexes.bulk_writes import CITED_ROWID_OFFSET, CITED_WORK_SOURCE, counted_papers
from scholar_tui.indexes.text_rank import STOP_WORDS, CorpusStats, analyzed_words, bm25_idf, bm25_rescore

WORD = re.compile(r"[^\W_]+")
CHUNK = 500  # ids per SQL statement (SQLite allows 32,766 parameters; small keeps memory flat)
# FTS5 candidates re-scored per paper asked for. FTS5's bm25 (Porter stems, per-column lengths, a
# query word counted once) orders otherwise than the library's BM25: on the 29 test queries of
# /tmp/s8cp the old top 50 came from FTS5's top 100 for every query but not from its top 50.
POOL_PER_DEPTH = 4
MIN_POOL = 100
AVERAGES_ROWID = 1  # FTS5's record of the row count and each column's token total (fts5_index.c)
CITED_COUNT_CAP = 1000  # cited works counted as also matching, at most (the count reads only matches)


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
    """The library's papers, as migration m017's triggers count them (nothing is counted per search)."""
    return counted_papers(conn)


def own_paper_ids(conn: sqlite3.Connection) -> np.ndarray:
    """The library's own papers' ids (every paper but PaSa's cited works), ascending, read from
    migration m018's partial index ``papers_own``, never by a pass over ``papers``."""
    # the source is written into the statement, not bound: SQLite uses a partial index only for a
    # condition that is the index's own, and a parameter is not. Sorted here: an ``order by id`` is
    # planned as a pass over the table
    rows = conn.execute(f"select id from papers where source != '{CITED_WORK_SOURCE}'")
    return np.sort(np.fromiter((row[0] for row in rows), dtype=np.int64))


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
    user); the words the BM25 analyzer drops (stop words, after stemming) left out. '' when no word
    is left."""
    kept = dict.fromkeys(word for _, word in analyzed_words(query))
    return " OR ".join(f'"{word}"' for word in kept)


def text_ranking(
    conn: sqlite3.Connection,
    query: str,
    *,
    before: str | None = None,
    within: set[int] | None = None,
    depth: int = 50,
    own_only: bool = False,
) -> list[int]:
    """Paper ids by the library's BM25 over titles and abstracts, best first, with the search's
    filters: published strictly before ``before`` (papers without a date left out), only
    ``within``, only the library's own papers (no cited work) with ``own_only``. The statistics are
    the whole library's, whatever the filters (as LanceDB's prefilter kept them)."""
    words = analyzed_words(query)
    limit = max(POOL_PER_DEPTH * depth, MIN_POOL)
    pool = candidates(conn, query, before=before, within=within, limit=limit, own_only=own_only)
    if not pool:
        return []
    texts = {paper["id"]: paper_text(paper) for chunk in papers_by_id(conn, pool) for paper in chunk}
    return bm25_rescore(texts, [term for term, _ in words], corpus_stats(conn, words), depth)


def paper_text(paper: dict) -> str:
    """A paper as one document: what its vector is embedded from and what BM25 scores."""
    return f"{paper['title']}. {paper['abstract'] or ''}".strip()


def candidates(
    conn: sqlite3.Connection,
    query: str,
    *,
    before: str | None = None,
    within: set[int] | None = None,
    limit: int = 200,
    own_only: bool = False,
) -> list[int]:
    """Up to ``limit`` paper ids holding a query word, by FTS5's bm25 (best first), with the filters.
    ``own_only`` leaves out cited works: FTS5 reads the own papers' range of ``papers_fts_own_first``
    only, with the whole library's statistics (the same scores and order as ``papers_fts``'s)."""
    match = fts_query(query)
    if not match:
        return []
    table, sql, params = _matching(match, before, within, "not" if own_only else None)
    params.append(limit)
    return [row[0] for row in conn.execute(sql + f" order by bm25({table}) limit ?", params)]


def cited_matches(conn: sqlite3.Connection, query: str, *, before: str | None, within: set[int] | None) -> int:
    """How many cited works hold a query word under these filters (at most ``CITED_COUNT_CAP``):
    what a search of the library's own papers left out. Reads the cited works' matches only."""
    match = fts_query(query)
    if not match:
        return 0
    _, sql, params = _matching(match, before, within, "")
    params.append(CITED_COUNT_CAP)
    return int(conn.execute(f"select count(*) from ({sql} limit ?)", params).fetchone()[0])


def _matching(match: str, before: str | None, within: set[int] | None, cited: str | None) -> tuple[str, str, list]:
    """The FTS5 table and query of the papers matching ``match`` with the filters (no order, no limit).
    ``cited``: None keeps every paper (``papers_fts``), "not" leaves cited works out, "" keeps only
    them: ``papers_fts_own_first`` (migration m019), its rows below ``CITED_ROWID_OFFSET`` (the own
    papers, at their ids) or above it (the cited works, at id + the offset). FTS5 reads a word's
    postings in that range only: the cited works' matches (most of a common word's at 100 k papers)
    are never read, looked up nor scored."""
    if cited is None:
        table, paper_id = "papers_fts", "papers_fts.rowid"
        where = ["papers_fts match ?"]
    else:
        table = "papers_fts_own_first"
        own = cited == "not"
        paper_id = f"{table}.rowid" if own else f"({table}.rowid - {CITED_ROWID_OFFSET})"
        where = [f"{table} match ?", f"{table}.rowid {'<' if own else '>='} {CITED_ROWID_OFFSET}"]
    sql = f"select {paper_id} from {table}"
    params: list = [match]
    if before:
        sql += f" join papers on papers.id = {paper_id}"
        where.append("papers.date is not null and papers.date != '' and papers.date < ?")
        params.append(before)
    if within is not None:
        where.append(f"{paper_id} in (select value from json_each(?))")
        params.append("[" + ",".join(str(int(member)) for member in within) + "]")
    return table, sql + " where " + " and ".join(where), params


def cited_among(conn: sqlite3.Connection, paper_ids: list[int]) -> set[int]:
    """Which of these papers are cited works (by primary key, ``CHUNK`` ids a statement)."""
    found: set[int] = set()
    for start in range(0, len(paper_ids), CHUNK):
        chunk = [int(paper_id) for paper_id in paper_ids[start : start + CHUNK]]
        marks = ",".join("?" * len(chunk))
        rows = conn.execute(f"select id from papers where id in ({marks}) and source = ?", (*chunk, CITED_WORK_SOURCE))
        found.update(row[0] for row in rows)
    return found


def corpus_stats(conn: sqlite3.Connection, words: list[tuple[str, str]]) -> CorpusStats:
    """The library's BM25 statistics for these (index term, word) pairs, read by key from FTS5's
    tables. A term's frequency is that of the word's Porter stem in FTS5's index (Snowball and
    Porter stems differ now and then: a frequency of another grouping, never a wrong match). The
    mean length in index terms is FTS5's word total less the stop words' occurrences.

    fts5vocab counts a term by reading its postings (the stop words': most of the library, 0.13 s
    at 124 k papers), so counts are remembered in this process until the change counter moves."""
    documents, tokens = fts_totals(conn)
    if not documents:
        return CorpusStats(paper_count(conn), 0.0, {})
    state = (origin(conn), counter(conn))
    frequency: dict[str, int] = {}
    for term, word in words:
        if term not in frequency:
            stem = _porter(word)
            frequency[term] = _remembered(state, ("doc", stem), functools.partial(_frequency, conn, stem))
    stop = _remembered(state, ("stop words", ""), lambda: sum(_vocabulary(conn, _stop_stems(), column="cnt")))
    return CorpusStats(documents, max(tokens - stop, 0) / documents, frequency)


def term_rarity(conn: sqlite3.Connection, text: str) -> dict[str, float]:
    """Each index term of ``text`` (the BM25 analyzer's: Snowball stems, stop words dropped) with its
    BM25 idf in the library: how distinctive it is here ("learning" low, "addernet" high). A term no
    paper holds gets the highest idf. Read by key from FTS5's vocabulary, like ``corpus_stats``."""
    words = analyzed_words(text)
    stats = corpus_stats(conn, words)
    return {term: bm25_idf(stats.documents, stats.frequency.get(term, 0)) for term, _ in words}


_counts: dict[tuple[str, int], dict[tuple[str, str], int]] = {}  # (origin, counter) -> counts
REMEMBERED = 4096  # counts kept per library state


def _remembered(state: tuple[str, int], key: tuple[str, str], count: Callable[[], int]) -> int:
    """``count()`` once per library state (a change to the papers starts afresh)."""
    if state not in _counts:
        _counts.clear()  # one library state at a time: the counts of an older one are stale
        _counts[state] = {}
    known = _counts[state]
    if key not in known:
        if len(known) >= REMEMBERED:
            known.clear()
        known[key] = count()
    return known[key]


def fts_totals(conn: sqlite3.Connection) -> tuple[int, int]:
    """(papers, words) in ``papers_fts``, from FTS5's averages record: a varint row count, then
    a varint word total per column. (0, 0) when there is none or it cannot be read."""
    row = conn.execute("select block from papers_fts_data where id = ?", (AVERAGES_ROWID,)).fetchone()
    if row is None or not row[0]:
        return 0, 0
    try:
        values = _varints(bytes(row[0]))
    except IndexError:  # a record of another layout: no statistics rather than wrong ones
        return 0, 0
    return (values[0], sum(values[1:])) if values else (0, 0)


def _varints(data: bytes) -> list[int]:
    """SQLite's variable-length integers (big-endian, 7 bits a byte, the 9th byte whole)."""
    values, at = [], 0
    while at < len(data):
        value = 0
        for position in range(9):
            byte = data[at]
            at += 1
            if position == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        values.append(value)
    return values


def _frequency(conn: sqlite3.Connection, stem: str) -> int:
    return _vocabulary(conn, [stem])[0]


def _vocabulary(conn: sqlite3.Connection, terms: list[str], column: str = "doc") -> list[int]:
    """Each term's ``doc`` (papers holding it) or ``cnt`` (occurrences) in ``papers_fts``; 0 if absent."""
    found: dict[str, int] = {}
    for start in range(0, len(terms), CHUNK):
        chunk = terms[start : start + CHUNK]
        marks = ",".join("?" * len(chunk))
        found.update(conn.execute(f"select term, {column} from papers_fts_terms where term in ({marks})", chunk))
    return [int(found.get(term, 0)) for term in terms]


@functools.lru_cache(maxsize=1)
def _porter_stemmer():
    from snowballstemmer import stemmer

    return stemmer("porter")  # the original Porter algorithm, which FTS5's porter tokenizer implements


@functools.lru_cache(maxsize=4096)
def _porter(word: str) -> str:
    """A lower-cased word as FTS5 stores it (unicode61 with diacritics removed, then Porter)."""
    folded = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode("ascii") or word
    return _porter_stemmer().stemWord(folded)


@functools.lru_cache(maxsize=1)
def _stop_stems() -> list[str]:
    """The stop words the BM25 analyzer drops (those whose Snowball stem is one: "only" is kept as
    "onli"), as FTS5 stores them: FTS5 counts them, the analyzer does not."""
    return sorted({_porter(word) for word in STOP_WORDS if "'" not in word and not analyzed_words(word)})


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
