"""One paper, one record: the same work from Zotero, a PDF, OpenAlex and arXiv is one paper that keeps
every source id; the same title by other authors stays another paper; every merge is named and can
be undone."""

from __future__ import annotations

from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.importer import run_import
from scholar_tui.core.library.zotero import ZoteroFinished, import_zotero
from scholar_tui.indexes.records import AuthorRecord, PaperRecord

from .conftest import SHARED_DATA
from .zotero_support import make_zotero

OPENALEX_PAGE = SHARED_DATA / "online" / "openalex-works-search.json"
PASA_PDF = SHARED_DATA / "pdf" / "pasa.pdf"
MAPREDUCE = "MapReduce: simplified data processing on large clusters"


def _zotero(folder, library) -> ZoteroFinished:
    def no_pdf(path):
        from scholar_tui.core.library.zotero import PdfUnreadable

        raise PdfUnreadable("not in this test")

    return list(import_zotero(folder, library, read_pdf=no_pdf))[-1]


def _openalex_copy(**fields) -> PaperRecord:
    base = dict(
        title="MapReduce: Simplified Data Processing on Large Clusters",
        source="openalex",
        openalex_id="W2173213060",
        doi="10.1145/1327452.1327492",
        year=2008,
        date="2008-01-01",
        cited_by_count=17000,
        authors=[AuthorRecord("Jeffrey Dean"), AuthorRecord("Sanjay Ghemawat")],
    )
    return PaperRecord(**{**base, **fields})


def test_zotero_and_openalex_copies_are_one_paper_with_both_sources(empty_library, tmp_path):
    _zotero(make_zotero(tmp_path / "Zotero"), empty_library)
    before = empty_library.counts()["papers"]
    with empty_library.transaction():
        paper_id, created = empty_library.store_paper(_openalex_copy())
    assert not created and empty_library.counts()["papers"] == before
    assert {row["source"] for row in empty_library.paper_sources(paper_id)} == {"zotero", "openalex"}
    paper = empty_library.paper(paper_id)
    assert (paper["title"], paper["openalex_id"], paper["cited_by_count"]) == (MAPREDUCE, "W2173213060", 17000)
    merges = empty_library.work_merges(paper_id=paper_id)
    assert len(merges) == 1 and merges[0]["evidence"] == "same DOI 10.1145/1327452.1327492"
    shown = CliRunner().invoke(cli, ["library", "show", f"paper:{paper_id}", "--no-references"])
    assert "sources: zotero TESTKEY1/user/AAAA1111 (My Library); openalex openalex:W2173213060" in shown.output
    assert f"undo: scholar-tui library split paper:{paper_id} --merge {merges[0]['id']}" in shown.output


def test_a_merge_is_undone_and_stays_undone(empty_library, tmp_path, where):
    folder = make_zotero(tmp_path / "Zotero")
    _zotero(folder, empty_library)
    with empty_library.transaction():
        paper_id, _ = empty_library.store_paper(_openalex_copy())
    split = CliRunner().invoke(cli, ["library", "split", f"paper:{paper_id}"])
    assert split.exit_code == 0, split.output
    papers = {paper["id"]: paper for paper in empty_library.all_papers()}
    restored = next(p for p in papers.values() if p["openalex_id"] == "W2173213060")
    assert restored["id"] != paper_id and restored["cited_by_count"] == 17000
    assert papers[paper_id]["openalex_id"] is None and papers[paper_id]["cited_by_count"] is None  # given back
    assert [row["source"] for row in empty_library.paper_sources(restored["id"])] == ["openalex"]
    assert empty_library.papers_labelled(tag="systems") == {paper_id}  # Zotero's tags stay with Zotero's item
    count = empty_library.counts()["papers"]
    with empty_library.transaction():  # the same OpenAlex work again: it finds its own paper, no new merge
        again, created = empty_library.store_paper(_openalex_copy())
    assert (again, created) == (restored["id"], False) and empty_library.counts()["papers"] == count
    assert _zotero(folder, empty_library).unchanged == 4
    assert empty_library.work_merges() == []


def test_same_title_other_authors_are_two_works_and_a_preprint_joins_its_article(empty_library):
    with empty_library.transaction():
        first, _ = empty_library.store_paper(
            PaperRecord(
                title="Editor's introduction to the special issue",
                source="bibtex",
                year=2020,
                authors=[AuthorRecord("Ann Smith")],
            )
        )
        other, created = empty_library.store_paper(
            PaperRecord(
                title="Editor's Introduction to the Special Issue",
                source="bibtex",
                year=2020,
                authors=[AuthorRecord("Bob Jones")],
            )
        )
        assert created and other != first
        article, _ = empty_library.store_paper(
            PaperRecord(
                title="Use of big data in digital health",
                source="openalex",
                openalex_id="W1",
                doi="10.2196/11456",
                year=2019,
                authors=[AuthorRecord("Diwakar Mohan")],
            )
        )
        preprint, created = empty_library.store_paper(
            PaperRecord(
                title="Use of Big Data in Digital Health (Preprint)",
                source="openalex",
                openalex_id="W2",
                doi="10.2196/preprints.11456",
                year=2018,
                authors=[AuthorRecord("D. Mohan")],
            )
        )
    assert (preprint, created) == (article, False)
    # both DOIs find it: the paper keeps the preprint's as a source id
    assert empty_library.paper_with_id("doi", "10.2196/preprints.11456") == article
    assert empty_library.work_merges()[0]["evidence"] == "same title and year, first author"


def test_the_shared_openalex_page_duplicates_become_one_record_each(shared_data, empty_library):
    finished = run_import("openalex", OPENALEX_PAGE, empty_library)
    # 49 works; three copies of "Crowdsourcing for Machine Learning…" and four preprint/article pairs
    assert finished.records == 49 and finished.added["papers"] == 44
    assert len(finished.works_merged) == 5
    crowd = [row for row in empty_library.all_papers() if row["title"].lower().startswith("crowdsourcing for machine")]
    assert len(crowd) == 1
    sources = empty_library.paper_sources(crowd[0]["id"])
    assert sorted(row["source_id"] for row in sources) == [
        "openalex:W3212676313",
        "openalex:W4242624664",
        "openalex:W4243312951",
    ]
    assert set(run_import("openalex", OPENALEX_PAGE, empty_library).added.values()) == {0}


def test_a_pdf_of_a_paper_already_imported_from_arxiv_joins_it(shared_data, empty_library):
    import pytest

    pytest.importorskip("pdftext", reason="the PDF reader's pdftext is not installed")
    with empty_library.transaction():
        arxiv_paper, _ = empty_library.store_paper(
            PaperRecord(
                title="PaSa: An LLM Agent for Comprehensive Academic Paper Search",
                source="arxiv",
                arxiv_id="2501.10120",
                year=2025,
                date="2025-01-17",
                authors=[AuthorRecord("Yichen He")],
            )
        )
    finished = run_import("pdf", PASA_PDF, empty_library)
    assert finished.added["papers"] == 0 and finished.paper_ids == [arxiv_paper]
    assert len(finished.works_merged) == 1 and "same arXiv id 2501.10120" in finished.works_merged[0]
    assert empty_library.sections(arxiv_paper)  # the PDF's sections are the arXiv paper's now
    assert {row["source"] for row in empty_library.paper_sources(arxiv_paper)} == {"arxiv", "pdf"}
