"""An import's word indexes and counts written once at its end (#28, migrations m016 and m017).

An import used to put each paper, name and person in the FTS5 word indexes one statement at a
time, each flushing FTS5's pending words to a new segment; the Library tab's counts line counted
every table (and the cited works by a pass over ``papers``). These tests import the same file both
ways (the bulk write, and the triggers row by row as before) and compare what the indexes hold
word by word, the counts and a search's results; a guard counts FTS5's own writes, which the
row-by-row path multiplies; another fails when the counts line reads the papers to count them.
"""

from __future__ import annotations

import contextlib
import sqlite3

import pytest

from scholar_tui.config.locations import Locations
from scholar_tui.core.library.importer import import_file as import_events
from scholar_tui.core.library.importer import run_import, with_cited_works
from scholar_tui.indexes import bulk_writes, search_changes
from scholar_tui.indexes.import_log_store import COUNTED_TABLES
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import AuthorRecord, PaperRecord

from .library_support import generated_unarxive

WORD_INDEXES = ("papers_fts", "paper_title_index", "person_name_index", "person_topic_index")
OWN_FIRST = "papers_fts_own_first"  # m019: the words of papers_fts, cited works' rows above the own papers'
TABLES = COUNTED_TABLES  # the tables the counts line shows, as it names them


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    return generated_unarxive(tmp_path_factory, 150, "bulk")


def _library(root) -> Library:
    where = Locations(config_dir=root, data_dir=root / "data", cache_dir=root / "cache", log_dir=root / "logs")
    return Library.open(where.ensure())


def _row_by_row(monkeypatch) -> None:
    """The import as before m016: no bulk write, every trigger row by row."""
    monkeypatch.setattr(Library, "bulk_write", lambda self: contextlib.nullcontext())


def _import(library: Library, path) -> int:
    """What the front ends run: the file, then its cited works; the FTS5 writes it made."""
    writes: list[str] = []
    library.conn.set_trace_callback(lambda sql: writes.append(sql) if "_data" in sql and "INTO" in sql else None)
    for _ in with_cited_works(import_events("unarxive", path, library), library):
        pass
    library.conn.set_trace_callback(None)
    return len(writes)


def _word_indexes(conn: sqlite3.Connection, indexes: tuple[str, ...] = WORD_INDEXES) -> dict[str, list[tuple]]:
    """Every (word, row, column, offset) each index holds, read from FTS5's own index."""
    held = {}
    for index in indexes:
        conn.execute(f"create virtual table if not exists temp.{index}_held using fts5vocab(main, {index}, 'instance')")
        held[index] = conn.execute(f"select * from temp.{index}_held order by 1, 2, 3, 4").fetchall()
        conn.execute(f"insert into {index} ({index}, rank) values ('integrity-check', 1)")  # level with its table
    conn.commit()  # sqlite3 opened a transaction for the check, which writes nothing
    return held


def _counted(library: Library) -> dict[str, int]:
    counted = {label: library._one(f"select count(*) from {table}") for label, table in TABLES.items()}
    return {**counted, "cited": library._one("select count(*) from papers where source = 'reference'")}


def _searches(library: Library) -> list[list[int]]:
    return [
        search_changes.text_ranking(library.conn, query, depth=20)
        for query in ("spectral graph", "neural network model", "quantum field theory")
    ]


def test_an_import_indexes_and_counts_what_row_by_row_triggers_did(synthetic, tmp_path, monkeypatch):
    bulk = _library(tmp_path / "bulk")
    bulk_writes_made = _import(bulk, synthetic)
    with monkeypatch.context() as patch:
        _row_by_row(patch)
        old = _library(tmp_path / "row-by-row")
        old_writes_made = _import(old, synthetic)
    assert bulk.paper_count() > 150 and bulk.cited_work_count() > 0  # papers and cited works were made
    assert _word_indexes(bulk.conn, (*WORD_INDEXES, OWN_FIRST)) == _word_indexes(old.conn, (*WORD_INDEXES, OWN_FIRST))
    assert {**bulk.counts(), "cited": bulk.cited_work_count()} == _counted(bulk) == _counted(old)
    assert _searches(bulk) == _searches(old) and any(_searches(bulk))
    # the guard: FTS5 wrote its segments a statement at a time (10 times as many writes for 150 papers)
    assert bulk_writes_made * 5 < old_writes_made, (bulk_writes_made, old_writes_made)
    assert not bulk_writes.in_bulk_write(bulk.conn)  # no mark is ever committed


def test_rows_changed_and_deleted_during_a_bulk_write_end_up_indexed_as_they_are(empty_library):
    library = empty_library
    with library.transaction():
        kept, _ = library.store_paper(PaperRecord("Lattice models of glass", "arxiv", arxiv_id="2301.00001"))
    with library.transaction(), library.bulk_write():
        new, _ = library.store_paper(
            PaperRecord(
                "Spin chains at finite temperature", "arxiv", arxiv_id="2301.00002", authors=[AuthorRecord("Ada Quist")]
            )
        )
        gone, _ = library.store_paper(PaperRecord("A preprint withdrawn", "bibtex"))
        library.conn.execute("update papers set title = 'Spin chains at zero temperature' where id = ?", (new,))
        library.conn.execute("update papers set title = 'Lattice models of window glass' where id = ?", (kept,))
        library.conn.execute("delete from papers where id = ?", (gone,))
    held = _word_indexes(library.conn, (*WORD_INDEXES, OWN_FIRST))  # integrity-check: they agree with the tables
    for index in ("papers_fts", OWN_FIRST):
        titles = {word for word, *_ in held[index]}
        assert {"zero", "window"} <= titles and not {"finit", "withdrawn"} & titles
    assert library.counts()["papers"] == 2 and library.counts()["people"] == 1 == library.counts()["authorships"]


def test_the_counts_line_reads_the_papers_counters_and_never_the_papers(empty_library, synthetic):
    """The Library tab's counts line: the papers and the cited works among them (a pass over ``papers``
    for the cited works, 2 s at 100 k) are read from the counters m017's triggers keep."""
    library = empty_library
    run_import("unarxive", synthetic, library)
    with library.transaction():  # writers outside a bulk write: the triggers count them one by one
        paper_id, _ = library.store_paper(PaperRecord("A cited work made by hand", "reference"))
        library.store_paper(PaperRecord("A paper of a PDF", "pdf", authors=[AuthorRecord("Bo Lindqvist")]))
        first = library._one("select min(id) from papers where source = 'unarxive'")
        library.conn.execute("delete from papers where id = ?", (first,))  # its sections, entries… cascade
        library.conn.execute("update papers set source = 'bibtex' where id = ?", (paper_id,))
    statements: list[str] = []
    library.conn.set_trace_callback(statements.append)
    counts, cited = library.counts(), library.cited_work_count()
    library.conn.set_trace_callback(None)
    assert not [sql for sql in statements if "from papers" in sql.lower()], statements
    expected = _counted(library)
    assert {**counts, "cited": cited} == expected and expected["sections"] > 0


def test_a_library_from_before_the_bulk_writes_gets_its_counts_and_keeps_its_indexes(tmp_path, monkeypatch, synthetic):
    import sqlite_utils

    from scholar_tui.indexes import migrations

    names = [name for name, _ in migrations.MIGRATIONS]
    ours = names[names.index("m016_bulk_writes") :]
    db = sqlite_utils.Database(tmp_path / "old.db")
    with monkeypatch.context() as patch:
        patch.setattr(migrations, "MIGRATIONS", [item for item in migrations.MIGRATIONS if item[0] not in ours])
        migrations.migrate(db)
        old = Library(db)
        for record in _records(synthetic):
            with old.transaction():
                old.store_paper(record)
        before = _word_indexes(db.conn)
    assert migrations.migrate(db) == ours
    library = Library(db)
    assert _word_indexes(db.conn) == before
    assert _word_indexes(db.conn, (OWN_FIRST,))[OWN_FIRST] == before["papers_fts"]  # m019 filled it (no cited work)
    assert {**library.counts(), "cited": library.cited_work_count()} == _counted(library)
    with library.transaction():  # the rewritten triggers keep the indexes level
        library.conn.execute("update papers set title = 'Renamed for the test' where id = 1")
    assert "renam" in {word for word, *_ in _word_indexes(db.conn)["papers_fts"]}


def _records(path) -> list[PaperRecord]:
    import json

    from scholar_tui.core.library.unarxive import parse_paper

    with open(path, encoding="utf-8") as lines:
        return [parse_paper(json.loads(line)) for line, _ in zip(lines, range(20), strict=False)]
