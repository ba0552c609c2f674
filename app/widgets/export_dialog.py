"""A small dialog that asks where to export and in which format (Library tab): the path box starts
empty, which means exports/ in the data folder (core/exports.py decides), as the hint says."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select

FORMATS = [("BibTeX", "bib"), ("RIS", "ris"), ("CSL-JSON", "json")]


class ExportDialog(ModalScreen[tuple[str, str, str] | None]):
    """Returns (path as typed, format, scope) or None; scope is "listed" or "library"."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, listed: int, folder: str) -> None:
        super().__init__()
        self.listed = listed
        self.folder = folder

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog"):
            yield Label("Export papers", classes="section-title")
            yield Select(
                [(f"the {self.listed} papers listed", "listed"), ("the whole library", "library")],
                value="listed",
                allow_blank=False,
                id="export-scope",
            )
            yield Select(FORMATS, value="bib", allow_blank=False, id="export-format")
            yield Input(placeholder=f"file (default: {self.folder})", id="export-file")
            with Horizontal(classes="buttons"):
                yield Button("Export", id="export-go", variant="primary")
                yield Button("Cancel", id="export-cancel")

    @on(Button.Pressed, "#export-go")
    @on(Input.Submitted, "#export-file")
    def go(self) -> None:
        self.dismiss(
            (
                self.query_one("#export-file", Input).value,
                str(self.query_one("#export-format", Select).value),
                str(self.query_one("#export-scope", Select).value),
            )
        )

    @on(Button.Pressed, "#export-cancel")
    def cancel(self) -> None:
        self.dismiss(None)
