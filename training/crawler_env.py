"""What the Crawler acts on during PPO: an environment protocol, and a small deterministic toy one.

The protocol (PaSa §4.2): one trajectory per user query, with a paper queue Q that grows as
[Search] and [Expand] add papers. ``reset(query)`` starts the query's trajectory (empty queue, the
search session from S_q); ``expand(query, paper_id)`` starts an expand session from S_{q+p} inside
that trajectory; ``step(action)`` runs one action of the current session and returns the papers it
newly added to the queue (papers already in Q_t are not returned: Eq. 1 gives them nothing).
``is_relevant(query, paper_id)`` is membership of the query's answer set P (Eq. 1's indicator);
``selector_probability(query, paper)`` is the optional Selector score for Eq. 2 (None: no Selector).
The action costs c(a) are PPO hyper-parameters (Table 9), passed to ``count_relevant``'s caller.

``ToyCrawlerEnvironment`` is a dozen papers with sections and references, for tests and CPU smoke
runs; the library-backed environment comes with the PaSa engine. No torch here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from scholar_tui.core.pasa.prompts import CrawlerAction, Paper
from scholar_tui.training.errors import TrainingError

# PaSa Table 9: c([Search]) = c([Expand]) = 0.1, c([Stop]) = 0.
TABLE9_ACTION_COSTS = {"Search": 0.1, "Expand": 0.1, "Stop": 0.0}


@dataclass(frozen=True)
class StepPaper:
    """A paper one Crawler action brought in, as the PPO environment reports it (id and readable record)."""

    paper_id: str
    paper: Paper


class CrawlerEnvironment(Protocol):
    def training_queries(self) -> list[str]: ...

    def reset(self, query: str) -> None: ...

    def expand(self, query: str, paper_id: str) -> Paper: ...

    def step(self, action: CrawlerAction) -> list[StepPaper]: ...

    def is_relevant(self, query: str, paper_id: str) -> bool: ...

    def selector_probability(self, query: str, paper: Paper) -> float | None: ...


SelectorScore = Callable[[str, Paper], "float | None"]


def count_relevant(
    env: CrawlerEnvironment, query: str, found: Iterable[StepPaper], selector: SelectorScore | None = None
) -> int:
    """Sum of Eq. 2's indicator over newly found papers (Eq. 1's when there is no Selector).

    A paper counts when it is in the query's answer set or the Selector says True (its decision
    token: P(True) > 0.5). The environment only returns papers not yet in Q_t, which is Eq. 2's
    second condition.
    """
    from scholar_tui.training.ppo_math import indicator

    total = 0
    for item in found:
        in_answer = env.is_relevant(query, item.paper_id)
        says_true = False
        if selector is not None and not in_answer:
            probability = selector(query, item.paper)
            says_true = probability is not None and probability > 0.5
        total += indicator(in_answer, says_true, already_in_queue=False)
    return total


# -- the toy environment -----------------------------------------------------------------------
_WORD = re.compile(r"[a-z0-9]+")
_STOPWORDS = frozenset(
    "a an and are as at by for from in into is of on or the to with which what studies "
    "papers paper works any about find me give could you provide some".split()
)


def _words(text: str) -> set[str]:
    return {word for word in _WORD.findall(text.lower()) if word not in _STOPWORDS}


@dataclass(frozen=True)
class ToyPaper:
    title: str
    abstract: str
    references: dict[str, list[str]] = field(default_factory=dict)  # section name -> cited paper ids

    def as_paper(self) -> Paper:
        return Paper(self.title, self.abstract, list(self.references))


TOY_PAPERS: dict[str, ToyPaper] = {
    "2010.05468": ToyPaper(
        "TSPNet: Hierarchical Feature Learning via Temporal Semantic Pyramid for Sign Language Translation",
        "We learn hierarchical spatio-temporal features of sign videos for sign language translation.",
        {
            "1 Introduction": ["2111.07258"],
            "2 Related Work": ["2111.07258", "1803.00001", "1905.00003"],
            "4 Experiments": ["1905.00003"],
        },
    ),
    "2111.07258": ToyPaper(
        "Sign Language Translation with Hierarchical Spatio-Temporal Graph Neural Network",
        "A hierarchical graph network captures spatio-temporal features of sign language videos.",
        {"2 Related Work": ["2010.05468", "1803.00001"], "3 Method": ["1706.03762"]},
    ),
    "1803.00001": ToyPaper(
        "Neural Sign Language Translation",
        "The first end-to-end neural model that translates sign language videos into spoken language text.",
        {"2 Related Work": ["1706.03762"]},
    ),
    "1905.00003": ToyPaper(
        "A Survey of Sign Language Recognition and Translation",
        "A survey of sign language recognition and translation methods and datasets.",
        {"3 Translation": ["1803.00001", "2010.05468"], "4 Recognition": ["1911.00004"]},
    ),
    "1911.00004": ToyPaper(
        "Continuous Sign Language Recognition with Spatio-Temporal Networks",
        "Spatio-temporal convolutional networks recognise continuous sign language from video.",
        {},
    ),
    "1706.03762": ToyPaper(
        "Attention Is All You Need",
        "The Transformer, a sequence transduction model based solely on attention.",
        {},
    ),
    "2006.14389": ToyPaper(
        "Reinforcement Learning for Non-Stationary Markov Decision Processes: The Blessing of (More) Optimism",
        "An upper confidence bound algorithm for non-stationary reinforcement learning with sliding windows.",
        {"2 Related Work": ["2010.12870", "2010.04244", "1805.00005"]},
    ),
    "2010.12870": ToyPaper(
        "Efficient Learning in Non-Stationary Linear Markov Decision Processes",
        "Optimistic value-based reinforcement learning for non-stationary linear MDPs with restarts.",
        {"1 Introduction": ["2006.14389"], "2 Related Work": ["2010.04244", "1805.00005"]},
    ),
    "2010.04244": ToyPaper(
        "Nonstationary Reinforcement Learning with Linear Function Approximation",
        "UCB-based reinforcement learning for nonstationary environments with linear function approximation.",
        {"2 Related Work": ["2006.14389"]},
    ),
    "1805.00005": ToyPaper(
        "Bandits in Non-Stationary Environments: A Survey",
        "A survey of multi-armed bandit algorithms for non-stationary environments.",
        {"3 Sliding windows": ["2006.14389"], "4 Restarts": ["2010.12870"]},
    ),
    "1902.01109": ToyPaper(
        "Strategies for Structuring Story Generation",
        "Coarse-to-fine strategies for long-form story generation with language models.",
        {"2 Related Work": ["2010.00840"]},
    ),
    "2010.00840": ToyPaper(
        "MEGATRON-CNTRL: Controllable Story Generation with External Knowledge Using Large-Scale Language Models",
        "Controllable long-form story generation with external knowledge.",
        {"2 Related Work": ["1902.01109", "1706.03762"]},
    ),
}

# Queries and answer sets in the style of AutoScholarQuery (PaSa Table 10).
TOY_QUERIES: dict[str, set[str]] = {
    "Could you provide me some studies that proposed hierarchical neural models to capture spatiotemporal "
    "features in sign videos?": {"2010.05468", "2111.07258"},
    "Which studies have focused on nonstationary RL using value-based methods, specifically Upper Confidence "
    "Bound (UCB) based algorithms?": {"2006.14389", "2010.12870", "2010.04244"},
    "Which studies have been conducted in long-form text generation, specifically in story generation?": {
        "1902.01109",
        "2010.00840",
    },
}


class ToyCrawlerEnvironment:
    """A deterministic CrawlerEnvironment over TOY_PAPERS: word-overlap search, reference expansion."""

    def __init__(
        self,
        papers: dict[str, ToyPaper] | None = None,
        answers: dict[str, set[str]] | None = None,
        search_limit: int = 3,
        selector: SelectorScore | None = None,
    ) -> None:
        self.papers = papers or TOY_PAPERS
        self.answers = answers or TOY_QUERIES
        self.search_limit = search_limit
        self._selector = selector
        self._queues: dict[str, list[str]] = {}
        self._query: str | None = None
        self._paper_id: str | None = None

    def training_queries(self) -> list[str]:
        return list(self.answers)

    def paper(self, paper_id: str) -> Paper:
        return self.papers[paper_id].as_paper()

    def queue(self, query: str) -> list[str]:
        return list(self._queues.get(query, []))

    def reset(self, query: str) -> None:
        self._queues[query] = []
        self._query, self._paper_id = query, None

    def expand(self, query: str, paper_id: str) -> Paper:
        if query not in self._queues:
            raise TrainingError(f"expand session for a query with no trajectory: reset({query!r}) first")
        if paper_id not in self.papers:
            raise TrainingError(f"unknown paper {paper_id!r}")
        self._query, self._paper_id = query, paper_id
        return self.paper(paper_id)

    def search(self, text: str) -> list[str]:
        wanted = _words(text)
        scored = []
        for paper_id, paper in self.papers.items():
            overlap = len(wanted & _words(paper.title + " " + paper.abstract))
            if overlap:
                scored.append((-overlap, paper_id))
        return [paper_id for _, paper_id in sorted(scored)[: self.search_limit]]

    def step(self, action: CrawlerAction) -> list[StepPaper]:
        if self._query is None:
            raise TrainingError("step() before reset(query)")
        if action.kind == "Search":
            candidates = self.search(action.argument)
        elif action.kind == "Expand" and self._paper_id is not None:
            sections = self.papers[self._paper_id].references
            wanted = action.argument.strip().lower()
            candidates = next((refs for name, refs in sections.items() if name.lower() == wanted), [])
        else:  # [Stop], or [Expand] in a search session: nothing is added
            candidates = []
        queue = self._queues[self._query]
        found = []
        for paper_id in candidates:
            if paper_id not in queue:
                queue.append(paper_id)
                found.append(StepPaper(paper_id, self.paper(paper_id)))
        return found

    def is_relevant(self, query: str, paper_id: str) -> bool:
        return paper_id in self.answers.get(query, set())

    def selector_probability(self, query: str, paper: Paper) -> float | None:
        return self._selector(query, paper) if self._selector else None


def make_environment(name: str) -> CrawlerEnvironment:
    """The environment a PPO run names; the PaSa engine adds its library-backed one here."""
    if name == "toy":
        return ToyCrawlerEnvironment()
    if name == "library" or name.startswith("library:"):  # the PaSa engine's, over SCHOLAR_TUI_HOME's library
        from scholar_tui.training.crawler_env_library import LibraryCrawlerEnvironment

        return LibraryCrawlerEnvironment.from_home(name.partition(":")[2] or None)
    raise TrainingError(f"unknown crawler environment {name!r} (available: toy, library, library:QUERIES.jsonl)")
