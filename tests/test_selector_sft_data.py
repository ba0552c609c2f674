"""PaSa's own route at our scale: Selector SFT records from a small library built here (train split
only, answers True, plain-search hits False, in the engine's prompt), the held-out loss of the SFT
loop, and the P(True) AUC of Selector models on the same judged test pairs."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from scholar_tui.core.pasa.prompts import selector_prompt
from scholar_tui.core.pasa.queries import AnswerPaper, ScholarQuery, split_of
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.selector import Selector
from scholar_tui.core.pasa.selector_head import LogisticHead, load_head
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.training import selector_sft
from scholar_tui.training.runtime import read_losses
from scholar_tui.training.selector_auc import judged_pairs, score_model
from scholar_tui.training.selector_pairs import selector_pairs
from scholar_tui.training.tiny_model import build_tiny_model

from .library_support import HashingEmbedder
from .pasa_support import RoutedLLM, paper_id

FIXTURES = Path(__file__).parent / "fixtures" / "training"


def _source(split: str, start: int = 0) -> str:
    return next(
        f"src-{n}"
        for n in range(start, 1000)
        if split_of(ScholarQuery("q", [], "2030-01-01", source_arxiv_id=f"src-{n}")) == split
    )


def _queries(library) -> tuple[ScholarQuery, ScholarQuery]:
    """A training query about graph networks and a test query about trapped ions."""

    def answers(*titles: str) -> list[AnswerPaper]:
        return [AnswerPaper(paper_id(library, title), title) for title in titles]

    train = ScholarQuery(
        "Which papers learn graph neural networks for semi-supervised classification?",
        answers("Semi-supervised classification with graph convolutional", "How powerful are graph neural"),
        "2030-01-01",
        source_arxiv_id=_source("train"),
    )
    test = ScholarQuery(
        "Could you provide me some works about cooling of trapped ions?",
        answers("Sympathetic cooling of trapped ions", "Doppler cooling of calcium ions"),
        "2030-01-01",
        source_arxiv_id=_source("test"),
    )
    return train, test


def _tools(where, library) -> LibraryTools:
    return LibraryTools(where, library, HashingEmbedder(), search_limit=4, plain_limit=100)


def test_pairs_come_from_the_train_split_with_hard_negatives(where, mini_library):
    train, test = _queries(mini_library)
    tools = _tools(where, mini_library)
    pairs = selector_pairs(tools, [train, test], negatives_per_positive=1, held_out_share=0)
    assert pairs.queries == 1 and pairs.held_out == []
    assert {record.query for record in pairs.train} == {train.query}  # the test query is never trained on
    positives = {record.title for record in pairs.train if record.decision}
    assert positives == {mini_library.paper(answer.paper_id)["title"] for answer in train.answers}
    negatives = [record for record in pairs.train if not record.decision]
    assert len(negatives) == 2  # one per positive
    top = [hit.paper_id for hit in tools.plain_search(train.query, train.query_date)][:20]
    titles = {mini_library.paper(paper_id_)["title"] for paper_id_ in top if paper_id_ not in train.answer_ids}
    assert {record.title for record in negatives} <= titles
    everything = selector_pairs(tools, [train, test], negatives_per_positive=1, held_out_share=100)
    assert everything.train == [] and len(everything.held_out) == 4 and everything.held_out_queries == 1


def test_records_are_in_the_engines_prompt(where, mini_library):
    """The SFT prompt is the exact text the engine's Selector sends for the same paper."""
    train, _ = _queries(mini_library)
    record = selector_pairs(_tools(where, mini_library), [train], held_out_share=0).train[0]
    llm = RoutedLLM()
    Selector(llm, rationale="template").probability(record.query, record.title, record.abstract)
    assert llm.history[-1].messages[0]["content"] == selector_prompt(record.query, record.title, record.abstract)
    prompt, response = selector_sft.build_pairs([record])[0]
    assert prompt == llm.history[-1].messages[0]["content"]
    assert response.split("\n")[0] == str(record.decision)  # the decision token first


def test_selector_sft_logs_a_held_out_loss(tmp_path):
    tiny = build_tiny_model(tmp_path / "tiny")
    out = tmp_path / "run"
    summary = selector_sft.main(
        [
            "--model",
            str(tiny),
            "--train-file",
            str(FIXTURES / "selector.jsonl"),
            "--eval-file",
            str(FIXTURES / "selector.jsonl"),
            "--eval-every",
            "1",
            "--output-dir",
            str(out),
            "--batch-size",
            "2",
            "--max-steps",
            "2",
            "--lora",
            "--lora-r",
            "2",
            "--learning-rate",
            "1e-2",
            "--device",
            "cpu",
            "--quiet",
        ]
    )
    evals = [row for row in read_losses(out) if "eval_loss" in row]
    assert [row["step"] for row in evals] == [0, 1, 2]
    assert all(math.isfinite(row["eval_loss"]) for row in evals)
    assert summary["eval_loss"] == pytest.approx(evals[-1]["eval_loss"], abs=1e-5)
    assert evals[-1]["eval_loss"] < evals[0]["eval_loss"]  # it trained on these very records


def test_auc_of_selector_models_on_the_same_judged_test_pairs(where, mini_library):
    train, test = _queries(mini_library)
    tools = _tools(where, mini_library)
    head = load_head(None)
    judged = judged_pairs(tools, [train, test], head, limit=6, budgets=Budgets(max_actions=4, max_papers=20))
    assert [item.query for item in judged] == [test.query]
    assert any(judged[0].labels) and not all(judged[0].labels)
    titles = {mini_library.paper(answer.paper_id)["title"] for answer in test.answers}
    knows = Selector(RoutedLLM(relevant=lambda title: title in titles), rationale="template")
    backwards = Selector(RoutedLLM(relevant=lambda title: title not in titles), rationale="template")
    good = score_model("knows", knows, tools, judged, head)
    bad = score_model("backwards", backwards, tools, judged, head)
    assert good.auc == pytest.approx(1.0) and bad.auc == pytest.approx(0.0)
    # Each model's P(True) is the head's P(True) input: a head that weighs P(True) alone ranks as the model does.
    features = head.full.features
    only_p_true = replace(
        head,
        full=LogisticHead(
            features, [float(name == "p_true") for name in features], 0.0, [0.0] * len(features), [1.0] * len(features)
        ),
    )
    assert score_model("knows", knows, tools, judged, only_p_true).head_auc == pytest.approx(1.0)
    assert score_model("backwards", backwards, tools, judged, only_p_true).head_auc == pytest.approx(0.0)
