"""The Library tab as a person drives it: import with progress, counts, paper detail, search, export."""

import threading

import bibtexparser
from textual.widgets import DataTable, Input, Select, Static

from scholar_tui.app.messages import LibraryChanged
from scholar_tui.app.panes.library import LibraryPane
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import PaperRecord

from .library_support import UNARXIVE, fixture_path
from .pilot_support import (
    wait_for,
    wait_for_workers,
)


async def _import(app, pilot, path):
    app.query_one("#import-path", Input).value = str(path)
    await pilot.click("#import-button")
    await wait_for_workers(pilot)


async def test_import_browse_and_search(where, shared_data, make_app):
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        assert "0 papers" in str(app.query_one("#library-counts", Static).render())
        await _import(app, pilot, UNARXIVE)
        message = str(app.query_one("#import-message", Static).render())
        # the import makes the works their bibliographies cite, as the CLI's does (core's with_cited_works):
        # 49 papers and 972 cited works are more than the import embeds itself, so the background index does
        assert "read 49 records" in message and "49 papers" in message, message
        assert "\ncited: 972 works their bibliographies cite" in message, message
        assert "search index: 1021 papers embedded" in message
        assert "1021 papers" in str(app.query_one("#library-counts", Static).render())
        results = app.query_one("#library-results", DataTable)
        assert results.row_count == 49  # the library's own papers: the cited works are found by a search
        # choose 2212.11867: its sections, then the references of its introduction
        pane = app.query_one("#library-pane")
        paper_id = pane.library.resolve_paper("2212.11867")
        results.move_cursor(row=results.get_row_index(str(paper_id)))
        await pilot.pause()
        assert "Zeros of a growing number" in str(app.query_one("#paper-header", Static).render())
        sections = app.query_one("#paper-sections", DataTable)
        assert [str(sections.get_row_at(i)[1]) for i in range(sections.row_count)][:3] == [
            "(all references)",
            "Introduction",
            "Notation",
        ]
        references = app.query_one("#paper-references", DataTable)
        assert references.row_count == 17
        sections.move_cursor(row=1)
        await pilot.pause()
        assert references.row_count == 10
        assert any("doi:10.1090/tran/8674" in str(references.get_row_at(i)[1]) for i in range(references.row_count))
        # search (a bag-of-words embedder stands in for the model here; test_library_search uses the real one)
        app.query_one("#library-query", Input).value = "derivatives of random polynomials"
        await pilot.click("#search-button")
        await wait_for_workers(pilot)
        assert results.get_row_at(0)[0] == f"paper:{paper_id}"
        # the library's own papers only (cited works ranked first before), and a line on what else matches
        listed = [int(str(results.get_row_at(i)[0]).removeprefix("paper:")) for i in range(results.row_count)]
        sources = {row["source"] for row in pane.library.papers(listed).values()}
        assert sources == {"unarxive"}
        title = str(app.query_one("#results-title").render())
        assert "24 cited works also match: tick 'cited' to include them" in title, title
        await pilot.click("#library-cited")  # the box searches again, the works they cite included
        await wait_for_workers(pilot)
        listed = [int(str(results.get_row_at(i)[0]).removeprefix("paper:")) for i in range(results.row_count)]
        assert "reference" in {row["source"] for row in pane.library.papers(listed).values()}
        assert "cited works also match" not in str(app.query_one("#results-title").render())
        await pilot.click("#library-cited")
        await wait_for_workers(pilot)
        app.query_one("#library-before", Input).value = "2022-12-01"
        await pilot.click("#search-button")
        await wait_for_workers(pilot)
        dates = [str(results.get_row_at(i)[1]) for i in range(results.row_count)]
        assert dates and all(date < "2022-12-01" for date in dates)
        # export the papers listed as BibTeX, into exports/ in the data folder: the line says where and how many
        await pilot.click("#library-export")
        await pilot.pause()
        await pilot.click("#export-go")
        await pilot.pause()
        message = str(app.query_one("#import-message", Static).render())
        written = sorted((where.data_dir / "exports").glob("library-*.bib"))
        assert written and f"wrote {results.row_count} entries (BibTeX) to {written[-1]}" in message
        assert len(bibtexparser.parse_string(written[-1].read_text()).entries) == results.row_count


async def test_a_bad_file_says_why_and_changes_nothing(where, tmp_path, make_app):
    broken = fixture_path("bibtex", "broken.bib")
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        app.query_one("#import-path", Input).value = str(broken)
        await pilot.pause()
        assert app.query_one("#import-kind", Select).value == "bibtex"  # guessed from the name
        await _import(app, pilot, broken)
        message = str(app.query_one("#import-message", Static).render())
        # the broken entry is named with its line; the two good ones import
        assert "broken.bib line 7: @article{second" in message and "left out 1 records" in message
        assert "2 papers" in str(app.query_one("#library-counts", Static).render())
        truncated = tmp_path / "cut.jsonl"
        truncated.write_text('{"paper_id": "2212.00001", "metadata": {"title": "x"')
        app.query_one("#import-kind", Select).value = "unarxive"
        await _import(app, pilot, truncated)
        message = str(app.query_one("#import-message", Static).render())
        assert "cut.jsonl line 1" in message and "unchanged" in message
        assert "2 papers" in str(app.query_one("#library-counts", Static).render())
        await _import(app, pilot, tmp_path / "missing.jsonl")
        assert "no such file" in str(app.query_one("#import-message", Static).render())
        assert not app.query_one("#import-button").disabled


async def test_import_a_zotero_folder_and_counts_follow_changes_elsewhere(where, tmp_path, make_app):
    from scholar_tui.core.library.importer import run_import
    from scholar_tui.indexes.library import Library

    from .zotero_support import make_zotero

    folder = make_zotero(tmp_path / "Zotero")
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        app.query_one("#import-path", Input).value = ""
        app.query_one("#import-kind", Select).value = "zotero"
        await pilot.pause()
        assert app.query_one("#import-path", Input).value.endswith("Zotero")  # the usual folder, to edit
        await _import(app, pilot, folder)
        message = str(app.query_one("#import-message", Static).render())
        assert "read 4 Zotero items" in message and "4 new papers" in message
        assert "3 collections, 3 tags" in message
        assert "4 papers" in str(app.query_one("#library-counts", Static).render())
        assert app.query_one("#import-cancel").disabled  # Cancel is live only while an import runs
        other = Library.open(where)  # the CLI, or a PaSa crawl's connection, adds a paper
        run_import("bibtex", fixture_path("bibtex", "sample.bib"), other)
        other.close()
        app.post_message(LibraryChanged())
        await pilot.pause()
        # 4 new: the Michelen entry is the Zotero preprint (same arXiv id), one paper
        assert "7 papers" in str(app.query_one("#library-counts", Static).render())


async def test_enter_in_the_path_box_while_an_import_runs_starts_no_second_one(where, tmp_path, make_app):
    from .zotero_support import make_zotero

    folder = make_zotero(tmp_path / "Zotero")
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        pane = app.query_one("#import-path", Input)
        pane.value = str(folder)
        app.query_one("#import-button").disabled = True  # as while an import runs
        pane.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert not [worker for worker in app.workers if worker.group == "library-import"]


async def test_a_large_import_is_searchable_by_words_at_once_and_embedded_in_the_background(where, tmp_path, make_app):
    """Past BACKGROUND_FROM papers the import ends before the vectors are made; a search meanwhile says
    how many papers lack one, and the background worker embeds them all."""
    from scholar_tui.core.scale_library import generate
    from scholar_tui.indexes.library import Library
    from scholar_tui.indexes.library_search import LibraryIndex

    source = tmp_path / "large.jsonl"
    generate(300, source)
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        app.query_one("#import-kind", Select).value = "unarxive"
        await _import(app, pilot, source)
        message = str(app.query_one("#import-message", Static).render())  # the worker may have finished already
        # 300 papers and the 800 works they cite (made at import, as the CLI does)
        assert "vectors for 1100 papers are computed in the background" in message or "1100 papers embedded" in message
        await wait_for_workers(pilot)  # the background index the import started
        assert "search index: 1100 papers embedded" in str(app.query_one("#import-message", Static).render())
        pane = app.query_one("#library-pane")
        library = Library.open(where)
        with library.transaction():  # a change made elsewhere: one paper without a vector again
            library.conn.execute("update papers set abstract = 'Zeolite catalysis kinetics.' where id = 3")
        app.query_one("#library-query", Input).value = "zeolite catalysis kinetics"
        pane.run_search("zeolite catalysis kinetics", None)
        await wait_for_workers(pilot)
        results = app.query_one("#library-results", DataTable)
        assert results.get_row_at(0)[0] == "paper:3"
        assert LibraryIndex(where, None).coverage(library).level == 1100  # the search embedded the one left
        library.close()


async def test_cancel_during_the_cited_works_step_keeps_the_import(where, shared_data, make_app, monkeypatch):
    """The records are stored; Cancel is live while the works they cite are made (a long step at
    100 k papers) and stops it: the import stays, the line says the rest is left to Paper search."""
    import time

    from scholar_tui.core.library import importer
    from scholar_tui.core.pasa.works import prepare_imported

    def slow_step(library, paper_ids, should_stop=None):
        deadline = time.monotonic() + 20
        while should_stop is not None and not should_stop() and time.monotonic() < deadline:
            time.sleep(0.02)  # as if the step were long: it waits for the Cancel
        return prepare_imported(library, paper_ids, should_stop)

    monkeypatch.setattr(importer, "prepare_imported", slow_step)
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("f5")
        app.query_one("#import-path", Input).value = str(UNARXIVE)
        await pilot.click("#import-button")
        await wait_for(pilot, lambda: not app.query_one("#import-cancel").disabled)
        assert "making the works their bibliographies cite" in str(app.query_one("#import-message", Static).render())
        await pilot.click("#import-cancel")
        await wait_for_workers(pilot)
        message = str(app.query_one("#import-message", Static).render())
        assert "read 49 records" in message
        assert "cited: 0 works their bibliographies cite; cancelled, the rest are made by the first Paper search" in (
            message
        )
        assert "49 papers" in str(app.query_one("#library-counts", Static).render())
        assert app.query_one("#import-cancel").disabled


async def test_a_search_asks_only_whether_there_are_papers_before_it_starts(where, make_app):
    library = Library.open(where)
    with library.transaction():
        library.store_paper(PaperRecord(title="Analytical Engines for Bernoulli Numbers", source="test", date="1843"))
    library.close()
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f5")
        await wait_for_workers(pilot)
        statements: list[str] = []
        app.query_one(LibraryPane).library.conn.set_trace_callback(statements.append)  # the UI thread's
        app.query_one("#library-query", Input).value = "Bernoulli numbers"
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert app.query_one("#library-results", DataTable).row_count == 1
        # before: every table counted (sections, citations, …) on the UI thread, 0.1 s at 100 k papers
        counted = [statement for statement in statements if statement.startswith("select count(*) from ")]
        assert set(counted) <= {"select count(*) from papers"}, counted  # (m017 keeps the papers' count)


async def test_the_hits_are_shown_before_the_cited_works_are_counted(where, make_app, monkeypatch):
    from scholar_tui.indexes import search_changes

    library = Library.open(where)
    with library.transaction():
        library.store_paper(PaperRecord(title="Analytical Engines for Bernoulli Numbers", source="test", date="1843"))
        library.store_paper(
            PaperRecord(title="Bernoulli numbers in a bibliography", source=search_changes.CITED_WORK_SOURCE)
        )
    library.close()
    gate, counting = threading.Event(), threading.Event()
    real = search_changes.cited_matches

    def held(*args, **kwargs):
        counting.set()
        gate.wait(timeout=30)
        return real(*args, **kwargs)

    monkeypatch.setattr(search_changes, "cited_matches", held)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f5")
        await wait_for_workers(pilot)
        app.query_one("#library-query", Input).value = "Bernoulli numbers"
        await pilot.press("enter")
        await wait_for(pilot, counting.is_set)
        await pilot.pause(0.2)
        # before: the count ran inside the search: "Searching…" and the recent papers until it was done
        assert str(app.query_one("#results-title").render()) == "1 results for “Bernoulli numbers”"
        assert app.query_one("#library-results", DataTable).row_count == 1
        gate.set()
        await wait_for_workers(pilot)
        title = str(app.query_one("#results-title").render())
        assert title.startswith("1 results for “Bernoulli numbers”") and "1 cited works also match" in title
