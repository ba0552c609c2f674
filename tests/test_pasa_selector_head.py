"""The Selector's scoring head: trained on a small library built here, scoring with citation context,
and the plain messages for an empty library and an offline network."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import scholar_tui.models as models
from scholar_tui.app.cli import cli
from scholar_tui.config.settings import load_settings
from scholar_tui.core.pasa import factory
from scholar_tui.core.pasa.engine import PaSaOptions
from scholar_tui.core.pasa.queries import AnswerPaper, ScholarQuery, split_of
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.selector import Selector
from scholar_tui.core.pasa.selector_head import (
    DEFAULT_FILE,
    FEATURES,
    PRIOR_FEATURES,
    LogisticHead,
    SelectorHead,
    auc,
    best_selection,
    best_threshold,
    fit_ranking,
    load_head,
    mean_within_query_auc,
)
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.core.services import Services
from scholar_tui.indexes.library import Library
from scholar_tui.training.selector_head import train_head

from .library_support import HashingEmbedder
from .pasa_support import RoutedLLM, crawl_with_head, paper_id


def _train_queries(library: Library) -> list[ScholarQuery]:
    """Questions whose answers are the works the GNN paper's sections cite, under sources on the train side."""

    def answers(*titles: str) -> list[AnswerPaper]:
        return [AnswerPaper(paper_id(library, title), title) for title in titles]

    asked = [
        (
            "Which papers learn graph convolutional networks for semi-supervised classification?",
            answers("Semi-supervised classification with graph convolutional", "How powerful are graph neural"),
        ),
        (
            "Could you provide me some works about neural message passing for quantum chemistry?",
            answers("Neural message passing for quantum chemistry", "A survey of message passing"),
        ),
        (
            "Could you provide me some works about cooling of trapped ions?",
            answers("Sympathetic cooling of trapped ions", "Doppler cooling of calcium ions"),
        ),
        (
            "Which papers study heating and micromotion of ions in traps?",
            answers("Heating rates of ions near trap electrodes", "Micromotion compensation in radio frequency traps"),
        ),
    ]
    sources = (
        f"src-{n}"
        for n in range(1000)
        if split_of(ScholarQuery("q", [], "2030-01-01", source_arxiv_id=f"src-{n}")) == "train"
    )
    return [ScholarQuery(text, found, "2030-01-01", source_arxiv_id=next(sources)) for text, found in asked]


def test_logistic_head_learns_and_is_calibrated():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] + 0.2 * rng.normal(size=400) > 0.8).astype(float)
    head = LogisticHead.fit(("query_dense", "depth"), x, y)
    scores = head.score(x)
    assert auc(scores, y.astype(bool)) > 0.95
    assert head.weights[0] > 2 * abs(head.weights[1])  # the informative input carries the weight
    assert abs(scores.mean() - y.mean()) < 0.02  # calibrated: mean probability = base rate
    threshold, f1 = best_threshold([(list(scores), list(y.astype(bool)), int(y.sum()))])
    assert 0.0 < threshold < 1.0 and f1 > 0.8


def test_the_head_trains_on_a_small_library_and_round_trips(where, mini_library, tmp_path):
    tools = LibraryTools(where, mini_library, HashingEmbedder(), search_limit=4, plain_limit=100)
    selector = Selector(
        RoutedLLM(relevant=lambda title: "graph" in title.lower() or "message" in title.lower()), rationale="template"
    )
    head = train_head(
        tools, _train_queries(mini_library), selector, judge_limit=5, budgets=Budgets(max_actions=4, max_papers=20)
    )
    assert head.prior.features == PRIOR_FEATURES and head.full.features == FEATURES
    assert head.provenance["train_queries"] == 4 and head.provenance["relevant"] == 8
    assert 0.0 < head.threshold < 1.0
    assert head.full.weights[FEATURES.index("p_true")] != 0.0  # P(True) stays an input
    saved = SelectorHead.load(head.save(tmp_path / "head.json"))
    assert saved.full.weights == head.full.weights and saved.threshold == head.threshold
    # load_head prefers the user's trained head in the data folder, else the shipped default
    assert load_head(tmp_path / "nowhere").origin == str(DEFAULT_FILE)
    head.save(tmp_path / "pasa-selector-head.json")
    assert load_head(tmp_path).origin == str(tmp_path / "pasa-selector-head.json")


def test_train_selector_on_the_command_line_writes_a_head_the_engine_reads(where, mini_library, tmp_path, monkeypatch):
    import json

    from scholar_tui.core.pasa.queries import write_queries

    monkeypatch.setattr(models, "load_embedder", lambda settings: HashingEmbedder())
    queries = tmp_path / "queries.jsonl"
    write_queries(queries, _train_queries(mini_library))
    output = tmp_path / "head.json"
    result = CliRunner().invoke(
        cli, ["pasa", "train-selector", "--queries", str(queries), "--no-model", "--output", str(output), "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["weights"] == str(output) and report["train_queries"] == 4 and "max_selected" in report
    head = SelectorHead.load(output)
    assert head.prior.features == PRIOR_FEATURES and head.threshold == report["threshold"]


def test_a_head_file_that_is_not_one_says_so(tmp_path):
    bad = tmp_path / "head.json"
    bad.write_text('{"prior": {"features": ["shoe_size"], "weights": [1], "bias": 0, "mean": [0], "scale": [1]}}')
    with pytest.raises(ValueError, match="not a Selector head file"):
        SelectorHead.load(bad)


def _context_head() -> SelectorHead:
    """A head that reads the paper's description match (title, abstract or citing sentence) and little else."""
    weights = [4.0 if name == "description_lexical" else 0.0 for name in FEATURES]
    full = LogisticHead(FEATURES, weights, -2.0, [0.0] * len(FEATURES), [1.0] * len(FEATURES))
    prior = LogisticHead(
        PRIOR_FEATURES,
        [w for n, w in zip(FEATURES, weights, strict=False) if n != "p_true"],
        -2.0,
        [0.0] * len(PRIOR_FEATURES),
        [1.0] * len(PRIOR_FEATURES),
    )
    return SelectorHead(prior, full, 0.5, 0.5, judge_limit=3, origin="test")


def test_the_citation_context_reaches_the_score(where, mini_library):
    finished = crawl_with_head(where, mini_library, _context_head(), plain_limit=1)
    kipf = next(paper for paper in finished.results if paper.title.startswith("Semi-supervised classification"))
    assert kipf.parts.citing_sentence.startswith("Message passing networks learn molecular representations")
    assert kipf.parts.citation_context > 0.5
    assert "cited as “Message passing networks learn" in kipf.rationale
    attention = next(paper for paper in finished.results if paper.title.startswith("Attention is all you need"))
    assert attention.parts.citing_sentence.startswith("Attention")  # its own sentence, which the query does not match
    # same head, same paper: the score moves with the context and nothing else
    assert kipf.score > 0.8 > attention.score
    assert kipf.selected and not attention.selected


def test_the_ranking_fit_ranks_inside_a_query_where_a_pooled_fit_does_not():
    """An easy query has many answers and every paper high on input 1; inside a query, input 1 is lower for
    the answers. Pooled logistic regression mixes the two; the pairwise fit reads only the inside."""
    rng = np.random.default_rng(1)
    groups = []
    for _ in range(40):
        easy = rng.uniform()
        own = rng.normal(size=30)
        labels = own >= np.sort(own)[-(1 + round(14 * easy))]
        rows = np.c_[own + rng.normal(size=30), 4 * easy - 1.5 * labels + 0.2 * rng.normal(size=30)]
        groups.append((rows, labels))
    ranker = fit_ranking(("query_dense", "found_by"), groups)
    pooled = LogisticHead.fit(
        ("query_dense", "found_by"),
        np.vstack([r for r, _ in groups]),
        np.concatenate([labels for _, labels in groups]).astype(float),
    )
    within = mean_within_query_auc([(list(ranker.score(rows)), list(labels)) for rows, labels in groups])
    within_pooled = mean_within_query_auc([(list(pooled.score(rows)), list(labels)) for rows, labels in groups])
    assert within > 0.97 and within_pooled < within - 0.05
    probabilities = np.concatenate([ranker.score(rows) for rows, _ in groups])
    base_rate = np.concatenate([labels for _, labels in groups]).mean()
    assert abs(probabilities.mean() - base_rate) < 0.02  # calibrated: mean probability = base rate
    with pytest.raises(ValueError, match="relevant and irrelevant"):
        fit_ranking(("query_dense",), [(np.ones((3, 1)), np.zeros(3, dtype=bool))])


def test_the_selection_cap_is_chosen_for_f1():
    """Every query has its 2 answers on top, but one query's non-answers outscore another's answers:
    no threshold alone separates them, a threshold with a cap of 2 does."""
    labels = [True, True, False, False, False, False]
    groups = [([0.9, 0.8, 0.7, 0.7, 0.7, 0.7], labels, 2), ([0.5, 0.45, 0.3, 0.3, 0.2, 0.2], labels, 2)]
    threshold, cap, value = best_selection(groups)
    assert cap == 2 and threshold < 0.45 and value == pytest.approx(1.0)
    assert best_threshold(groups)[1] < 0.9
    head = SelectorHead(
        *(LogisticHead(("query_dense",), [1.0], 0.0, [0.0], [1.0]),) * 2, p_true_mean=0.5, threshold=0.5, max_selected=2
    )
    assert list(head.selected([0.9, 0.95, 0.6, 0.4])) == [True, True, False, False]


def _ranking_head(threshold: float) -> SelectorHead:
    """A head that prefers what the crawl added (a large plain-search rank) over plain-search hits."""

    def model(features):
        return LogisticHead(
            features,
            [3.0 if name == "plain_log_rank" else 0.0 for name in features],
            -10.0,
            [0.0] * len(features),
            [1.0] * len(features),
        )

    return SelectorHead(model(PRIOR_FEATURES), model(FEATURES), 0.5, threshold, judge_limit=0, origin="test")


@pytest.mark.parametrize("confident", [False, True])
def test_the_crawl_enters_the_top_only_when_the_head_is_confident(where, mini_library, confident):
    """PaSa's top k holds the plain search's top k, unless the head is confident in what the crawl added."""
    finished = crawl_with_head(
        where, mini_library, _ranking_head(threshold=0.01 if confident else 0.999), plain_limit=2
    )
    plain = [paper.paper_id for paper in finished.results if paper.parts.plain_rank is not None]
    added = [paper.paper_id for paper in finished.results if paper.parts.plain_rank is None]
    assert len(plain) == 2 and added
    top = [paper.paper_id for paper in finished.results[:2]]
    if confident:  # the head's own order: what the crawl added first (its score says so)
        # chosen by the head; selected unless it does not fit the query at all (core/pasa/fit.py says why)
        # (which of them fits depends on what the plain search's words ranking, FTS5's BM25 since #28, put
        # in the pool: the head's confidence is what this test is about, the fit check has its own tests)
        assert set(top) <= set(added) and all(
            paper.selected or "holds no key phrase of the query" in paper.rationale for paper in finished.results[:2]
        )
    else:
        assert set(top) == set(plain) and not any(paper.selected for paper in finished.results)


def test_the_shipped_head_reads_the_citation_context_and_the_plain_rank():
    """The defect it replaces: a negative weight on the citing sentence's match pushed plain hits out."""
    head = load_head(None)
    base = {
        "p_true": None,
        "query_dense": 0.6,
        "description_lexical": 0.2,
        "plain_log_rank": np.log(3),
        "found_by": np.log1p(2),
        "centroid_dense": 0.5,
    }
    cited = {**base, "description_lexical": 0.6}  # the citing sentence matches the query better than the title
    lower = {**base, "plain_log_rank": np.log(60)}
    scores = head.full_scores([base, cited, lower])
    assert scores[1] > scores[0] > scores[2]
    assert 0.0 < head.threshold < 1.0  # the cap may be None: both are chosen on the training split
    assert head.max_selected is None or head.max_selected > 0


def test_an_empty_library_is_said_plainly(where, monkeypatch):
    monkeypatch.setattr(models, "load_embedder", lambda settings: HashingEmbedder())
    result = CliRunner().invoke(cli, ["search", "graph neural networks"])
    assert result.exit_code == 1
    assert "The library is empty: import a file" in result.output
    services = Services(where, load_settings(where), llm_factory=lambda s, w: RoutedLLM())
    with pytest.raises(factory.EmptyLibrary, match="The library is empty: import a file"):
        factory.open_pasa(services, feedback=True)
    assert not services.llm_loaded  # said before any model loads


def test_offline_is_said_plainly_and_the_header_never_says_online(where, mini_library, monkeypatch):
    monkeypatch.setattr(factory, "any_source_connects", lambda *args, **kwargs: False)
    services = Services(
        where, load_settings(where), llm_factory=lambda s, w: RoutedLLM(), embedder_factory=lambda s: HashingEmbedder()
    )
    agent = factory.open_pasa(
        services,
        library=mini_library,
        online=True,
        feedback=False,
        options=PaSaOptions(budgets=Budgets(max_actions=1), query_mode="candidates"),
    )
    events = list(agent.run("graph neural networks"))
    assert not events[0].online and "offline" in events[0].summary() and " online " not in events[0].summary()
    notices = [event.message for event in events if event.kind == "notice"]
    assert notices[0].startswith("offline: arXiv and OpenAlex cannot be reached")
