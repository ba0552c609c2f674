"""Text that did not come from us (imported data, a model's words, a program's value or error, site
data, a config value, an HTTP body) on its way to the screen.

The one rule: such text is never parsed as Rich markup and never reaches the terminal with its
control characters. ``plain()`` makes a ``rich.text.Text`` of it (the preferred form: nothing in it
is markup); ``escape()`` is for the few places that must still build a markup string around it.
"""

from __future__ import annotations

from rich.markup import escape as escape_markup
from rich.text import Text

from scholar_tui.indexes.records import show_controls


def escape(text: str) -> str:
    """``text`` for a markup string: Rich markup escaped, and each control character made visible.

    Textual passes ESC through to the terminal (it strips only BEL, BS, VT, FF and CR): a value
    holding ``\\x1b]0;…`` would retitle the window, ``\\x9b2J`` (C1's CSI) clear the screen.
    """
    return escape_markup(show_controls(text))


def plain(text: object, style: str = "") -> Text:
    """Outside text as a ``Text``: shown literally (``[@click=…]`` stays those characters), with each
    control character made visible (``\\x1b``); anything not a string is shown as ``str()`` of it."""
    return Text(show_controls(text if isinstance(text, str) else str(text)), style=style)
