"""Lookups that do not scan the library (#28): title and name search score only the rows a word index
finds, and stay level with the library as it changes.

The counting tests fail if a lookup goes back to reading every paper or name: ``all_papers`` and
``people_names`` refuse to run, and the fuzzy scorers count their calls against a library of 2,000
papers; an import's re-linking counts SQLite's steps; identity and PaSa's title reading refuse or
count whole-library reads. The timing test (2,000 against 20,000 papers) is marked ``benchmark`` and
runs only when asked for: ``pytest -m benchmark tests/test_library_scale.py -n0``.
"""

from __future__ import annotations

import time

import pytest

from scholar_tui.core.library.api_backends import LocalBackend
from scholar_tui.core.soay.titles import find_entity
from scholar_tui.indexes import fuzzy
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.lookup_store import TITLE_CANDIDATES
from scholar_tui.indexes.records import AuthorRecord, PaperRecord

from .scale_support import fill, synthetic_records

PAPERS = 2000


@pytest.fixture(scope="module")
def records() -> list[PaperRecord]:
    return synthetic_records(PAPERS)


@pytest.fixture
def big_library(empty_library: Library, records: list[PaperRecord]) -> Library:
    fill(empty_library, records)
    return empty_library


@pytest.fixture
def no_scans(monkeypatch):
    """Reading every paper or every name fails the test; the scorers' calls are counted."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("a lookup read the whole library")

    monkeypatch.setattr(Library, "all_papers", refuse)
    monkeypatch.setattr(Library, "people_names", refuse)
    calls = {"title_score": 0, "name_score": 0}
    for name in calls:
        original = getattr(fuzzy, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(fuzzy, name, counted)
    return calls


def test_title_search_scores_only_indexed_candidates(big_library, records, no_scans):
    api = LocalBackend(big_library)
    wanted = records[1234]
    words = wanted.title.split()
    partial = " ".join(words[1:5])  # the title's middle words only
    misspelled = " ".join([words[0][:-1] + "x", *words[1:]])  # its first word misspelled at the end
    for query in (wanted.title, partial, misspelled):
        hits = api.searchPublication(publication_info=query)
        assert hits and hits[0]["title"] == wanted.title, query
    assert no_scans["title_score"] <= 3 * TITLE_CANDIDATES
    assert no_scans["title_score"] < PAPERS / 4  # the titles sharing a word, not all 2,000


def test_person_search_scores_only_indexed_names(big_library, records, no_scans):
    api = LocalBackend(big_library)
    name = next(author.name for record in records[500:] for author in record.authors if "." not in author.name)
    first, surname = name.split(" ", 1)
    for query in (name, surname, f"{first[0]}. {surname}", f"{first} {surname[:-3]}xon"):  # misspelled surname
        hits = api.searchPerson(name=query)
        assert any(hit["name"] == name or name in hit["aliases"] for hit in hits), query
    assert 0 < no_scans["name_score"] < 200


def test_a_paper_question_is_answered_from_candidates(big_library, records, no_scans):
    wanted = records[321]
    mention = find_entity(f"Who wrote the paper {wanted.title}?", LocalBackend(big_library))
    assert mention is not None and mention.kind == "paper" and mention.matched == wanted.title
    assert no_scans["title_score"] <= 3 * TITLE_CANDIDATES


def test_title_index_follows_edits_and_deletes(empty_library):
    with empty_library.transaction():
        paper_id, _ = empty_library.store_paper(PaperRecord("Quasicrystal tilings of the hyperbolic plane", "bibtex"))
    assert [row["id"] for row in empty_library.title_candidates("hyperbolic quasicrystal")] == [paper_id]
    with empty_library.transaction():
        empty_library.update_from_source(paper_id, PaperRecord("Penrose tilings revisited", "bibtex"))
    assert empty_library.title_candidates("hyperbolic quasicrystal") == []
    assert [row["id"] for row in empty_library.title_candidates("penrose")] == [paper_id]
    with empty_library.transaction():
        empty_library.conn.execute("delete from papers where id = ?", (paper_id,))
    assert empty_library.title_candidates("penrose") == []


def test_name_index_follows_merges_and_splits(empty_library):
    with empty_library.transaction():
        for title, author in (("First paper on tilings", "Ada Quistorp"), ("Second paper on tilings", "A. Quistorp")):
            empty_library.store_paper(PaperRecord(title, "bibtex", authors=[AuthorRecord(author)]))
    people = {row["name"]: row["person_id"] for row in empty_library.name_candidates("Quistorp")}
    assert set(people) == {"Ada Quistorp", "A. Quistorp"}
    with empty_library.transaction():
        merge = empty_library.merge_people(people["Ada Quistorp"], people["A. Quistorp"], "test")
    merged = {(row["name"], row["person_id"]) for row in empty_library.name_candidates("Quistorp")}
    assert merged == {("Ada Quistorp", people["Ada Quistorp"]), ("A. Quistorp", people["Ada Quistorp"])}
    with empty_library.transaction():
        empty_library.split_merge(merge)
    split = {(row["name"], row["person_id"]) for row in empty_library.name_candidates("Quistorp")}
    assert split == {(name, person) for name, person in people.items()}


def _median_lookup_seconds(library: Library, records: list[PaperRecord]) -> float:
    api = LocalBackend(library)
    times = []
    for record in records[100:120]:
        clock = time.perf_counter()
        find_entity(f"Who wrote the paper {record.title}?", api)
        api.searchPerson(name=record.authors[0].name)
        times.append(time.perf_counter() - clock)
    return sorted(times)[len(times) // 2]


@pytest.mark.benchmark
def test_lookups_do_not_grow_with_the_library(tmp_path):
    import sqlite_utils

    from scholar_tui.indexes.migrations import migrate

    seconds = {}
    for size in (2_000, 20_000):
        db = sqlite_utils.Database(tmp_path / f"scale{size}.db")
        db.conn.execute("pragma foreign_keys = on")
        migrate(db)
        library = Library(db)
        records = synthetic_records(size)
        fill(library, records)
        seconds[size] = _median_lookup_seconds(library, records)
        library.close()
    # a scan of every title grows 10x; the index keeps it within the noise of the candidates' scoring
    assert seconds[20_000] < 3 * seconds[2_000] + 0.05, seconds


def _vm_steps(library: Library, action) -> int:
    """SQLite virtual-machine steps (in thousands) an action takes: rows read, roughly."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    library.conn.set_progress_handler(count, 1000)
    try:
        action()
    finally:
        library.conn.set_progress_handler(None, 0)
    return steps[0]


def test_an_import_relinks_only_what_its_papers_touch(big_library):
    from scholar_tui.indexes.records import ReferenceRecord

    citing = PaperRecord(
        "An older paper citing two works not yet here",
        "bibtex",
        references=[
            ReferenceRecord("a", 1, raw="2399.00001", arxiv_id="2399.00001"),
            ReferenceRecord("b", 2, raw="Some title", title="Tilings of the hyperbolic plane by quasicrystals"),
        ],
    )
    with big_library.transaction():
        citing_id, _ = big_library.store_paper(citing)
        big_library.relink([citing_id])
    new = [
        PaperRecord("A new paper with that arXiv id", "arxiv", arxiv_id="2399.00001"),
        PaperRecord("Tilings of the hyperbolic plane by quasicrystals", "bibtex"),
    ]
    with big_library.transaction():
        new_ids = [big_library.store_paper(record)[0] for record in new]
        incremental = _vm_steps(big_library, lambda: big_library.relink(new_ids))
    assert big_library.cited_by(new_ids[0]) == [citing_id] and big_library.cited_by(new_ids[1]) == [citing_id]
    everything = _vm_steps(big_library, big_library.relink)
    assert incremental * 20 < everything, (incremental, everything)


def test_an_import_merges_name_variants_without_reading_everyone(big_library, monkeypatch):
    from scholar_tui.core.library.identity import after_import

    everyone = Library.identity_rows

    def only_namesakes(self, **kwargs):
        assert kwargs, "identity read every person of the library"
        return everyone(self, **kwargs)

    monkeypatch.setattr(Library, "identity_rows", only_namesakes)
    papers = [
        PaperRecord(
            "Aperiodic order in tilings", "bibtex", authors=[AuthorRecord("Ada Quistorp-Lind"), AuthorRecord("Bo Zell")]
        ),
        PaperRecord(
            "More aperiodic order", "bibtex", authors=[AuthorRecord("A. Quistorp-Lind"), AuthorRecord("Bo Zell")]
        ),
    ]
    with big_library.transaction():
        ids = [big_library.store_paper(record)[0] for record in papers]
        merges = after_import(big_library, "bibtex", "tilings.bib", ids)
    assert [(m.kept_name, m.merged_name, m.evidence) for m in merges] == [
        ("Ada Quistorp-Lind", "A. Quistorp-Lind", "1 shared coauthor")
    ]


def test_cited_titles_are_read_once_at_import_and_never_at_search(big_library, monkeypatch):
    from scholar_tui.core.pasa import works
    from scholar_tui.indexes.records import ReferenceRecord

    reads = []
    monkeypatch.setattr(works, "extract_title", lambda raw, _read=works.extract_title: reads.append(raw) or _read(raw))
    all_ids = [row[0] for row in big_library.conn.execute("select id from papers")]
    with big_library.transaction():
        works.read_cited_titles(big_library, all_ids)
    assert len(reads) == PAPERS  # each synthetic paper cites one work outside the library
    new = PaperRecord(
        "A paper imported later",
        "unarxive",
        references=[
            ReferenceRecord("x", 1, raw='A. Writer, "Quasicrystal tilings of the hyperbolic plane," J. Geom. 3 (2001)'),
            ReferenceRecord("y", 2, raw="E. Turov, J. Exp. Theor. Phys. 9, 890 (1959)"),
        ],
    )
    with big_library.transaction():
        new_id, _ = big_library.store_paper(new)
        reads.clear()
        works.read_cited_titles(big_library, [new_id])
    assert len(reads) == 2  # only the new paper's entries
    reads.clear()
    first = works.prepare_cited_works(big_library)
    assert reads == [] and first.linked == first.read > PAPERS / 2  # titles as read at import
    assert "Quasicrystal tilings of the hyperbolic plane" in {
        row["cited_title"] for row in big_library.references(new_id)
    }
    assert works.prepare_cited_works(big_library).read == 0  # nothing is read twice


def test_a_library_from_before_the_indexes_gets_them_filled(tmp_path, monkeypatch):
    import sqlite_utils

    from scholar_tui.indexes import migrations

    # a library from before m010: the later migrations (m016 rewrites m010's triggers) come after it too
    names = [name for name, _ in migrations.MIGRATIONS]
    ours = names[names.index("m010_name_title_lookup") :]
    earlier = [(name, function) for name, function in migrations.MIGRATIONS if name not in ours]
    db = sqlite_utils.Database(tmp_path / "old.db")
    monkeypatch.setattr(migrations, "MIGRATIONS", earlier)
    migrations.migrate(db)
    db.execute(
        """insert into papers (title, title_key, source, added_at, updated_at)
           values ('Penrose tilings revisited', 'penrose tilings revisited', 'bibtex', '', '')"""
    )
    db.execute(
        """insert into paper_references (paper_id, ref_key, title, source)
           values (1, 'a', 'Aperiodic order in quasicrystals', 'bibtex')"""
    )
    db.conn.commit()
    monkeypatch.undo()
    assert migrations.migrate(db) == ours
    library = Library(db)
    assert [row["id"] for row in library.title_candidates("penrose")] == [1]
    assert library._one("select title_key from paper_references") == "aperiodic order in quasicrystals"


def _cited_record(title: str, source: str) -> PaperRecord:
    """A paper citing a library paper by arXiv id and a work outside the library by a readable title."""
    from scholar_tui.indexes.records import ReferenceRecord

    return PaperRecord(
        title,
        source,
        references=[
            ReferenceRecord("a", 1, raw="2399.00001", arxiv_id="2399.00001"),
            ReferenceRecord("b", 2, raw="B. Writer, Tilings of the hyperbolic plane by quasicrystals, 2001"),
        ],
    )


def _touches_only_its_papers(big_library, import_events) -> None:
    """An import of one paper into 2,000, as the front ends run it (``with_cited_works``): re-linking and
    cited works cost what it touches (fails when the import re-links the whole library); its cited work
    is made at import, none is left to a search."""
    from scholar_tui.core.library.importer import with_cited_works
    from scholar_tui.core.pasa import works

    with big_library.transaction():
        target, _ = big_library.store_paper(PaperRecord("The cited library paper", "arxiv", arxiv_id="2399.00001"))
    works.prepare_imported(big_library, [row[0] for row in big_library.conn.execute("select id from papers")])
    imported = _vm_steps(big_library, lambda: list(with_cited_works(import_events(), big_library)))
    with big_library.transaction():
        everything = _vm_steps(big_library, big_library.relink)
    assert imported * 2 < everything, (imported, everything)  # the whole pass: more than everything
    new_id = big_library.conn.execute("select id from papers where title like 'Imported later%'").fetchone()[0]
    cited = {row["cited_title"] for row in big_library.references(new_id)}
    assert big_library.cited_by(target) == [new_id]
    assert "Tilings of the hyperbolic plane by quasicrystals" in cited  # a cited work, made at import
    assert works.prepare_cited_works(big_library).linked == 0  # the search has nothing left to prepare


def test_a_pdf_import_relinks_only_what_its_paper_touches(big_library, tmp_path):
    from scholar_tui.core.library.pdf_import import import_pdfs

    (tmp_path / "later.pdf").write_bytes(b"%PDF-1.4 stand-in")
    record = _cited_record("Imported later from a PDF", "pdf")
    _touches_only_its_papers(
        big_library, lambda: import_pdfs(tmp_path, big_library, reader=lambda path, grobid_url=None: record)
    )


def test_a_zotero_import_relinks_only_what_its_items_touch(big_library, tmp_path, monkeypatch):
    from scholar_tui.core.library import zotero
    from scholar_tui.core.library.zotero import PdfUnreadable, import_zotero

    from .zotero_support import make_zotero

    def no_pdf(path):
        raise PdfUnreadable("no PDF reader in this test")

    folder = make_zotero(tmp_path / "Zotero")
    record_of = zotero._import_item

    def with_references(library, snapshot, item, standalone, read_pdf, fallbacks):
        """The first item arrives with a bibliography (as a PDF's would), the rest as Zotero has them."""
        if not library.conn.execute("select 1 from papers where title like 'Imported later%'").fetchone():
            paper_id, _ = library.store_paper(_cited_record("Imported later from Zotero", "zotero"))
            return "added", paper_id, 0
        return record_of(library, snapshot, item, standalone, read_pdf, fallbacks)

    monkeypatch.setattr(zotero, "_import_item", with_references)
    _touches_only_its_papers(big_library, lambda: import_zotero(folder, big_library, read_pdf=no_pdf))
