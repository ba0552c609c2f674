"""The full-text side of library search without LanceDB: the analyzer and BM25 of indexes/text_rank
reproduce LanceDB's native FTS index (its defaults) score for score."""

import lancedb
import numpy as np
import pytest
from lancedb.index import FTS

from scholar_tui.indexes.text_rank import TermIndex, analyze, analyzed_words

DOCUMENTS = [
    "Roots of derivatives of random polynomials: where do the zeros go?",
    "Others said the underlying model was only partially observed; we can't say more.",
    "Integer-only recurrent neural networks for sequences, running on integer arithmetic.",
    "Über formal unentscheidbare Sätze der Principia Mathematica und verwandter Systeme",
    "Random matrices and the central limit theorem for linear statistics of their eigenvalues.",
    "A model of models: modelling the modeller's models " + "x" * 45,
    "Laser cooling of trapped ions, and of trapped atoms; cooling limits.",
    "Exoplanet atmospheres retrieved from high-resolution spectra of hot Jupiters.",
]
QUERIES = [
    "random polynomials",
    "model",
    "models of trapped ions cooling",
    "others only underlying",
    "Sätze formal",
    "integer integer arithmetic",
    "the of and",
    "spectra of exoplanet atmospheres",
    "cooling cooling limits",
]


def test_the_analyzer_stems_before_dropping_stop_words():
    # "others" stems to "other" (a stop word) and goes; "only" stems to "onli" and stays
    assert analyze("Others only underlying") == ["onli"]  # "underlying" -> "under": a stop word too
    assert analyze("The Roots, of RANDOM polynomials!") == ["root", "random", "polynomi"]
    assert analyze("Über Sätze") == ["uber", "satze"]  # folded to ASCII after stemming
    assert analyze("a" * 40 + " kept") == ["kept"]  # tokens of 40+ bytes are dropped
    assert analyze("snake_case N=2") == ["snake", "case", "n", "2"]


def test_a_texts_analysis_is_its_words_analysis():
    """``analyze`` (the candidates' texts, one cached call a word) gives the terms of ``analyzed_words``
    (the query's, with the words): the same analyzer, whatever the case, accents or length."""
    text = "İstanbul ÜBER Sätze, others' ONLY " + "é" * 20 + " " + "x" * 39 + " Roots of RANDOM polynomials"
    assert analyze(text) == [term for term, _ in analyzed_words(text)] and "x" * 39 in analyze(text)
    assert not analyze("é" * 20)  # 40 bytes in UTF-8: dropped, though 20 characters


@pytest.fixture(scope="module")
def lance_table(tmp_path_factory):
    db = lancedb.connect(str(tmp_path_factory.mktemp("fts")))
    table = db.create_table("docs", [{"row": row, "text": text} for row, text in enumerate(DOCUMENTS)])
    table.create_index("text", config=FTS())  # the defaults library search relied on
    return table


@pytest.mark.parametrize("query", QUERIES)
def test_bm25_scores_are_lancedbs(lance_table, query):
    index = TermIndex.build(DOCUMENTS)
    ours = index.scores(query)
    theirs = (
        lance_table.search(query, query_type="fts", fts_columns="text").limit(50).select(["row", "_score"]).to_list()
    )
    assert {row["row"] for row in theirs} == set(np.flatnonzero(ours > 0).tolist())
    for row in theirs:
        assert ours[row["row"]] == pytest.approx(row["_score"], rel=1e-5)


def test_rank_filters_after_scoring_and_keeps_row_order_on_ties():
    index = TermIndex.build(["cat", "dog cat", "cat", "bird"])
    assert index.rank("cat") == [0, 2, 1]  # rows 0 and 2 tie: row order
    assert index.rank("cat", allowed=np.array([False, True, True, True])) == [2, 1]
    assert index.rank("cat", depth=1) == [0]
    assert index.rank("fish") == [] and index.rank("") == []
    assert TermIndex.build([]).rank("cat") == []
