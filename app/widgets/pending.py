"""What a tab shows while its engine has not landed yet: plainly that, and what is coming."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown


class PendingPane(VerticalScroll):
    def __init__(self, title: str, issue: int, summary: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.title_text = title
        self.issue = issue
        self.summary = summary

    def compose(self) -> ComposeResult:
        yield Markdown(
            f"## {self.title_text}\n\n"
            f"**Not built yet.** This pane's engine lands with issue #{self.issue}.\n\n"
            f"{self.summary}\n\n"
            "Meanwhile the model runtime works: open **Settings** (F6) to try the active model, "
            "switch models, or run the doctor.",
            classes="pending",
        )
