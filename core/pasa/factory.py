"""Opening PaSa over a library: preparing the library, then the engine, in one factory, ``open_pasa``.

``prepare_library`` makes the library crawlable (cited works as papers, see ``works``) and brings
the search index level with it when few papers lack a vector (``LibraryIndex.sync_if_few``, the
rule library search follows); when many do (a large import, bibliographies' cited works) it embeds
nothing and says how many (``IndexDeferred``): the crawl searches them by words, and
``library index`` or the TUI's background index embeds them. It is idempotent and cheap once done. ``open_pasa(services, …)``
prepares first (``prepared_library``), then wires the services' model and embedder, the library, the
Selector's scoring head and (unless ``network.offline``) the online sources into a ``PaSaEngine``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scholar_tui.config.locations import Locations
from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
from scholar_tui.core.pasa.events import PLAIN_DEPTH
from scholar_tui.core.pasa.selector_head import SelectorHead, load_head
from scholar_tui.core.pasa.tools import OFFLINE, LibraryTools
from scholar_tui.core.pasa.works import CitedWorks, prepare_cited_works
from scholar_tui.core.readiness import any_source_connects, library_missing
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import IndexDeferred, IndexFinished, IndexProgress, LibraryIndex

if TYPE_CHECKING:
    from scholar_tui.core.services import Services

Preparation = CitedWorks | IndexProgress | IndexFinished | IndexDeferred
Progress = Callable[[Preparation], None]


class EmptyLibrary(ValueError):
    """No paper to search: said plainly (``core.readiness`` words it), never a crawl (or a feedback
    loop) over an empty pool."""


@dataclass
class Prepared:
    cited: CitedWorks
    index: IndexFinished | None


def check_not_empty(library: Library) -> None:
    missing = library_missing(library)
    if missing is not None:
        raise EmptyLibrary(missing.summary())


def prepare_library(where: Locations, library: Library, embedder) -> Iterator[Preparation]:
    """Cited works first (they must be indexed too), then the index sync when few papers lack a
    vector, else ``IndexDeferred`` (the first search must not wait for the whole library to be
    embedded: hours at 100 k papers); events as they come."""
    yield prepare_cited_works(library)
    yield from LibraryIndex(where, embedder).sync_if_few(library)


def prepare(where: Locations, library: Library, embedder) -> Prepared:
    cited, finished = None, None
    for event in prepare_library(where, library, embedder):
        if isinstance(event, CitedWorks):
            cited = event
        elif isinstance(event, IndexFinished):
            finished = event
    assert cited is not None
    return Prepared(cited, finished)


def prepared_library(services: Services, on_progress: Progress | None = None) -> Library:
    """A new library connection, checked not empty (``EmptyLibrary``, before any model loads), then
    prepared (cited works, the index) with the services' embedder; the caller closes it.

    ``on_progress`` sees each preparation event as it comes (the front ends choose what to show)."""
    library = services.library()
    try:
        check_not_empty(library)
        for event in prepare_library(services.where, library, services.embedder()):
            if on_progress is not None:
                on_progress(event)
    except BaseException:
        library.close()
        raise
    return library


def open_pasa(
    services: Services,
    *,
    on_progress: Progress | None = None,
    library: Library | None = None,
    options: PaSaOptions | None = None,
    online: bool | None = None,
    transport=None,
    search_limit: int = 10,
    plain_depth: int = PLAIN_DEPTH,
    feedback: bool | None = None,
    feedback_source: str = "pasa",
    head: SelectorHead | None = None,
    within: set[int] | None = None,
) -> PaSaEngine:
    """Prepare the library, then open the engine over it: the one way `search`, `bench pasa` and the
    Paper search tab open PaSa. Use it as a context manager: it closes the library connection it
    opened (``library`` given: the caller's, prepared as it is and left open).

    ``on_progress``: each preparation event (``prepared_library``). ``online`` None follows
    ``network.offline``, ``transport`` replays recorded answers, ``plain_depth`` is how many of the
    plain search's hits start the pool. ``feedback``: send the Crawler's actions through AutoFeedback
    (None: the ``autofeedback.pasa`` setting); its loops are logged under ``feedback_source``.
    ``head``: the Selector's scoring head (None: the user's trained one from the data folder, else the
    shipped default). ``within``: the papers of a collection or tag (``core.library.labels``) that
    library searches keep to.
    """
    settings, where = services.settings, services.where
    if library is None:
        library = prepared_library(services, on_progress)
        owned: Library | None = library
    else:
        check_not_empty(library)
        owned = None
    try:
        embedder = services.embedder()
        sources, notice = None, None
        if online if online is not None else not settings.network.offline:
            from scholar_tui.core.library.online import OnlineSources

            if transport is None and not any_source_connects():
                notice = OFFLINE
            else:
                sources = OnlineSources(library, settings.network, transport=transport)
        tools = LibraryTools(
            where, library, embedder, online=sources, search_limit=search_limit, plain_limit=plain_depth, within=within
        )
        loop = None
        if settings.autofeedback.pasa if feedback is None else feedback:
            from scholar_tui.core.autofeedback import open_autofeedback
            from scholar_tui.core.pasa.tool_requests import DOCUMENTATION

            loop = open_autofeedback(services, source=feedback_source, **DOCUMENTATION)
        engine = PaSaEngine(services.llm(), tools, options, feedback=loop, head=head or load_head(where.data_dir))
    except BaseException:
        if owned is not None:
            owned.close()
        raise
    engine.offline_notice = notice
    if owned is not None:
        engine.owns(owned.close)
    if loop is not None:
        engine.owns(loop.close)
    return engine
