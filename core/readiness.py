"""What is missing before a feature can do anything, and the next step: the one place that knows.

A newcomer opens the app onto an empty library, no conference, no logged loops and, often, no
network. Every tab and CLI command asks here first and shows ``Missing.summary()`` — one line,
what is missing and what to do — instead of running an engine over nothing. Panes and commands
only render the line; they never word it themselves.
"""

from __future__ import annotations

import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlparse

from scholar_tui.core.events import Event

IMPORT_STEP = (
    "import a file (`scholar-tui import arxiv|openalex|unarxive|bibtex PATH`, or the Library tab F5) "
    'or fetch from arXiv/OpenAlex (`scholar-tui library online search arxiv "QUERY"`, or Library tab: '
    "Search online)"
)
OFFLINE_STEP = "import files instead; the local library still answers"  # when arXiv/OpenAlex cannot be asked
SOURCES = {"arXiv": "https://export.arxiv.org/api/query", "OpenAlex": "https://api.openalex.org/works"}


@dataclass
class Missing(Event):
    """Something a feature needs and does not have; ``summary()`` is the line a person reads."""

    what: str  # "library", "people", "conference", "feedback_loops", "network"
    detail: str
    next_step: str
    kind: str = "missing"

    def summary(self) -> str:
        return f"{self.detail}: {self.next_step}"


def library_missing(library) -> Missing | None:
    """The library holds no paper (one count: every table's, ``counts()``, took 0.1 s at 100 k
    papers on the UI thread before each Library search)."""
    if library.paper_count():
        return None
    return Missing("library", "The library is empty", IMPORT_STEP)


def people_missing(library) -> Missing | None:
    """No scholar to ask about (an empty library, or papers without authors)."""
    empty = library_missing(library)
    if empty is not None:
        return empty
    if library.person_count():
        return None
    return Missing("people", "The library has papers but no authors", IMPORT_STEP)


def library_missing_at(where, *, people: bool = False) -> Missing | None:
    """``library_missing`` (``people_missing`` with ``people``) for callers with no connection open:
    the CLI and the panes' workers, before they load any model."""
    from scholar_tui.indexes.library import Library

    library = Library.open(where)
    try:
        return people_missing(library) if people else library_missing(library)
    finally:
        library.close()


def conference_missing(names: list[str]) -> Missing | None:
    if names:
        return None
    return Missing(
        "conference",
        "No conference yet",
        "type a ConferenceQA .json, an .html page or folder, or a URL in the Import box (F3) and press "
        "Import; or `scholar-tui conf import PATH|URL`",
    )


def loops_missing(count: int) -> Missing | None:
    if count:
        return None
    return Missing(
        "feedback_loops",
        "No AutoFeedback loop logged yet",
        'ask in Scholar Q&A (F2) or `scholar-tui ask "…"`; loops that run out of rounds wait here for a fix by hand',
    )


def any_source_connects(timeout_s: float = 1.5, sources: dict[str, str] | None = None) -> bool:
    """Whether one online source accepts a connection: the quick check before a crawl, which must
    not say online while offline (``network_missing`` is the full one, an HTTP request each)."""
    for url in (sources or SOURCES).values():
        try:
            socket.create_connection((urlparse(url).hostname, 443), timeout=timeout_s).close()
            return True
        except OSError:
            continue
    return False


def network_missing(network, sources: dict[str, str] | None = None) -> Missing | None:
    """Which online source cannot be reached, found within ``network.timeout_s`` (probed in parallel)."""
    from scholar_tui.core.doctor import probe_url

    if network.offline:
        return Missing(
            "network",
            "Offline (network.offline is set): arXiv and OpenAlex are not asked",
            f"{OFFLINE_STEP}; `scholar-tui config set network.offline false` to go online",
        )
    sources = sources or SOURCES
    with ThreadPoolExecutor(max_workers=len(sources)) as pool:
        checks = dict(
            zip(sources, pool.map(lambda url: probe_url(url, network.timeout_s), sources.values()), strict=False)
        )
    down = [name for name, check in checks.items() if check.status != "ok"]
    if not down:
        return None
    hosts = ", ".join(f"{name} ({urlparse(sources[name]).netloc})" for name in down)
    return Missing(
        "network", f"Cannot reach {hosts} within {network.timeout_s:g} s", f"online search is off; {OFFLINE_STEP}"
    )
