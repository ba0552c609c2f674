"""The Crawler's PPO environment over the real library (``--environment library``).

The same tools the PaSa engine uses, synchronously and offline: [Search] is the library's hybrid
search with the query date as cut-off, [Expand] takes the library papers a section of the current
paper cites. Training queries and their answer sets (Eq. 1's P) are the AutoScholarQuery-style set
built from the library (``core.pasa.queries``), or a saved one (``--environment library:FILE``).

Paper ids are ``paper:N`` strings (the protocol's ids are strings). No torch here.
"""

from __future__ import annotations

from pathlib import Path

from scholar_tui.core.pasa.prompts import CrawlerAction, Paper
from scholar_tui.core.pasa.queries import ScholarQuery, build_queries, read_queries
from scholar_tui.core.pasa.tools import LibraryTools, Outline
from scholar_tui.indexes.library import Library
from scholar_tui.training.crawler_env import SelectorScore, StepPaper
from scholar_tui.training.errors import TrainingError


def _paper_id(value: str) -> int:
    text = value[len("paper:") :] if value.startswith("paper:") else value
    if not text.isdigit():
        raise TrainingError(f"not a library paper id: {value!r} (expected paper:N)")
    return int(text)


class LibraryCrawlerEnvironment:
    def __init__(
        self,
        where,
        library: Library,
        embedder,
        queries: list[ScholarQuery],
        *,
        search_limit: int = 10,
        selector: SelectorScore | None = None,
    ) -> None:
        self.tools = LibraryTools(where, library, embedder, online=None, search_limit=search_limit)
        self.library = library
        self.queries = {query.query: query for query in queries}
        self._selector = selector
        self._queues: dict[str, list[int]] = {}
        self._query: str | None = None
        self._outline: Outline | None = None
        self._paper: int | None = None

    @classmethod
    def from_home(cls, queries_file: str | Path | None = None, *, embedder=None) -> "LibraryCrawlerEnvironment":
        """The library in SCHOLAR_TUI_HOME (or the platform's folders), prepared for crawling."""
        from scholar_tui.config.locations import locations
        from scholar_tui.config.settings import load_settings
        from scholar_tui.core.pasa.factory import prepare
        from scholar_tui.models import load_embedder

        where = locations()
        settings = load_settings(where)
        library = Library.open(where)
        if library.counts()["papers"] == 0:
            raise TrainingError(f"the library at {where.database_file} is empty: import papers first")
        embedder = embedder or load_embedder(settings)
        prepare(where, library, embedder)
        queries = read_queries(queries_file) if queries_file else build_queries(library).queries
        if not queries:
            raise TrainingError("no training queries: the library has no related-work passages with citations")
        return cls(where, library, embedder, queries)

    # -- the protocol ------------------------------------------------------------------------------
    def training_queries(self) -> list[str]:
        return list(self.queries)

    def paper(self, paper_id: int) -> Paper:
        return self.tools.outline(paper_id).paper

    def queue(self, query: str) -> list[str]:
        return [f"paper:{paper_id}" for paper_id in self._queues.get(query, [])]

    def reset(self, query: str) -> None:
        self._queues[query] = []
        self._query, self._paper, self._outline = query, None, None

    def expand(self, query: str, paper_id: str) -> Paper:
        if query not in self._queues:
            raise TrainingError(f"expand session for a query with no trajectory: reset({query!r}) first")
        number = _paper_id(paper_id)
        try:
            self._outline = self.tools.outline(number)
        except KeyError as error:
            raise TrainingError(str(error)) from error
        self._query, self._paper = query, number
        return self._outline.paper

    def _cutoff(self) -> str | None:
        known = self.queries.get(self._query or "")
        return known.query_date if known else None

    def step(self, action: CrawlerAction) -> list[StepPaper]:
        if self._query is None:
            raise TrainingError("step() before reset(query)")
        if action.kind == "Search" and action.argument.strip():
            candidates = self.tools.search_library(action.argument, self._cutoff())
        elif action.kind == "Expand" and self._outline is not None and action.argument in self._outline.section_ids:
            result = self.tools.expand(self._paper, self._outline, action.argument)
            candidates = result.paper_ids
        else:  # [Stop], a section the paper does not have, [Expand] in a search session
            candidates = []
        queue = self._queues[self._query]
        found = []
        for paper_id in candidates:
            if paper_id not in queue:
                queue.append(paper_id)
                found.append(StepPaper(f"paper:{paper_id}", self.paper(paper_id)))
        return found

    def is_relevant(self, query: str, paper_id: str) -> bool:
        known = self.queries.get(query)
        return known is not None and _paper_id(paper_id) in known.answer_ids

    def selector_probability(self, query: str, paper: Paper) -> float | None:
        return self._selector(query, paper) if self._selector else None
