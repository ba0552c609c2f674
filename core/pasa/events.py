"""What a PaSa run reports, in order, to whoever consumes it (CLI, TUI, benchmark).

The crawl is a tree: the query (node 0) → [Search] actions → papers → [Expand]ed sections →
papers. Every event that adds to the tree names its node id and its parent's, so a consumer can
grow the tree without knowing the engine. A paper appears once (the queue de-duplicates); its
verdict arrives later as a ``Verdict`` naming the paper.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class CrawlStarted:
    query: str
    date: str | None
    model: str
    query_mode: str  # "candidates": picked from key phrases; "free": written by the model
    rationale_mode: str  # "template" | "model"
    online: bool
    budgets: dict[str, int]
    kind: str = "started"


@dataclass
class CrawlerDecided:
    """One Crawler session's actions (Table 8), as generated and as kept."""

    session: str  # "search" (S_q) | "expand" (S_q+p)
    paper_node: int | None  # the paper an expand session read
    text: str  # the model's response
    actions: list[str]  # the actions that will run
    refused: list[str]  # actions outside the grammar's choices (only a model that ignores it)
    seconds: float
    candidates: list[str] = field(default_factory=list)  # what [Search]/[Expand] could carry
    kind: str = "decided"


@dataclass
class SearchIssued:
    node: int
    parent: int  # 0: the query
    query: str
    retry_of: int | None = None  # the search node whose AutoFeedback asked for this one
    kind: str = "search"


@dataclass
class SectionExpanded:
    node: int
    parent: int  # the paper's node
    paper_id: int
    section: str
    retry_of: int | None = None  # the expand node whose AutoFeedback asked for this one
    kind: str = "expand"


@dataclass
class ToolFeedback:
    """AutoFeedback on one [Search]/[Expand] call, sent after the call (and its retries) ran.

    ``rounds``: one dict per request checked (``kind`` static/dynamic, ``request``, ``ok``,
    ``sub_type`` and ``reason`` when it was found wanting). Retries are the SearchIssued /
    SectionExpanded events with ``retry_of`` set to ``node`` that follow this one.
    """

    node: int
    loop_id: int | None
    status: str  # "solved" | "limit_hit"
    rounds: list[dict]
    kind: str = "feedback"

    @property
    def retried(self) -> bool:
        return len(self.rounds) > 1

    @property
    def reasons(self) -> str:
        """Why the requests found wanting were, joined for one line."""
        return "; ".join(round_["reason"] for round_ in self.rounds if not round_["ok"])


@dataclass
class FoundPaper:
    node: int
    paper_id: int
    title: str
    date: str | None
    depth: int
    arxiv_id: str | None = None
    source: str | None = None  # the library's source: unarxive, reference, openalex, arxiv …


@dataclass
class PapersFound:
    """The papers one action added to the queue (children of the action's node)."""

    parent: int  # the search or section node
    papers: list[FoundPaper]
    duplicates: int  # already in the queue
    over_budget: int  # dropped: the paper budget was spent
    origin: str  # "library" | "online" | "library+online"
    kind: str = "found"


@dataclass
class Verdict:
    paper_id: int
    node: int
    probability: float  # P(True) of the decision token
    decision: bool
    rationale: str
    rationale_kind: str  # "model" | "template"
    kind: str = "verdict"


@dataclass
class CrawlNotice:
    """Something went wrong but the crawl goes on (offline, a source error, a refused action)."""

    message: str
    kind: str = "notice"


@dataclass
class RankedPaper:
    paper_id: int
    title: str
    probability: float
    decision: bool
    rationale: str
    depth: int
    date: str | None = None
    arxiv_id: str | None = None
    url: str | None = None
    found_by: str = ""  # 'search "…"' or 'expand paper:12 §2'


@dataclass
class CrawlFinished:
    results: list[RankedPaper]  # every judged paper, by P(True)
    queue: list[int]  # every paper the Crawler found, in queue order
    stop_reason: str  # "queue exhausted" | "action budget" | "paper budget" | "cancelled"
    actions: int
    llm_calls: int
    seconds: float
    cancelled: bool = False
    kind: str = "finished"

    @property
    def selected(self) -> list[RankedPaper]:
        return [paper for paper in self.results if paper.decision]


Event = (CrawlStarted | CrawlerDecided | SearchIssued | SectionExpanded | ToolFeedback | PapersFound | Verdict
         | CrawlNotice | CrawlFinished)


def event_dict(event: Event) -> dict:
    """JSON-ready form of an event (``--json`` streams these)."""
    return asdict(event)
