"""The built-in PDF reader: small PDFs written here, hostile files, and the two shared papers."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from scholar_tui.core.library.pdf import PdfError, read_pdf
from scholar_tui.indexes.records import page_at

from .pdf_papers import author_year_paper, numbered_paper, superscript_paper
from .pdf_support import agreement, citation_truth, linked_marks, write_pdf


def _section(record, title: str):
    return next(section for section in record.sections if section.title == title)


def test_a_numbered_paper_reads_into_front_matter_sections_and_linked_citations(tmp_path):
    record = read_pdf(numbered_paper(tmp_path / "graphs.pdf"))
    assert record.title == "Graph Networks for Molecules"
    assert [author.name for author in record.authors] == ["Ada Lovelace", "Alan Turing"]
    assert record.abstract.startswith("We study graph networks") and record.abstract.endswith("counterfactuals.")
    assert [(s.number, s.title) for s in record.sections] == [("1", "Introduction"), ("2", "Methods")]
    introduction = _section(record, "Introduction")
    # [2, 3] and the range [1-3] are expanded to one marker per entry, each counted
    assert "graphs [2], [3] and attention helps them too [1], [2], [3]." in introduction.text
    assert introduction.reference_keys == {"pdf:1": 2, "pdf:2": 2, "pdf:3": 2}
    assert _section(record, "Methods").reference_keys == {"pdf:2": 1}
    assert record.pdf_path == str((tmp_path / "graphs.pdf").resolve())


@pytest.mark.parametrize("reference_size", [10, 7], ids=["body size", "smaller than the body"])
def test_reference_entries_carry_their_printed_fields(tmp_path, reference_size):
    references = read_pdf(numbered_paper(tmp_path / "graphs.pdf", reference_size)).references
    assert [reference.ordinal for reference in references] == [1, 2, 3]
    smith, gilmer, lee = references
    assert (
        smith.authors == ["A. Smith", "B. Jones"] and smith.title == "Solubility from structure" and smith.year == 2019
    )
    # an entry broken over two lines is one entry, with the arXiv id printed on its second line
    assert gilmer.title == "Neural message passing for quantum chemistry" and gilmer.arxiv_id == "1704.01212"
    assert gilmer.venue == "ICML" and gilmer.year == 2017
    assert lee.doi == "10.1038/s41586-020-0000-1" and lee.venue == "Nature"


def test_pages_are_kept_for_sections_and_citing_sentences(tmp_path):
    record = read_pdf(numbered_paper(tmp_path / "graphs.pdf"))
    assert [(section.title, section.page) for section in record.sections] == [("Introduction", 1), ("Methods", 2)]
    methods = _section(record, "Methods")
    assert page_at(methods.pages, methods.text.index("[2]")) == 2


def test_author_year_citations_link_to_the_entry_of_that_author_and_year(tmp_path):
    record = read_pdf(author_year_paper(tmp_path / "again.pdf"))
    ordinals = {reference.title: reference.ordinal for reference in record.references}
    introduction = _section(record, "Introduction")
    smith, gilmer, lee_a, lee_b = (
        ordinals["Solubility from structure"],
        ordinals["Neural message passing for quantum chemistry"],
        ordinals["Attention on graphs"],
        ordinals["Attention on trees"],
    )
    assert f"(Smith and Jones, 2019 [{smith}])" in introduction.text
    assert f"Gilmer et al. (2017 [{gilmer}])" in introduction.text  # narrative form, 'et al.' does not end the sentence
    # 2020a and 2020b are two entries; the second year of a list has the first one's authors
    assert f"(Lee, 2020a [{lee_a}], 2020b [{lee_b}];" in introduction.text
    assert introduction.reference_keys == {f"pdf:{smith}": 2, f"pdf:{gilmer}": 1, f"pdf:{lee_a}": 1, f"pdf:{lee_b}": 1}


@pytest.mark.parametrize("parenthesised", [False, True], ids=["superscripts", "numbers in parentheses"])
def test_superscript_and_parenthesised_citations_cite_the_sentence_before_the_mark(tmp_path, parenthesised):
    record = read_pdf(superscript_paper(tmp_path / "chem.pdf", parenthesised=parenthesised))
    assert [(r.ordinal, r.authors[0], r.title) for r in record.references] == [
        (1, "A. Smith", "Solubility from structure"),
        (2, "J. Gilmer", "Neural message passing"),
        (3, "E. Lee", "Attention on graphs"),
    ]
    introduction = _section(record, "Introduction")
    # 'learning.¹ Graph …': the mark moves inside the sentence it cites, so PaSa quotes the right one
    assert introduction.text.startswith(
        "Solubility is predicted well by deep learning [1]. "
        "Graph networks read molecules as graphs of their atoms [2], [3]. Their use"
    )
    assert introduction.reference_keys == {"pdf:1": 1, "pdf:2": 1, "pdf:3": 1}


def _not_a_pdf(path: Path) -> Path:
    path.write_text("Just some notes, not a PDF at all.\n")
    return path


def _empty(path: Path) -> Path:
    path.write_bytes(b"")
    return path


def _encrypted(path: Path) -> Path:
    return write_pdf(path, [[(72, 72, 12, "Secret words")]], encrypt=True)


def _ten_thousand_pages(path: Path) -> Path:
    return write_pdf(path, [[] for _ in range(10_000)])


def _broken(path: Path) -> Path:
    path.write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\n\x00\xff garbage with no xref\n")
    return path


def _scanned(path: Path) -> Path:
    return write_pdf(path, [[], []])  # pages, but no text layer


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_not_a_pdf, "not a PDF"),
        (_empty, "empty file (0 bytes)"),
        (_encrypted, "encrypted"),
        (_ten_thousand_pages, "10,000 pages"),
        (_broken, "damaged PDF"),
        (_scanned, "no text layer"),
    ],
)
def test_hostile_files_fail_with_one_line_naming_the_file(tmp_path, make, says):
    path = make(tmp_path / "hostile.pdf")
    started = time.monotonic()
    with pytest.raises(PdfError) as caught:
        read_pdf(path)
    message = str(caught.value)
    assert says in message and message.startswith("hostile.pdf: ") and "\n" not in message
    assert time.monotonic() - started < 10  # the 10,000-page tree is refused, not read


def test_a_page_that_cannot_be_read_is_skipped_and_named(tmp_path, monkeypatch):
    import pdftext.pdf.pages as pages

    path = numbered_paper(tmp_path / "graphs.pdf")
    real = pages.get_pages

    def failing_on_page_two(document, page_range, *args, **kwargs):
        if list(page_range) == [1]:
            raise RuntimeError("PDFium: bad content stream")
        return real(document, page_range, *args, **kwargs)

    monkeypatch.setattr(pages, "get_pages", failing_on_page_two)
    record = read_pdf(path)
    assert record.notes == ["page 2: unreadable (PDFium: bad content stream)"]
    assert record.title == "Graph Networks for Molecules" and _section(record, "Introduction").text  # page 1 kept


# -- the shared papers -------------------------------------------------------------------------------
def test_paper_pdf_has_149_references_and_its_numbered_citations_link_to_the_right_entry(shared_data):
    path = shared_data / "pdf" / "paper.pdf"
    started = time.monotonic()
    record = read_pdf(path)
    seconds = time.monotonic() - started
    assert record.title == "A Perspective on Explanations of Molecular Prediction Models"
    assert [author.name for author in record.authors] == [
        "Geemi P. Wellawatte",
        "Heta A. Gandhi",
        "Aditi Seshadri",
        "Andrew D. White",
    ]
    assert record.abstract.startswith("Chemists can be skeptical in using deep learning")
    assert len(record.references) == 149 and [r.ordinal for r in record.references] == list(range(1, 150))
    titles = [section.title for section in record.sections]
    assert titles[:3] == ["Introduction", "Theory", "Self-explaining models"] and "Conclusion and outlook" in titles
    assert all(section.page for section in record.sections)
    # The answer key: the PDF's own hyperref links from each citation mark to its entry.
    truth, found, right = agreement(citation_truth(path, record), linked_marks(record))
    print(f"paper.pdf: read in {seconds:.2f} s; {right} of {truth} linked citation marks right ({right / truth:.1%})")
    assert truth > 200 and right / truth >= 0.9


def test_pasa_pdf_author_year_citations_are_linked(shared_data):
    path = shared_data / "pdf" / "pasa.pdf"
    record = read_pdf(path)
    assert record.title == "PaSa: An LLM Agent for Comprehensive Academic Paper Search"
    assert [author.name for author in record.authors][:2] == ["Yichen He", "Guanhua Huang"] and len(record.authors) == 7
    assert record.arxiv_id == "2501.10120" and record.date == "2025-01-17"
    assert record.abstract.startswith("We introduce PaSa, an advanced Paper Search agent")
    assert ("1", "Introduction") in [(section.number, section.title) for section in record.sections]
    assert len(record.references) >= 35
    truth, found, right = agreement(citation_truth(path, record), linked_marks(record))
    print(f"pasa.pdf: {right} of {truth} linked author–year citations right ({right / truth:.1%})")
    assert truth > 40 and right / truth >= 0.9
