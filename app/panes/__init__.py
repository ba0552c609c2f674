"""Which widget each tab shows: one pane per engine, built from the shared services."""

from __future__ import annotations

from collections.abc import Callable

from textual.widget import Widget

from scholar_tui.app.panes.api_debugger import APIDebuggerPane
from scholar_tui.app.panes.conference import ConferencePane
from scholar_tui.app.panes.library import LibraryPane
from scholar_tui.app.panes.paper_search import PaperSearchPane
from scholar_tui.app.panes.scholar_qa import ScholarQAPane
from scholar_tui.app.panes.settings import SettingsPane

TAB_TITLES = {
    "paper-search": "Paper search",
    "scholar-qa": "Scholar Q&A",
    "conference-qa": "Conference QA",
    "api-debugger": "API debugger",
    "library": "Library",
    "settings": "Settings",
}


PANES: dict[str, Callable[..., Widget]] = {
    "paper-search": lambda services: PaperSearchPane(services, id="paper-search-pane"),
    "scholar-qa": lambda services: ScholarQAPane(services, id="scholar-qa-pane"),
    "conference-qa": lambda services: ConferencePane(services, id="conference-qa-pane"),
    "api-debugger": lambda services: APIDebuggerPane(services, id="api-debugger-pane"),
    "library": lambda services: LibraryPane(services, id="library-pane"),
    "settings": lambda services: SettingsPane(services, id="settings-pane"),
}
