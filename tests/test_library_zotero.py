"""Zotero: every item of every library, read from a private copy *with* the write-ahead log,
incremental re-imports, collections and tags as filters, and hostile databases in one line."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.importer import LibraryImportError
from scholar_tui.core.library.zotero import PdfUnreadable, ZoteroFinished, import_zotero
from scholar_tui.indexes.records import PaperRecord, SectionRecord

from .conftest import SHARED_DATA
from .zotero_support import ZoteroWriter, make_zotero

SAN7O = SHARED_DATA / "zotero" / "San7o"
GANESH = SHARED_DATA / "zotero" / "ganeshbelgur"


def run(folder, library, **options) -> ZoteroFinished:
    events = list(import_zotero(folder, library, **options))
    assert isinstance(events[-1], ZoteroFinished)
    return events[-1]


def no_reader(path: Path) -> PaperRecord:
    raise PdfUnreadable("no PDF reader in this test")


def fake_reader(path: Path) -> PaperRecord:
    """Stands in for core.library.pdf: a record with one section per file it is given."""
    return PaperRecord(
        title=f"Read from {path.name}",
        source="pdf",
        sections=[SectionRecord(1, "1", "Introduction", 1, f"text of {path.name}")],
    )


def test_items_of_every_library_with_their_fields(empty_library, tmp_path):
    finished = run(make_zotero(tmp_path / "Zotero"), empty_library, read_pdf=no_reader)
    assert (finished.items, finished.added, finished.collections, finished.tags) == (4, 4, 3, 3)
    assert finished.libraries == ["Lab group", "My Library"]
    papers = {paper["title"]: paper for paper in empty_library.all_papers()}
    mapreduce = papers["MapReduce: simplified data processing on large clusters"]
    assert (mapreduce["date"], mapreduce["doi"], mapreduce["venue"]) == (
        "2008-01-01",
        "10.1145/1327452.1327492",
        "Communications of the ACM",
    )
    assert [a["name"] for a in empty_library.paper_authors(mapreduce["id"])] == ["Jeffrey Dean", "Sanjay Ghemawat"]
    # the PDF could not be read: Zotero's own extracted text stands in, and the note says why
    assert empty_library.sections(mapreduce["id"])[0]["text"].startswith("MapReduce is a programming model")
    assert finished.full_text_fallbacks == [
        "“MapReduce: simplified data processing on large clusters” (My Library, AAAA1111): mapreduce.pdf is missing: "
        "Zotero's extracted text used instead"
    ]
    zeros = papers["Zeros of a growing number of derivatives of random polynomials"]
    assert (zeros["arxiv_id"], zeros["date"]) == ("2212.11867", "2022-12")  # the arXiv id from Extra
    paxos = papers["Paxos made simple, a group reading"]
    assert empty_library.paper_sources(paxos["id"])[0]["library"] == "Lab group"
    assert empty_library.papers_labelled(collection="Computer Science") == {
        mapreduce["id"],
        papers["Editor's introduction to this special issue"]["id"],
    }  # sub-collections included
    assert empty_library.papers_labelled(collection="distributed systems") == {mapreduce["id"]}
    assert empty_library.papers_labelled(tag="SYSTEMS") == {mapreduce["id"]}
    assert empty_library.papers_labelled(collection="Reading group") == {paxos["id"]}


def test_second_run_adds_nothing_changed_items_update_deleted_are_reported(empty_library, tmp_path):
    folder = make_zotero(tmp_path / "Zotero")
    run(folder, empty_library, read_pdf=no_reader)
    before = empty_library.counts()
    again = run(folder, empty_library, read_pdf=no_reader)
    assert (again.added, again.updated, again.unchanged, again.deleted) == (0, 0, 4, [])
    assert empty_library.counts() == before
    conn = sqlite3.connect(folder / "zotero.sqlite")
    value = conn.execute("insert into itemDataValues (value) values ('Editor''s introduction, revised')").lastrowid
    conn.execute("update itemData set valueID = ? where itemID = 3 and fieldID = 1", (value,))
    conn.execute("update items set dateModified = '2025-01-01 10:00:00' where itemID = 3")
    conn.execute("insert into deletedItems (itemID) values (2)")  # moved to the trash
    conn.commit()
    conn.close()
    third = run(folder, empty_library, read_pdf=no_reader)
    assert (third.added, third.updated, third.unchanged) == (0, 1, 2)
    assert len(third.deleted) == 1 and "Zeros of a growing number" in third.deleted[0]
    assert empty_library.counts()["papers"] == before["papers"]  # reported, not thrown away
    titles = {paper["title"] for paper in empty_library.all_papers()}
    assert "Editor's introduction, revised" in titles


def test_an_item_only_in_the_write_ahead_log_is_imported(empty_library, tmp_path):
    """Zotero is running: its last change sits in zotero.sqlite-wal, not yet checkpointed."""
    folder = make_zotero(tmp_path / "Zotero", journal_mode="wal")
    writer_conn = sqlite3.connect(folder / "zotero.sqlite")
    writer_conn.execute("pragma wal_autocheckpoint = 0")
    ZoteroWriter(writer_conn).item(
        5, "WALWAL55", {"title": "A paper Zotero saved a moment ago", "date": "2024"}, authors=("Ada Lovelace",)
    )
    writer_conn.commit()  # committed into the -wal; the connection stays open, so no checkpoint
    try:
        assert (folder / "zotero.sqlite-wal").stat().st_size > 0
        immutable = sqlite3.connect(f"file:{folder / 'zotero.sqlite'}?immutable=1", uri=True)
        assert immutable.execute("select count(*) from items where key = 'WALWAL55'").fetchone()[0] == 0
        immutable.close()
        finished = run(folder, empty_library, read_pdf=no_reader)
    finally:
        writer_conn.close()
    assert finished.added == 5
    assert "A paper Zotero saved a moment ago" in {paper["title"] for paper in empty_library.all_papers()}


def test_a_database_zotero_holds_locked_is_read_from_its_last_commit(empty_library, tmp_path):
    folder = make_zotero(tmp_path / "Zotero")
    holder = sqlite3.connect(folder / "zotero.sqlite", isolation_level=None)
    holder.execute("pragma locking_mode = exclusive")
    holder.execute("begin exclusive")
    ZoteroWriter(holder).item(6, "UNCOMMIT", {"title": "Not committed yet, so not imported"})
    try:
        finished = run(folder, empty_library, read_pdf=no_reader)
    finally:
        holder.execute("rollback")
        holder.close()
    assert finished.added == 4
    assert "Not committed yet, so not imported" not in {paper["title"] for paper in empty_library.all_papers()}


def _break(folder: Path, how: str) -> None:
    database = folder / "zotero.sqlite"
    if how == "corrupt":
        data = bytearray(database.read_bytes())
        data[100:4096] = b"\xff" * (4096 - 100)  # the first page's b-tree: the schema cannot be read
        database.write_bytes(bytes(data))
    elif how == "not sqlite":
        database.write_bytes(b"this is not a database\n" * 200)
    elif how == "schema":
        conn = sqlite3.connect(database)
        conn.execute("update version set version = 999 where schema = 'userdata'")
        conn.commit()
        conn.close()
    elif how == "empty":
        database.write_bytes(b"")
    elif how == "absent":
        database.unlink()


@pytest.mark.parametrize(
    "how, words",
    [
        ("corrupt", "cannot read the database"),
        ("not sqlite", "cannot read the database (file is not a database)"),
        ("schema", "Zotero schema version 999 is not one this reader knows"),
        ("empty", "the file is empty, not a Zotero database"),
        ("absent", "no zotero.sqlite there"),
    ],
)
def test_hostile_databases_are_one_line_and_change_nothing(empty_library, tmp_path, how, words):
    folder = make_zotero(tmp_path / "Zotero")
    run(folder, empty_library, read_pdf=no_reader)
    before = empty_library.counts()
    _break(folder, how)
    with pytest.raises(LibraryImportError) as caught:
        run(folder, empty_library, read_pdf=no_reader)
    assert words in str(caught.value) and "\n" not in str(caught.value)
    assert empty_library.counts() == before
    result = CliRunner().invoke(cli, ["import", "zotero", str(folder), "--no-index"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.count("\n") == 1 and "the library is unchanged" in result.output


def test_an_item_without_a_title_is_named_and_the_rest_imports(empty_library, tmp_path):
    folder = make_zotero(tmp_path / "Zotero")
    conn = sqlite3.connect(folder / "zotero.sqlite")
    ZoteroWriter(conn).item(7, "NOTITLE7", {"date": "2020"}, authors=("Ann Other",))
    conn.commit()
    conn.close()
    finished = run(folder, empty_library, read_pdf=no_reader)
    assert finished.added == 4 and finished.untitled == [
        "“NOTITLE7” (My Library, NOTITLE7): no title in Zotero, left out"
    ]
    assert "left out: “NOTITLE7”" in "\n".join(finished.lines())


def test_cancelling_leaves_nothing(empty_library, tmp_path):
    with pytest.raises(LibraryImportError, match="cancelled"):
        run(make_zotero(tmp_path / "Zotero"), empty_library, read_pdf=no_reader, should_stop=lambda: True)
    assert empty_library.counts()["papers"] == 0


def test_cli_import_then_search_by_collection_and_tag(where, tmp_path, monkeypatch):
    folder = make_zotero(tmp_path / "Zotero")
    runner = CliRunner()
    first = runner.invoke(cli, ["import", "zotero", str(folder), "--no-index"])
    assert first.exit_code == 0, first.output
    assert "read 4 Zotero items" in first.output and "4 new papers" in first.output
    second = runner.invoke(cli, ["import", "zotero", str(folder), "--no-index"])
    assert "0 new papers" in second.output and "4 unchanged" in second.output
    listed = runner.invoke(cli, ["library", "collections"])
    assert "Computer Science/Distributed Systems" in listed.output and "Reading group" in listed.output


# -- the real backups ------------------------------------------------------------------------------
@pytest.fixture
def san7o(shared_data) -> Path:
    if not (SAN7O / "zotero.sqlite").is_file():
        pytest.skip(f"the Zotero backup is not at {SAN7O}")
    return SAN7O


def test_san7o_every_item_collection_tag_and_pdf(san7o, empty_library):
    finished = run(san7o, empty_library, read_pdf=fake_reader)
    assert (finished.items, finished.trashed, finished.standalone_pdfs) == (17, 2, 1)
    assert (finished.collections, finished.tags) == (7, 21)
    assert finished.added + finished.joined == 16  # 15 live items and the stand-alone PDF
    assert finished.pdfs_read == 10  # every PDF present, the stand-alone one included
    assert len(finished.full_text_fallbacks) == 1  # the one missing PDF, in one line
    assert (
        "Waidelich et al. - 2024" in finished.full_text_fallbacks[0] and "is missing" in finished.full_text_fallbacks[0]
    )
    again = run(san7o, empty_library, read_pdf=fake_reader)
    assert (again.added, again.joined, again.updated, again.unchanged) == (0, 0, 0, 16)
    # Distributed Systems: 7 items and the stand-alone Paxos PDF; AI: 1
    assert len(empty_library.papers_labelled(collection="Computer Science")) == 9


def test_ganeshbelgur_without_attachments(shared_data, empty_library):
    if not (GANESH / "zotero.sqlite").is_file():
        pytest.skip(f"the Zotero backup is not at {GANESH}")
    finished = run(GANESH, empty_library, read_pdf=no_reader)
    # 106 regular items (108 rows with its 2 attachments); 4 sit in the trash
    assert (finished.items, finished.trashed) == (106, 4)
    assert finished.added + finished.joined == 102
    assert len(finished.merged) == finished.joined == 3  # the user's own duplicates, each listed
    assert empty_library.counts()["papers"] == 99
    again = run(GANESH, empty_library, read_pdf=no_reader)
    assert (again.added, again.joined, again.unchanged) == (0, 0, 102)


def test_the_copy_is_private(empty_library, tmp_path):
    """Reading never writes beside the user's database (no -wal, -shm or -journal appears)."""
    folder = make_zotero(tmp_path / "Zotero")
    before = sorted(path.name for path in folder.iterdir())
    run(folder, empty_library, read_pdf=no_reader)
    assert sorted(path.name for path in folder.iterdir()) == before
    shutil.rmtree(folder / "storage")
    assert run(folder, empty_library, read_pdf=no_reader).unchanged == 4


def test_library_search_keeps_to_a_collection(empty_library, where, tmp_path):
    from scholar_tui.indexes.library_search import LibraryIndex

    from .library_support import HashingEmbedder

    run(make_zotero(tmp_path / "Zotero"), empty_library, read_pdf=no_reader)
    index = LibraryIndex(where, HashingEmbedder())
    for _ in index.sync(empty_library):
        pass
    everything = {hit.paper_id for hit in index.search(empty_library, "data processing polynomials paxos", limit=10)}
    within = empty_library.papers_labelled(collection="Computer Science")
    kept = {
        hit.paper_id
        for hit in index.search(empty_library, "data processing polynomials paxos", limit=10, within=within)
    }
    assert len(everything) == 4 and kept == within and len(kept) == 2
    assert index.searchable(None, within) == 2
    unknown = CliRunner().invoke(cli, ["library", "search", "anything", "--collection", "Biology"])
    assert unknown.exit_code == 1 and "no collection 'Biology'; collections: Computer Science" in unknown.output
    no_tag = CliRunner().invoke(cli, ["library", "search", "anything", "--tag", "nonesuch"])
    assert no_tag.exit_code == 1 and "no paper has the tag 'nonesuch'" in no_tag.output


def test_san7o_through_the_pdf_reader(san7o, empty_library):
    """The real reader (core.library.pdf): the ten PDFs present are read, the missing one is one line."""
    pytest.importorskip("pdftext", reason="the PDF reader's pdftext is not installed")
    finished = run(san7o, empty_library)
    assert finished.pdfs_read == 10
    assert len(finished.full_text_fallbacks) == 1 and "Waidelich" in finished.full_text_fallbacks[0]
    paxos = [paper for paper in empty_library.all_papers() if paper["title"] == "Paxos Made Simple"]
    assert paxos and empty_library.sections(paxos[0]["id"])  # the stand-alone PDF, titled by what it prints
