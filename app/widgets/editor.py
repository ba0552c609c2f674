"""The API debugger's editor: TextArea with the keys people expect in an editor.

TextArea puts select-all on F7, which the app keeps for Help; here ctrl+a selects all (home still
goes to the line start), and Clear empties the editor as one edit that ctrl+z undoes.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import TextArea


class ProgramEditor(TextArea):
    BINDINGS = [
        Binding("ctrl+a", "select_all", "Select all", show=False),
    ]

    def action_clear(self) -> None:
        """Empty the editor through an edit (not ``load_text``), so undo brings the program back."""
        if self.text:
            self.delete((0, 0), self.document.end)
