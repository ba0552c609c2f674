"""The Scholar Q&A tab (SoAy): a question in; solution, program, result and answer out, as they come.

The engine's stream (``SoAyEngine.run``) runs in a thread worker that reports each event to the
pane (``app/panes/workers.py``); on the UI thread its ``_on_{kind}`` method writes it where it belongs,
in its own words (``summary()``).
"""

from __future__ import annotations

import json
import threading

from rich.syntax import Syntax
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, ListItem, ListView, Static

from scholar_tui.app.panes.workers import Note, ReportsEngine, engine_worker
from scholar_tui.app.terminal_safety import show_controls
from scholar_tui.app.widgets.history_input import HistoryInput
from scholar_tui.app.widgets.markup import assemble, plain
from scholar_tui.core import history as kept
from scholar_tui.core.events import FeedbackFinished, FeedbackRound
from scholar_tui.core.readiness import library_missing_at
from scholar_tui.core.soay.engine import (
    Abstained,
    AnswerPhrased,
    EntityLinked,
    Failed,
    Finished,
    ProgramRan,
    ProgramWritten,
    SolutionChosen,
)

VIEWS = ("#qa-solution", "#qa-program", "#qa-result", "#qa-feedback", "#qa-answer")


def candidate_lines(candidates: list[tuple[str, float]]) -> list[tuple[str, str]]:
    """One line per candidate plan, its score first; the key's steps spaced at their ``|`` so a
    narrow view wraps between steps (``searchPublication|getPublication:one|venue|…`` unbroken
    was cut inside a word at 80 columns: "ven" / "ue")."""
    return [(f"\n  {score:.2f}  {key.replace('|', ' | ')}", "dim") for key, score in candidates]


class ScholarQAPane(ReportsEngine, Vertical):
    BINDINGS = [Binding("escape", "cancel_question", "Cancel the question", show=False)]

    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self._engine = None
        self._cancel: threading.Event | None = None  # the running question's, until its Finished
        self.history: list[dict] = []  # this session's answers, in the order asked
        self.past: list[dict] = []  # the History list's entries (core/history.py), newest first
        self.shown: dict | None = None  # the kept result on screen: {"answer": …, "solution": …}
        self._solution: dict | None = None  # the live run's SolutionChosen, kept with its answer
        self._feedback_lines: list[Text] = []
        self.replaying = False  # a kept run shown again: its Finished is not a new answer

    def compose(self) -> ComposeResult:
        with Horizontal(id="qa-ask-row"):
            yield HistoryInput(
                placeholder="Ask about scholars and papers, e.g. Who are the coauthors of Marcus Michelen?",
                id="qa-question",
            )
            yield Button("Ask", id="qa-ask", variant="primary")
        yield Static("", id="qa-hint")
        with Horizontal(id="qa-body"):
            with VerticalScroll(id="qa-views"):
                # the answer first: at any height it is what a person reads, the steps follow
                yield Label("Answer", classes="section-title")
                yield Static("", id="qa-answer")
                yield Label("Solution", classes="section-title")
                yield Static("", id="qa-solution")
                yield Label("Program", classes="section-title")
                yield Static("", id="qa-program")
                yield Label("Result", classes="section-title")
                yield Static("", id="qa-result")
                yield Label("AutoFeedback", classes="section-title")
                yield Static("", id="qa-feedback")
            with Vertical(id="qa-side"):
                yield Label("History", classes="section-title")
                yield ListView(id="qa-history")
                yield Input(placeholder="export file (default: exports/ in the data folder)", id="qa-export-path")
                with Horizontal(classes="buttons"):
                    yield Button("Copy answer", id="qa-copy")
                    yield Button(
                        "Export .md",
                        id="qa-export",
                        tooltip="The question, answer, evidence and program, with a bibliography, as Markdown",
                    )
                yield Static("", id="qa-status")

    def on_mount(self) -> None:
        self.load_past()

    def load_past(self) -> None:
        """The History list and the question box's recall, from the kept runs (past sessions too)."""
        self.past = kept.entries(self.services.where, "scholar-qa", limit=200)
        self.query_one("#qa-question", HistoryInput).set_past([entry["text"] for entry in self.past])
        listing = self.query_one("#qa-history", ListView)
        listing.clear()
        listing.extend(
            ListItem(Label(Text.assemble(plain(entry["text"]), (f"  {entry['created_at'][:10]}", "dim"))))
            for entry in self.past
        )

    def on_show(self) -> None:
        self.show_missing()

    def show_missing(self) -> bool:
        """Say what the tab lacks (an empty library) and the next step; True when something is missing."""
        missing = library_missing_at(self.services.where, people=True)
        self.query_one("#qa-hint", Static).update(plain(missing.summary(), "yellow") if missing else "")
        return missing is not None

    @on(Input.Submitted, "#qa-question")
    @on(Button.Pressed, "#qa-ask")
    def ask(self) -> None:
        question = self.query_one("#qa-question", Input).value.strip()
        if not question:
            return
        if self.show_missing():  # no engine, no model loaded, for a library with nobody in it
            return
        for view in VIEWS:
            self.query_one(view, Static).update("")
        self.show_status(plain("working…", "dim"))
        self.query_one("#qa-ask", Button).disabled = True
        self._feedback_lines = []
        self._solution = None
        self.shown = None
        self._cancel = threading.Event()
        self.run_question(question, self._cancel)

    def action_cancel_question(self) -> None:
        """Escape: the running question stops after its current stage (the engine's ``cancel``); its
        answer view then says it was cancelled."""
        if self._cancel is not None and not self._cancel.is_set():
            self._cancel.set()
            self.show_status(plain("cancelling: the question stops after the current step…", "yellow"))

    @engine_worker("soay")
    def run_question(self, question: str, cancel: threading.Event) -> None:
        if self._engine is None:
            self.report(Note("loading the embedder and the sandbox…", "dim"))
            from scholar_tui.core.soay import open_soay

            self._engine = open_soay(self.services)  # closed with the pane
        run = self._engine.run(question, cancel=cancel)
        for event in kept.remembered(self.services.where, "scholar-qa", question, run):
            self.report(event)

    # -- events -> views: every view is a Text (the words come from the library, the program and the
    # model: an author named ``[@click=app.quit]``, a value cut at an unbalanced ``[``), never markup
    def show_status(self, text: Text) -> None:
        self.query_one("#qa-status", Static).update(text)

    def show_failure(self, worker: str, line: Text) -> None:
        self.query_one("#qa-answer", Static).update(line)
        self.show_status(Text())
        self._cancel = None
        self.enable_ask()

    def enable_ask(self) -> None:
        self.query_one("#qa-ask", Button).disabled = False

    def _on_entity_linked(self, event: EntityLinked) -> None:
        self.show_status(plain(event.summary(), "dim"))

    def _on_solution_chosen(self, event: SolutionChosen) -> None:
        self._solution = event.to_json()
        self.query_one("#qa-solution", Static).update(
            assemble((event.summary(), "bold"), "\n", ("candidates:", "dim"), *candidate_lines(event.candidates[:3]))
        )

    def _on_program_written(self, event: ProgramWritten) -> None:
        self.query_one("#qa-program", Static).update(
            Syntax(show_controls(event.source), "python", word_wrap=True, theme="ansi_dark")
        )

    def _on_program_ran(self, event: ProgramRan) -> None:
        result = event.result
        shown = json.dumps(result.value, indent=2, ensure_ascii=False)[:4000] if result.ok else ""
        self.query_one("#qa-result", Static).update(
            assemble(shown, "\n", (event.summary(), "dim")) if shown else plain(event.summary(), "red")
        )

    def _on_feedback_round(self, event: FeedbackRound) -> None:
        self._show_feedback(event.summary(), event.ok)

    def _on_feedback_finished(self, event: FeedbackFinished) -> None:
        self._show_feedback(event.summary(), event.status == "solved")

    def _show_feedback(self, line: str, good: bool) -> None:
        self._feedback_lines.append(plain(line, "green" if good else "yellow"))
        self.query_one("#qa-feedback", Static).update(Text("\n").join(self._feedback_lines))

    def _on_answer_phrased(self, event: AnswerPhrased | Abstained) -> None:
        """The answer (or the sentence saying what the library lacks) and the calls it came from."""
        shown = plain(event.text, "bold" if isinstance(event, AnswerPhrased) else "bold yellow")
        if event.sources:
            shown = assemble(shown, "\n", (f"from {'; '.join(event.sources)}", "dim"))
        self.query_one("#qa-answer", Static).update(shown)

    _on_abstained = _on_answer_phrased

    def _on_failed(self, event: Failed) -> None:
        style = "bold yellow" if event.stage == "cancelled" else "red"  # asked for, not gone wrong
        self.query_one("#qa-answer", Static).update(plain(event.summary(), style))

    def _on_finished(self, event: Finished) -> None:
        self.shown = {"answer": event.answer.as_dict(), "solution": self._solution}
        if self.replaying:
            return
        self._cancel = None
        self.history.append(event.answer.as_dict())
        self.load_past()  # the run was kept just before this event: it heads the list
        self.show_status(plain(event.summary(), "dim"))
        self.enable_ask()

    @on(ListView.Selected, "#qa-history")
    def recall(self, message: ListView.Selected) -> None:
        """A past question reopens with its own solution, program, result, feedback and answer: every
        view is cleared and filled from that run's kept events, none left from the question before."""
        index = message.list_view.index
        if index is None or index >= len(self.past):
            return
        entry = kept.entry(self.services.where, self.past[index]["id"])
        if entry is None or not entry["result"]:
            self.query_one("#qa-status", Static).update(plain("that run was not kept in full", "yellow"))
            return
        for view in VIEWS:
            self.query_one(view, Static).update("")
        self._feedback_lines = []
        self._solution = None
        self.query_one("#qa-question", Input).value = entry["text"]
        self.replaying = True
        try:
            for event in kept.scholar_replay(entry["result"]):
                self.show_event(event)
        finally:
            self.replaying = False
        self.query_one("#qa-status", Static).update(
            Text.assemble(("asked ", "dim"), plain(entry["created_at"][:16].replace("T", " "), "dim"))
        )

    @on(Button.Pressed, "#qa-copy")
    def copy_answer(self) -> None:
        """Copy the answer on screen (a reopened one included), never another run's."""
        answer = (self.shown or {}).get("answer") or {}
        if not answer.get("answer"):
            self.query_one("#qa-status", Static).update(plain("no answer on screen to copy", "yellow"))
            return
        self.app.copy_to_clipboard(answer["answer"])
        self.query_one("#qa-status", Static).update(plain("answer copied", "dim"))

    @on(Button.Pressed, "#qa-export")
    def export(self) -> None:
        """The answer on screen as Markdown (answer, evidence, program, bibliography): core/exports.py."""
        from scholar_tui.core.exports import (
            ExportError,
            cited_paper_ids,
            export_markdown,
            export_path,
            gather,
            question_markdown,
        )
        from scholar_tui.indexes.library import Library

        answer = (self.shown or {}).get("answer")
        if not answer:
            self.query_one("#qa-status", Static).update(plain("ask or reopen a question first", "yellow"))
            return
        chosen = self.query_one("#qa-export-path", Input).value
        path = export_path(self.services.where, chosen, "scholar-qa", "md")
        library = Library.open(self.services.where)
        try:
            references = gather(library, cited_paper_ids([answer.get("value"), answer.get("result")]))
            written = export_markdown(path, question_markdown(answer, references), references)
        except ExportError as error:
            self.query_one("#qa-status", Static).update(plain(str(error), "red"))
            return
        finally:
            library.close()
        self.query_one("#qa-status", Static).update(
            plain(f"exported the answer and {written.count} references to {path}")
        )

    def on_unmount(self) -> None:
        if self._engine is not None:
            self._engine.close()
