"""The Scholar Q&A tab (SoAy): a question in; solution, program, result and answer out, as they come.

The engine's stream (``SoAyEngine.run``) runs in a thread worker; each event reaches ``show`` on
the UI thread (``call_from_thread``) and is written where it belongs in its own words (``summary()``).
"""

from __future__ import annotations

import json
import time

from rich.syntax import Syntax
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Label, ListItem, ListView, Static

from rich.text import Text

from scholar_tui.app.widgets.markup import escape, plain
from scholar_tui.core.events import Event, FeedbackFinished, FeedbackRound
from scholar_tui.core.readiness import library_missing_at
from scholar_tui.core.soay.engine import (
    Abstained, AnswerPhrased, EntityLinked, Failed, Finished, ProgramRan, ProgramWritten, SolutionChosen,
)
from scholar_tui.indexes.records import show_controls


class ScholarQAPane(Vertical):
    def __init__(self, services, **kwargs) -> None:
        super().__init__(**kwargs)
        self.services = services
        self._engine = None
        self.history: list[dict] = []
        self._feedback_lines: list[str] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="qa-ask-row"):
            yield Input(placeholder="Ask about scholars and papers, e.g. Who are the coauthors of Marcus Michelen?",
                        id="qa-question")
            yield Button("Ask", id="qa-ask", variant="primary")
        yield Static("", id="qa-hint")
        with Horizontal(id="qa-body"):
            with VerticalScroll(id="qa-views"):
                yield Label("Solution", classes="section-title")
                yield Static("", id="qa-solution")
                yield Label("Program", classes="section-title")
                yield Static("", id="qa-program")
                yield Label("Result", classes="section-title")
                yield Static("", id="qa-result")
                yield Label("AutoFeedback", classes="section-title")
                yield Static("", id="qa-feedback")
                yield Label("Answer", classes="section-title")
                yield Static("", id="qa-answer")
            with Vertical(id="qa-side"):
                yield Label("History", classes="section-title")
                yield ListView(id="qa-history")
                with Horizontal(classes="buttons"):
                    yield Button("Copy answer", id="qa-copy")
                    yield Button("Export", id="qa-export")
                yield Static("", id="qa-status")

    def on_show(self) -> None:
        self.show_missing()

    def show_missing(self) -> bool:
        """Say what the tab lacks (an empty library) and the next step; True when something is missing."""
        missing = library_missing_at(self.services.where, people=True)
        self.query_one("#qa-hint", Static).update(f"[yellow]{escape(missing.summary())}[/]" if missing else "")
        return missing is not None

    @on(Input.Submitted, "#qa-question")
    @on(Button.Pressed, "#qa-ask")
    def ask(self) -> None:
        question = self.query_one("#qa-question", Input).value.strip()
        if not question:
            return
        if self.show_missing():  # no engine, no model loaded, for a library with nobody in it
            return
        for view in ("#qa-solution", "#qa-program", "#qa-result", "#qa-feedback", "#qa-answer"):
            self.query_one(view, Static).update("")
        self.query_one("#qa-status", Static).update("[dim]working…[/]")
        self.query_one("#qa-ask", Button).disabled = True
        self._feedback_lines = []
        self.run_question(question)

    @work(thread=True, exclusive=True, group="soay", exit_on_error=False)
    def run_question(self, question: str) -> None:
        try:
            if self._engine is None:
                self.app.call_from_thread(self.show_status, "loading the embedder and the sandbox…")
                from scholar_tui.core.soay import open_soay

                self._engine = open_soay(self.services.where, self.services.settings,
                                         embedder=self.services.embedder(), llm_provider=self.services.llm)
            for event in self._engine.run(question):
                self.app.call_from_thread(self.show, event)
        except Exception as error:  # noqa: BLE001 - shown in the pane, never a crash
            self.app.call_from_thread(self.show, Failed("engine", str(error)))
            self.app.call_from_thread(self.enable_ask)

    def show_status(self, text: str) -> None:
        self.query_one("#qa-status", Static).update(f"[dim]{escape(text)}[/]")

    def enable_ask(self) -> None:
        self.query_one("#qa-ask", Button).disabled = False

    def show(self, event: Event) -> None:
        """One engine event, in its own words, in the view it belongs to."""
        line = escape(event.summary())
        if isinstance(event, EntityLinked):
            self.show_status(event.summary())
        elif isinstance(event, SolutionChosen):
            ranked = ", ".join(f"{key} {score:.2f}" for key, score in event.candidates[:3])
            self.query_one("#qa-solution", Static).update(f"[b]{line}[/]\n[dim]candidates: {escape(ranked)}[/]")
        elif isinstance(event, ProgramWritten):
            self.query_one("#qa-program", Static).update(
                Syntax(show_controls(event.source), "python", word_wrap=True, theme="ansi_dark"))
        elif isinstance(event, ProgramRan):
            result = event.result
            shown = escape(json.dumps(result.value, indent=2, ensure_ascii=False)[:4000]) if result.ok else ""
            self.query_one("#qa-result", Static).update(f"{shown}\n[dim]{line}[/]" if shown else f"[red]{line}[/]")
        elif isinstance(event, FeedbackRound | FeedbackFinished):
            good = event.ok if isinstance(event, FeedbackRound) else event.status == "solved"
            colour = "green" if good else "yellow"
            self._feedback_lines.append(f"[{colour}]{line}[/]")
            self.query_one("#qa-feedback", Static).update("\n".join(self._feedback_lines))
        elif isinstance(event, AnswerPhrased | Abstained):
            # the answer (or the sentence saying what the library lacks) and the calls it came from
            shown = plain(event.text, "bold" if isinstance(event, AnswerPhrased) else "bold yellow")
            if event.sources:
                shown = Text.assemble(shown, "\n", plain(f"from {'; '.join(event.sources)}", "dim"))
            self.query_one("#qa-answer", Static).update(shown)
        elif isinstance(event, Failed):
            self.query_one("#qa-answer", Static).update(f"[red]{line}[/]")
        elif isinstance(event, Finished):
            self.history.append(event.answer.as_dict())
            self.query_one("#qa-history", ListView).append(ListItem(Label(event.answer.question)))
            self.show_status(event.summary())
            self.enable_ask()

    @on(ListView.Selected, "#qa-history")
    def recall(self, message: ListView.Selected) -> None:
        index = message.list_view.index
        if index is not None and index < len(self.history):
            entry = self.history[index]
            self.query_one("#qa-question", Input).value = entry["question"]
            self.query_one("#qa-answer", Static).update(plain(entry["answer"] or entry["error"] or "", "bold"))

    @on(Button.Pressed, "#qa-copy")
    def copy_answer(self) -> None:
        if self.history:
            last = self.history[-1]
            self.app.copy_to_clipboard(last["answer"] or "")
            self.query_one("#qa-status", Static).update("[dim]answer copied[/]")

    @on(Button.Pressed, "#qa-export")
    def export(self) -> None:
        folder = self.services.where.data_dir / "exports"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"scholar-qa-{time.strftime('%Y%m%d-%H%M%S')}.json"
        path.write_text(json.dumps(self.history, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
        self.query_one("#qa-status", Static).update(f"[dim]exported {len(self.history)} answers to {path}[/]")

    def on_unmount(self) -> None:
        if self._engine is not None:
            self._engine.close()
