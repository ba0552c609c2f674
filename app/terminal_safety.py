"""Outside text on a terminal: each control character shown as its escape, never written raw.

Both front ends show text that did not come from us (a title, a model's reply, a program's value,
an HTTP body): the CLI through ``cli_support.terminal_text`` and the TUI through
``widgets.markup``'s ``visible``/``editable``; both pass it through ``show_controls``. Import strips
control characters already (``indexes.records.strip_controls``, the same ``CONTROLS``); what was
stored before that, and text that never passed an importer, may still hold some.
"""

from __future__ import annotations

from scholar_tui.indexes.records import CONTROLS


def show_controls(text: str) -> str:
    """``text`` safe for a terminal: each control character becomes a visible escape (``\\x1b``),
    so it cannot move the cursor, clear the screen or retitle a window."""
    return CONTROLS.sub(lambda match: ascii(match.group(0))[1:-1], text)
