"""A chooser of past runs (core/history.py's entries): Enter reopens one, Escape closes."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from scholar_tui.app.widgets.markup import plain


def entry_line(entry: dict) -> Text:
    """One run: when, what was asked, what came back (each line cut at the list's width)."""
    return Text.assemble(
        (entry["created_at"][:16].replace("T", " ") + "  ", "dim"),
        plain(entry["text"], "bold"),
        "\n   ",
        plain(entry["summary"], "" if entry["ok"] else "yellow"),
    )


class PastRunsScreen(ModalScreen[int | None]):
    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, title: str, entries: list[dict]) -> None:
        super().__init__()
        self.title_text = title
        self.entries = entries

    def compose(self) -> ComposeResult:
        with Vertical(id="past-runs"):
            yield Label(f"{self.title_text} · Enter reopens one as it was · Escape closes", classes="section-title")
            yield OptionList(
                *[Option(entry_line(entry), id=str(entry["id"])) for entry in self.entries], id="past-runs-list"
            )

    def on_mount(self) -> None:
        listing = self.query_one("#past-runs-list", OptionList)
        listing.highlighted = 0  # the newest run: Enter reopens it at once
        listing.focus()

    @on(OptionList.OptionSelected, "#past-runs-list")
    def chosen(self, message: OptionList.OptionSelected) -> None:
        self.dismiss(int(message.option.id))
