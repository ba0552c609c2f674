"""The Paper search tab: PaSa's crawl tree growing live, the Selector's ranking, export.

Left: the crawl tree — the query → [Search] actions → papers → [Expand]ed sections → papers —
each paper coloured by its verdict once the Selector has judged it (green: True, red: False,
with P(True)). Right: the ranked results, the details of whatever is selected (tree node or
result row), and export (BibTeX, JSON) and the arXiv link.

The crawl runs in a thread worker with its own SQLite connection and event loop; every engine
event comes back as a ``CrawlEvent`` message, so the tree grows while the worker runs. Cancel
sets the run's CancelToken: the engine stops between steps and reports what it found so far.
"""

from __future__ import annotations

import asyncio
import os
import sys
import webbrowser
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, DataTable, Input, Label, Static, Tree
from textual.widgets.tree import TreeNode

from ...core.pasa.events import CrawlFinished, RankedPaper
from ...indexes.library import Library
from ...models.base import CancelToken

MAX_LABEL = 70


def _short(text: str, limit: int = MAX_LABEL) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _retry_mark(event) -> tuple[str, str]:
    return ("↻ ", "yellow") if event.retry_of is not None else ("", "")


def _feedback_text(feedback) -> Text:
    """The rounds of a call's AutoFeedback loop, for the detail view."""
    if feedback is None:
        return Text()
    text = Text(f"\n\nAutoFeedback loop {feedback.loop_id}: {feedback.status}", style="bold")
    for number, round_ in enumerate(feedback.rounds, start=1):
        verdict = "ok" if round_["ok"] else f"{round_['sub_type']}: {round_['reason']}"
        text.append(f"\n {number}. {round_['kind']} · {round_['request']}\n    {verdict}",
                    style="" if round_["ok"] else "yellow")
    return text


def _can_open_browser() -> bool:
    """A graphical browser only: a text browser would take over the terminal the app runs in."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class PaperSearchPane(Vertical):
    class CrawlEvent(Message):
        def __init__(self, event) -> None:
            super().__init__()
            self.event = event

    class Status(Message):
        def __init__(self, text: str, done: bool = False, style: str = "") -> None:
            super().__init__()
            self.text, self.done, self.style = text, done, style

    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self.library: Library | None = None
        self.cancel_token: CancelToken | None = None
        self.nodes: dict[int, TreeNode] = {}
        self.verdicts: dict[int, object] = {}  # paper id -> Verdict
        self.papers: dict[int, object] = {}  # paper id -> FoundPaper
        self.finished: CrawlFinished | None = None
        self.query_text = ""
        self.date: str | None = None
        self.selected_paper: int | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="pasa-query-row"):
            yield Input(placeholder="Ask for papers, e.g. Which papers study zeros of random polynomials?", id="pasa-query")
            yield Input(placeholder="before YYYY-MM-DD", id="pasa-date")
            yield Button("Search", id="pasa-search", variant="primary")
            yield Button("Cancel", id="pasa-cancel", variant="error", disabled=True)
        yield Static("PaSa: the Crawler searches and expands citations; the Selector ranks papers by P(True).",
                     id="pasa-status", markup=False)
        with Horizontal(id="pasa-body"):
            with Vertical(id="pasa-tree-box"):
                yield Label("Crawl", classes="section-title")
                yield Tree("(no search yet)", id="pasa-tree")
            with Vertical(id="pasa-side"):
                yield Label("Results (by P(True))", classes="section-title", id="pasa-results-title")
                yield DataTable(id="pasa-results", cursor_type="row", zebra_stripes=True)
                with VerticalScroll(id="pasa-detail-box"):
                    yield Static("Select a paper in the tree or the results to read it here.", id="pasa-detail",
                                 markup=False)
                with Horizontal(id="pasa-export-row"):
                    yield Input(value="pasa-results", placeholder="export file (no extension)", id="pasa-export-path")
                    yield Button("BibTeX", id="pasa-export-bib", disabled=True)
                    yield Button("JSON", id="pasa-export-json", disabled=True)
                    yield Button("arXiv", id="pasa-open", disabled=True)

    def on_mount(self) -> None:
        self.library = Library.open(self.services.where)
        self.query_one("#pasa-results", DataTable).add_columns("#", "P(True)", "", "title")
        self.query_one("#pasa-tree", Tree).show_root = True

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
        self.finished = None
        self.selected_paper = None
        tree = self.query_one("#pasa-tree", Tree)
        tree.clear()
        tree.root.set_label(Text(_short(query, 90), style="bold"))
        tree.root.data = {"kind": "query"}
        tree.root.expand()
        self.nodes[0] = tree.root
        self.query_one("#pasa-results", DataTable).clear()
        for button in ("#pasa-export-bib", "#pasa-export-json", "#pasa-open"):
            self.query_one(button, Button).disabled = True
        self.query_one("#pasa-cancel", Button).disabled = False
        self.cancel_token = CancelToken()
        self._status("preparing the library and loading the model…")
        self.run_crawl(query, date, self.cancel_token)

    @on(Button.Pressed, "#pasa-cancel")
    def cancel_search(self) -> None:
        if self.cancel_token is not None:
            self.cancel_token.cancel()
            self._status("cancelling: the crawl stops after the current step…")

    @work(thread=True, exclusive=True, group="paper-search", exit_on_error=False)
    def run_crawl(self, query: str, date: str | None, cancel: CancelToken) -> None:
        from ...core.pasa.setup import build_agent, prepare_library
        from ...core.pasa.works import CitedWorks
        from ...indexes.library_search import IndexFinished, IndexProgress

        library = Library.open(self.services.where)  # this thread's own connection
        try:
            embedder = self.services.embedder()
            for event in prepare_library(self.services.where, library, embedder):
                if isinstance(event, CitedWorks) and event.linked:
                    self.post_message(self.Status(f"library: {event.summary()}"))
                elif isinstance(event, IndexProgress) and event.total:
                    self.post_message(self.Status(f"embedding papers for search: {event.done}/{event.total}"))
                elif isinstance(event, IndexFinished) and event.embedded:
                    self.post_message(self.Status(f"{event.embedded} papers embedded in {event.seconds:.1f} s"))
            llm = self.services.llm()
            agent = build_agent(self.services.where, self.services.settings, library, llm, embedder)

            async def consume() -> None:
                async for event in agent.run(query, date=date, cancel=cancel):
                    self.post_message(self.CrawlEvent(event))

            asyncio.run(consume())
        except Exception as error:  # a worker always reports back (bad date, no model, locked file…)
            self.post_message(self.Status(f"{type(error).__name__}: {error}", done=True, style="red"))
        finally:
            library.close()

    # -- events -> tree --------------------------------------------------------------------------
    def _status(self, text: str, style: str = "") -> None:
        # Plain text, never markup: model output such as "[Expand] 2 Related Work" must show as written.
        self.query_one("#pasa-status", Static).update(Text(text, style=style))

    @on(Status)
    def _show_status(self, message: Status) -> None:
        self._status(message.text, message.style)
        if message.done:
            self.query_one("#pasa-cancel", Button).disabled = True
            self.cancel_token = None

    @on(CrawlEvent)
    def _grow(self, message: CrawlEvent) -> None:
        event = message.event
        handler = getattr(self, f"_on_{event.kind}", None)
        if handler is not None:
            handler(event)

    def _on_started(self, event) -> None:
        self._status(f"crawling with {event.model} · {event.query_mode} queries · "
                     f"{'online' if event.online else 'offline'} · cut-off {event.date or 'none'}")

    def _on_decided(self, event) -> None:
        who = "search session" if event.session == "search" else "expand session"
        refused = f" · refused {event.refused}" if event.refused else ""
        self._status(f"Crawler ({who}, {event.seconds:.1f} s): {event.text}{refused}")

    def _on_search(self, event) -> None:
        parent = self.nodes.get(event.parent, self.query_one("#pasa-tree", Tree).root)
        node = parent.add(Text.assemble(_retry_mark(event), ("[Search] ", "bold cyan"), event.query),
                          data={"kind": "search", "query": event.query}, expand=True)
        self.nodes[event.node] = node

    def _on_expand(self, event) -> None:
        parent = self.nodes.get(event.parent)
        if parent is None:
            return
        node = parent.add(Text.assemble(_retry_mark(event), ("[Expand] ", "bold magenta"), event.section),
                          data={"kind": "section", "paper_id": event.paper_id, "section": event.section}, expand=True)
        parent.allow_expand = True
        parent.expand()
        self.nodes[event.node] = node

    def _on_feedback(self, event) -> None:
        """A call AutoFeedback sent back: say why on its node; the retries follow as siblings."""
        node = self.nodes.get(event.node)
        if node is None or not event.retried:
            return
        node.data = {**(node.data or {}), "feedback": event}
        style = "bold red" if event.status == "limit_hit" else "yellow"
        note = "loop waits for a person in the API debugger" if event.status == "limit_hit" else "retried"
        node.set_label(Text.assemble(node.label, (f"  AutoFeedback: {note}", style)))
        self._status(f"AutoFeedback loop {event.loop_id} ({event.status}): {event.reasons}", "yellow")

    def _on_found(self, event) -> None:
        parent = self.nodes.get(event.parent)
        if parent is None:
            return
        for paper in event.papers:
            self.papers[paper.paper_id] = paper
            label = Text.assemble(("… ", "dim"), _short(paper.title), (f"  {paper.date or ''}", "dim"))
            self.nodes[paper.node] = parent.add(label, data={"kind": "paper", "paper_id": paper.paper_id},
                                                allow_expand=False)
        if event.duplicates or event.over_budget:
            note = f"{event.duplicates} already queued" + (f", {event.over_budget} over budget" if event.over_budget else "")
            parent.set_label(Text.assemble(parent.label, (f"  ({note})", "dim")))

    def _on_verdict(self, event) -> None:
        self.verdicts[event.paper_id] = event
        node = self.nodes.get(event.node)
        paper = self.papers.get(event.paper_id)
        if node is not None and paper is not None:
            style = "bold green" if event.decision else "red"
            mark = "✓" if event.decision else "✗"
            node.set_label(Text.assemble((f"{mark} {event.probability:.2f} ", style), _short(paper.title),
                                         (f"  {paper.date or ''}", "dim")))
        self._fill_results()

    def _on_notice(self, event) -> None:
        self._status(event.message, "yellow")

    def _on_finished(self, event: CrawlFinished) -> None:
        self.finished = event
        self._fill_results()
        self.query_one("#pasa-cancel", Button).disabled = True
        self.cancel_token = None
        for button in ("#pasa-export-bib", "#pasa-export-json"):
            self.query_one(button, Button).disabled = not event.results
        state = "cancelled" if event.cancelled else "done"
        self._status(f"{state}: {len(event.queue)} papers crawled, {len(event.selected)} selected, "
                     f"{event.actions} actions, {event.llm_calls} model calls, {event.seconds:.1f} s "
                     f"({event.stop_reason})")

    def _ranking(self) -> list[tuple[int, object]]:
        order = list(self.papers)
        return sorted(self.verdicts.items(), key=lambda item: (-item[1].probability, order.index(item[0])))

    def _fill_results(self) -> None:
        table = self.query_one("#pasa-results", DataTable)
        table.clear()
        ranking = self._ranking()
        for rank, (paper_id, verdict) in enumerate(ranking, start=1):
            paper = self.papers.get(paper_id)
            mark = Text("✓", style="bold green") if verdict.decision else Text("✗", style="red")
            table.add_row(str(rank), f"{verdict.probability:.2f}", mark, _short(paper.title if paper else "", 80),
                          key=str(paper_id))
        selected = sum(verdict.decision for _, verdict in ranking)
        self.query_one("#pasa-results-title", Label).update(f"Results by P(True): {selected} selected of {len(ranking)}")

    # -- details -----------------------------------------------------------------------------------
    @on(Tree.NodeHighlighted, "#pasa-tree")
    @on(Tree.NodeSelected, "#pasa-tree")
    def _node_chosen(self, event) -> None:
        data = event.node.data or {}
        if data.get("kind") == "paper":
            self.show_paper(data["paper_id"])
        elif data.get("kind") == "search":
            self._detail(Text.assemble(("[Search] ", "bold"), data["query"],
                                       f"\n{len(event.node.children)} new papers queued by this search.",
                                       _feedback_text(data.get("feedback"))))
        elif data.get("kind") == "section":
            self._detail(Text.assemble(("[Expand] ", "bold"), data["section"], f" of paper:{data['paper_id']}\n"
                                       f"{len(event.node.children)} cited papers queued.",
                                       _feedback_text(data.get("feedback"))))

    @on(DataTable.RowHighlighted, "#pasa-results")
    @on(DataTable.RowSelected, "#pasa-results")
    def _row_chosen(self, event) -> None:
        if event.row_key is not None and event.row_key.value:
            self.show_paper(int(event.row_key.value))

    def _detail(self, text: Text) -> None:
        self.query_one("#pasa-detail", Static).update(text)

    def paper_url(self, paper_id: int) -> str | None:
        row = self.library.paper(paper_id) if self.library else None
        if row is None:
            return None
        return f"https://arxiv.org/abs/{row['arxiv_id']}" if row["arxiv_id"] else row["url"]

    def show_paper(self, paper_id: int) -> None:
        row = self.library.paper(paper_id) if self.library else None
        if row is None:
            return
        self.selected_paper = paper_id
        verdict = self.verdicts.get(paper_id)
        found = self.papers.get(paper_id)
        authors = ", ".join(self.library.paper_author_names(paper_id))
        parts: list = [(row["title"], "bold"), "\n"]
        if authors:
            parts += [authors, "\n"]
        ids = " · ".join(f"{label} {row[key]}" for label, key in
                         (("arXiv", "arxiv_id"), ("doi", "doi"), ("OpenAlex", "openalex_id")) if row[key])
        parts.append((f"paper:{paper_id} · {row['date'] or 'date unknown'} · {row['source']}"
                      f"{' · ' + ids if ids else ''}{f' · depth {found.depth}' if found else ''}\n", "dim"))
        if verdict is not None:
            colour = "green" if verdict.decision else "red"
            kind = " (templated)" if verdict.rationale_kind == "template" else ""
            parts += [(f"Selector: {'True' if verdict.decision else 'False'}, P(True) = {verdict.probability:.2f}\n",
                       colour), f"{verdict.rationale}{kind}\n"]
        url = self.paper_url(paper_id)
        if url:
            parts += [(url, "underline"), "\n"]
        if row["abstract"]:
            parts += ["\n", row["abstract"]]
        self._detail(Text.assemble(*parts))
        self.query_one("#pasa-open", Button).disabled = url is None

    # -- export and links ------------------------------------------------------------------------------
    def results(self) -> list[RankedPaper]:
        if self.finished is not None:
            return self.finished.selected or self.finished.results
        return []

    @on(Button.Pressed, "#pasa-export-bib")
    def export_bib(self) -> None:
        self._export("bib")

    @on(Button.Pressed, "#pasa-export-json")
    def export_json(self) -> None:
        self._export("json")

    def _export(self, fmt: str) -> None:
        from ...core.pasa.export import export_results

        stem = self.query_one("#pasa-export-path", Input).value.strip() or "pasa-results"
        path = Path(stem).expanduser()
        path = path if path.suffix == f".{fmt}" else path.with_name(path.name + f".{fmt}")
        try:
            count = export_results(path, fmt, self.library, self.query_text, self.date, self.results())
        except OSError as error:
            self._status(f"export failed: {error}", "red")
            return
        self._status(f"exported {count} papers to {path.resolve()}")

    @on(Button.Pressed, "#pasa-open")
    def open_link(self) -> None:
        if self.selected_paper is None:
            return
        url = self.paper_url(self.selected_paper)
        if url is None:
            return
        opened = _can_open_browser() and webbrowser.open(url)
        self._status(f"{'opened' if opened else 'link'}: {url}")
