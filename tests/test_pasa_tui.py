"""The Paper search tab through Textual's Pilot: the crawl tree grows while the crawl runs."""

from __future__ import annotations

import asyncio
import json
import re

import bibtexparser
import pytest
from textual.widgets import Button, DataTable, Input, Label, Select, Static, TextArea, Tree

from scholar_tui.app.panes.paper_search import PaperSearchPane
from scholar_tui.core.exports import gather
from scholar_tui.core.pasa.tools import LibraryTools

from .pasa_support import GatedLLM, RoutedLLM, write_p_true_head
from .pilot_support import (
    wait_for,
    wait_for_workers,
)

REAL_PLAIN_SEARCH = LibraryTools.plain_search


@pytest.fixture(autouse=True)
def crawl_tree_only(monkeypatch, where):
    """These tests watch the Crawler's own tree: the plain search (which in this small library holds
    every paper) is left out, and the Selector's head follows P(True) (see write_p_true_head)."""
    monkeypatch.setattr(LibraryTools, "plain_search", lambda self, query, before: [])
    write_p_true_head(where)


def labels(node) -> list[str]:
    found = [str(node.label)]
    for child in node.children:
        found += labels(child)
    return found


async def test_the_tree_grows_while_the_crawl_runs(where, mini_library, tmp_path, monkeypatch, make_app):
    monkeypatch.chdir(tmp_path)
    llm = GatedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.query_one(PaperSearchPane)
        tree = app.query_one("#pasa-tree", Tree)
        app.query_one("#pasa-query", Input).value = "Which papers study graph neural networks?"
        await pilot.click("#pasa-search")
        # Half-way: the search session ran and its papers are shown; the expand session is held.
        await wait_for(pilot, lambda: llm.waiting.is_set() and len(pane.papers) > 0)
        await pilot.pause()
        plain_node, search_node = tree.root.children[:2]
        assert str(plain_node.label).startswith("plain search")
        assert str(search_node.label) == "[Search] graph neural networks"
        first_papers = [str(child.label) for child in search_node.children]
        assert first_papers and all(label.startswith("… ") for label in first_papers)  # not judged yet
        assert not app.query_one("#pasa-cancel", Button).disabled  # still running
        assert pane.finished is None
        before = len(labels(tree.root))
        llm.gate.set()
        await wait_for(pilot, lambda: pane.finished is not None)
        await pilot.pause()
        # After: the GNN paper grew an [Expand] node with the papers its Related Work cites, and
        # every paper shows its score (✓: selected).
        assert any(
            str(child.label).startswith("✓ 0.99 Graph neural networks for molecule") for child in search_node.children
        )
        after = labels(tree.root)
        assert len(after) > before
        gnn_node = next(child for child in search_node.children if "Graph neural networks for" in str(child.label))
        expand_node = gnn_node.children[0]
        assert str(expand_node.label).startswith("[Expand] 2 Related Work")
        assert any("Attention is all you need" in str(child.label) for child in expand_node.children)
        results = app.query_one("#pasa-results", DataTable)
        assert results.row_count == len(pane.verdicts) == len(pane.finished.queue)
        assert results.get_row_at(0)[1:3] == ["0.99", "1.00"]  # score, P(True)
        assert app.query_one("#pasa-cancel", Button).disabled
        # details on select: the first result row
        results.move_cursor(row=0)
        await pilot.pause()
        detail = str(app.query_one("#pasa-detail", Static).render())
        assert "Selector: selected, score 0.99" in detail and "P(True) 1.00 · query match" in detail
        assert "(s)" not in detail and re.search(r"found by 1 action · |found by \d+ actions · ", detail), detail
        # export: BibTeX and CSL-JSON of the selected papers, into exports/ in the data folder by default
        app.query_one("#pasa-export-format", Select).value = "json"
        await pilot.click("#pasa-export")
        await pilot.pause()
        exported = sorted((where.data_dir / "exports").glob("paper-search-*.json"))
        assert {item["title"] for item in json.loads(exported[-1].read_text())} == {
            paper.title for paper in pane.finished.selected
        }
        assert str(exported[-1]) in str(app.query_one("#pasa-status", Static).render())
        app.query_one("#pasa-export-format", Select).value = "bib"
        app.query_one("#pasa-export-path", Input).value = str(tmp_path / "mine")
        await pilot.click("#pasa-export")
        await pilot.pause()
        written = bibtexparser.parse_string((tmp_path / "mine.bib").read_text())
        assert len(written.entries) == len(pane.finished.selected)
        assert f"wrote {len(pane.finished.selected)} entr" in str(app.query_one("#pasa-status", Static).render())
        with_authors = {
            reference.key
            for reference in gather(pane.library, [p.paper_id for p in pane.finished.selected])
            if reference.authors
        }
        assert {entry.key for entry in written.entries if "author" in entry.fields_dict} == with_authors
        assert not any(entry.key.startswith("anon") for entry in written.entries)
        # the arXiv link of the GNN paper is shown (no browser is opened on a headless test machine)
        monkeypatch.delenv("DISPLAY", raising=False)
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
        pane.show_paper(next(paper.paper_id for paper in pane.finished.results if paper.arxiv_id == "2206.00001"))
        await pilot.click("#pasa-open")
        await pilot.pause()
        assert "https://arxiv.org/abs/2206.00001" in str(app.query_one("#pasa-status", Static).render())


async def test_the_selectors_first_ranking_shows_while_the_crawl_goes_on(where, mini_library, monkeypatch, make_app):
    """#28: the plain search's first hits judged by the model are ranked in the results table while
    the crawl is held; the final ranking replaces it at the end."""
    # the plain search's first four hits: not the whole library, so the crawl goes on
    monkeypatch.setattr(
        LibraryTools, "plain_search", lambda self, query, before: REAL_PLAIN_SEARCH(self, query, before)[:4]
    )
    llm = GatedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.query_one(PaperSearchPane)
        app.query_one("#pasa-query", Input).value = "Which papers study graph neural networks?"
        await pilot.click("#pasa-search")
        await wait_for(pilot, lambda: llm.waiting.is_set())  # the crawl is held at its expand session
        await pilot.pause()
        title = str(app.query_one("#pasa-results-title", Label).render())
        assert "its first papers judged by the Selector; the crawl goes on" in title
        results = app.query_one("#pasa-results", DataTable)
        judged = [results.get_row_at(row)[2] for row in range(results.row_count)]
        assert results.row_count > 3 and sum(value != "-" for value in judged) == 3  # P(True) of the first three
        assert pane.finished is None and not app.query_one("#pasa-cancel", Button).disabled
        llm.gate.set()
        await wait_for(pilot, lambda: pane.finished is not None)
        await pilot.pause()
        assert "(crawl)" in str(app.query_one("#pasa-results-title", Label).render())
        assert results.row_count == len(pane.finished.results)


async def test_cancel_stops_the_crawl(where, mini_library, make_app):
    llm = GatedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.query_one(PaperSearchPane)
        app.query_one("#pasa-query", Input).value = "graph neural networks"
        await pilot.press("tab")
        app.query_one("#pasa-query", Input).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: llm.waiting.is_set())
        await pilot.click("#pasa-cancel")
        llm.gate.set()
        await wait_for(pilot, lambda: pane.finished is not None)
        await pilot.pause()
        assert pane.finished.cancelled and pane.finished.stop_reason == "cancelled"
        assert "[Expand]" not in " ".join(labels(app.query_one("#pasa-tree", Tree).root))
        assert str(app.query_one("#pasa-status", Static).render()).startswith("cancelled:")


async def test_an_empty_query_asks_for_one(where, mini_library, make_app):
    app = make_app(RoutedLLM())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.click("#pasa-search")
        await pilot.pause()
        assert "Type a query first" in str(app.query_one("#pasa-status", Static).render())
        await asyncio.sleep(0)


async def crawl(app, pilot, query: str = "Which papers study graph neural networks?"):
    """Type the query, start the crawl, wait for its end; the GNN paper's tree node."""
    pane = app.query_one(PaperSearchPane)
    app.query_one("#pasa-query", Input).value = query
    await pilot.click("#pasa-search")
    await wait_for(pilot, lambda: pane.finished is not None)
    await pilot.pause()
    search_node = app.query_one("#pasa-tree", Tree).root.children[1]
    return next(child for child in search_node.children if "Graph neural networks for" in str(child.label))


async def test_a_call_autofeedback_sent_back_shows_its_retry_and_its_loop(where, mini_library, make_app):
    # The search for graphs queues what the GNN paper's Introduction cites: expanding it adds
    # nothing, AutoFeedback says so, and the Crawler expands Related Work in its place.
    llm = RoutedLLM(
        search=["[Search] graph neural networks [Stop]"],
        expand=["[Expand] 1 Introduction [Stop]"],
        retry=["[Expand] 2 Related Work [Stop]"],
    )
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        gnn_node = await crawl(app, pilot)
        sent, retried = gnn_node.children[:2]
        assert str(sent.label).startswith("[Expand] 1 Introduction") and "AutoFeedback: retried" in str(sent.label)
        assert str(retried.label).startswith("↻ [Expand] 2 Related Work")
        assert any("Attention is all you need" in str(child.label) for child in retried.children)
        app.query_one("#pasa-tree", Tree).select_node(sent)
        await pilot.pause()
        detail = str(app.query_one("#pasa-detail", Static).render())
        assert "AutoFeedback loop" in detail and "E_NOTHING_NEW" in detail
        # the loops are the API debugger's too
        await pilot.press("f4")
        await pilot.pause()
        loops = app.query_one("#debugger-loops", DataTable)
        await wait_for(pilot, lambda: loops.row_count > 0)
        assert {str(loops.get_row_at(row)[2]) for row in range(loops.row_count)} == {"pasa"}


async def test_a_call_with_nothing_left_to_try_is_fixed_by_hand_in_the_debugger(where, mini_library, make_app):
    # The Crawler has no other section to offer (its retry names none): the loop runs out.
    llm = RoutedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 1 Introduction [Stop]"])
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        gnn_node = await crawl(app, pilot)
        sent = gnn_node.children[0]
        assert "AutoFeedback: loop waits for a person in the API debugger" in str(sent.label)
        await pilot.press("f4")
        await pilot.pause()
        await pilot.click("#debugger-limit-hit")
        loops = app.query_one("#debugger-loops", DataTable)
        await wait_for(pilot, lambda: loops.row_count == 1)
        loops.focus()
        loops.move_cursor(row=0)
        await pilot.press("enter")
        await pilot.pause()
        editor = app.query_one("#debugger-request", TextArea)
        assert "1 Introduction" in editor.text and editor.text.startswith("<<API>>expandSection(")
        editor.text = editor.text.replace("1 Introduction", "2 Related Work")  # the person's fix
        await pilot.press("ctrl+s")
        await wait_for_workers(pilot)
        response = str(app.query_one("#debugger-response", Static).render())
        assert "fixed_by_hand" in response and "Attention is all you need" in response


async def test_a_past_search_reopens_as_it_finished_after_a_restart(where, mini_library, make_app):
    """History that lasts: a new app recalls the last query with Up and reopens its ranking (no re-run)."""
    llm = GatedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    llm.gate.set()
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.query_one(PaperSearchPane)
        app.query_one("#pasa-query", Input).value = "Which papers study graph neural networks?"
        await pilot.click("#pasa-search")
        await wait_for(pilot, lambda: pane.finished is not None)
        await pilot.pause()
        first_run = [(paper.paper_id, paper.score, paper.selected) for paper in pane.finished.results]
        await pilot.press("ctrl+q")
    calls = len(llm.requests) if hasattr(llm, "requests") else None
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.query_one(PaperSearchPane)
        app.query_one("#pasa-query", Input).focus()
        await pilot.press("up")
        assert app.query_one("#pasa-query", Input).value == "Which papers study graph neural networks?"
        await pilot.click("#pasa-past")
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: pane.finished is not None)
        await pilot.pause()
        assert [(paper.paper_id, paper.score, paper.selected) for paper in pane.finished.results] == first_run
        assert app.query_one("#pasa-results", DataTable).row_count == len(first_run)
        assert not app.query_one("#pasa-export", Button).disabled
        if calls is not None:
            assert len(llm.requests) == calls  # nothing ran again
        await pilot.press("ctrl+q")


async def test_a_bad_date_clears_the_previous_search(where, mini_library, make_app):
    """After a bad date the old results header and the previous paper's details are gone."""
    llm = GatedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    llm.gate.set()
    app = make_app(llm)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.query_one(PaperSearchPane)
        app.query_one("#pasa-query", Input).value = "Which papers study graph neural networks?"
        await pilot.click("#pasa-search")
        await wait_for(pilot, lambda: pane.finished is not None)
        shown = pane.finished.results[0]
        pane.show_paper(shown.paper_id)
        await pilot.pause()
        assert shown.title in str(app.query_one("#pasa-detail", Static).render())
        assert "selected of" in str(app.query_one("#pasa-results-title").render())
        app.query_one("#pasa-date", Input).value = "31/12/2022"
        await pilot.click("#pasa-search")
        await wait_for(pilot, lambda: app.query_one("#pasa-cancel", Button).disabled)
        await pilot.pause()
        status = str(app.query_one("#pasa-status", Static).render())
        assert "date" in status.lower(), status
        assert "selected of" not in str(app.query_one("#pasa-results-title").render()), status
        assert shown.title not in str(app.query_one("#pasa-detail", Static).render())
        assert app.query_one("#pasa-results", DataTable).row_count == 0
        await pilot.press("ctrl+q")
