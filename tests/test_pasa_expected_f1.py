"""The Selector's selection rule: the per-query cut that maximises the expected F1 of the selected set."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from scholar_tui.core.pasa.selector_head import (
    FEATURES,
    PRIOR_FEATURES,
    HeadFileError,
    LogisticHead,
    SelectorHead,
    expected_f1_by_cut,
    expected_f1_selection,
    load_head,
)

from .pasa_support import crawl_with_head


def _brute_force_expected_f1(p: list[float], k: int) -> float:
    """E[F1] of selecting the k most probable, summed over every relevant/irrelevant outcome."""
    p = sorted(p, reverse=True)
    total = 0.0
    for outcome in itertools.product((0, 1), repeat=len(p)):
        chance = np.prod([q if hit else 1 - q for q, hit in zip(p, outcome, strict=False)])
        hits, relevant = sum(outcome[:k]), sum(outcome)
        total += chance * (2 * hits / (k + relevant) if k + relevant else 0.0)
    return total


def test_the_expected_f1_is_the_exact_expectation():
    p = [0.7, 0.05, 0.4, 0.9, 0.2, 0.01, 0.55]
    values = expected_f1_by_cut(p)
    assert values[0] == 0.0
    for k in range(1, len(p) + 1):
        assert values[k] == pytest.approx(_brute_force_expected_f1(p, k), abs=1e-12)


@pytest.mark.parametrize(
    ("scores", "k"),
    [
        ([0.05, 0.9, 0.04, 0.03, 0.02], 1),  # one likely paper: only it
        ([0.6, 0.02, 0.65, 0.7, 0.03, 0.01], 3),  # three likely ones: all three, not the long shots
        ([0.15, 0.12, 0.1, 0.1, 0.01], 4),  # only long shots: a wider net, but not the longest shot
    ],
)
def test_the_cut_follows_each_query_s_probabilities(scores, k):
    selection = expected_f1_selection(scores)
    best = np.argsort(scores)[::-1][:k]
    assert selection.chosen.sum() == k and selection.chosen[best].all()
    expected = expected_f1_by_cut(scores)
    assert expected[k] == max(expected)
    reason = selection.reasons[int(best[0])]
    assert reason.startswith("selected: rank 1, top k=") and f"k={k} of the expected-F1 cut" in reason
    if k < len(scores):
        assert selection.reasons[int(np.argmin(scores))].startswith("not selected: rank")


def test_the_shipped_head_selects_by_the_expected_f1_cut_and_old_files_by_their_threshold(tmp_path):
    assert load_head(None).selection == "expected_f1"
    data = json.loads(load_head(None).save(tmp_path / "head.json").read_text())
    del data["selection"]  # a head file written before the rule existed
    (tmp_path / "old.json").write_text(json.dumps(data))
    old = SelectorHead.load(tmp_path / "old.json")
    assert old.selection == "threshold"
    assert list(old.selected([old.threshold + 0.1, old.threshold - 0.01])) == [True, False]
    (tmp_path / "bad.json").write_text(json.dumps({**data, "selection": "vibes"}))
    with pytest.raises(HeadFileError, match="unknown selection rule 'vibes'"):
        SelectorHead.load(tmp_path / "bad.json")


def _description_head() -> SelectorHead:
    """A head that reads the query's word match with the paper's description, selecting by the cut."""

    def model(features):
        return LogisticHead(
            features,
            [6.0 if name == "description_lexical" else 0.0 for name in features],
            -3.0,
            [0.0] * len(features),
            [1.0] * len(features),
        )

    return SelectorHead(
        model(PRIOR_FEATURES), model(FEATURES), 0.5, 0.999, judge_limit=2, selection="expected_f1", origin="test"
    )


def test_the_engine_selects_the_cut_and_says_why(where, mini_library):
    # a query the papers of the cut are about (they hold its phrase "neural networks": core/pasa/fit.py)
    finished = crawl_with_head(
        where,
        mini_library,
        _description_head(),
        plain_limit=2,
        query="Which papers learn molecular representations with neural networks?",
    )
    scores = [paper.score for paper in finished.results]
    k = int(np.argmax(expected_f1_by_cut(scores)[1:])) + 1
    assert 0 < k < len(scores)
    # the threshold (0.999) would select nothing: the cut is the head's rule; of the cut, the papers that fit
    chosen = [paper.selected for paper in finished.results]
    assert chosen[0] and not any(chosen[k:])  # the cut's papers, of them those that fit the query
    assert all(
        paper.selected or "holds no key phrase of the query" in paper.rationale for paper in finished.results[:k]
    )
    assert all(
        f"top k={k} of the expected-F1 cut" in paper.rationale or "holds no key phrase" in paper.rationale
        for paper in finished.results[:k]
    )
    assert finished.results[k].rationale.startswith(f"not selected: rank {k + 1}, below the top k={k}")
    assert finished.to_json()["results"][0]["rationale"].startswith("selected: rank 1")  # what search --json shows


def test_the_rationale_counts_in_words():
    """'cited by 1 paper of the pool', 'found by 2 actions': never '1 papers' or 'action(s)'."""
    from scholar_tui.core.pasa.events import ScoreParts
    from scholar_tui.core.pasa.selector import scored_rationale

    parts = ScoreParts(0.7, 0.6, 0.5, 0.0, "", 3, 2, 1, 1)
    row = {"title": "Graph networks for molecules", "abstract": ""}
    rationale = scored_rationale("graph networks", row, parts, 0.8, "selected: rank 1")
    assert "cited by 1 paper of the pool" in rationale and "found by 2 actions" in rationale


def test_crawl_lines_count_in_words():
    from scholar_tui.core.pasa.events import FoundPaper, PapersFound

    one = FoundPaper(7, 3, "A paper", "2020-01-01", 1)
    assert PapersFound(2, [one], 1, 0, "library").summary() == "→ 1 new paper (library, 1 already in the pool)"
    assert PapersFound(2, [one, one], 0, 0, "library").summary() == "→ 2 new papers (library)"
