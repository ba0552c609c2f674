"""The paper queue and the crawl's budgets (PaSa §4.2, §5.2).

Every paper the Crawler finds is appended once (de-duplicated by library id) with its depth:
papers found by [Search] are at depth 1, papers cited by a section of a depth-d paper at d + 1.
The Crawler then reads queued papers in order (an expand session, S_q+p) while their depth is
below the limit — PaSa limits exploration to depth three — and while actions remain.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budgets:
    max_actions: int = 8  # [Search] + [Expand] actions run, over the whole crawl
    max_papers: int = 40  # papers in the queue
    max_depth: int = 3  # papers deeper than this are never added; at this depth, never expanded
    actions_per_session: int = 3  # actions one session's response may hold before [Stop]

    def as_dict(self) -> dict[str, int]:
        return {"max_actions": self.max_actions, "max_papers": self.max_papers, "max_depth": self.max_depth,
                "actions_per_session": self.actions_per_session}


@dataclass
class QueuedPaper:
    paper_id: int
    node: int
    depth: int
    found_by: str
    expanded: bool = False


class PaperQueue:
    def __init__(self, budgets: Budgets) -> None:
        self.budgets = budgets
        self._papers: dict[int, QueuedPaper] = {}
        self._cursor = 0  # the next paper an expand session reads
        self.actions = 0

    def __contains__(self, paper_id: int) -> bool:
        return paper_id in self._papers

    def __len__(self) -> int:
        return len(self._papers)

    @property
    def papers(self) -> list[QueuedPaper]:
        return list(self._papers.values())

    def get(self, paper_id: int) -> QueuedPaper | None:
        return self._papers.get(paper_id)

    @property
    def full(self) -> bool:
        return len(self._papers) >= self.budgets.max_papers

    @property
    def actions_left(self) -> int:
        return max(self.budgets.max_actions - self.actions, 0)

    def spend_action(self) -> bool:
        """Take one action from the budget; False when none is left."""
        if self.actions >= self.budgets.max_actions:
            return False
        self.actions += 1
        return True

    def add(self, paper_id: int, node: int, depth: int, found_by: str) -> str:
        """'added', 'duplicate', 'full' or 'too deep'."""
        if paper_id in self._papers:
            return "duplicate"
        if depth > self.budgets.max_depth:
            return "too deep"
        if self.full:
            return "full"
        self._papers[paper_id] = QueuedPaper(paper_id, node, depth, found_by)
        return "added"

    def next_to_expand(self) -> QueuedPaper | None:
        """The next queued paper that may still be expanded (FIFO: the crawl goes breadth first)."""
        papers = list(self._papers.values())
        while self._cursor < len(papers):
            paper = papers[self._cursor]
            self._cursor += 1
            if paper.depth < self.budgets.max_depth and not paper.expanded:
                paper.expanded = True
                return paper
        return None
