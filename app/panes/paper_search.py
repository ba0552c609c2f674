"""The Paper search tab: PaSa's crawl tree growing live, the Selector's ranking, export.

Left: the crawl tree — the query → the plain search and the Crawler's [Search] actions → papers
→ [Expand]ed sections → papers — each paper marked once the Selector's model judged it (P(True)).
Right: the engine's ranking (score, P(True), query match, citation context), the details of
whatever is selected (the score's parts, the citing sentence, the rationale), export (BibTeX,
JSON) and the paper's link. The pane only renders: the engine ranks and builds the URLs. On the
paper shown, `o` opens its PDF (or its link) and `c` copies its BibTeX (core.library.reading); its
abstract's LaTeX shows as Unicode.

The crawl runs in a Textual thread worker with its own SQLite connection; it iterates the
engine's event generator and reports every event to the pane (``app/panes/workers.py``), so the
plain search's papers show first and the tree grows while the worker runs. Cancel sets the run's
``threading.Event`` (``CancelToken``): the engine stops between steps and reports what it found so far.
"""

from __future__ import annotations

import os
import sys
import webbrowser

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, DataTable, Input, Label, Select, Static, Tree
from textual.widgets.tree import TreeNode

from scholar_tui.app.messages import LibraryChanged, VectorsWanted
from scholar_tui.app.panes.workers import Note, ReportsEngine, engine_worker
from scholar_tui.app.widgets.fitted_table import FittedTable
from scholar_tui.app.widgets.history_input import HistoryInput
from scholar_tui.app.widgets.markup import assemble, plain, visible
from scholar_tui.app.widgets.past_runs import PastRunsScreen
from scholar_tui.core import history as kept
from scholar_tui.core.events import counted
from scholar_tui.core.library.reading import abstract_text, bibtex_entry, open_paper, system_launcher
from scholar_tui.core.pasa.events import CallFeedback, CrawlFinished, RankedPaper
from scholar_tui.indexes.library import Library
from scholar_tui.models.base import CancelToken

MAX_LABEL = 70
EXPORT_FORMATS = [("BibTeX", "bib"), ("RIS", "ris"), ("CSL-JSON", "json"), ("Markdown", "md")]
RESULT_COLUMNS = (
    ("#", "rank by score"),
    ("score", "the Selector's calibrated probability that the paper answers the query"),
    ("P(True)", "the Selector model's own probability of answering True (one input of the score)"),
    ("query", "how well the title and abstract match the query: meaning (dense) / words"),
    ("context", "how well the sentence that cites the paper matches the query (- : not cited)"),
    ("", "✓ selected (the expected-F1 cut)"),
    ("title", "the full title and the score's parts are in the details below"),
)
LEGEND = (
    "score: chance it answers the query · P(True): the model's yes · query: meaning/words match · "
    "context: citing-sentence match · ✓ selected"
)
NO_RESULTS = "Results (by score)"
STAGE_TITLES = {  # what the results table holds at each ranking of a run (the final one: "crawl")
    "plain": "plain search, before the crawl",
    "early": "plain search, its first papers judged by the Selector; the crawl goes on",
}
NO_DETAIL = "Select a paper in the tree or the results to read it here."


def _short(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _retry_mark(event) -> tuple[str, str]:
    return ("↻ ", "yellow") if event.retry_of is not None else ("", "")


def _feedback_text(feedback) -> Text:
    """The rounds of a call's AutoFeedback loop, for the detail view."""
    if feedback is None:
        return Text()
    text = plain(f"\n\nAutoFeedback loop {feedback.loop_id}: {feedback.status}", "bold")
    for round_ in feedback.rounds:  # the model's request and the API's answer: plain text
        text.append_text(
            plain(
                f"\n {round_.round}. {round_.stage} · {round_.request}\n    {round_.summary()}",
                "" if round_.ok else "yellow",
            )
        )
    return text


def _can_open_browser() -> bool:
    """A graphical browser only: a text browser would take over the terminal the app runs in."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class PaperSearchPane(ReportsEngine, Vertical):
    BINDINGS = [
        Binding(
            "o",
            "open_paper",
            "Open PDF/link",
            id="search.open",
            tooltip="Open the paper shown in the system's PDF viewer, or its page in the browser",
        ),
        Binding(
            "c",
            "copy_bibtex",
            "Copy BibTeX",
            id="search.copy-bibtex",
            tooltip="Copy the citation of the paper shown as BibTeX",
        ),
        Binding("escape", "cancel_search", "Cancel the search", show=False),  # as the Cancel button
    ]
    launcher = staticmethod(system_launcher)  # what `o` hands a PDF or URL to; tests record instead

    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.library: Library | None = None
        self.cancel_token: CancelToken | None = None
        self.nodes: dict[int, TreeNode] = {}
        self.verdicts: dict[int, object] = {}  # paper id -> Verdict
        self.papers: dict[int, object] = {}  # paper id -> FoundPaper
        self.ranked: dict[int, RankedPaper] = {}  # the engine's latest ranking, by paper id
        self.finished: CrawlFinished | None = None
        self.query_text = ""
        self.date: str | None = None
        self.selected_paper: int | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="pasa-query-row"):
            yield HistoryInput(
                placeholder="Ask for papers, e.g. Which papers study zeros of random polynomials?", id="pasa-query"
            )
            yield Input(placeholder="before YYYY-MM-DD", id="pasa-date")
            yield Button("Search", id="pasa-search", variant="primary")
            yield Button("Cancel", id="pasa-cancel", variant="error", disabled=True)
            yield Button(
                "History", id="pasa-past", tooltip="Past searches (kept across sessions): reopen one as it was"
            )
        yield Static(
            "PaSa: the plain search's papers first, then the Crawler's searches and expansions; "
            "the Selector scores each paper from P(True), the query match and the citation context.",
            id="pasa-status",
            markup=False,
        )
        with Horizontal(id="pasa-body"):
            with Vertical(id="pasa-tree-box"):
                yield Label("Crawl", classes="section-title")
                yield Tree("(no search yet)", id="pasa-tree")
            with Vertical(id="pasa-side"):
                yield Label(NO_RESULTS, classes="section-title", id="pasa-results-title")
                yield FittedTable(id="pasa-results", cursor_type="row", zebra_stripes=True)
                yield Static(LEGEND, id="pasa-legend", classes="legend", markup=False)
                with VerticalScroll(id="pasa-detail-box"):
                    yield Static(NO_DETAIL, id="pasa-detail", markup=False)
                with Horizontal(id="pasa-export-row"):
                    yield Input(placeholder="export file (default: exports/ in the data folder)", id="pasa-export-path")
                    yield Select(EXPORT_FORMATS, value="bib", allow_blank=False, id="pasa-export-format")
                    yield Button(
                        "Export",
                        id="pasa-export",
                        disabled=True,
                        tooltip="The selected papers (or all, when none is selected) in the chosen format",
                    )
                    yield Button("arXiv", id="pasa-open", disabled=True)

    def on_mount(self) -> None:
        self.library = Library.open(self.services.where)
        table = self.query_one("#pasa-results", DataTable)
        for name, _meaning in RESULT_COLUMNS:
            table.add_column(name, key=name or "selected")
        table.tooltip = "\n".join(f"{name or '✓'}: {meaning}" for name, meaning in RESULT_COLUMNS)
        self.query_one("#pasa-tree", Tree).show_root = True
        self.query_one("#pasa-query", HistoryInput).set_past(kept.inputs(self.services.where, "paper-search"))

    def on_unmount(self) -> None:
        if self.cancel_token is not None:
            self.cancel_token.cancel()
        if self.library is not None:
            self.library.close()

    # -- running ---------------------------------------------------------------------------------
    @on(Input.Submitted, "#pasa-query")
    @on(Input.Submitted, "#pasa-date")
    @on(Button.Pressed, "#pasa-search")
    def start_search(self) -> None:
        query = self.query_one("#pasa-query", Input).value.strip()
        date = self.query_one("#pasa-date", Input).value.strip() or None
        if not query:
            self._status("Type a query first.", "yellow")
            return
        if self.cancel_token is not None:  # a crawl is running: stop it before the next one
            self.cancel_token.cancel()
        self.query_text, self.date = query, date
        self.nodes.clear()
        self.verdicts.clear()
        self.papers.clear()
        self.ranked.clear()
        self.finished = None
        self.selected_paper = None
        tree = self.query_one("#pasa-tree", Tree)
        tree.clear()
        tree.root.set_label(plain(_short(query, 90), "bold"))
        tree.root.data = {"kind": "query"}
        tree.root.expand()
        self.nodes[0] = tree.root
        self._clear_results()
        self.query_one("#pasa-query", HistoryInput).remember(query)
        self.query_one("#pasa-cancel", Button).disabled = False
        self.cancel_token = CancelToken()
        self._status("preparing the library and loading the model…")
        self.run_crawl(query, date, self.cancel_token)

    @on(Button.Pressed, "#pasa-cancel")
    def action_cancel_search(self) -> None:
        if self.cancel_token is not None:
            self.cancel_token.cancel()
            self._status("cancelling: the crawl stops after the current step…")

    @engine_worker("paper-search")
    def run_crawl(self, query: str, date: str | None, cancel: CancelToken) -> None:
        from scholar_tui.core.pasa.factory import EmptyLibrary, open_pasa
        from scholar_tui.core.pasa.works import CitedWorks
        from scholar_tui.indexes.library_search import IndexDeferred, IndexFinished, IndexProgress

        def preparing(event) -> None:
            if isinstance(event, CitedWorks) and event.linked:
                self.report(Note(f"library: {event.summary()}"))
            elif isinstance(event, IndexProgress) and event.total:
                self.report(Note(f"embedding papers for search: {event.done}/{event.total}"))
            elif isinstance(event, IndexFinished) and event.embedded:
                self.report(Note(f"{event.embedded} papers embedded in {event.seconds:.1f} s"))
            elif isinstance(event, IndexDeferred):  # the crawl goes on by words; the Library tab embeds them
                self.report(Note(f"library: {event.summary()}", "yellow"))
                self.post_message(VectorsWanted())

        try:
            with open_pasa(self.services, on_progress=preparing) as agent:  # this thread's own library connection
                run = agent.run(query, date=date, cancel=cancel)
                for event in kept.remembered(self.services.where, "paper-search", query, run, {"date": date}):
                    self.report(event)
        except EmptyLibrary as error:  # not a failure: the tab says how to fill the library
            self.report(Note(str(error), "yellow", kind="stopped"))

    # -- events -> tree --------------------------------------------------------------------------
    def _status(self, text: str, style: str = "") -> None:
        # Plain text, never markup, control characters visible: model output such as
        # "[Expand] 2 Related Work" must show as written, an ESC in it must not reach the terminal.
        self.show_status(plain(text, style))

    def show_status(self, text: Text) -> None:
        self.query_one("#pasa-status", Static).update(text)

    def show_failure(self, worker: str, line: Text) -> None:
        """The run ended before the engine's last event (a bad date, no model, a locked file): say why,
        free Cancel."""
        self.show_status(line)
        self.query_one("#pasa-cancel", Button).disabled = True
        self.cancel_token = None
        if not self.query_one("#pasa-results", DataTable).row_count:  # no "0 selected of 0" for a failed run
            self.query_one("#pasa-results-title", Label).update(NO_RESULTS)

    def _on_stopped(self, note: Note) -> None:
        """An empty library: the run stops before any model loads, and the line says what to do."""
        self.show_failure("run_crawl", plain(note.text, note.style))

    def _on_search(self, event) -> None:
        parent = self.nodes.get(event.parent, self.query_one("#pasa-tree", Tree).root)
        label = (
            assemble(("plain search ", "bold green"), "(the query as written)")
            if event.plain
            else assemble(_retry_mark(event), ("[Search] ", "bold cyan"), event.query)
        )
        node = parent.add(label, data={"kind": "search", "query": event.query}, expand=not event.plain)
        self.nodes[event.node] = node

    def _on_expand(self, event) -> None:
        parent = self.nodes.get(event.parent)
        if parent is None:
            return
        node = parent.add(
            assemble(_retry_mark(event), ("[Expand] ", "bold magenta"), event.section),
            data={"kind": "section", "paper_id": event.paper_id, "section": event.section},
            expand=True,
        )
        parent.allow_expand = True
        parent.expand()
        self.nodes[event.node] = node

    def _on_feedback_finished(self, event: CallFeedback) -> None:
        """A call AutoFeedback sent back: say why on its node; the retries follow as siblings."""
        node = self.nodes.get(event.node)
        if node is None or not event.retried:
            return
        node.data = {**(node.data or {}), "feedback": event}
        style = "bold red" if event.status == "limit_hit" else "yellow"
        note = "loop waits for a person in the API debugger" if event.status == "limit_hit" else "retried"
        node.set_label(assemble(node.label, (f"  AutoFeedback: {note}", style)))
        self._status(event.summary(), "yellow")

    def _on_found(self, event) -> None:
        parent = self.nodes.get(event.parent)
        if parent is None:
            return
        for paper in event.papers:
            self.papers[paper.paper_id] = paper
            label = assemble(("… ", "dim"), _short(paper.title), (f"  {paper.date or ''}", "dim"))
            self.nodes[paper.node] = parent.add(
                label, data={"kind": "paper", "paper_id": paper.paper_id}, allow_expand=False
            )
        if event.duplicates or event.over_budget:
            note = f"{event.duplicates} already queued" + (
                f", {event.over_budget} over budget" if event.over_budget else ""
            )
            parent.set_label(assemble(parent.label, (f"  ({note})", "dim")))

    def _on_verdict(self, event) -> None:
        self.verdicts[event.paper_id] = event
        node = self.nodes.get(event.node)
        paper = self.papers.get(event.paper_id)
        if node is not None and paper is not None:
            node.set_label(
                assemble((f"{event.probability:.2f} ", "cyan"), _short(paper.title), (f"  {paper.date or ''}", "dim"))
            )
        self._status(f"Selector: {event.summary()} ({len(self.verdicts)} judged)")

    def _on_notice(self, event) -> None:
        self._status(event.message, "yellow")

    def _on_ranking(self, event) -> None:
        self.ranked = {paper.paper_id: paper for paper in event.results}
        self._fill_results(event.results, event.stage)
        if event.stage == "judged":  # every paper's node shows its score, ✓ when selected
            for paper in event.results:
                found = self.papers.get(paper.paper_id)
                node = self.nodes.get(found.node) if found is not None else None
                if node is not None:
                    style = "bold green" if paper.selected else "red"
                    node.set_label(
                        assemble(
                            (f"{'✓' if paper.selected else '✗'} {paper.score:.2f} ", style),
                            _short(paper.title),
                            (f"  {paper.date or ''}", "dim"),
                        )
                    )
        if event.stage == "plain":
            self._status(
                f"{len(event.results)} papers from the plain search, ranked ({event.seconds:.1f} s); "
                "the Selector is judging the first of them…"
            )
        elif event.interim:
            self._status(
                f"ranked with the Selector's first {event.judged} of {counted(event.judging, 'verdict')} "
                f"({event.seconds:.1f} s); "
                "the Crawler is searching and expanding, the final ranking comes at its end…"
            )

    def _on_finished(self, event: CrawlFinished) -> None:
        self.finished = event
        self.ranked = {paper.paper_id: paper for paper in event.results}
        self._fill_results(event.results, "judged")
        self.query_one("#pasa-cancel", Button).disabled = True
        self.cancel_token = None
        self.query_one("#pasa-export", Button).disabled = not event.results
        self._status(event.summary())
        if event.library_added:
            self.post_message(LibraryChanged())
        if event.nothing_fits:  # said plainly; the table's papers are the closest, none selected
            self.query_one("#pasa-results-title", Label).update(plain(event.nothing_fits, "bold yellow"))

    def _fill_results(self, results: list[RankedPaper], stage: str) -> None:
        table = self.query_one("#pasa-results", DataTable)
        table.clear()
        for rank, paper in enumerate(results, start=1):
            mark = Text("✓", style="bold green") if paper.selected else Text("·", style="dim")
            parts = paper.parts
            table.add_row(
                str(rank),
                f"{paper.score:.2f}",
                "-" if parts.p_true is None else f"{parts.p_true:.2f}",
                f"{parts.query_dense:.2f}/{parts.query_lexical:.2f}",
                f"{parts.citation_context:.2f}" if parts.citing_sentence else "-",
                mark,
                Text(visible(paper.title), no_wrap=True, overflow="ellipsis"),
                key=str(paper.paper_id),
            )
        selected = sum(paper.selected for paper in results)
        where = STAGE_TITLES.get(stage, "crawl")
        self.query_one("#pasa-results-title", Label).update(
            f"Results by score ({where}): {selected} selected of {len(results)}"
        )

    def _clear_results(self) -> None:
        """A new search (or one that fails at once, on a bad date) leaves nothing of the previous one."""
        self.query_one("#pasa-results", DataTable).clear()
        self.query_one("#pasa-results-title", Label).update(NO_RESULTS)
        self._detail(Text(NO_DETAIL))
        self.selected_paper = None
        for button in ("#pasa-export", "#pasa-open"):
            self.query_one(button, Button).disabled = True

    # -- details -----------------------------------------------------------------------------------
    @on(Tree.NodeHighlighted, "#pasa-tree")
    @on(Tree.NodeSelected, "#pasa-tree")
    def _node_chosen(self, event) -> None:
        data = event.node.data or {}
        if data.get("kind") == "paper":
            self.show_paper(data["paper_id"])
        elif data.get("kind") == "search":
            self._detail(
                assemble(
                    ("[Search] ", "bold"),
                    data["query"],
                    f"\n{len(event.node.children)} new papers queued by this search.",
                    _feedback_text(data.get("feedback")),
                )
            )
        elif data.get("kind") == "section":
            self._detail(
                assemble(
                    ("[Expand] ", "bold"),
                    data["section"],
                    f" of paper:{data['paper_id']}\n{len(event.node.children)} cited papers queued.",
                    _feedback_text(data.get("feedback")),
                )
            )

    @on(DataTable.RowHighlighted, "#pasa-results")
    @on(DataTable.RowSelected, "#pasa-results")
    def _row_chosen(self, event) -> None:
        if event.row_key is not None and event.row_key.value:
            self.show_paper(int(event.row_key.value))

    def _detail(self, text: Text) -> None:
        self.query_one("#pasa-detail", Static).update(text)

    def paper_url(self, paper_id: int) -> str | None:
        ranked = self.ranked.get(paper_id)
        return ranked.url if ranked is not None else None

    def show_paper(self, paper_id: int) -> None:
        row = self.library.paper(paper_id) if self.library else None
        if row is None:
            return
        self.selected_paper = paper_id
        ranked = self.ranked.get(paper_id)
        found = self.papers.get(paper_id)
        authors = ", ".join(self.library.paper_author_names(paper_id))
        parts: list = [(row["title"], "bold"), "\n"]
        if authors:
            parts += [authors, "\n"]
        ids = " · ".join(
            f"{label} {row[key]}"
            for label, key in (("arXiv", "arxiv_id"), ("doi", "doi"), ("OpenAlex", "openalex_id"))
            if row[key]
        )
        parts.append(
            (
                f"paper:{paper_id} · {row['date'] or 'date unknown'} · {row['source']}"
                f"{' · ' + ids if ids else ''}{f' · depth {found.depth}' if found else ''}\n",
                "dim",
            )
        )
        if ranked is not None:
            score = ranked.parts
            colour = "green" if ranked.selected else "red"
            p_true = "not asked" if score.p_true is None else f"{score.p_true:.2f}"
            parts += [
                (f"Selector: {'selected' if ranked.selected else 'not selected'}, score {ranked.score:.2f}\n", colour),
                f"  P(True) {p_true} · query match {score.query_dense:.2f} (dense) / {score.query_lexical:.2f} (words)"
                f" · citation context {score.citation_context:.2f}"
                f" · pool coherence {score.pool_coherence:.2f}\n",
                f"  plain-search rank {score.plain_rank or '-'} · found by {counted(score.found_by, 'action')} · "
                f"cited by {counted(score.cited_by_pool, 'pool paper')} · depth {score.depth}\n",
            ]
            if score.citing_sentence:
                parts += [("  cited as: ", "bold"), f"“{score.citing_sentence}”\n"]
            parts += [(f"{ranked.rationale}\n", "italic")]
        url = self.paper_url(paper_id)
        if url:
            parts += [(url, "underline"), "\n"]
        if row["abstract"]:
            parts += ["\n", abstract_text(row["abstract"])]
        self._detail(assemble(*parts))  # the library's text and the model's: plain, controls visible
        self.query_one("#pasa-open", Button).disabled = url is None

    # -- export and links ------------------------------------------------------------------------------
    def results(self) -> list[RankedPaper]:
        if self.finished is not None:
            return self.finished.selected or self.finished.results
        return []

    @on(Button.Pressed, "#pasa-export")
    def export(self) -> None:
        """The selected papers through core/exports.py, to the chosen file or exports/ in the data folder."""
        from scholar_tui.core.exports import (
            ExportError,
            export_markdown,
            export_papers,
            export_path,
            gather,
            search_markdown,
        )

        ranked = self.results()
        fmt = str(self.query_one("#pasa-export-format", Select).value)
        path = export_path(self.services.where, self.query_one("#pasa-export-path", Input).value, "paper-search", fmt)
        try:
            references = gather(self.library, [paper.paper_id for paper in ranked])
            written = (
                export_markdown(path, search_markdown(self.query_text, self.date, ranked, references), references)
                if fmt == "md"
                else export_papers(path, fmt, references)
            )
        except ExportError as error:
            self._status(str(error), "red")
            return
        self._status(written.summary())

    # -- past searches ---------------------------------------------------------------------------------
    @on(Button.Pressed, "#pasa-past")
    def choose_past(self) -> None:
        entries = kept.entries(self.services.where, "paper-search", limit=200)
        if not entries:
            self._status("No past searches yet: each search is kept here once it finishes.", "yellow")
            return
        self.app.push_screen(PastRunsScreen("Past searches", entries), self.reopen)

    def reopen(self, entry_id: int | None) -> None:
        """A kept search as it finished: its ranking, details and export, without running anything."""
        entry = kept.entry(self.services.where, entry_id) if entry_id is not None else None
        if entry is None or not entry["result"]:
            return
        if self.cancel_token is not None:
            self.cancel_token.cancel()
        finished = kept.paper_search_replay(entry["result"])
        self.query_text, self.date = entry["text"], entry["context"].get("date")
        self.query_one("#pasa-query", Input).value = self.query_text
        self.query_one("#pasa-date", Input).value = self.date or ""
        self.nodes.clear()
        self.verdicts.clear()
        self.papers.clear()
        self._clear_results()
        self._replay_tree(finished)
        self._on_finished(finished)
        self._status(f"reopened from {entry['created_at'][:16].replace('T', ' ')}: {finished.summary()}")

    def _replay_tree(self, finished: CrawlFinished) -> None:
        """The kept ranking as a tree: the query → how each paper was found → the papers."""
        tree = self.query_one("#pasa-tree", Tree)
        tree.clear()
        tree.root.set_label(Text(_short(self.query_text, 90), style="bold"))
        tree.root.data = {"kind": "query"}
        groups: dict[str, TreeNode] = {}
        for paper in finished.results:
            origin = paper.found_by or "found"
            if origin not in groups:
                groups[origin] = tree.root.add(plain(origin, "bold"), data={"kind": "origin"}, expand=True)
            style = "bold green" if paper.selected else "red"
            groups[origin].add_leaf(
                Text.assemble(
                    (f"{'✓' if paper.selected else '✗'} {paper.score:.2f} ", style),
                    plain(_short(paper.title)),
                    (f"  {paper.date or ''}", "dim"),
                ),
                data={"kind": "paper", "paper_id": paper.paper_id},
            )
        tree.root.expand()

    def action_open_paper(self) -> None:
        if self.selected_paper is None:
            self._status("Select a paper in the tree or the results first.", "yellow")
            return
        self._status(open_paper(self.library, self.selected_paper, self.launcher).message)

    def action_copy_bibtex(self) -> None:
        if self.selected_paper is None:
            self._status("Select a paper in the tree or the results first.", "yellow")
            return
        entry = bibtex_entry(self.library, self.selected_paper)
        self.app.copy_to_clipboard(entry)
        self._status(f"copied the BibTeX of paper:{self.selected_paper} ({entry.count(chr(10))} lines)")

    @on(Button.Pressed, "#pasa-open")
    def open_link(self) -> None:
        if self.selected_paper is None:
            return
        url = self.paper_url(self.selected_paper)
        if url is None:
            return
        opened = _can_open_browser() and webbrowser.open(url)
        self._status(f"{'opened' if opened else 'link'}: {url}")
