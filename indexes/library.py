"""The library in SQLite: papers, people, authorship, sections, references and citation edges.

``Library`` writes the records that importers produce (``indexes.records``) and answers the reads
that the API library, the search index and the TUI need. Writes happen inside ``transaction()``: an
import either lands whole or not at all.

It is made of stores, one module each, every one owning a few tables and readable on its own:

- ``paper_store.PaperStore``: the ``papers`` rows (write, merge, read by id);
- ``citation_store.CitationStore``: sections, bibliography entries, citation edges, re-linking;
- ``people_store.PeopleStore``: people, their name variants and authorships;
- ``identity_store.IdentityStore``: merges of people who are one person, and their undoing;
- ``library_works.WorksMixin``: which paper a record is, its sources, merges of works, labels;
- ``import_log_store.ImportLogStore``: the table counts and the import log;
- ``lookup_store.LookupStore``: the papers and people a title or name search scores (word indexes).

They are mixins over one base (``sql_store.SQLStore``: the connection, the query helpers, the
transaction) rather than objects ``Library`` holds, because they share one connection and one
transaction, and forty callers use one flat API (``library.paper(…)``, ``library.transaction()``):
composition would mean either ``library.papers.paper(…)`` at every call site or fifty forwarding
methods. What spans stores — storing a paper with its authors and citations, after finding which
work it is — is written here, the one place that sees them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from scholar_tui.config.locations import Locations
from scholar_tui.indexes.bulk_writes import deferred_upkeep
from scholar_tui.indexes.citation_store import CitationStore
from scholar_tui.indexes.db import open_database
from scholar_tui.indexes.identity_store import IdentityStore
from scholar_tui.indexes.import_log_store import COUNTED_TABLES, ImportLogStore
from scholar_tui.indexes.library_works import WorksMixin, native_source_id
from scholar_tui.indexes.lookup_store import LookupStore
from scholar_tui.indexes.paper_store import PAPER_COLUMNS, PaperStore
from scholar_tui.indexes.records import PaperRecord
from scholar_tui.indexes.sql_store import LibraryBusy, utc_now

BARE_ROWS = 500  # papers a statement of insert_bare_papers (18 values each; SQLite allows 32,766)

__all__ = ["COUNTED_TABLES", "PAPER_COLUMNS", "Library", "LibraryBusy"]


class Library(ImportLogStore, LookupStore, WorksMixin, CitationStore, PaperStore, IdentityStore):
    """One connection's view of the library; open one per thread."""

    @classmethod
    def open(cls, where: Locations) -> "Library":
        return cls(open_database(where))

    @contextmanager
    def bulk_write(self) -> Iterator[None]:
        """Inside ``transaction()``: the rows written in the block are put in the word indexes and
        counted once, at its end (``indexes.bulk_writes``), not a statement at a time. The block must
        not search its own rows by words (identity's name search runs after it)."""
        with deferred_upkeep(self.conn):
            yield

    def store_paper(
        self,
        record: PaperRecord,
        *,
        source_id: str | None = None,
        library: str | None = None,
        item_type: str | None = None,
        stamp: str | None = None,
    ) -> tuple[int, bool]:
        """Insert or merge one paper with its authors, sections and references: (id, created).

        The record's own source id (``source_id``; by default its source's native id) finds the paper a
        re-import stored; otherwise ``find_work`` looks for the same work from another source, and a
        merge into it is journalled (``paper_merges``) so that ``split_work_merge`` can undo it."""
        source_id = source_id or native_source_id(record)
        paper_id = self.paper_of_source(record.source, source_id)
        evidence = None
        if paper_id is None:
            paper_id, evidence = self.find_work(record)
        created = paper_id is None
        before = self.contributions(paper_id) if evidence and paper_id is not None else None
        if paper_id is None:
            paper_id = self.insert_paper(record)
        else:
            self._merge_paper(paper_id, record, utc_now())
            self._store_authors(paper_id, record.authors)
            self._store_sections_and_references(paper_id, record)
        source_row = self.note_source(
            paper_id,
            record,
            source_id,
            library=library,
            item_type=item_type,
            stamp=stamp,
            want_row=bool(evidence and before is not None),  # a merge's journal names its source row
        )
        if evidence and before is not None:
            self.log_work_merge(paper_id, source_row, evidence, record, before)
        return paper_id, created

    def stored_paper_of(self, record: PaperRecord) -> int | None:
        """The paper ``store_paper`` would merge this record into (None: it would make one)."""
        found = self.paper_of_source(record.source, native_source_id(record))
        return found if found is not None else self.find_work(record)[0]

    def insert_bare_papers(self, records: list[PaperRecord]) -> list[int]:
        """New papers of records naming no author, section or reference (cited works), known to be
        new (``stored_paper_of`` found none, and none finds another), in order: what ``store_paper``
        stores for each, with a few hundred rows a statement. Each statement on ``papers`` flushes
        FTS5's pending words to a new segment (its triggers write ``papers_fts``: a savepoint), so
        one row a statement cost ~30 SQLite statements a work."""
        ids: list[int] = []
        for start in range(0, len(records), BARE_ROWS):
            some = records[start : start + BARE_ROWS]
            if any(record.authors or record.sections or record.references for record in some):
                raise ValueError("insert_bare_papers stores papers without authors or citations only")
            after = self._one("select coalesce(max(id), 0) from papers")
            self.insert_paper_rows(some)
            made = [row[0] for row in self.conn.execute("select id from papers where id > ? order by id", (after,))]
            if len(made) != len(some):  # ids are given in insertion order: anything else is a bug
                raise RuntimeError(f"{len(some)} papers inserted, {len(made)} found after id {after}")
            for paper_id, record in zip(made, some, strict=True):
                self.note_source(paper_id, record, native_source_id(record), want_row=False)
            ids += made
        return ids

    def insert_paper(self, record: PaperRecord) -> int:
        """A new paper row with its authors, sections and references (no identity lookup)."""
        paper_id = self.insert_paper_row(record)
        self._store_authors(paper_id, record.authors)
        self._store_sections_and_references(paper_id, record)
        return paper_id
