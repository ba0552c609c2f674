"""Shared pieces of the tests/test_pasa_*.py modules.

``mini_library``: three full papers (sections that cite bibliography entries written in real
citation styles) stored through the library writer, then prepared as PaSa prepares any library
(cited works, search index with the bag-of-words test embedder). Small enough that a test can
name every paper, real enough that every code path runs.

``RoutedLLM``: a scripted model that answers by what it is asked — a search session, an expand
session, or the Selector's True/False — so a test states the Crawler's and the Selector's
behaviour instead of the order of calls. ``GatedLLM`` additionally holds expand sessions until
the test opens the gate (the tree must be seen growing while the crawl runs).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest

from scholar_tui.core.pasa.factory import prepare
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.library_search import LibraryIndex
from scholar_tui.indexes.records import PaperRecord, ReferenceRecord, SectionRecord
from scholar_tui.models.base import Chunk, Request

from .conftest import ScriptedLLM
from .library_support import HashingEmbedder

GNN = "Graph neural networks for molecule property prediction"
SURVEY = "A survey of message passing neural networks"
UNRELATED = "Laser cooling of trapped ions in inhomogeneous magnetic fields"


# Cited works about ions and traps: the library is larger than one search's ten results.
FILLER_TITLES = [
    "Sympathetic cooling of trapped ions for quantum logic",
    "Doppler cooling of calcium ions in a Paul trap",
    "Magnetic field gradients for individual ion addressing",
    "Sideband cooling to the motional ground state",
    "Micromotion compensation in radio frequency traps",
    "Precision spectroscopy of highly charged ions",
    "Penning traps for precision mass measurements",
    "Heating rates of ions near trap electrodes",
]

SURNAMES = ["Lindqvist", "Okafor", "Tanaka", "Rossi", "Novak", "Haddad", "Silva", "Kowalski"]


def _ref(key: str, ordinal: int, raw: str, year: int, **ids) -> ReferenceRecord:
    return ReferenceRecord(ref_key=key, ordinal=ordinal, raw=raw, year=year, **ids)


def mini_records() -> list[PaperRecord]:
    gnn = PaperRecord(
        title=GNN,
        source="unarxive",
        arxiv_id="2206.00001",
        date="2022-06-01",
        abstract="We predict molecule properties with graph neural networks and message passing.",
        sections=[
            SectionRecord(1, "1", "Introduction", 1, "Molecules are graphs [1], [2].", {"r1": 1, "r2": 1}),
            SectionRecord(
                2,
                "2",
                "Related Work",
                1,
                "Message passing networks learn molecular representations from bond graphs [2], [3], [5]. "
                "Attention [4] is another option.",
                {"r2": 1, "r3": 1, "r4": 1, "r5": 1},
            ),
            SectionRecord(3, "3", "Method", 1, "Our model.", {}),
        ],
        references=[
            _ref(
                "r1",
                1,
                "J. Gilmer, S. Schoenholz, P. Riley, O. Vinyals, and G. Dahl, “Neural message passing for "
                "quantum chemistry,” in ICML, 2017.",
                2017,
                arxiv_id="1704.01212",
            ),
            _ref(
                "r2",
                2,
                "T. Kipf and M. Welling. Semi-supervised classification with graph convolutional "
                "networks. In ICLR, 2017.",
                2017,
                arxiv_id="1609.02907",
            ),
            _ref(
                "r3",
                3,
                "K. Xu, W. Hu, J. Leskovec, and S. Jegelka, How powerful are graph neural networks?, ICLR (2019).",
                2019,
            ),
            _ref("r4", 4, "Vaswani, A., Shazeer, N., Parmar, N.: Attention is all you need. In: NeurIPS (2017)", 2017),
            _ref(
                "r5",
                5,
                "Z. Doe and J. Roe. A survey of message passing neural networks. arXiv:2103.00002, 2021.",
                2021,
                arxiv_id="2103.00002",
            ),  # a library paper with full text: expandable at depth 2
        ],
    )
    survey = PaperRecord(
        title=SURVEY,
        source="unarxive",
        arxiv_id="2103.00002",
        date="2021-03-01",
        abstract="We survey message passing neural networks on graphs.",
        sections=[
            SectionRecord(1, "1", "Introduction", 1, "Graphs everywhere [1].", {"s1": 1}),
            SectionRecord(2, "2", "Message passing", 1, "Gilmer et al. [2] and pooling [3].", {"s2": 1, "s3": 1}),
        ],
        references=[
            _ref(
                "s1",
                1,
                "M. Bronstein, J. Bruna, Y. LeCun, A. Szlam, and P. Vandergheynst. Geometric deep "
                "learning: going beyond euclidean data. IEEE Signal Processing Magazine, 2017.",
                2017,
            ),
            _ref(
                "s2",
                2,
                "J. Gilmer, S. Schoenholz, P. Riley, O. Vinyals, and G. Dahl, “Neural message passing for "
                "quantum chemistry,” in ICML, 2017.",
                2017,
                arxiv_id="1704.01212",
            ),
            _ref(
                "s3",
                3,
                "R. Ying, J. You, C. Morris, X. Ren, W. Hamilton, and J. Leskovec. Hierarchical graph "
                "representation learning with differentiable pooling. In NeurIPS, 2018.",
                2018,
            ),
        ],
    )
    unrelated = PaperRecord(
        title=UNRELATED,
        source="unarxive",
        arxiv_id="2212.11863",
        date="2022-12-22",
        abstract="Laser cooling of ions in a Paul trap with a magnetic field gradient.",
        sections=[
            SectionRecord(1, "1", "Introduction", 1, "Ions [1] and traps [2]–[9].", {f"u{n}": 1 for n in range(1, 10)})
        ],
        references=[
            _ref("u1", 1, "C. Zimmer, P. Yzombard, A. Camper and D. Comparat, Phys. Rev. A 104, 023106 (2021).", 2021)
        ]
        + [
            _ref(f"u{n}", n, f"A. {surname} and B. Moreau. {title}. Phys. Rev. A, {2010 + n}.", 2010 + n)
            for n, (surname, title) in enumerate(zip(SURNAMES, FILLER_TITLES, strict=False), start=2)
        ],
    )
    return [gnn, survey, unrelated]


def build_mini_library(where) -> Library:
    library = Library.open(where)
    with library.transaction():
        for record in mini_records():
            library.store_paper(record)
        library.relink()
    prepare(where, library, HashingEmbedder())
    return library


@pytest.fixture
def mini_library(where):
    library = build_mini_library(where)
    yield library
    library.close()


def paper_id(library: Library, title_start: str) -> int:
    found = [paper["id"] for paper in library.all_papers() if paper["title"].startswith(title_start)]
    assert len(found) == 1, f"{title_start!r}: {found}"
    return found[0]


class RoutedLLM(ScriptedLLM):
    """Answers by the kind of request: search sessions and expand sessions from their queues (the
    last reply repeats), the Selector by ``relevant(title)``; every request is kept in history."""

    def __init__(
        self,
        search: list[str] | None = None,
        expand: list[str] | None = None,
        relevant: Callable[[str], bool] | None = None,
        retry: list[str] | None = None,
    ) -> None:
        super().__init__()
        self.search_replies = list(search or ["[Stop]"])
        self.expand_replies = list(expand or ["[Stop]"])
        self.retry_replies = list(retry or ["[Stop]"])
        self.relevant = relevant or (lambda title: "graph" in title.lower())

    @staticmethod
    def kind_of(request: Request) -> str:
        content = request.messages[0]["content"] if request.messages else (request.prompt or "")
        crawler = content.startswith(
            ("Please, generate some mutually exclusive queries", "You are conducting research on")
        )
        if crawler and len(request.messages) > 1:
            return "retry"  # a session's prompt and response, then AutoFeedback's turn
        if content.startswith("Please, generate some mutually exclusive queries"):
            return "search"
        if content.startswith("You are conducting research on"):
            return "expand"
        return "selector"

    def reply_for(self, request: Request) -> str:
        kind = self.kind_of(request)
        if kind == "retry":
            return self.retry_replies.pop(0) if len(self.retry_replies) > 1 else self.retry_replies[0]
        if kind == "search":
            return self.search_replies.pop(0) if len(self.search_replies) > 1 else self.search_replies[0]
        if kind == "expand":
            return self.expand_replies.pop(0) if len(self.expand_replies) > 1 else self.expand_replies[0]
        content = request.messages[-1]["content"]
        title = content.split("Searched Paper:\nTitle: ")[1].split("\n")[0]
        return "True" if self.relevant(title) else "False"

    def _generate(self, request: Request) -> Iterator[Chunk]:
        self.history.append(request)
        yield Chunk(text=self.reply_for(request))
        yield Chunk(prompt_tokens=10, completion_tokens=1)


class GatedLLM(RoutedLLM):
    """Holds every expand session until ``gate`` is set: the crawl is caught half-way."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.gate = threading.Event()
        self.waiting = threading.Event()

    def _generate(self, request: Request) -> Iterator[Chunk]:
        if self.kind_of(request) == "expand":
            self.waiting.set()
            self.gate.wait(timeout=30)
        yield from super()._generate(request)


@pytest.fixture(scope="session")
def pasa_real_library(prepared_library, tmp_path_factory):
    """The unarXive sample with its cited works as papers, indexed with the bag-of-words embedder
    (built once; ~1000 short records): each test copies it, as library_support does."""
    import shutil

    from scholar_tui.config.locations import Locations

    root = tmp_path_factory.mktemp("pasa-real")
    where = Locations(config_dir=root, data_dir=root / "data", cache_dir=root / "cache", log_dir=root / "logs").ensure()
    shutil.copy(prepared_library.database_file, where.database_file)
    library = Library.open(where)
    prepare(where, library, HashingEmbedder())  # the cited works (it defers the vectors of so many papers)
    for _ in LibraryIndex(where, HashingEmbedder()).sync(library):  # every paper with a vector, as `library index`
        pass
    library.close()
    return where


@pytest.fixture
def real_crawl_library(pasa_real_library, where, shared_data):
    import shutil

    shutil.copy(pasa_real_library.database_file, where.database_file)
    shutil.copytree(pasa_real_library.lancedb_dir, where.lancedb_dir, dirs_exist_ok=True)
    library = Library.open(where)
    yield library
    library.close()


def write_p_true_head(where) -> None:
    """A Selector head in the data folder that follows P(True) (selected when P(True) is high), so a
    test states which papers are selected; the prior ranks by the query's dense match."""
    from scholar_tui.core.pasa.selector_head import FEATURES, PRIOR_FEATURES, LogisticHead, SelectorHead, head_file

    full = LogisticHead(
        FEATURES,
        [10.0 if name == "p_true" else 0.0 for name in FEATURES],
        -5.0,
        [0.0] * len(FEATURES),
        [1.0] * len(FEATURES),
    )
    prior = LogisticHead(
        PRIOR_FEATURES,
        [1.0 if name == "query_dense" else 0.0 for name in PRIOR_FEATURES],
        0.0,
        [0.0] * len(PRIOR_FEATURES),
        [1.0] * len(PRIOR_FEATURES),
    )
    SelectorHead(prior, full, p_true_mean=0.5, threshold=0.5, judge_limit=100).save(head_file(where.data_dir))


BOND_GRAPHS = "Which papers learn molecular representations from bond graphs?"


def crawl_with_head(where, library: Library, head, *, plain_limit: int, query: str = BOND_GRAPHS):
    """One crawl of ``query`` over ``library`` (a search, then the GNN paper's Related Work), scored by
    ``head``; its ``CrawlFinished``."""
    from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
    from scholar_tui.core.pasa.phrases import search_candidates
    from scholar_tui.core.pasa.queue import Budgets
    from scholar_tui.core.pasa.tools import LibraryTools

    llm = RoutedLLM(
        search=[f"[Search] {search_candidates(query)[0]} [Stop]"], expand=["[Expand] 2 Related Work [Stop]"]
    )
    tools = LibraryTools(where, library, HashingEmbedder(), search_limit=3, plain_limit=plain_limit)
    agent = PaSaEngine(
        llm,
        tools,
        PaSaOptions(budgets=Budgets(max_actions=3, max_papers=20), query_mode="candidates", rationale="template"),
        head=head,
    )
    return list(agent.run(query))[-1]
