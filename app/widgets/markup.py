"""Text that did not come from us (imported data, a model's words, a program's value or error, site
data, a config value, an HTTP body) on its way to the screen.

The one rule: such text is never parsed as Rich or Textual markup and never reaches the terminal
with its control characters. Textual parses markup in every ``str`` it is handed — ``Static`` and
``Label`` contents, ``DataTable`` cells, ``Tree`` labels, ``Select`` prompts, notifications, the
command palette — so outside text goes in as a ``rich.text.Text`` built here: ``plain()`` for one
piece, ``assemble()`` for a line of several (our own styling as ``Text`` styles, never tags).
Escaping into a markup string is no substitute: Rich's and Textual's parsers disagree, so an
escaped value shows stray backslashes (``\\[``) or leaks a closing ``[/]`` when it holds an
unbalanced ``[``.
"""

from __future__ import annotations

from rich.markup import escape as escape_markup
from rich.text import Text

from scholar_tui.app.terminal_safety import show_controls

TAB = "    "  # a tab moves the terminal's cursor on its own: shown as spaces

Part = str | Text | tuple[str, str]


def visible(text: object) -> str:
    """``text`` (``str()`` of anything else) with each control character made visible (``\\x1b``)
    and tabs as spaces: nothing in it can move the cursor, retitle the window or write the clipboard.

    Textual passes ESC through to the terminal (it strips only BEL, BS, VT, FF and CR): a value
    holding ``\\x1b]52;c;…`` would write the clipboard, ``\\x9b2J`` (C1's CSI) clear the screen.
    """
    return show_controls(text if isinstance(text, str) else str(text)).replace("\t", TAB)


def editable(text: str) -> str:
    """Text for an editor (``Input``, ``TextArea``), which draws ESC and C1 bytes raw: each control
    character made visible; tabs and line ends stay, CR LF and a lone CR become LF. Inside a string
    literal of a request or a program ``\\x1b`` means what the byte meant."""
    return show_controls(text.replace("\r\n", "\n").replace("\r", "\n"))


def escape(text: str) -> str:
    """``text`` for a markup string (control characters visible). Prefer ``plain()``: see above."""
    return escape_markup(visible(text))


def plain(text: object, style: str = "") -> Text:
    """Outside text as a ``Text``: shown literally (``[@click=…]`` stays those characters), with each
    control character made visible (``\\x1b``); anything not a string is shown as ``str()`` of it."""
    return Text(visible(text), style=style)


def assemble(*parts: Part | None) -> Text:
    """One ``Text`` of several parts: a ``str`` is outside text (made ``plain``), a ``(text, style)``
    pair the same with a style, a ``Text`` is taken as it is (already built here); ``None`` is skipped."""
    text = Text()
    for part in parts:
        if part is None:
            continue
        if isinstance(part, Text):
            text.append_text(part)
        elif isinstance(part, tuple):
            text.append_text(plain(*part))
        else:
            text.append_text(plain(part))
    return text


def notify_plain(app, message: object, **kwargs) -> None:
    """``app.notify`` for a message that may quote outside text (an error naming a path, an HTTP
    body): Textual would parse it as markup (a stray ``[/x]`` crashes the app, a ``[@click]`` runs)."""
    app.notify(visible(message), markup=False, **kwargs)
