"""The Paper search tab through Textual's Pilot: the crawl tree grows while the crawl runs."""

from __future__ import annotations

import asyncio
import json

from textual.widgets import Button, DataTable, Input, Static, Tree

from scholar_tui.app.panes.paper_search import PaperSearchPane
from scholar_tui.app.services import Services
from scholar_tui.app.tui import ScholarApp
from scholar_tui.core.config import load_settings

from .library_support import HashingEmbedder
from .pasa_support import GatedLLM, RoutedLLM, mini_library  # noqa: F401
from .pilot_support import wait_for


def make_app(where, llm):
    services = Services(where, load_settings(where), llm_factory=lambda settings, where: llm,
                        embedder_factory=lambda settings: HashingEmbedder())
    return ScholarApp(services, load_model_on_start=False)


def labels(node) -> list[str]:
    found = [str(node.label)]
    for child in node.children:
        found += labels(child)
    return found



async def test_the_tree_grows_while_the_crawl_runs(where, mini_library, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    llm = GatedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    app = make_app(where, llm)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.query_one(PaperSearchPane)
        tree = app.query_one("#pasa-tree", Tree)
        app.query_one("#pasa-query", Input).value = "Which papers study graph neural networks?"
        await pilot.click("#pasa-search")
        # Half-way: the search session ran and its papers are judged; the expand session is held.
        await wait_for(pilot, lambda: llm.waiting.is_set() and len(pane.verdicts) == len(pane.papers) > 0)
        await pilot.pause()
        search_node = tree.root.children[0]
        assert str(search_node.label) == "[Search] graph neural networks"
        first_papers = [str(child.label) for child in search_node.children]
        assert first_papers and all(label[0] in "✓✗" for label in first_papers)  # coloured verdicts
        assert any(label.startswith("✓ 1.00 Graph neural networks for molecule") for label in first_papers)
        assert not app.query_one("#pasa-cancel", Button).disabled  # still running
        assert pane.finished is None
        before = len(labels(tree.root))
        llm.gate.set()
        await wait_for(pilot, lambda: pane.finished is not None)
        await pilot.pause()
        # After: the GNN paper grew an [Expand] node with the papers its Related Work cites.
        after = labels(tree.root)
        assert len(after) > before
        gnn_node = next(child for child in search_node.children if "Graph neural networks for" in str(child.label))
        expand_node = gnn_node.children[0]
        assert str(expand_node.label).startswith("[Expand] 2 Related Work")
        assert any("Attention is all you need" in str(child.label) for child in expand_node.children)
        results = app.query_one("#pasa-results", DataTable)
        assert results.row_count == len(pane.verdicts) == len(pane.finished.queue)
        assert app.query_one("#pasa-cancel", Button).disabled
        # details on select: the first result row
        results.move_cursor(row=0)
        await pilot.pause()
        detail = str(app.query_one("#pasa-detail", Static).render())
        assert "Selector: True, P(True) = 1.00" in detail
        # export: BibTeX and JSON of the selected papers
        await pilot.click("#pasa-export-json")
        await pilot.pause()
        exported = json.loads((tmp_path / "pasa-results.json").read_text())
        assert exported["query"] == "Which papers study graph neural networks?"
        assert {paper["title"] for paper in exported["results"]} == {paper.title for paper in pane.finished.selected}
        await pilot.click("#pasa-export-bib")
        await pilot.pause()
        assert (tmp_path / "pasa-results.bib").read_text().count("@") == len(pane.finished.selected)
        # the arXiv link of the GNN paper is shown (no browser is opened on a headless test machine)
        monkeypatch.delenv("DISPLAY", raising=False)
        monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
        pane.show_paper(next(paper.paper_id for paper in pane.finished.results if paper.arxiv_id == "2206.00001"))
        await pilot.click("#pasa-open")
        await pilot.pause()
        assert "https://arxiv.org/abs/2206.00001" in str(app.query_one("#pasa-status", Static).render())


async def test_cancel_stops_the_crawl(where, mini_library):
    llm = GatedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    app = make_app(where, llm)
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


async def test_an_empty_query_asks_for_one(where, mini_library):
    app = make_app(where, RoutedLLM())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.click("#pasa-search")
        await pilot.pause()
        assert "Type a query first" in str(app.query_one("#pasa-status", Static).render())
        await asyncio.sleep(0)
