"""Text from outside (imported data, a model's words, a program's value or error) inside Rich markup."""

from __future__ import annotations

from rich.markup import escape as escape_markup

from scholar_tui.indexes.records import show_controls


def escape(text: str) -> str:
    """``text`` for a markup string: Rich markup escaped, and each control character made visible.

    Textual passes ESC through to the terminal (it strips only BEL, BS, VT, FF and CR): a value
    holding ``\\x1b]0;…`` would retitle the window, ``\\x9b2J`` (C1's CSI) clear the screen.
    """
    return escape_markup(show_controls(text))
