"""Putting a PaSa agent together over a library: preparation, tools, options.

``prepare_library`` makes the library crawlable (cited works as papers, see ``works``) and brings
the search index level with it; it is idempotent and cheap once done. ``build_agent`` wires the
model, the embedder, the library and (unless ``network.offline``) the online sources.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ...indexes.library import Library
from ...indexes.library_search import IndexFinished, IndexProgress, LibraryIndex
from scholar_tui.config.locations import Locations
from scholar_tui.config.settings import Settings
from .engine import PaSa, PaSaOptions
from .tools import LibraryTools
from .works import CitedWorks, prepare_cited_works


@dataclass
class Prepared:
    cited: CitedWorks
    index: IndexFinished | None


def prepare_library(where: Locations, library: Library, embedder) -> Iterator[CitedWorks | IndexProgress | IndexFinished]:
    """Cited works first (they must be indexed too), then the index sync; events as they come."""
    yield prepare_cited_works(library)
    yield from LibraryIndex(where, embedder).sync(library)


def prepare(where: Locations, library: Library, embedder) -> Prepared:
    cited, finished = None, None
    for event in prepare_library(where, library, embedder):
        if isinstance(event, CitedWorks):
            cited = event
        elif isinstance(event, IndexFinished):
            finished = event
    assert cited is not None
    return Prepared(cited, finished)


def build_agent(where: Locations, settings: Settings, library: Library, llm, embedder, *,
                options: PaSaOptions | None = None, online: bool | None = None, transport=None,
                search_limit: int = 10, feedback: bool | None = None, feedback_source: str = "pasa") -> PaSa:
    """The agent; ``online`` None follows ``network.offline``, ``transport`` replays recorded answers.

    ``feedback``: send the Crawler's actions through AutoFeedback (None: the ``autofeedback.pasa``
    setting); its loops are logged under ``feedback_source``.
    """
    sources = None
    if online if online is not None else not settings.network.offline:
        from ..library.online import OnlineSources

        sources = OnlineSources(library, settings.network, transport=transport)
    tools = LibraryTools(where, library, embedder, online=sources, search_limit=search_limit)
    loop = None
    if settings.autofeedback.pasa if feedback is None else feedback:
        from ..autofeedback import open_autofeedback
        from .tool_requests import DOCUMENTATION

        loop = open_autofeedback(where, settings, embedder, source=feedback_source, **DOCUMENTATION)
    return PaSa(llm, tools, options, feedback=loop)
