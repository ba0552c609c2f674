"""The Conference QA tab: pick or import a conference, ask, read the answer and its evidence paths.

Left: the conference's tree, loaded lazily as branches open. Right: the question, the answer
with the paths it cites and the evidence table (rank, score, path, description). The engine
(``core.conference.engine``) does the work: each request is its generator of events, run in a
thread worker that reports them (``app/panes/workers.py``); the pane only renders the events it
is handed, so the screen never waits on a model.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, DataTable, Input, Label, Select, Static, Tree

from scholar_tui.app.panes.workers import ReportsEngine, engine_worker
from scholar_tui.app.widgets.focus import focus_if_showing, focus_start
from scholar_tui.app.widgets.history_input import HistoryInput
from scholar_tui.app.widgets.markup import assemble, plain
from scholar_tui.core import history as kept
from scholar_tui.core.events import Event
from scholar_tui.core.readiness import conference_missing

if TYPE_CHECKING:  # the engine's modules load with the first request, not with the app
    from scholar_tui.core.conference.events import Answered, EvidenceFound, IndexBuilt
    from scholar_tui.core.conference.tree import Tree as ConferenceTree

METHOD_OPTIONS = [("STAR descriptions", "star"), ("raw paths (baseline)", "path")]
MAX_TREE_LABEL = 90


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tail(path: str, limit: int) -> str:
    """A long path's end, where paths that share their headings differ."""
    return path if len(path) <= limit else "…" + path[-(limit - 1) :]


@dataclass
class ConferencesListed(Event):
    """The conferences imported so far; ``select``: the one to pick (just imported)."""

    names: list[str]
    select: str | None = None
    kind: str = "conferences_listed"


@dataclass
class TreeReady(Event):
    name: str
    tree: ConferenceTree
    kind: str = "tree_ready"


@dataclass
class ImportEnded(Event):
    """The import worker is done (its last event, or its failure, said how)."""

    kind: str = "import_ended"


@dataclass
class AskEnded(Event):
    """The ask worker is done; its ``cancel`` set: the stream stopped on Escape, with no answer."""

    cancel: threading.Event
    kind: str = "ask_ended"


class ConferencePane(ReportsEngine, Horizontal):
    BINDINGS = [Binding("escape", "cancel_question", "Cancel the question", show=False)]

    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self._tree = None
        self._evidence: list = []
        self._engine = None
        self._cancel: threading.Event | None = None  # the running question's, until it ends
        self._asked_to_pick = False  # the status line says "Pick a conference first."
        self.conference_names: list[str] = []  # as last listed: none means "import one", not "pick one"

    def compose(self) -> ComposeResult:
        with Vertical(id="conf-browser"):
            yield Label("Conference tree", classes="section-title")
            yield Tree("(no conference)", id="conf-tree")
        with VerticalScroll(id="conf-main"):  # at 24 rows the evidence is below the fold, not cut
            with Horizontal(classes="conf-row"):
                yield Select([], prompt="Pick a conference", id="conf-select", allow_blank=True)
                yield Select(METHOD_OPTIONS, value="star", allow_blank=False, id="conf-method")
            with Horizontal(classes="conf-row"):
                yield Input(
                    placeholder="Import: a ConferenceQA .json, an .html page or folder, or a URL", id="conf-import-path"
                )
                yield Button("Import", id="conf-import")
            yield Static("", id="conf-status")
            with Horizontal(id="conf-ask-row", classes="conf-row"):
                yield HistoryInput(
                    placeholder="Ask the conference, e.g. When does the rebuttal period end?", id="conf-question"
                )
                yield Button("Ask", id="conf-ask", variant="primary")
            # a long answer (every workshop of a site) scrolls in its box: the evidence stays on screen
            with VerticalScroll(id="conf-answer-box"):
                yield Static("", id="conf-answer")
            yield DataTable(id="conf-evidence", cursor_type="row", zebra_stripes=True)
            yield Static("", id="conf-description")

    def on_mount(self) -> None:
        evidence = self.query_one("#conf-evidence", DataTable)
        evidence.add_columns("#", "score", "path", "description")
        evidence.tooltip = (
            "# : the path's rank (* when the answer cites it) · score: the retriever's match "
            "(cosine, or the fused dense+BM25 score; 'kept': in the top k for another reason) · "
            "path: where in the conference site · description: what the path says"
        )
        self.query_one("#conf-question", HistoryInput).set_past(kept.inputs(self.services.where, "conference-qa"))
        self.load_conferences()

    # -- the engine --------------------------------------------------------------------------------
    def engine(self):
        """The Conference QA engine over the shared services, kept (it holds each conference's search
        tables); it asks the services for the models its requests need, in the answer mode the active
        model calls for (``open_conference``'s "auto", as `conf ask`)."""
        from scholar_tui.core.conference.engine import open_conference

        if self._engine is None:
            self._engine = open_conference(self.services)
        return self._engine

    # -- conferences -----------------------------------------------------------------------------
    @engine_worker("conf-list")
    def load_conferences(self, select: str | None = None) -> None:
        from scholar_tui.core.conference.engine import open_conference

        with open_conference(self.services) as engine:  # this thread's own tables
            names = [record.name for record in engine.conferences()]
        self.report(ConferencesListed(names, select))

    def _on_conferences_listed(self, listed: ConferencesListed) -> None:
        current = self.conference
        self.conference_names = listed.names
        select = self.query_one("#conf-select", Select)
        select.set_options([(plain(name), name) for name in listed.names])  # a site's name, not markup
        # keep the current pick; otherwise take the one just imported, else the first
        wanted = listed.select or current or (listed.names[0] if listed.names else None)
        if wanted in listed.names:
            select.value = wanted
            importing = self.query_one("#conf-import-path", Input)
            if importing.has_focus and not importing.value:
                focus_if_showing(self.query_one("#conf-question", Input))
        missing = conference_missing(listed.names)
        if missing is not None:
            self.show_status(plain(missing.summary(), "yellow"))

    def on_show(self) -> None:
        """Opening the tab puts the cursor where a person starts: the question, or the import box."""
        focus_start(self, "#conf-question" if self.conference else "#conf-import-path")

    @property
    def conference(self) -> str | None:
        value = self.query_one("#conf-select", Select).value
        return value if isinstance(value, str) else None

    @on(Select.Changed, "#conf-select")
    def _conference_changed(self) -> None:
        if self.conference:
            if self._asked_to_pick:  # "Pick a conference first." is done with; an import's line stays
                self._asked_to_pick = False
                self.show_status(Text())
            self.query_one("#conf-tree", Tree).root.set_label(assemble(self.conference, " (loading…)"))
            self.load_tree(self.conference)

    # -- import ------------------------------------------------------------------------------------
    @on(Button.Pressed, "#conf-import")
    @on(Input.Submitted, "#conf-import-path")
    def _start_import(self) -> None:
        source = self.query_one("#conf-import-path", Input).value.strip()
        if not source:
            self.show_status(plain("Type a path or URL to import.", "yellow"))
            return
        self.query_one("#conf-import", Button).disabled = True
        self.show_status(plain(f"importing {source}…"))
        self.import_source(source)

    @engine_worker("conf-import")
    def import_source(self, source: str) -> None:
        from scholar_tui.core.conference.describe import StructuralDescriber
        from scholar_tui.core.conference.sources import load_source

        settings = self.services.settings

        tree = load_source(source, offline=settings.network.offline, timeout_s=settings.network.timeout_s)
        for event in self.engine().build(tree, source, StructuralDescriber()):
            self.report(event)
        self.report(ImportEnded())

    def _on_describe_progress(self, event) -> None:
        if event.done == event.total or event.done % 512 < 64:  # a status line per batch would flicker
            self.show_status(plain(event.summary()))

    def _on_index_built(self, event: IndexBuilt) -> None:
        self.show_status(assemble((event.conference, "green"), ": ", event.summary()))
        self.load_conferences(event.conference)

    def _on_import_ended(self, event: ImportEnded) -> None:
        self.query_one("#conf-import", Button).disabled = False

    def show_status(self, text: Text) -> None:
        self.query_one("#conf-status", Static).update(text)

    def show_failure(self, worker: str, line: Text) -> None:
        self.show_status(line)
        if worker == "import_source":
            self._on_import_ended(ImportEnded())
        elif worker == "ask":
            self._cancel = None
            self._show_answer("")  # not "searching…" forever

    # -- asking ------------------------------------------------------------------------------------
    @on(Input.Submitted, "#conf-question")
    @on(Button.Pressed, "#conf-ask")
    def _ask(self) -> None:
        question = self.query_one("#conf-question", Input).value.strip()
        if not question:
            return
        if not self.conference:
            # none imported yet: the way to import one, not only "first"
            missing = conference_missing(self.conference_names)
            self.show_status(plain(missing.summary() if missing else "Pick a conference first.", "yellow"))
            self._asked_to_pick = True
            return
        method = self.query_one("#conf-method", Select).value
        self._show_answer(plain("searching…", "dim"))
        self.query_one("#conf-evidence", DataTable).clear()
        self.query_one("#conf-question", HistoryInput).remember(question)
        if self._cancel is not None:  # a question still running gives way to this one
            self._cancel.set()
        self._cancel = threading.Event()
        self.ask(self.conference, question, str(method), self._cancel)

    def action_cancel_question(self) -> None:
        """Escape: the running question stops once its evidence is found (the engine's ``cancel``)."""
        if self._cancel is not None and not self._cancel.is_set():
            self._cancel.set()
            self._show_answer(plain("cancelling…", "dim"))

    @engine_worker("conf-ask")
    def ask(self, conference: str, question: str, method: str, cancel: threading.Event) -> None:
        for event in kept.remembered(
            self.services.where,
            "conference-qa",
            question,
            self.engine().ask(conference, question, method=method, cancel=cancel),
            {"conference": conference, "method": method},
        ):
            self.report(event)
        self.report(AskEnded(cancel))

    def _on_ask_ended(self, ended: AskEnded) -> None:
        if ended.cancel is not self._cancel:  # a newer question took its place: that one is shown
            return
        self._cancel = None
        if ended.cancel.is_set():
            self._show_answer(
                plain("Cancelled: the question was not answered (the evidence found is below).", "yellow")
            )

    def _on_evidence_found(self, event: EvidenceFound) -> None:
        self._show_evidence(event.evidence, cited=[])
        self._show_answer(plain("answering…", "dim"))

    def _on_answered(self, event: Answered) -> None:
        self._show_evidence(event.evidence, cited=event.cited)
        # the site's or a model's text: never markup (plain); an abstention reads as one plain sentence
        heading = (
            ("Not in the site data: ", "bold yellow") if event.operation == "abstain" else ("Answer", "bold"),
            "" if event.operation == "abstain" else f" ({event.operation}): ",
        )
        cites = ", ".join(f"[{rank}]" for rank in event.cited) or "no path"
        # a verdict with the sentence that decides it: the verdict first and plain to see, the sentence below
        said = (
            (plain(event.value, "bold"), "\n", ("because: ", "dim"), plain(event.support))
            if event.support
            else (plain(event.answer),)
        )
        self._show_answer(
            Text.assemble(
                *heading,
                *said,
                *(("\n", plain(event.model_detail, "dim")) if event.model_detail else ()),
            ),
            cites=f"cites {cites}",
        )

    def _show_answer(self, text: Text | str, cites: str = "") -> None:
        """The answer box's text, and what the answer cites on the box's bottom edge: there it stays
        on screen however long the answer (ICML's ~40 workshops scroll inside the box)."""
        self.query_one("#conf-answer", Static).update(text)
        self.query_one("#conf-answer-box").border_subtitle = plain(cites) if cites else None

    def _show_evidence(self, evidence: list, cited: list[int]) -> None:
        table = self.query_one("#conf-evidence", DataTable)
        table.clear()
        self._evidence = evidence
        for item in evidence:
            rank = f"*{item.rank}" if item.rank in cited else str(item.rank)
            # the site's keys and text: cells of Text, never markup ('[/nope]' in a key)
            table.add_row(
                rank,
                f"{item.score:.3f}" + (" kept" if item.kept else ""),
                plain(_tail(item.path, 70)),
                plain(_short(item.description.replace("\n", " · "), 60)),
                key=str(item.node_id),
            )
        if evidence:
            self._describe_row(0)

    @on(DataTable.RowHighlighted, "#conf-evidence")
    def _row_highlighted(self, message: DataTable.RowHighlighted) -> None:
        self._describe_row(message.cursor_row)

    def _describe_row(self, row: int) -> None:
        evidence = self._evidence
        if 0 <= row < len(evidence):
            item = evidence[row]
            self.query_one("#conf-description", Static).update(
                assemble(
                    (f"{item.rank}.", "bold"),
                    " ",
                    item.path,
                    "\n",
                    *((f"kept in the top {len(evidence)}:", "dim"), " ", item.kept, "\n") if item.kept else (),
                    ("description:", "dim"),
                    " ",
                    item.description,
                )
            )

    # -- the tree browser ------------------------------------------------------------------------
    @engine_worker("conf-tree")
    def load_tree(self, name: str) -> None:
        from scholar_tui.core.conference.engine import open_conference

        with open_conference(self.services) as engine:
            self.report(TreeReady(name, engine.load_tree(name)))

    def _on_tree_ready(self, ready: TreeReady) -> None:
        self._tree = ready.tree
        widget = self.query_one("#conf-tree", Tree)
        widget.clear()
        paths = sum(1 for leaf in ready.tree.leaves() if leaf.text)
        widget.root.set_label(assemble(ready.tree.root.label, f" ({paths} paths)"))
        widget.root.data = ready.tree.root.id
        self._add_children(widget.root)
        widget.root.expand()

    def _add_children(self, branch) -> None:
        tree = self._tree
        for node in tree.children(tree[branch.data]):
            if node.is_leaf:
                text = f"{node.label}: {node.text}" if node.label else (node.text or "")
                branch.add_leaf(plain(_short(text, MAX_TREE_LABEL)), data=node.id)
            else:  # a site's key is text: Tree reads a str label as markup ('[/nope]' crashed F3)
                branch.add(plain(_short(node.label or node.key, MAX_TREE_LABEL)), data=node.id)

    @on(Tree.NodeExpanded, "#conf-tree")
    def _expand(self, message: Tree.NodeExpanded) -> None:
        branch = message.node
        if self._tree is not None and branch.data is not None and not branch.children:
            self._add_children(branch)  # children are added when a branch first opens
