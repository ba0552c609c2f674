"""What a person sees in F1, F2 and F3 at everyday terminal sizes (the tmux check of #24, as tests):
the sentence saying nothing fits is read whole at 80 columns, a long conference answer leaves its
evidence on screen, Escape cancels the running request and the pane says so, and a picked
conference clears the "Pick a conference first." line."""

from __future__ import annotations

import threading

from textual.widgets import DataTable, Input, Label, Select, Static

from scholar_tui.app.panes.conference import ConferencePane
from scholar_tui.app.panes.paper_search import PaperSearchPane
from scholar_tui.app.panes.scholar_qa import ScholarQAPane
from scholar_tui.core.conference.describe import StructuralDescriber
from scholar_tui.core.conference.engine import ConferenceEngine
from scholar_tui.core.conference.events import Answered, EvidenceFound, EvidencePath
from scholar_tui.core.conference.tree import load_json_tree
from scholar_tui.core.pasa.events import CrawlFinished, RankedPaper, ScoreParts
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.core.soay.engine import SolutionChosen

from .library_support import HashingEmbedder, one_scholar_library
from .pasa_support import GatedLLM, write_p_true_head
from .pilot_support import wait_for, wait_for_workers
from .test_conference_tui import TINY
from .tui_screen import screenful

CLOSEST = [
    "Restoring rotational invariance for lattice QCD propagators",
    "From stripe to checkerboard order in the Hubbard model on the square lattice",
    "Smooth Kuranishi atlases with isotropy in symplectic geometry",
]


def unselected(rank: int, title: str) -> RankedPaper:
    parts = ScoreParts(0.8, 0.1, 0.2, 0.0, "", rank, 1, 0, 1)
    return RankedPaper(rank, title, 0.5 / rank, False, parts, "not selected", 1)


def shown_in(app, widget) -> str:
    """The words on screen inside ``widget``'s region, with the line breaks and padding taken out."""
    region = widget.region
    rows = screenful(app).text.splitlines()[region.y : region.y + region.height]
    return " ".join(" ".join(row[region.x : region.x + region.width].split()) for row in rows)


async def test_the_nothing_fits_sentence_is_read_whole_at_80_columns(where, make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = app.query_one(PaperSearchPane)
        finished = CrawlFinished(
            [unselected(n, t) for n, t in enumerate(CLOSEST, 1)], [1, 2, 3], "time budget", 2, 6, 30.0
        )
        pane.show_event(finished)
        await pilot.pause()
        heading = app.query_one("#pasa-results-title", Label)
        # before: one line cut at the pane's edge, in the middle of the first title
        assert " ".join(finished.nothing_fits.split()) in shown_in(app, heading)


async def test_escape_cancels_the_crawl_and_the_pane_says_so(where, mini_library, make_app, monkeypatch):
    # as test_pasa_tui's cancel test: the Crawler's own tree only, caught at its expand session
    monkeypatch.setattr(LibraryTools, "plain_search", lambda self, query, before: [])
    write_p_true_head(where)
    llm = GatedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    app = make_app(llm)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.query_one(PaperSearchPane)
        app.query_one("#pasa-query", Input).value = "graph neural networks"
        app.query_one("#pasa-query", Input).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: llm.waiting.is_set())
        await pilot.press("escape")  # the focus is still in the query box
        llm.gate.set()
        await wait_for(pilot, lambda: pane.finished is not None)
        await pilot.pause()
        assert pane.finished.cancelled
        assert str(app.query_one("#pasa-status", Static).render()).startswith("cancelled:")


async def test_escape_cancels_a_scholar_question_and_the_answer_says_so(where, make_app):
    one_scholar_library(where)
    gate, waiting = threading.Event(), threading.Event()

    def slow_embedder(settings):  # the engine's first load: held until the test has pressed Escape
        waiting.set()
        gate.wait(timeout=30)
        return HashingEmbedder()

    app = make_app(embedder_factory=slow_embedder)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        pane = app.query_one(ScholarQAPane)
        await pilot.press(*"Who did Ada Lovelace work with?")
        await pilot.press("enter")
        await wait_for(pilot, waiting.is_set)
        await pilot.press("escape")
        gate.set()
        await wait_for(pilot, lambda: len(pane.history) == 1)
        await pilot.pause()
        assert pane.history[0]["error_stage"] == "cancelled"
        assert "the question was cancelled" in str(app.query_one("#qa-answer", Static).render())
        assert not app.query_one("#qa-ask").disabled  # ready for the next question


async def test_the_candidate_plans_wrap_between_steps_at_80_columns(where, make_app):
    key = "searchPerson|getPersonPubs:one|getPublication:each|authors.organization|value|topic"
    chosen = SolutionChosen(
        "venue", ["searchPerson", "getPersonPubs", "getPublication"], 3, "rules", [(key, 8.75), (key + "s", 6.25)]
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        app.query_one(ScholarQAPane).show_event(chosen)
        await pilot.pause()
        shown = shown_in(app, app.query_one("#qa-solution", Static)).split()
        # before: the keys ran on unbroken and were cut inside a word at the view's edge
        assert all(step in shown for step in key.split("|")), shown
        assert "8.75" in shown and "6.25" in shown


class GatedEmbedder(HashingEmbedder):
    """Holds the embedding of a question naming GATE until ``gate`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.gate, self.waiting = threading.Event(), threading.Event()

    def embed(self, texts):
        if any("GATE" in text for text in texts):
            self.waiting.set()
            self.gate.wait(timeout=30)
        return super().embed(texts)


async def test_escape_cancels_a_conference_question_and_the_answer_says_so(where, make_app):
    embedder = GatedEmbedder()
    list(ConferenceEngine(where, embedder).build(load_json_tree(TINY), "tiny", StructuralDescriber()))
    app = make_app(embedder=embedder)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        await wait_for_workers(pilot)
        await pilot.press(*"When does GATE open?")
        await pilot.press("enter")
        await wait_for(pilot, embedder.waiting.is_set)
        await pilot.press("escape")
        embedder.gate.set()
        await wait_for_workers(pilot)
        answer = str(app.query_one("#conf-answer", Static).render())
        assert answer.startswith("Cancelled: the question was not answered")
        assert app.query_one("#conf-evidence", DataTable).row_count == 5  # what was found stays


def long_answer() -> Answered:
    evidence = [
        EvidencePath(rank, rank, f"ICML2023»Workshops»workshop {rank}", "w", f"workshop {rank}", 0.03)
        for rank in range(1, 6)
    ]
    workshops = ", ".join(f"Workshop number {n} on a long topic of machine learning" for n in range(40))
    return Answered("Which workshops?", "ICML2023", "star", evidence, workshops, "list", [1])


def on_screen(app, widget) -> bool:
    return widget.region.height > 0 and widget.region.bottom <= app.screen.region.bottom - 2  # bar, footer


async def test_a_long_conference_answer_leaves_its_evidence_on_screen(where, make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        await wait_for_workers(pilot)
        app.query_one(ConferencePane).show_event(long_answer())
        await pilot.pause()
        # before: the answer grew to the bottom of the screen and pushed the evidence off it
        assert on_screen(app, app.query_one("#conf-evidence", DataTable))
        assert "ICML2023»Workshops»workshop 1" in screenful(app).text


async def test_at_80_by_24_a_long_answer_scrolls_in_its_box_and_the_evidence_below(where, make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await wait_for_workers(pilot)
        app.query_one(ConferencePane).show_event(long_answer())
        await pilot.pause()
        box = app.query_one("#conf-answer-box")
        assert on_screen(app, box) and box.max_scroll_y > 0  # its end is a scroll away, not cut off
        app.query_one("#conf-main").scroll_end(animate=False)  # the column scrolls to the evidence
        await pilot.pause()
        assert on_screen(app, app.query_one("#conf-evidence", DataTable))
        assert "ICML2023»Workshops»workshop 1" in screenful(app).text


async def test_what_a_long_conference_answer_cites_stays_on_screen(where, make_app):
    for size in ((80, 24), (120, 40)):
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await pilot.press("f3")
            await wait_for_workers(pilot)
            pane = app.query_one(ConferencePane)
            pane.show_event(long_answer())
            await pilot.pause()
            # before: "cites [1]" ended the 40 workshops, a scroll away inside the answer's box
            assert "cites [1]" in screenful(app).text, size
            pane.show_event(EvidenceFound("Which workshops?", "ICML2023", "star", long_answer().evidence))
            await pilot.pause()  # the next question's evidence: the old answer's citation is gone
            assert "cites [1]" not in screenful(app).text, size


async def test_picking_a_conference_clears_the_pick_one_line(where, make_app):
    list(ConferenceEngine(where, HashingEmbedder()).build(load_json_tree(TINY), "tiny", StructuralDescriber()))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f3")
        await wait_for_workers(pilot)
        select = app.query_one("#conf-select", Select)
        select.clear()  # a person chose the blank "Pick a conference" line
        await pilot.pause()
        await pilot.click("#conf-question")
        await pilot.press(*"When?", "enter")
        await pilot.pause()
        assert "Pick a conference first." in str(app.query_one("#conf-status", Static).render())
        select.value = "TINY2024"
        await wait_for_workers(pilot)
        assert "Pick a conference" not in str(app.query_one("#conf-status", Static).render())
