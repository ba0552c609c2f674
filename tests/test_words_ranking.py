"""The words ranking is the library's BM25 again (issue #24): FTS5 finds the candidates, which are
re-scored with indexes/text_rank's analyzer and formula (Snowball stems, stop words dropped after
stemming, title and abstract one document, a query word counted as often as it is written), with
the library's statistics read by key from FTS5's own tables. FTS5's bm25 alone (Porter stems, per-
column lengths, idf without the 1 +) lost PaSa's R@20 0.7693 → 0.7521 and plain search's 0.7069 →
0.6695 on the 29 test queries."""

import re

import numpy as np
import pytest

from scholar_tui.indexes import search_changes
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import PaperRecord
from scholar_tui.indexes.text_rank import TermIndex, analyze

from .library_support import generated_unarxive, imported_library
from .test_search_changes import ScanWatch

PAPERS = 240


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return generated_unarxive(tmp_path_factory, PAPERS, "words")


@pytest.fixture
def library(where, generated):
    yield from imported_library(where, generated)


def document(title: str, abstract: str | None) -> str:
    """A paper as the index reads it: title and abstract, one text."""
    return f"{title}. {abstract or ''}".strip()


def old_ranking(library: Library, query: str, depth: int = 50) -> list[int]:
    """The ranking the library's search had before FTS5: the whole library in a TermIndex."""
    rows = library.conn.execute("select id, title, abstract from papers order by id").fetchall()
    index = TermIndex.build([document(title, abstract) for _, title, abstract in rows])
    return [rows[row][0] for row in index.rank(query, depth=depth)]


def queries(library: Library, count: int = 12) -> list[str]:
    """Title words of every 20th paper, some with one word said twice."""
    titles = [row[0] for row in library.conn.execute("select title from papers order by id")][::20][:count]
    words = [" ".join(re.findall(r"[A-Za-z]{3,}", title)[:6]) for title in titles]
    return [text + (" " + text.split()[0] if n % 3 == 0 else "") for n, text in enumerate(words) if text]


def test_the_words_ranking_is_the_librarys_bm25(library):
    """Top 10 as the whole-library BM25 ranks them, for title-word queries over 240 + cited papers
    (FTS5's own bm25 agreed on none of these top tens)."""
    asked = queries(library)
    same = [search_changes.text_ranking(library.conn, q, depth=10) == old_ranking(library, q, 10) for q in asked]
    assert sum(same) >= len(asked) - 1, same


def test_a_query_word_matches_what_the_analyzer_matches(where):
    """'general' is not 'generated' (Porter stems both to 'gener'; Snowball does not): the paper
    saying 'generated' three times in a short title must not outrank the one about the word asked."""
    library = Library.open(where)
    general = library.store_paper(PaperRecord(source="test", title="A general theory of relativity"))[0]
    generated = library.store_paper(PaperRecord(source="test", title="Generated, generated and generated images"))[0]
    for n in range(8):  # a library to take statistics from
        library.store_paper(PaperRecord(source="test", title=f"Unrelated paper number {n} on plants"))
    ranking = search_changes.text_ranking(library.conn, "general relativity")
    assert ranking[0] == general and generated not in ranking
    assert analyze("general") != analyze("generated")
    library.close()


def test_the_statistics_come_from_fts5_tables_by_key(library):
    """The paper count and mean length without reading the papers: FTS5's averages record and its
    vocabulary, within 2 % of the whole-library figures."""
    rows = library.conn.execute("select title, abstract from papers").fetchall()
    lengths = [len(analyze(document(title, abstract))) for title, abstract in rows]
    stats = search_changes.corpus_stats(library.conn, [("network", "network")])
    assert stats.documents == len(rows)
    assert stats.mean_length == pytest.approx(np.mean(lengths), rel=0.02)


def test_the_rescoring_reads_only_the_candidates(library, monkeypatch):
    """Row guard: the texts read are FTS5's candidates (at most the pool for the depth asked), never
    every paper, and no statement reads the papers table through."""
    read: list[int] = []
    by_id = search_changes.papers_by_id

    def counting(conn, ids):
        read.extend(int(paper_id) for paper_id in ids)
        yield from by_id(conn, ids)

    monkeypatch.setattr(search_changes, "papers_by_id", counting)
    watch = ScanWatch(library.conn)
    common = "the model of a network with data and results"  # words most papers hold
    ranking = search_changes.text_ranking(library.conn, common, depth=10)
    assert watch.full_scans() == []
    papers = search_changes.paper_count(library.conn)
    assert len(ranking) == 10 and len(read) <= max(search_changes.POOL_PER_DEPTH * 10, search_changes.MIN_POOL)
    assert len(read) < papers


def test_remembered_counts_follow_a_change_to_the_library(where):
    """Counts are remembered per library state: a paper added is counted at once."""
    library = Library.open(where)
    library.store_paper(PaperRecord(source="test", title="Quasicrystal growth"))
    first = search_changes.corpus_stats(library.conn, [("quasicryst", "quasicrystal")])
    library.store_paper(PaperRecord(source="test", title="Quasicrystals under pressure, and the rest"))
    second = search_changes.corpus_stats(library.conn, [("quasicryst", "quasicrystal")])
    assert (first.documents, first.frequency["quasicryst"]) == (1, 1)
    assert (second.documents, second.frequency["quasicryst"]) == (2, 2)
    assert second.mean_length == pytest.approx(2.5)  # "the" and "and" are not counted
    library.close()
