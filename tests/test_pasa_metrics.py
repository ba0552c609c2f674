"""PaSa's metrics, computed by hand, and the benchmark's table and loop."""

from __future__ import annotations

import pytest

from scholar_tui.core.pasa.bench import BenchFinished, QueryDone, bench_pasa, cutoff, table, top_moves
from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
from scholar_tui.core.pasa.metrics import precision, recall, recall_at, score_query, summarize
from scholar_tui.core.pasa.queries import AnswerPaper, ScholarQuery
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.tools import LibraryTools

from .library_support import HashingEmbedder
from .pasa_support import GNN, RoutedLLM, paper_id


def test_metrics_by_hand():
    answers = {1, 2, 3, 4}
    assert recall([9, 1, 2], answers) == 0.5
    assert precision([9, 1, 2], answers) == pytest.approx(2 / 3)
    assert precision([], answers) == 0.0
    ranking = [9] * 0 + [7, 1, 8, 2] + list(range(100, 150)) + [3]
    assert recall_at(ranking, answers, 20) == 0.5
    assert recall_at(ranking, answers, 50) == 0.5
    assert recall_at(ranking, answers, 100) == 0.75
    with pytest.raises(ValueError):
        recall([1], set())


def test_scores_and_their_macro_average():
    first = score_query(
        "q1",
        {1, 2},
        search_ranking=[1, 5],
        queue=[1, 2, 3],
        selected=[2, 3],
        pasa_ranking=[2, 3, 1],
        actions=3,
        seconds=2.0,
        search_seconds=0.5,
    )
    assert (first.crawler_recall, first.precision, first.recall) == (1.0, 0.5, 0.5)
    assert first.search_recall_at == {20: 0.5, 50: 0.5, 100: 0.5} and first.pasa_recall_at[20] == 1.0
    second = score_query(
        "q2",
        {7},
        search_ranking=[],
        queue=[8],
        selected=[],
        pasa_ranking=[8],
        actions=1,
        seconds=4.0,
        search_seconds=0.1,
    )
    summary = summarize([first, second])
    assert summary["queries"] == 2
    assert summary["pasa"]["crawler_recall"] == 0.5 and summary["pasa"]["precision"] == 0.25
    assert summary["search"]["recall@20"] == 0.25 and summary["pasa"]["mean_seconds"] == 3.0
    summary["pasa"].update(f1=0.5, auc_head=0.75, auc_p_true=0.5, median_seconds=3.0)
    text = table(summary, "smollm2-135m", "head")
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["Method", "Crawler", "recall"]
    assert lines[2].startswith("Plain search (library hybrid)") and "0.2500" in lines[2]
    assert lines[3].startswith("PaSa (smollm2-135m, head)") and "0.5000" in lines[3] and "0.750" in lines[3]
    assert lines[4].strip().startswith("P(True) alone") and "0.500" in lines[4]


def test_top_moves_count_answers_gained_and_lost_in_the_top_20():
    plain = [1, 2, 3] + list(range(100, 130)) + [4]
    pasa = [4, 1, 3] + list(range(100, 130)) + [2]
    assert top_moves(plain, pasa, {1, 2, 4}) == {"top20_gained": 1, "top20_lost": 1}
    assert top_moves(plain, plain, {1, 2, 4}) == {"top20_gained": 0, "top20_lost": 0}


def test_cutoff_moves_a_day_only_when_the_source_may_be_seen():
    query = ScholarQuery("q", [AnswerPaper(1, "t")], "2022-12-22")
    assert cutoff(query, False) == "2022-12-22" and cutoff(query, True) == "2022-12-23"


def test_bench_loop_over_the_mini_library(where, mini_library):
    gnn = paper_id(mini_library, GNN)
    answers = [paper_id(mini_library, "Attention is all"), paper_id(mini_library, "How powerful")]
    query = ScholarQuery(
        "Which papers study graph neural networks?",
        [AnswerPaper(answer, "") for answer in answers],
        "2023-01-01",
        source_paper_id=gnn,
    )
    llm = RoutedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] 2 Related Work [Stop]"])
    agent = PaSaEngine(
        llm,
        LibraryTools(where, mini_library, HashingEmbedder(), search_limit=3, plain_limit=0),
        PaSaOptions(
            budgets=Budgets(max_actions=4, max_papers=20),
            query_mode="candidates",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
    )
    seen = []
    items = list(bench_pasa(agent, [query], on_event=seen.append))
    assert isinstance(items[0], QueryDone) and isinstance(items[-1], BenchFinished)
    scores = items[0].scores
    assert scores.answers == 2 and scores.crawled == len(seen[-1].queue)
    assert scores.crawler_recall == recall(seen[-1].queue, query.answer_ids)
    # 'Attention is all you need' shares no word with the query: only the Related Work expansion finds it
    assert scores.found_by_expand >= 1 and scores.crawler_recall == 1.0
    assert items[-1].summary["queries"] == 1
    assert scores.extra["auc_p_true"] is not None and items[-1].summary["pasa"]["median_seconds"] >= 0
    assert items[-1].summary["pasa"]["top20_lost"] == scores.extra["top20_lost"] == 0


def test_person_queries_name_their_papers_by_title(where, mini_library, tmp_path):
    from scholar_tui.core.pasa.bench import read_person_queries

    path = tmp_path / "person.tsv"
    path.write_text("# a comment\nGraph networks for molecules?\tgraph neural networks for molecule|no such title\n")
    (query,) = read_person_queries(path, mini_library)
    assert query.query_date == "" and cutoff(query, False) is None  # no cut-off
    assert [answer.paper_id for answer in query.answers] == [paper_id(mini_library, GNN)]
