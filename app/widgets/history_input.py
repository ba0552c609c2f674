"""An input box that remembers: Up and Down walk through past entries (newest first, as a shell
does), and a past entry that starts with what is typed shows dimmed as a suggestion (→ takes it).

The entries come from the history store (core/history.py) when the pane mounts; ``remember`` adds
one as it is asked. What was being typed before Up is kept and comes back with Down.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.suggester import SuggestFromList
from textual.widgets import Input


class HistoryInput(Input):
    BINDINGS = [
        Binding("up", "older", "Previous entry", show=False),
        Binding("down", "newer", "Next entry", show=False),
    ]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.past: list[str] = []  # newest first
        self._position = -1  # -1: the draft, not a past entry
        self._draft = ""

    def set_past(self, entries: list[str]) -> None:
        self.past = list(dict.fromkeys(entry for entry in entries if entry.strip()))
        self.suggester = SuggestFromList(self.past, case_sensitive=False) if self.past else None
        self._position = -1

    def remember(self, text: str) -> None:
        """A newly asked entry goes first (once)."""
        if text.strip():
            self.set_past([text, *[entry for entry in self.past if entry != text]])

    def _show(self, text: str) -> None:
        self.value = text
        self.cursor_position = len(text)

    def action_older(self) -> None:
        if self._position + 1 >= len(self.past):
            return
        if self._position == -1:
            self._draft = self.value
        self._position += 1
        self._show(self.past[self._position])

    def action_newer(self) -> None:
        if self._position == -1:
            return
        self._position -= 1
        self._show(self._draft if self._position == -1 else self.past[self._position])
