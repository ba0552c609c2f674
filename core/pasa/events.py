"""What a PaSa run reports, in order, to whoever consumes it (CLI, TUI, benchmark).

The crawl is a tree: the query (node 0) → the plain search of the query as written and the
Crawler's [Search] actions → papers → [Expand]ed sections → papers. Every event that adds to the
tree names its node id and its parent's, so a consumer can grow the tree without knowing the
engine. A paper appears once (the pool de-duplicates); its score arrives later in a ``Ranking``.

Every event is a ``core.events.Event``: ``summary()`` is its one line for the CLI, the status bar
and the tab; ``to_json()`` is what ``--json`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from scholar_tui.core.events import Event, FeedbackFinished, counted
from scholar_tui.core.pasa.fit import closest_line


@dataclass
class CrawlStarted(Event):
    query: str
    date: str | None
    model: str
    query_mode: str  # "candidates": picked from key phrases; "free": written by the model
    rationale_mode: str  # "template" | "model"
    online: bool
    budgets: dict[str, float]
    head: str = ""  # where the Selector's scoring head came from
    kind: str = "started"

    def summary(self) -> str:
        network = "online" if self.online else "offline: arXiv and OpenAlex are not asked"
        return (
            f"PaSa with {self.model} ({self.query_mode} queries, {self.rationale_mode} rationales, {network}) · "
            f"cut-off {self.date or 'none'} · head: {Path(self.head).name if self.head else 'none (P(True) alone)'}"
        )


@dataclass
class CrawlerDecided(Event):
    """One Crawler session's actions (Table 8), as generated and as kept."""

    session: str  # "search" (S_q) | "expand" (S_q+p)
    paper_node: int | None  # the paper an expand session read
    text: str  # the model's response
    actions: list[str]  # the actions that will run
    refused: list[str]  # actions outside the grammar's choices (only a model that ignores it)
    seconds: float
    candidates: list[str] = field(default_factory=list)  # what [Search]/[Expand] could carry
    kind: str = "decided"

    def summary(self) -> str:
        who = "search session" if self.session == "search" else "expand session"
        refused = f" · refused {self.refused}" if self.refused else ""
        return f"Crawler ({who}, {self.seconds:.1f} s): {self.text}{refused}"


@dataclass
class SearchIssued(Event):
    node: int
    parent: int  # 0: the query
    query: str
    retry_of: int | None = None  # the search node whose AutoFeedback asked for this one
    plain: bool = False  # the user's query as written, at the plain search's depth
    kind: str = "search"

    def summary(self) -> str:
        if self.plain:
            return f"plain search (the query as written, top {PLAIN_DEPTH})"
        return f"{'↻ ' if self.retry_of else ''}[Search] {self.query}"


@dataclass
class SectionExpanded(Event):
    node: int
    parent: int  # the paper's node
    paper_id: int
    section: str
    retry_of: int | None = None  # the expand node whose AutoFeedback asked for this one
    kind: str = "expand"

    def summary(self) -> str:
        return f"{'↻ ' if self.retry_of else ''}[Expand] paper:{self.paper_id} “{self.section}”"


@dataclass
class CallFeedback(FeedbackFinished):
    """AutoFeedback's end on one [Search]/[Expand] call, with the tree node the call is on.

    Retries are the SearchIssued / SectionExpanded events with ``retry_of`` = ``node`` that follow.
    """

    node: int = 0

    @property
    def retried(self) -> bool:
        return len(self.rounds) > 1


@dataclass
class FoundPaper:
    """A paper as it enters the pool (one class for the whole project: the pane and CLI read it)."""

    node: int
    paper_id: int
    title: str
    date: str | None
    depth: int
    arxiv_id: str | None = None
    source: str | None = None  # the library's source: unarxive, reference, openalex, arxiv …


@dataclass
class PapersFound(Event):
    """The papers one action added to the pool (children of the action's node)."""

    parent: int  # the search or section node
    papers: list[FoundPaper]
    duplicates: int  # already in the pool
    over_budget: int  # dropped: the paper budget was spent
    origin: str  # "library" | "online" | "library+online"
    kind: str = "found"

    def summary(self) -> str:
        extra = "".join(
            [
                f", {self.duplicates} already in the pool" if self.duplicates else "",
                f", {self.over_budget} over the paper budget" if self.over_budget else "",
            ]
        )
        return f"→ {counted(len(self.papers), 'new paper')} ({self.origin}{extra})"


@dataclass
class Verdict(Event):
    """The Selector's decision token on one paper: P(True), an input of the score."""

    paper_id: int
    node: int
    probability: float  # P(True) of the decision token
    kind: str = "verdict"

    def summary(self) -> str:
        return f"P(True) {self.probability:.2f} paper:{self.paper_id}"


@dataclass
class CrawlNotice(Event):
    """Something went wrong but the crawl goes on (offline, a source error, a refused action)."""

    message: str
    kind: str = "notice"

    def summary(self) -> str:
        return f"! {self.message}"


@dataclass
class ScoreParts:
    """What a paper's score is made of, each shown beside it (the head's inputs, readable)."""

    p_true: float | None  # None: the Selector's model did not judge it (its mean stands in)
    query_dense: float  # cosine of the query and the title + abstract
    query_lexical: float  # share of the query's words in the title + abstract
    citation_context: float  # the best citing sentence's match with the query (0: none)
    citing_sentence: str  # that sentence, as the expanded section says it
    plain_rank: int | None  # rank in the plain search's top 100 (None: the crawl found it)
    found_by: int  # how many searches/expansions found it
    cited_by_pool: int  # papers in the pool that cite it
    depth: int
    pool_coherence: float = 0.0  # cosine with the centroid of the plain search's top hits (evidence.py)


@dataclass
class RankedPaper:
    paper_id: int
    title: str
    score: float  # the scoring head's calibrated probability of relevance
    selected: bool  # by the head's rule (the expected-F1 cut); the rationale says why
    parts: ScoreParts
    rationale: str
    depth: int
    date: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    found_by: str = ""  # 'plain search', 'search "…"' or 'expand paper:12 §2'

    @property
    def probability(self) -> float | None:
        return self.parts.p_true

    def line(self) -> str:
        mark = "✓" if self.selected else "·"
        p_true = "  -" if self.parts.p_true is None else f"{self.parts.p_true:.2f}"
        return (
            f"{mark} score {self.score:.2f} (P(True) {p_true}, query {self.parts.query_dense:.2f}/"
            f"{self.parts.query_lexical:.2f}, context {self.parts.citation_context:.2f})  paper:{self.paper_id}  "
            f"{self.date or '????'}  {self.title}"
        )


@dataclass
class Ranking(Event):
    """The pool ranked by score so far: the plain search's hits by the head's prior, then with the
    Selector's first verdicts while the crawl goes on ("early"), then the final ranking ("judged")."""

    results: list[RankedPaper]
    stage: str  # "plain" (before any model call) | "early" (a few hits judged, the crawl goes on) | "judged"
    seconds: float  # since the run started
    judged: int = 0  # papers the Selector's model has judged in this ranking ("early": the first few)
    judging: int = 0  # "early": how many it judges before the crawl (the last early ranking has judged == judging)
    kind: str = "ranking"

    @property
    def interim(self) -> bool:
        """A ranking by the model before the crawl ends: shown at once, replaced by the final one."""
        return self.stage == "early"

    @property
    def last_interim(self) -> bool:
        """The last ranking before the crawl: every paper the early step judges is in it."""
        return self.interim and self.judged >= self.judging

    def summary(self) -> str:
        chosen = sum(paper.selected for paper in self.results)
        if self.interim:
            return (
                f"ranked {len(self.results)} papers so far ({self.judged} of {self.judging} judged by the Selector; "
                "the crawl goes on), "
                f"{chosen} selected · {self.seconds:.1f} s"
            )
        return f"ranked {len(self.results)} papers ({self.stage}), {chosen} selected · {self.seconds:.1f} s"


@dataclass
class CrawlFinished(Event):
    results: list[RankedPaper]  # every paper of the pool, by score
    queue: list[int]  # every paper of the pool, in the order it was found
    stop_reason: str  # "queue exhausted" | "action budget" | "paper budget" | "cancelled" | "time budget"
    actions: int
    llm_calls: int
    seconds: float
    first_results_seconds: float | None = None  # when the first ranking was ready
    cancelled: bool = False
    library_added: int = 0  # papers the crawl brought into the library (online searches, cited works)
    kind: str = "finished"

    @property
    def selected(self) -> list[RankedPaper]:
        return [paper for paper in self.results if paper.selected]

    @property
    def nothing_fits(self) -> str | None:
        """The plain sentence when nothing was selected ("No paper in the library fits: closest are …"), else None."""
        if self.selected or self.cancelled:
            return None
        return closest_line([paper.title for paper in self.results])

    def summary(self) -> str:
        state = "cancelled" if self.cancelled else "done"
        added = f"; {counted(self.library_added, 'paper')} added to the library" if self.library_added else ""
        return (
            f"{state}: {len(self.queue)} papers in the pool, {len(self.selected)} selected, {counted(self.actions, 'action')}, "
            f"{counted(self.llm_calls, 'model call')}, {self.seconds:.1f} s ({self.stop_reason}){added}"
        )


PLAIN_DEPTH = 100  # the plain search's result count, as `library search` and the benchmark's baseline use

__all__ = [
    "CallFeedback",
    "CrawlFinished",
    "CrawlNotice",
    "CrawlStarted",
    "CrawlerDecided",
    "Event",
    "FoundPaper",
    "PapersFound",
    "Ranking",
    "RankedPaper",
    "ScoreParts",
    "SearchIssued",
    "SectionExpanded",
    "Verdict",
]
