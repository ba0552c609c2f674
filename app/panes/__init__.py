"""Which widget each tab shows.

When a feature's engine lands, its tab's entry here changes from a PendingPane to the real pane.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual.widget import Widget

from ..widgets.pending import PendingPane
from .settings import SettingsPane

TAB_TITLES = {
    "paper-search": "Paper search",
    "scholar-qa": "Scholar Q&A",
    "conference-qa": "Conference QA",
    "api-debugger": "API debugger",
    "library": "Library",
    "settings": "Settings",
}


def _pending(tab_id: str, issue: int, summary: str) -> Callable[..., Widget]:
    return lambda services: PendingPane(TAB_TITLES[tab_id], issue, summary, id=f"{tab_id}-pane")


PANES: dict[str, Callable[..., Widget]] = {
    "paper-search": _pending(
        "paper-search", 6,
        "Crawler and Selector agents (PaSa) search the library, arXiv and OpenAlex, expand citations "
        "section by section, and rank papers by the Selector's P(True). The crawl tree grows live here.",
    ),
    "scholar-qa": _pending(
        "scholar-qa", 4,
        "SoAy answers questions about scholars and papers: it picks a solution (a chain of academic "
        "APIs), writes a short program, runs it in a sandbox and shows solution, program, result and answer.",
    ),
    "conference-qa": _pending(
        "conference-qa", 7,
        "STAR answers questions from conference websites: every root-to-leaf path gets a description, "
        "descriptions are embedded in LanceDB, and the top-5 paths answer with their evidence.",
    ),
    "api-debugger": _pending(
        "api-debugger", 5,
        "AutoFeedback checks every API request statically (E1–E4) and dynamically; loops that ran out "
        "of rounds are listed here to read, edit and resend.",
    ),
    "library": _pending(
        "library", 3,
        "The local library of papers and scholars: counts, imports (unarXive, OpenAlex, arXiv, BibTeX) "
        "with progress, hybrid search and paper details.",
    ),
    "settings": lambda services: SettingsPane(services, id="settings-pane"),
}
