"""A path box that completes file names as a shell does: the rest of the name shows dimmed, Tab
(or →) takes it. Folders end in '/', so Tab again goes on into them."""

from __future__ import annotations

import os
from pathlib import Path

from textual.binding import Binding
from textual.suggester import Suggester
from textual.widgets import Input


def complete_path(value: str) -> str | None:
    """``value`` completed as far as the file system makes it unambiguous (or to the first match)."""
    if not value.strip():
        return None
    folder, prefix = os.path.split(os.path.expanduser(value))
    try:
        entries = sorted(Path(folder or ".").iterdir())
    except OSError:  # no such folder, or not allowed to look
        return None
    names = [
        entry.name + ("/" if entry.is_dir() else "")
        for entry in entries
        if entry.name.startswith(prefix) and (prefix.startswith(".") or not entry.name.startswith("."))
    ]
    if not names:
        return None
    common = os.path.commonprefix(names)
    completion = common if len(common) > len(prefix) else names[0]
    return value + completion[len(prefix) :] if completion != prefix else None


class PathSuggester(Suggester):
    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)  # the file system changes under us

    async def get_suggestion(self, value: str) -> str | None:
        return complete_path(value)


class PathInput(Input):
    """An Input for a file path; Tab accepts the suggested completion (else moves focus on)."""

    BINDINGS = [Binding("tab", "complete", "Complete path", show=False)]

    def __init__(self, **kwargs) -> None:
        super().__init__(suggester=PathSuggester(), **kwargs)

    def action_complete(self) -> None:
        if self._suggestion and self._suggestion != self.value:
            self.value = self._suggestion
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()
