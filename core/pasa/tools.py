"""The Crawler's two tools: search (library hybrid search, plus arXiv/OpenAlex online) and expand.

Search runs the library's hybrid index (vectors + full text, fused by rank) with the query date
as a strict cut-off, as PaSa calls Google with ``before:query_date``. When the network is there
it also asks arXiv and OpenAlex with the same cut-off; what they return is cached into the
library and indexed, so the next search finds it locally. The first sign of no network turns the
online half off for the rest of the crawl and says so once.

Expand takes the references cited in one section of a paper: the library papers they resolve to
(after ``works.prepare_cited_works`` every titled entry resolves). Online, references that carry
an OpenAlex id are fetched from OpenAlex first, which fills in abstracts and adds works the
library lacks. A paper known only from OpenAlex (no full text, so no sections) offers one
pseudo-section, "References", which expands to its OpenAlex referenced works.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scholar_tui.core.library.online import OfflineError, OnlineSources, SourceError
from scholar_tui.core.pasa.citation_context import citing_sentences
from scholar_tui.core.pasa.events import PLAIN_DEPTH
from scholar_tui.core.pasa.evidence import MemoEmbedder
from scholar_tui.core.pasa.prompts import Paper
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import LibraryIndex, SearchHit
from scholar_tui.indexes.pasa_works import expandable_sections, paper_citations, section_citations, section_text

REFERENCES_SECTION = "References"
OFFLINE = "offline: arXiv and OpenAlex cannot be reached; searching the library alone"


@dataclass
class ToolResult:
    paper_ids: list[int]
    origin: str  # "library" | "online" | "library+online"
    notices: list[str] = field(default_factory=list)
    contexts: dict[int, list[str]] = field(default_factory=dict)  # expand: paper id -> the sentences citing it


@dataclass
class Outline:
    """What an expand session sees (S_q+p) and which section names it may expand."""

    paper: Paper
    expandable: list[str]  # names the grammar allows, in paper order
    section_ids: dict[str, int | None]  # name -> section id (None: the OpenAlex pseudo-section)


def section_name(section: dict) -> str | None:
    title = " ".join((section["title"] or "").split())
    if not title:
        return None
    return f"{section['number']} {title}" if section["number"] else title


class LibraryTools:
    """Search and expand over one library; ``online`` is None when working offline."""

    def __init__(
        self,
        where,
        library: Library,
        embedder,
        *,
        online: OnlineSources | None = None,
        search_limit: int = 10,
        plain_limit: int = PLAIN_DEPTH,
        within: set[int] | None = None,
    ) -> None:
        self.where = where
        self.library = library
        self.index = LibraryIndex(where, MemoEmbedder(embedder))
        self.online = online
        self.search_limit = search_limit  # a [Search] action's hits
        self.plain_limit = plain_limit  # the plain search's hits (tests make it small)
        # a collection or tag: library searches look only among these papers (expansions and online
        # searches still bring in what they cite or find)
        self.within = within

    # -- online bookkeeping --------------------------------------------------------------------
    def _went_offline(self, error: Exception, notices: list[str]) -> None:
        notices.append(f"{OFFLINE} ({error})" if isinstance(error, OfflineError) else f"online source failed: {error}")
        if isinstance(error, OfflineError):
            self.online = None  # no network: stop asking for the rest of the crawl

    def _sync_index(self) -> None:
        """Online works just cached embedded, when the library has few others without a vector
        (else they wait for ``library index`` with the rest, found by words meanwhile)."""
        for _ in self.index.sync_if_few(self.library):
            pass

    # -- search ------------------------------------------------------------------------------------
    def search_library(self, query: str, before: str | None) -> list[int]:
        hits = self.index.search(self.library, query, before=before, limit=self.search_limit, within=self.within)
        return [hit.paper_id for hit in hits]

    def plain_search(self, query: str, before: str | None) -> list[SearchHit]:
        """The query as written, searched exactly as `library search --limit 100` and the benchmark's baseline."""
        if self.plain_limit <= 0:
            return []
        return self.index.search(self.library, query, before=before, limit=self.plain_limit, within=self.within)

    def returned_whole_library(self, hits: list[SearchHit], before: str | None) -> bool:
        """Whether these hits are every paper the library holds for this cut-off."""
        # counted in SQLite, not among the vectors: papers without one yet are found by words
        return bool(hits) and len(hits) >= self.index.searchable(before, self.within, self.library)

    def search(self, query: str, before: str | None) -> ToolResult:
        notices: list[str] = []
        online_ids: list[int] = []
        if self.online is not None:
            per_source = max(self.search_limit // 2, 1)
            for ask in (self.online.search_arxiv, self.online.search_openalex):
                if self.online is None:
                    break
                try:
                    online_ids += ask(query, before=before, limit=per_source)
                except (OfflineError, SourceError) as error:
                    self._went_offline(error, notices)
            if online_ids:
                self._sync_index()
        local = self.search_library(query, before)
        merged = list(dict.fromkeys(local + online_ids))
        origin = "library+online" if online_ids else "library"
        return ToolResult(merged, origin, notices)

    # -- expand ------------------------------------------------------------------------------------
    def outline(self, paper_id: int) -> Outline:
        paper = self.library.paper(paper_id)
        if paper is None:
            raise KeyError(f"paper:{paper_id} is not in the library")
        names: list[str] = []
        expandable: list[str] = []
        section_ids: dict[str, int | None] = {}
        for section in expandable_sections(self.library, paper_id):
            name = section_name(section)
            if name is None:
                continue
            if name in section_ids:  # 'Methodology' under two parents: tell them apart
                name = f"{name} (§{section['ordinal']})"
            names.append(name)
            section_ids[name] = section["id"]
            cites_something = section["resolved_count"] > 0 or (
                self.online is not None and section["reference_count"] > 0
            )
            if cites_something:
                expandable.append(name)
        if not names and self.online is not None and paper["openalex_id"]:
            names, expandable = [REFERENCES_SECTION], [REFERENCES_SECTION]
            section_ids[REFERENCES_SECTION] = None
        return Outline(Paper(paper["title"], paper["abstract"] or "", names), expandable, section_ids)

    def expand(self, paper_id: int, outline: Outline, name: str) -> ToolResult:
        if name not in outline.section_ids:
            raise KeyError(f"paper:{paper_id} has no section {name!r}")
        section_id = outline.section_ids[name]
        notices: list[str] = []
        origin = "library"
        if self.online is not None:
            try:
                fetched = self._fetch_online(paper_id, section_id)
                origin = "library+online" if fetched else origin
            except (OfflineError, SourceError) as error:
                self._went_offline(error, notices)
        rows = (
            section_citations(self.library, section_id)
            if section_id is not None
            else paper_citations(self.library, paper_id)
        )
        ids = [row["cited_paper_id"] for row in rows if row["cited_paper_id"] and row["cited_paper_id"] != paper_id]
        contexts: dict[int, list[str]] = {}
        if section_id is not None:
            text = section_text(self.library, section_id)
            for row in rows:
                if row["cited_paper_id"] in ids and row["ordinal"] is not None:
                    contexts.setdefault(row["cited_paper_id"], []).extend(citing_sentences(text, row["ordinal"]))
        return ToolResult(list(dict.fromkeys(ids)), origin, notices, contexts)

    def _fetch_online(self, paper_id: int, section_id: int | None) -> int:
        """OpenAlex records for the section's references (or the paper's referenced works)."""
        online = self.online
        assert online is not None
        if section_id is None:
            fetched = online.fetch_references(paper_id)
        else:
            wanted = []
            for row in section_citations(self.library, section_id):
                cited = self.library.paper(row["cited_paper_id"]) if row["cited_paper_id"] else None
                if row["openalex_id"] and (cited is None or not cited["abstract"]):
                    wanted.append(row["openalex_id"])
            if not wanted:
                return 0
            fetched = online.cache_works(online.openalex.works_by_ids(wanted))
        if fetched:
            self._sync_index()
        return len(fetched)
