"""pdf.grobid_url: the PDF goes to GROBID and its TEI is read (a recorded answer, never a network)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from scholar_tui.core.library.grobid import parse_tei, read_with_grobid
from scholar_tui.core.library.pdf import PdfError
from scholar_tui.indexes.records import page_at

from .pdf_papers import numbered_paper

TEI = (Path(__file__).parent / "fixtures" / "grobid_fulltext.tei.xml").read_bytes()


def _grobid(seen: list[httpx.Request], status: int = 200, body: bytes = TEI) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, content=body, headers={"content-type": "application/xml"})

    return httpx.MockTransport(handle)


def test_the_pdf_is_posted_to_process_fulltext_document_and_its_tei_read(tmp_path):
    seen: list[httpx.Request] = []
    path = numbered_paper(tmp_path / "graphs.pdf")
    record = read_with_grobid(path, "http://grobid.local:8070/", transport=_grobid(seen))
    request = seen[0]
    assert request.method == "POST" and str(request.url) == "http://grobid.local:8070/api/processFulltextDocument"
    body = request.read()
    assert b'name="input"; filename="graphs.pdf"' in body and path.read_bytes() in body
    assert b'name="teiCoordinates"' in body and b'name="segmentSentences"' in body
    assert record.title == "Graph Networks for Molecules" and record.source == "pdf"
    assert [author.name for author in record.authors] == ["Ada Lovelace", "Alan M Turing"]
    assert record.arxiv_id == "2103.01234" and record.doi == "10.1000/graphs.2021" and record.date == "2021-03-04"
    assert record.abstract == "We study graph networks that predict properties of molecules."
    assert record.pdf_path == str(path.resolve())


def test_tei_sections_references_and_citations_with_their_pages():
    record = parse_tei(TEI)
    smith, gilmer = record.references
    assert (smith.ordinal, smith.title, smith.authors, smith.year, smith.venue, smith.doi) == (
        1,
        "Solubility from structure",
        ["Alice Smith", "Bob Jones"],
        2019,
        "J. Chem. Inf",
        "10.1021/solubility.2019",
    )
    assert gilmer.arxiv_id == "1704.01212" and gilmer.raw.startswith("J. Gilmer. Neural message passing")
    introduction, methods = record.sections
    assert (introduction.number, introduction.title, introduction.page) == ("1", "Introduction", 1)
    # author–year keeps its words and gains the marker; a bare number becomes the marker
    assert introduction.text == (
        "Deep learning predicts solubility well (Smith and Jones, 2019) [1]. "
        "Graph networks read molecules as graphs [2]."
    )
    assert introduction.reference_keys == {"pdf:1": 1, "pdf:2": 1}
    assert methods.reference_keys == {"pdf:2": 1, "pdf:1": 1}  # the <ref> without a target links nothing
    assert "and [9]." in methods.text
    assert page_at(methods.pages, methods.text.index("[2]")) == 2
    assert page_at(methods.pages, methods.text.index("next page")) == 3


@pytest.mark.parametrize(
    ("status", "body", "says"),
    [
        (503, b"", "busy (503)"),
        (500, b"[GENERAL] error", "could not read it (HTTP 500)"),
        (200, b"<html>not tei</html>", "not TEI"),
        (200, b"<TEI", "not XML"),
    ],
)
def test_grobid_failures_are_one_line(tmp_path, status, body, says):
    path = numbered_paper(tmp_path / "graphs.pdf")
    with pytest.raises(PdfError) as caught:
        read_with_grobid(path, "http://grobid.local:8070", transport=_grobid([], status, body))
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_an_unreachable_grobid_says_how_to_go_back_to_the_built_in_reader(tmp_path):
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(PdfError, match="not reachable .*unset pdf.grobid_url"):
        read_with_grobid(
            numbered_paper(tmp_path / "graphs.pdf"), "http://grobid.local:8070", transport=httpx.MockTransport(refuse)
        )


def test_the_setting_is_validated_and_the_built_in_reader_stays_the_default():
    from scholar_tui.config.settings import PdfSettings, Settings

    assert Settings().pdf.grobid_url is None
    assert PdfSettings(grobid_url="http://localhost:8070/").grobid_url == "http://localhost:8070"
    with pytest.raises(ValueError):
        PdfSettings(grobid_url="localhost:8070")


def test_a_folder_import_reads_through_grobid_when_the_setting_names_it(tmp_path, where):
    from scholar_tui.core.library.pdf import read_pdf
    from scholar_tui.core.library.pdf_import import PdfImportFinished, import_pdfs
    from scholar_tui.indexes.library import Library

    seen: list[httpx.Request] = []

    def through_recorded_grobid(path, *, grobid_url):
        assert grobid_url == "http://grobid.local:8070"
        return read_with_grobid(path, grobid_url, transport=_grobid(seen))

    numbered_paper(tmp_path / "graphs.pdf")
    library = Library.open(where)
    events = list(import_pdfs(tmp_path, library, grobid_url="http://grobid.local:8070", reader=through_recorded_grobid))
    finished = events[-1]
    assert isinstance(finished, PdfImportFinished) and len(seen) == 1
    paper_id = finished.paper_ids[0]
    assert library.paper(paper_id)["arxiv_id"] == "2103.01234"  # GROBID's header, not the built-in reader's
    assert [section["title"] for section in library.sections(paper_id)] == ["Introduction", "Methods"]
    methods = library.sections(paper_id)[1]
    assert methods["pages"] == [[0, 2], [methods["text"].index("It continues"), 3]]  # stored as read
    library.close()
    assert read_pdf.__kwdefaults__["grobid_url"] is None  # the built-in reader unless the setting is set
