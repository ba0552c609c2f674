"""PaSa's first search over a library most of whose papers have no vector yet (issue #28): the
preparation embeds nothing (hours at 100 k papers), says how many lack one, and the crawl finds
them by their words; ``library index`` embeds them later."""

import re

import pytest

from scholar_tui.core.library.importer import run_import
from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
from scholar_tui.core.pasa.factory import prepare_library
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.core.scale_library import generate
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import INLINE_EMBED, IndexDeferred, IndexFinished

from .library_support import HashingEmbedder
from .pasa_support import RoutedLLM

PAPERS = 120


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    path = tmp_path_factory.mktemp("scale") / "library.jsonl"
    generate(PAPERS, path)
    return path


@pytest.fixture
def library(where, generated):
    """Imported without vectors, as `library import --no-index` or a large import leaves it."""
    library = Library.open(where)
    run_import("unarxive", generated, library)
    yield library
    library.close()


def lone_title(library: Library) -> tuple[int, str]:
    """A paper whose title no other paper has, and the title's words (a search that finds it)."""
    for paper_id, title in library.conn.execute("select id, title from papers where id > 10 order by id").fetchall():
        if library.conn.execute("select count(*) from papers where title = ?", (title,)).fetchone()[0] == 1:
            return paper_id, " ".join(re.findall(r"[A-Za-z]{3,}", title))
    raise AssertionError("no paper with a title of its own")


def test_preparation_embeds_nothing_when_many_papers_lack_vectors(where, library):
    embedder = HashingEmbedder()
    events = list(prepare_library(where, library, embedder))
    deferred = [event for event in events if isinstance(event, IndexDeferred)]
    assert embedder.texts == 0 and not any(isinstance(event, IndexFinished) for event in events)
    papers = library.conn.execute("select count(*) from papers").fetchone()[0]
    assert deferred[0].missing == papers > PAPERS  # cited works included
    assert "scholar-tui library index" in deferred[0].summary()


def test_a_few_papers_without_vectors_are_still_embedded_first(where, library):
    """The same rule as library search: a small import is embedded before the search."""
    list(prepare_library(where, library, HashingEmbedder()))
    embedder = HashingEmbedder()
    papers = library.conn.execute("select count(*) from papers").fetchone()[0]
    list(LibraryTools(where, library, embedder).index.sync_if_few(library, up_to=papers))
    assert embedder.texts == papers  # all embedded now
    kept = HashingEmbedder()
    events = list(prepare_library(where, library, kept))
    assert kept.texts == 0 and [type(event) for event in events[1:]][-1] is IndexFinished
    assert INLINE_EMBED < papers


def test_first_crawl_finds_papers_by_words_without_embedding_the_library(where, library):
    list(prepare_library(where, library, HashingEmbedder()))
    chosen, words = lone_title(library)
    embedder = HashingEmbedder()
    tools = LibraryTools(where, library, embedder, search_limit=5, plain_limit=5)

    result = tools.search(words, None)
    assert chosen in result.paper_ids and result.origin == "library"
    plain = tools.plain_search(words, None)
    hit = next(hit for hit in plain if hit.paper_id == chosen)
    assert hit.text_rank is not None and hit.vector_rank is None  # found by its words
    assert not tools.returned_whole_library(plain, None)  # counted in SQLite, not among the vectors

    llm = RoutedLLM(search=[f"[Search] {words} [Stop]"], relevant=lambda title: True)
    options = PaSaOptions(
        budgets=Budgets(max_actions=2, max_papers=20),
        query_mode="candidates",
        rationale="template",
        use_head=False,
        judge_limit=100,
    )
    events = list(PaSaEngine(llm, tools, options).run(words))
    found = {paper.paper_id for event in events if event.kind == "found" for paper in event.papers}
    assert chosen in found
    papers = library.conn.execute("select count(*) from papers").fetchone()[0]
    assert embedder.texts < papers // 4  # the query and the candidates, never the library


async def test_the_paper_search_tab_says_so_and_starts_the_background_index(where, library, make_app, monkeypatch):
    """The crawl starts at once; the Library tab's background index embeds the papers meanwhile."""
    from textual.widgets import Input

    from scholar_tui.app.panes.library import LibraryPane
    from scholar_tui.app.panes.paper_search import PaperSearchPane

    from .pilot_support import wait_for, wait_for_workers

    _, words = lone_title(library)
    embedder = HashingEmbedder()
    app = make_app(RoutedLLM(search=[f"[Search] {words} [Stop]"], relevant=lambda title: True), embedder)
    statuses: list[str] = []
    started: list[bool] = []  # the run itself is the Library tab's (tested with it): only its start here
    monkeypatch.setattr(LibraryPane, "run_index", lambda self: started.append(True))
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.query_one(PaperSearchPane)
        shown = pane.show_status
        pane.show_status = lambda text: (statuses.append(str(text)), shown(text))[1]
        app.query_one("#pasa-query", Input).value = words
        await pilot.click("#pasa-search")
        await wait_for(pilot, lambda: pane.finished is not None)
        await wait_for(pilot, lambda: started)  # the Library tab's background index was asked for
        await wait_for_workers(pilot)
        assert any("have no vector yet" in status and "library index" in status for status in statuses)
        assert pane.finished.queue  # the crawl ran by words
