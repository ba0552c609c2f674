"""`import pdf`: a folder of PDFs into the library, a paper per transaction, hostile files named."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.importer import ImportProgress, LibraryImportError
from scholar_tui.core.library.pdf_import import PdfImportFinished, import_pdfs
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.migrations import MIGRATIONS

from .library_support import HashingEmbedder
from .pdf_papers import author_year_paper, numbered_paper


def _folder(tmp_path):
    folder = tmp_path / "papers"
    (folder / "deeper").mkdir(parents=True)
    numbered_paper(folder / "graphs.pdf")
    author_year_paper(folder / "deeper" / "again.PDF")
    (folder / "notes.pdf").write_text("not a pdf")
    (folder / "empty.pdf").write_bytes(b"")
    (folder / "readme.txt").write_text("ignored: not a .pdf")
    return folder


def _finish(events) -> tuple[list[ImportProgress], PdfImportFinished]:
    events = list(events)
    assert isinstance(events[-1], PdfImportFinished)
    return [event for event in events if isinstance(event, ImportProgress)], events[-1]


def test_a_folder_imports_every_readable_pdf_and_names_the_rest(tmp_path, empty_library):
    progress, finished = _finish(import_pdfs(_folder(tmp_path), empty_library))
    assert [event.message for event in progress if event.message] == [
        "again.PDF",
        "empty.pdf",
        "graphs.pdf",
        "notes.pdf",
    ]
    assert [name for name, _, new in finished.papers if new] == ["again.PDF", "graphs.pdf"]
    assert finished.skipped == ["empty.pdf: empty file (0 bytes), not a PDF", "notes.pdf: not a PDF (no %PDF- header)"]
    assert finished.added["papers"] == 2 and finished.added["references"] == 7
    graphs = finished.papers[1][1]
    sections = empty_library.sections(graphs)
    assert [(s["title"], s["page"]) for s in sections] == [("Introduction", 1), ("Methods", 2)]
    assert sections[1]["pages"] == [[0, 2]] and sections[0]["reference_count"] == 3
    reference = empty_library.references(graphs)[1]
    assert reference["authors"] == ["C. Gilmer", "D. Schoenholz"] and reference["venue"] == "ICML"
    assert empty_library.paper(graphs)["pdf_path"].endswith("graphs.pdf")


def test_a_second_import_adds_nothing(tmp_path, empty_library):
    folder = _folder(tmp_path)
    _finish(import_pdfs(folder, empty_library))
    before = empty_library.counts()
    _, again = _finish(import_pdfs(folder, empty_library))
    assert empty_library.counts() == before and not any(new for _, _, new in again.papers)


def test_cancelling_stops_between_papers_and_keeps_the_ones_stored(tmp_path, empty_library):
    folder = _folder(tmp_path)
    asked = []

    def stop_after_the_first_paper() -> bool:
        asked.append(1)
        return empty_library.counts()["papers"] >= 1

    _, finished = _finish(import_pdfs(folder, empty_library, should_stop=stop_after_the_first_paper))
    assert finished.cancelled and len(finished.papers) == 1 and empty_library.counts()["papers"] == 1
    assert "cancelled after 1 of 4 files" in finished.summary


def test_an_interrupt_while_storing_leaves_no_half_paper(tmp_path, empty_library, monkeypatch):
    folder = tmp_path / "one"
    folder.mkdir()
    numbered_paper(folder / "graphs.pdf")

    def interrupted(*_paper_ids) -> int:
        raise KeyboardInterrupt  # Ctrl-C after the paper, its sections and references were written

    monkeypatch.setattr(empty_library, "relink", interrupted)
    with pytest.raises(KeyboardInterrupt):
        list(import_pdfs(folder, empty_library))
    assert all(count == 0 for count in empty_library.counts().values())


def test_a_path_with_no_pdf_is_one_line(tmp_path, empty_library):
    with pytest.raises(LibraryImportError, match="no PDF files"):
        list(import_pdfs(tmp_path, empty_library))
    with pytest.raises(LibraryImportError, match="no such file or folder"):
        list(import_pdfs(tmp_path / "missing", empty_library))


def test_import_file_reads_one_pdf_as_one_paper(tmp_path, empty_library):
    from scholar_tui.core.library.importer import run_import

    finished = run_import("pdf", numbered_paper(tmp_path / "graphs.pdf"), empty_library)
    assert finished.records == 1 and finished.added["papers"] == 1 and finished.added["sections"] == 2
    (tmp_path / "notes.pdf").write_text("not a pdf")
    with pytest.raises(LibraryImportError, match=r"^notes.pdf: not a PDF"):
        run_import("pdf", tmp_path / "notes.pdf", empty_library)


def test_the_migration_comes_after_the_ones_that_shipped():
    names = [name for name, _ in MIGRATIONS]
    assert names.index("m006_pdf_pages") > names.index("m005_person_identity")


def test_cli_import_pdf_shows_progress_and_names_each_skipped_file(tmp_path, where):
    folder = _folder(tmp_path)
    result = CliRunner().invoke(cli, ["import", "pdf", str(folder), "--no-index"])
    assert result.exit_code == 0, result.output
    assert "[1/4] reading again.PDF" in result.output and "[3/4] reading graphs.pdf" in result.output
    assert "read 2 of 4 PDFs from papers: added 2 papers" in result.output
    assert (
        "added: graphs.pdf → paper:" in result.output
        and "Graph Networks for Molecules (2 sections, 3 references)" in result.output
    )
    assert "skipped: empty.pdf: empty file (0 bytes), not a PDF" in result.output
    assert "skipped: notes.pdf: not a PDF (no %PDF- header)" in result.output
    as_json = CliRunner().invoke(cli, ["import", "pdf", str(folder / "graphs.pdf"), "--no-index", "--json"])
    data = json.loads(as_json.output)
    assert data["files"] == 1 and data["papers"][0]["new"] is False and data["added"]["papers"] == 0


def test_cli_other_kinds_refuse_a_folder(tmp_path, where):
    result = CliRunner().invoke(cli, ["import", "bibtex", str(tmp_path), "--no-index"])
    assert result.exit_code == 1 and "is a folder: only `import pdf` and `import zotero` read a folder" in result.output


def test_pasa_expands_a_pdf_section_with_the_sentence_that_cites_each_paper(tmp_path, where, empty_library):
    from scholar_tui.core.pasa.tools import LibraryTools
    from scholar_tui.core.pasa.works import prepare_cited_works

    _, finished = _finish(import_pdfs(numbered_paper(tmp_path / "graphs.pdf"), empty_library))
    prepared = prepare_cited_works(empty_library)  # the entries' titles as read become cited works
    assert prepared.linked == 3
    tools = LibraryTools(where, empty_library, HashingEmbedder())
    paper = finished.paper_ids[0]
    outline = tools.outline(paper)
    assert outline.expandable == ["1 Introduction", "2 Methods"]
    result = tools.expand(paper, outline, "2 Methods")
    cited = empty_library.paper(result.paper_ids[0])
    assert cited["title"] == "Neural message passing for quantum chemistry" and cited["arxiv_id"] == "1704.01212"
    assert result.contexts[cited["id"]] == ["Our model follows the message passing scheme of earlier work [2]."]


def test_references_resolve_to_a_library_paper_by_title(tmp_path, empty_library):
    from scholar_tui.indexes.records import PaperRecord

    with empty_library.transaction():
        solubility, _ = empty_library.store_paper(
            PaperRecord(title="Solubility from Structure", source="bibtex", year=2019)
        )
    _, finished = _finish(import_pdfs(numbered_paper(tmp_path / "graphs.pdf"), empty_library))
    first = empty_library.references(finished.paper_ids[0])[0]
    assert first["cited_paper_id"] == solubility and finished.new_citations == 1


def test_library_open_applies_the_migration_to_an_existing_database(where):
    library = Library.open(where)
    columns = {row[1] for row in library.conn.execute("pragma table_info(sections)")}
    library.close()
    assert {"page", "pages"} <= columns


def test_cli_ctrl_c_keeps_the_papers_stored_and_says_so(tmp_path, where, monkeypatch):
    import scholar_tui.core.library.pdf as pdf

    folder = _folder(tmp_path)
    real = pdf.read_layout
    calls = []

    def interrupted_on_the_second_pdf(path):
        calls.append(path.name)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(path)

    monkeypatch.setattr(pdf, "read_layout", interrupted_on_the_second_pdf)
    result = CliRunner().invoke(cli, ["import", "pdf", str(folder), "--no-index"])
    assert result.exit_code == 130 and "cancelled: the papers already stored stay" in result.output
    library = Library.open(where)
    assert library.counts()["papers"] == 1 and library.all_papers()[0]["title"] == "Graph Networks for Molecules Again"
    library.close()
