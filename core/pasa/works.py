"""Cited works as library papers: what makes an offline crawl over unarXive meaningful.

An unarXive paper arrives with its full text and a bibliography of raw strings; almost none of the
works it cites are themselves in the library. PaSa's Crawler needs them as papers: [Expand] adds
"all referenced papers in the subsection" to the queue, [Search] must be able to find them, and
the Selector reads their titles. So each bibliography entry whose title can be read back out of
the raw string (``reference_titles``) becomes a library paper with ``source = "reference"``:
title, year (as its date, for the query-date cut-off), and the arXiv/DOI/OpenAlex ids unarXive
linked. The entry is pointed at it (``cited_paper_id``), so a citation edge appears and expanding
the section yields it. The same work cited by two papers meets under one id or title (the
library's own de-duplication). When the network is there, OpenAlex later fills in the abstract
of a cited work with an OpenAlex id (``tools.ExpandTool``): the stub becomes a full record.

Each entry's title is read once, and its cited work made once, at import: the CLI's ``import``
and the TUI's Library tab run every kind (a file, a folder of PDFs, Zotero) through
``importer.with_cited_works``, which calls ``prepare_imported`` for the papers it stored once it is
committed, so an import costs what its own entries touch and a search prepares nothing. The
preparation before a search (``prepare_cited_works``) is left what an import did not do (a library
imported before this, an import cancelled in that step, papers an online search added), a batch at
a time.
An entry that names no title is never read again, so the second run reads and adds nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from scholar_tui.core.pasa.reference_titles import extract_title
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_works import identity_keys
from scholar_tui.indexes.pasa_works import (
    link_references,
    note_read_titles,
    references_of_papers_to_prepare,
    references_to_prepare,
    unread_references,
)
from scholar_tui.indexes.records import PaperRecord

SOURCE = "reference"


@dataclass
class CitedWorks:
    """What one preparation pass did."""

    read: int  # unlinked entries looked at
    linked: int  # entries now pointing at a library paper
    added: int  # new library papers (cited works)
    untitled: int  # entries with no readable title (left unlinked)
    seconds: float
    stopped: bool = False  # cancelled after an import: the rest is left to the first Paper search

    def summary(self) -> str:
        return (
            f"{self.linked} references linked to cited works ({self.added} new papers); "
            f"{self.untitled} entries name no readable title"
        )


def cited_work_record(reference: dict, title: str) -> PaperRecord:
    year = reference["year"]
    arxiv = reference["arxiv_id"]
    return PaperRecord(
        title=title,
        source=SOURCE,
        arxiv_id=arxiv,
        doi=reference["doi"],
        openalex_id=reference["openalex_id"],
        date=str(year) if year else None,
        year=year,
        url=f"https://arxiv.org/abs/{arxiv}" if arxiv else None,
    )


BATCH = 2000  # entries held in memory at once


def read_cited_titles(library: Library, paper_ids: list[int]) -> int:
    """At import, inside its transaction: read the title of each new unlinked entry of these papers,
    once, so that no search reads it again. Returns how many name a title."""
    titles = [
        (reference["title"] or extract_title(reference["raw"]), reference["id"])
        for reference in unread_references(library, paper_ids)
    ]
    note_read_titles(library, titles)
    return sum(title is not None for title, _ in titles)


def prepare_cited_works(library: Library) -> CitedWorks:
    """Make every titled, unlinked bibliography entry point at a library paper (see the module doc).

    Entries are taken a batch at a time; titles read at import are used as read, and an entry stored
    before titles were read at import is read here, once: an entry naming no title is never read
    again, so a second preparation reads nothing."""
    clock = time.monotonic()
    tally = _Tally()
    with library.transaction(), library.bulk_write():  # word indexes and counts once, at the end
        last = 0
        while batch := references_to_prepare(library, last, BATCH):
            last = batch[-1]["id"]
            _link_batch(library, batch, tally)
        library.relink(tally.cited)  # the cited works' own ids link the entries naming them elsewhere
    return tally.works(time.monotonic() - clock)


PAPERS_AT_ONCE = 200  # papers whose entries an import prepares together (a few thousand entries)


def prepare_imported(
    library: Library, paper_ids: list[int], should_stop: Callable[[], bool] | None = None
) -> CitedWorks:
    """Right after an import (``importer.with_cited_works``), in one transaction: these papers' titled
    entries made cited works (their titles read, once, where the import did not), so that no search
    prepares them. Only these papers' entries are read (through the index on their paper), a few
    hundred papers at a time. ``should_stop`` (a person's Cancel) is asked between those: what was
    made is kept and linked, the rest is left to the first Paper search's preparation."""
    clock = time.monotonic()
    tally = _Tally()
    ids = sorted(set(paper_ids))
    with library.transaction(), library.bulk_write():  # word indexes and counts once, at the end
        for start in range(0, len(ids), PAPERS_AT_ONCE):
            if should_stop is not None and should_stop():
                tally.stopped = True
                break
            some = ids[start : start + PAPERS_AT_ONCE]
            read_cited_titles(library, some)
            _link_batch(library, references_of_papers_to_prepare(library, some), tally)
        library.relink(tally.cited)
    return tally.works(time.monotonic() - clock)


@dataclass
class _Tally:
    read: int = 0
    linked: int = 0
    added: int = 0
    untitled: int = 0
    cited: set[int] = field(default_factory=set)
    stopped: bool = False

    def works(self, seconds: float) -> CitedWorks:
        return CitedWorks(self.read, self.linked, self.added, self.untitled, seconds, self.stopped)


def _link_batch(library: Library, batch: list[dict], tally: _Tally) -> None:
    """Each titled entry of the batch pointed at its cited work (made when the library has none).

    The same as ``store_paper`` entry after entry, with the new works inserted together
    (``_NewWorks``): an entry whose work the library holds is merged into it at once, unless a work
    still to be inserted shares a key with it (then those are inserted first, as they would have been)."""
    tally.read += len(batch)
    titles = _titles(library, batch)
    links: list[tuple[int, int]] = []  # written together at the end: storing a work never reads them
    new = _NewWorks(library, links, tally)
    for reference in batch:
        title = titles[reference["id"]]
        if title is None:
            tally.untitled += 1
            continue
        record = cited_work_record(reference, title)
        keys = identity_keys(record)
        if new.keys & keys:  # it may be one of the works not inserted yet: they go in first
            new.insert()
        elif library.stored_paper_of(record) is None:
            new.add(record, keys, reference["id"])
            continue
        paper_id, created = library.store_paper(record)
        if paper_id == reference["paper_id"]:  # a paper citing itself by title: leave it
            continue
        new.link(paper_id, reference["id"], created)
    new.insert()
    link_references(library, links)


class _NewWorks:
    """Cited works the library has none of yet, inserted together (``Library.insert_bare_papers``):
    a row a statement made each insert flush FTS5's pending words (~30 SQLite statements a work)."""

    def __init__(self, library: Library, links: list[tuple[int, int]], tally: _Tally) -> None:
        self.library = library
        self.links = links
        self.tally = tally
        self.records: list[PaperRecord] = []
        self.references: list[int] = []
        self.keys: set[tuple[str, str]] = set()  # by which a later entry could find one of them

    def add(self, record: PaperRecord, keys: set[tuple[str, str]], reference_id: int) -> None:
        self.records.append(record)
        self.references.append(reference_id)
        self.keys |= keys

    def insert(self) -> None:
        for paper_id, reference_id in zip(self.library.insert_bare_papers(self.records), self.references, strict=True):
            self.link(paper_id, reference_id, True)
        self.records, self.references, self.keys = [], [], set()

    def link(self, paper_id: int, reference_id: int, created: bool) -> None:
        self.links.append((paper_id, reference_id))
        self.tally.cited.add(paper_id)
        self.tally.linked += 1
        self.tally.added += created


def _titles(library: Library, batch: list[dict]) -> dict[int, str | None]:
    """Each entry's title: as read at import, or read now (and noted) for an entry stored before.
    A PDF's entries arrive with their title read (pdf_references, GROBID); unArXive's are raw."""
    fresh = [(ref["title"] or extract_title(ref["raw"]), ref["id"]) for ref in batch if not ref["title_read"]]
    note_read_titles(library, fresh)
    titles = {ref["id"]: ref["read_title"] for ref in batch}
    titles.update((reference_id, title) for title, reference_id in fresh)
    return titles
