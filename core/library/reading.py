"""Reading a library paper: open its PDF or page, its citation as BibTeX, its abstract as Unicode.

What the Paper search (F1) and Library (F5) tabs do with the paper in front of a person, in one
place so both do it alike:

- ``open_paper``: the local PDF it was read from when that file is still there, else its URL (the
  source's link, arXiv's page, the DOI's resolver), handed to a launcher; the default is
  ``click.launch`` (the system's viewer or browser, started without a shell); tests inject theirs.
- ``bibtex_entry``: one paper as a BibTeX entry, written by the app's BibTeX writer.
- ``abstract_text``: LaTeX in an abstract (``$x^2$``, ``\\alpha``, ``\\emph{…}``) as Unicode
  (``x²``, ``α``), through pylatexenc; super- and subscripts pylatexenc leaves as ``^2`` are
  turned into Unicode ones where every character has one.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scholar_tui.indexes.library import Library

Launcher = Callable[[str], object]
SUPERSCRIPT = dict(zip("0123456789+-=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱ", strict=False))
SUBSCRIPT = dict(zip("0123456789+-=()aeoxijnmkt", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓᵢⱼₙₘₖₜ", strict=False))
MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)", re.S)
SCRIPT = re.compile(r"([\^_])(?:\{([^{}]*)\}|(\\?[A-Za-z0-9+\-=()]))")


@dataclass
class Opened:
    target: str | None  # the file or URL handed to the launcher (None: nothing to open)
    message: str  # one line for the status bar


def reading_target(paper: dict) -> str | None:
    """The paper's local PDF when it is still on disk, else a URL for it, else None."""
    pdf = paper.get("pdf_path")
    if pdf and Path(pdf).is_file():
        return pdf
    if paper.get("url"):
        return paper["url"]
    if paper.get("arxiv_id"):
        return f"https://arxiv.org/abs/{paper['arxiv_id']}"
    if paper.get("doi"):
        return f"https://doi.org/{paper['doi']}"
    return None


def has_display() -> bool:
    """A graphical viewer can open: a text browser started from here would take over the terminal."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def system_launcher(target: str) -> object:
    """The system's PDF viewer or browser (xdg-open, open, start), never through a shell."""
    import click

    if not has_display():
        raise OSError("no graphical display here; open it yourself")
    return click.launch(target)


def open_paper(library: Library, paper_id: int, launch: Launcher = system_launcher) -> Opened:
    paper = library.paper(paper_id)
    if paper is None:
        return Opened(None, f"paper:{paper_id} is not in the library")
    target = reading_target(paper)
    if target is None:
        return Opened(None, f"paper:{paper_id} has no PDF and no link to open")
    try:
        launch(target)
    except OSError as error:  # no viewer installed, no display
        return Opened(target, f"could not open {target}: {error.strerror or error}")
    kind = "PDF" if not re.match(r"https?://", target) else "link"
    return Opened(target, f"opened the {kind}: {target}")


def bibtex_entry(library: Library, paper_id: int) -> str:
    """One paper as BibTeX, by the app's writer (the one place that calls it for a single entry)."""
    from scholar_tui.core.library.bibtex import write_bibtex

    paper = library.paper(paper_id)
    if paper is None:
        raise KeyError(f"paper:{paper_id} is not in the library")
    return write_bibtex([(paper, library.paper_author_names(paper_id))])


def _scripts(math: str) -> str:
    def replace(match: re.Match) -> str:
        body = match.group(2) if match.group(2) is not None else match.group(3)
        table = SUPERSCRIPT if match.group(1) == "^" else SUBSCRIPT
        if body and all(char in table for char in body):
            return "".join(table[char] for char in body)
        return match.group(0)

    # '\alpha_i' -> '\alpha{}ᵢ': a Unicode subscript letter must not become part of the macro's name
    return SCRIPT.sub(replace, re.sub(r"(\\[A-Za-z]+)(?=[\^_])", r"\1{}", math))


def abstract_text(text: str | None) -> str:
    """``text`` with its LaTeX rendered as Unicode; text without LaTeX comes back unchanged."""
    if not text:
        return ""
    if "$" not in text and "\\" not in text:
        return text
    from pylatexenc.latex2text import LatexNodes2Text

    prepared = MATH.sub(
        lambda match: "$" + _scripts(next(group for group in match.groups() if group is not None)) + "$", text
    )
    try:
        rendered = LatexNodes2Text(math_mode="text", strict_latex_spaces=True).latex_to_text(prepared)
    except Exception:
        return text
    return " ".join(rendered.split()) or text
