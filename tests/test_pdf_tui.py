"""F5 imports a folder of PDFs; on a paper in F5 and F1, `o` opens its PDF, `c` copies its BibTeX,
and the abstract's LaTeX shows as Unicode."""

from __future__ import annotations

from textual.widgets import DataTable, Input, Select, Static

from scholar_tui.core.library.reading import abstract_text, open_paper, reading_target
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import PaperRecord

from .pdf_papers import author_year_paper, numbered_paper
from .pilot_support import (
    wait_for_workers,
)


def _folder(tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    numbered_paper(folder / "graphs.pdf")
    author_year_paper(folder / "again.pdf")
    (folder / "notes.pdf").write_text("not a pdf")
    return folder


async def test_f5_imports_a_folder_of_pdfs_then_opens_and_cites_a_paper(where, tmp_path, make_app):
    opened: list[str] = []
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        pane = app.query_one("#library-pane")
        pane.launcher = opened.append
        app.query_one("#import-path", Input).value = str(_folder(tmp_path))
        await pilot.pause()
        assert app.query_one("#import-kind", Select).value == "pdf"  # a folder is guessed as PDFs
        await pilot.click("#import-button")
        await wait_for_workers(pilot)
        message = str(app.query_one("#import-message", Static).render())
        assert "read 2 of 3 PDFs from papers: added 2 papers" in message
        assert "notes.pdf: not a PDF (no %PDF- header)" in message
        # the two PDFs and the four works their bibliographies cite (made at import for paper search)
        assert "6 papers (4 of them cited works)" in str(app.query_one("#library-counts", Static).render())
        assert app.query_one("#import-cancel").disabled and not app.query_one("#import-button").disabled
        results = app.query_one("#library-results", DataTable)
        graphs = next(
            paper["id"] for paper in pane.library.all_papers() if paper["title"] == "Graph Networks for Molecules"
        )
        results.focus()
        results.move_cursor(row=results.get_row_index(str(graphs)))
        await pilot.pause()
        sections = app.query_one("#paper-sections", DataTable)
        assert [str(sections.get_row_at(i)[1]) for i in range(sections.row_count)] == [
            "(all references)",
            "Introduction",
            "Methods",
        ]
        await pilot.press("o")
        assert opened == [str((tmp_path / "papers" / "graphs.pdf").resolve())]
        assert "opened the PDF" in str(app.query_one("#import-message", Static).render())
        await pilot.press("c")
        assert app.clipboard.startswith("@misc{") and "title = {Graph Networks for Molecules}" in app.clipboard
        assert "author = {Lovelace, Ada and Turing, Alan}" in app.clipboard


async def test_f1_opens_the_link_of_a_paper_without_pdf_and_renders_its_latex(where, make_app):
    library = Library.open(where)
    with library.transaction():
        paper_id, _ = library.store_paper(
            PaperRecord(
                title="Zeros of random polynomials",
                source="arxiv",
                arxiv_id="2212.11867",
                abstract=r"We show that $x^2$ has roots $\alpha_i$ in $\mathbb{R}^n$.",
            )
        )
    library.close()
    opened: list[str] = []
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        pane = app.query_one("#paper-search-pane")
        pane.launcher = opened.append
        pane.show_paper(paper_id)
        app.query_one("#pasa-tree").focus()
        await pilot.pause()
        detail = str(app.query_one("#pasa-detail", Static).render())
        assert "We show that x² has roots αᵢ in ℝⁿ." in detail and "$x^2$" not in detail
        await pilot.press("o")
        assert opened == ["https://arxiv.org/abs/2212.11867"]
        await pilot.press("c")
        assert "eprint = {2212.11867}" in app.clipboard


def test_a_pdf_moved_away_falls_back_to_the_link_and_a_paper_with_neither_says_so(where, tmp_path):
    assert (
        reading_target({"pdf_path": str(tmp_path / "gone.pdf"), "url": None, "arxiv_id": None, "doi": "10.1/x"})
        == "https://doi.org/10.1/x"
    )
    library = Library.open(where)
    with library.transaction():
        paper_id, _ = library.store_paper(PaperRecord(title="A title with no identifier at all", source="bibtex"))
    opened = open_paper(library, paper_id, launch=lambda target: None)
    library.close()
    assert opened.target is None and opened.message == f"paper:{paper_id} has no PDF and no link to open"


def test_no_viewer_is_one_line(where, tmp_path):
    def no_viewer(target: str) -> None:
        raise OSError("no graphical display here; open it yourself")

    library = Library.open(where)
    with library.transaction():
        paper_id, _ = library.store_paper(PaperRecord(title="Paper with a link", source="arxiv", arxiv_id="2101.00001"))
    opened = open_paper(library, paper_id, launch=no_viewer)
    library.close()
    assert (
        opened.message == "could not open https://arxiv.org/abs/2101.00001: no graphical display here; open it yourself"
    )


def test_abstract_latex_becomes_unicode_and_plain_text_is_untouched():
    assert (
        abstract_text(r"a bound $O(n^{2})$ with $H_2O$ and \emph{in vivo} 50\%")
        == "a bound O(n²) with H₂O and in vivo 50%"
    )
    assert abstract_text("plain [b]text[/b] stays") == "plain [b]text[/b] stays"
    assert abstract_text(r"unbalanced { brace $x") and abstract_text(None) == ""
