"""Library search finds the library's own papers; PaSa's cited works (title-only papers made at import
from the bibliographies, ``core/pasa/works.py``) only when asked, with one line saying how many match.

On the 49-paper unArXive sample an import makes 972 cited works: BM25 favours their short texts, so
before this a search for 'derivatives of random polynomials' listed five of them above the paper
about it. PaSa's own searches (its tools over the library) keep them: [Expand] and [Search] need them.
"""

import dataclasses

import numpy as np
import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.pasa.tools import LibraryTools
from scholar_tui.core.pasa.works import SOURCE, prepare_imported
from scholar_tui.indexes import library_search
from scholar_tui.indexes import search_changes as changes
from scholar_tui.indexes.library_search import LibraryIndex

from .library_support import HashingEmbedder

QUERY = "derivatives of random polynomials"
PAPER = "2212.11867"  # Zeros of a growing number of derivatives of random polynomials


@pytest.fixture
def with_cited(imported):
    """The sample as an import leaves it now: its 49 papers and the 972 works they cite."""
    prepare_imported(imported, [row[0] for row in imported.conn.execute("select id from papers")])
    return imported


def _cited(library, paper_ids) -> set[int]:
    marks = ",".join("?" * len(paper_ids))
    rows = library.conn.execute(f"select id from papers where id in ({marks}) and source = ?", (*paper_ids, SOURCE))
    return {row[0] for row in rows}


def test_the_words_ranking_leaves_cited_works_out_when_asked(with_cited):
    everything = changes.text_ranking(with_cited.conn, QUERY, depth=10)
    assert len(_cited(with_cited, everything)) >= 5  # as PaSa ranks: the cited works first
    own = changes.text_ranking(with_cited.conn, QUERY, depth=10, own_only=True)
    assert own and not _cited(with_cited, own)
    assert own[0] == with_cited.resolve_paper(PAPER)
    assert changes.cited_matches(with_cited.conn, QUERY, before=None, within=None) == 24
    assert changes.cited_matches(with_cited.conn, QUERY, before="1990", within=None) < 24  # the filters hold
    assert changes.cited_matches(with_cited.conn, QUERY, before=None, within=set(own)) == 0


def test_hybrid_search_of_own_papers_says_how_many_cited_works_match(with_cited, where):
    index = LibraryIndex(where, HashingEmbedder())
    for _ in index.sync(with_cited):  # every paper with a vector: the cited works are nearest ones too
        pass
    hits = index.search(with_cited, QUERY, limit=10, own_only=True)
    assert hits and not _cited(with_cited, [hit.paper_id for hit in hits])
    assert hits[0].arxiv_id == PAPER and hits[0].vector_rank is not None
    assert index.cited_left_out == 24
    everything = index.search(with_cited, QUERY, limit=10)  # PaSa's: cited works included, none counted
    assert _cited(with_cited, [hit.paper_id for hit in everything]) and index.cited_left_out == 0


def test_pasa_searches_still_find_cited_works(with_cited, where):
    tools = LibraryTools(where, with_cited, HashingEmbedder(), search_limit=10)
    assert _cited(with_cited, tools.search_library(QUERY, None))


def test_cli_library_search_lists_own_papers_and_the_cited_line(with_cited, monkeypatch):
    import scholar_tui.models as models

    monkeypatch.setattr(models, "load_embedder", lambda settings: HashingEmbedder())
    result = CliRunner().invoke(cli, ["library", "search", QUERY, "--limit", "5"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 6 and all(line.startswith("paper:") for line in lines[:5])
    assert "Zeros of a growing number of derivatives" in lines[0]
    assert lines[5] == "24 cited works (what these papers cite) also match: --cited includes them"
    cited = CliRunner().invoke(cli, ["library", "search", QUERY, "--limit", "5", "--cited"])
    assert cited.exit_code == 0, cited.output
    assert "cited works" not in cited.stdout and cited.stdout.splitlines()[0] != lines[0]


class PassCountingVectors(np.ndarray):
    """A snapshot's vectors that count the matrix-vector products a search makes over them."""

    passes = 0

    def __matmul__(self, other):
        PassCountingVectors.passes += 1
        return np.asarray(self) @ other


def _own_count(library) -> int:
    return library.conn.execute("select count(*) from papers where source != ?", (SOURCE,)).fetchone()[0]


def test_an_own_papers_search_scores_only_the_own_papers_vectors(with_cited, where, monkeypatch):
    """#28: the Library tab's search compares the query with the own papers' vectors alone (49 of the
    1021 rows here, 100 k of 376 k at the 100 k library), not every row of the snapshot; and finds
    what the full pass found, ranks included."""
    index = LibraryIndex(where, HashingEmbedder())
    for _ in index.sync(with_cited):
        pass
    real = LibraryIndex.current

    def counted(self, library):
        snapshot = real(self, library)
        return dataclasses.replace(snapshot, vectors=snapshot.vectors.view(PassCountingVectors))

    monkeypatch.setattr(LibraryIndex, "current", counted)
    monkeypatch.setattr(PassCountingVectors, "passes", 0)
    rows = len(index.current(with_cited).paper_ids)
    hits = index.search(with_cited, QUERY, limit=10, depth=50, own_only=True)
    assert hits and index.scored_rows == _own_count(with_cited) == 49 < rows
    assert PassCountingVectors.passes == 0  # the snapshot's whole matrix was never multiplied
    with monkeypatch.context() as full_pass:  # the path before: every row scored
        full_pass.setattr(library_search.OwnRows, "of", classmethod(lambda cls, library, snapshot, where=None: None))
        every_row = index.search(with_cited, QUERY, limit=10, depth=50, own_only=True)
    assert index.scored_rows == rows
    assert [(hit.paper_id, hit.vector_rank, hit.text_rank) for hit in hits] == [
        (hit.paper_id, hit.vector_rank, hit.text_rank) for hit in every_row
    ]


def test_a_cited_work_made_an_own_paper_is_scored_at_the_next_search(with_cited, where):
    """The own rows are kept between searches (the TUI's warm ones) only while the library is as it was:
    a cited work whose source changes (m017's triggers count it) is among the rows scored next."""
    index = LibraryIndex(where, HashingEmbedder())
    for _ in index.sync(with_cited):
        pass
    index.search(with_cited, QUERY, own_only=True)
    assert index.scored_rows == 49
    index.search(with_cited, QUERY, own_only=True)
    first = library_search.OwnRows._last
    assert first is not None and index.scored_rows == 49  # kept: the same rows object
    cited = with_cited.conn.execute("select id from papers where source = ? limit 1", (SOURCE,)).fetchone()[0]
    with with_cited.conn:
        with_cited.conn.execute("update papers set source = 'arxiv' where id = ?", (cited,))
    index.search(with_cited, QUERY, own_only=True)
    assert index.scored_rows == 50 and cited in library_search.OwnRows._last[1].paper_ids


def test_the_own_papers_ids_come_from_an_index_not_a_pass_over_the_papers(with_cited):
    plan = with_cited.conn.execute(f"explain query plan select id from papers where source != '{SOURCE}'").fetchall()
    assert any("COVERING INDEX papers_own" in row[-1] for row in plan), plan
    assert len(changes.own_paper_ids(with_cited.conn)) == _own_count(with_cited)


def _vm_steps(library, run) -> int:
    """SQLite's virtual machine steps (in hundreds) that ``run()`` takes: each row FTS5 hands back to
    SQLite costs some; what FTS5 skips inside its index costs none."""
    steps = [0]

    def counted() -> int:
        steps[0] += 1
        return 0

    library.conn.set_progress_handler(counted, 100)
    try:
        run()
    finally:
        library.conn.set_progress_handler(None, 0)
    return steps[0]


def _add_cited_works(library, title: str, count: int) -> None:
    """``count`` cited works titled ``title``, written as an import writes them (one bulk write), and
    every word index merged to one segment (so that only the postings, not segments, are more)."""
    with library.transaction(), library.bulk_write():
        library.conn.executemany(
            "insert into papers (title, title_key, source, added_at, updated_at) values (?, ?, ?, '', '')",
            [(f"{title} {n}", f"{title} {n}".lower(), SOURCE) for n in range(count)],
        )
    with library.conn:
        for index in ("papers_fts", "papers_fts_own_first"):
            library.conn.execute(f"insert into {index} ({index}) values ('optimize')")


def _ranked_by_papers_fts(library, query: str, limit: int) -> list[int]:
    """The own papers in papers_fts's bm25 order (every match read, cited works dropped afterwards):
    the ranking an own-papers search had before m019."""
    sql = "select rowid from papers_fts where papers_fts match ? order by bm25(papers_fts)"
    ordered = [row[0] for row in library.conn.execute(sql, (changes.fts_query(query),))]
    cited = _cited(library, ordered) if ordered else set()
    return [paper_id for paper_id in ordered if paper_id not in cited][:limit]


def test_an_own_papers_word_query_never_reads_the_cited_works_matches(with_cited):
    """#28, m019: the own-papers word query reads ``papers_fts_own_first`` below the cited works'
    rowids, so cited works holding the query's words cost it nothing: 2,000 more of them leave its
    work about as it was. The query before m019 (papers_fts, each match looked up in m018's
    ``papers_cited``: 46–269 ms a query at 100 k papers) took a hundred times as much."""

    def own() -> list[int]:
        return changes.candidates(with_cited.conn, QUERY, limit=200, own_only=True)

    def before_m019() -> list[int]:
        rows = with_cited.conn.execute(
            "select papers_fts.rowid from papers_fts where papers_fts match ? and not exists (select 1 from papers"
            " cited indexed by papers_cited where cited.id = papers_fts.rowid and cited.source = 'reference')"
            " order by bm25(papers_fts) limit 200",
            (changes.fts_query(QUERY),),
        )
        return [row[0] for row in rows]

    _add_cited_works(with_cited, QUERY, 0)  # the indexes merged, as they will be below
    found, steps, steps_before_m019 = own(), _vm_steps(with_cited, own), _vm_steps(with_cited, before_m019)
    assert found == before_m019()
    _add_cited_works(with_cited, QUERY, 2000)
    assert changes.cited_matches(with_cited.conn, QUERY, before=None, within=None) == changes.CITED_COUNT_CAP
    assert own() == found == before_m019()
    assert _vm_steps(with_cited, own) <= steps + 5  # a few more pages of postings skipped, no row read
    assert _vm_steps(with_cited, before_m019) > steps_before_m019 + 100  # the probe tells the old query
    for cited in ("not", ""):
        table, sql, params = changes._matching(changes.fts_query(QUERY), None, None, cited)
        plan = [row[-1] for row in with_cited.conn.execute("explain query plan " + sql, params)]
        assert table == "papers_fts_own_first" and all("papers_fts_own_first" in step for step in plan), plan


def test_the_own_papers_words_rank_as_papers_fts_ranked_them(with_cited):
    """m019's index holds every row (the cited works above the own papers), so FTS5's bm25 has the
    whole library's statistics: the candidates are papers_fts's own papers, in its order, not those
    of an index of the own papers alone (whose statistics changed 25 of 83 rankings at 100 k)."""
    for query in (QUERY, "random matrix eigenvalues", "quantum field theory", "graph neural network"):
        assert changes.candidates(with_cited.conn, query, limit=30, own_only=True) == _ranked_by_papers_fts(
            with_cited, query, 30
        )


def test_the_own_first_index_follows_every_change_of_a_paper(with_cited):
    """Triggers keep ``papers_fts_own_first`` level: a cited work made an own paper moves below the
    mark, a retitled or deleted paper's words go, and FTS5's check against the view passes."""
    conn = with_cited.conn
    cited = conn.execute("select min(id) from papers where source = ? and title like '%polynomial%'", (SOURCE,))
    cited, own = cited.fetchone()[0], with_cited.resolve_paper(PAPER)
    with conn:
        conn.execute("update papers set source = 'arxiv' where id = ?", (cited,))
        conn.execute(
            "update papers set title = 'Zeros of derivatives of random polynomials, retitled' where id = ?", (own,)
        )
        conn.execute(
            "delete from papers where id = (select min(id) from papers where source != ? and id not in (?, ?))",
            (SOURCE, own, cited),
        )
        conn.execute("insert into papers_fts_own_first (papers_fts_own_first, rank) values ('integrity-check', 1)")
    found = changes.candidates(conn, QUERY, limit=200, own_only=True)
    assert cited in found and own in found and found == _ranked_by_papers_fts(with_cited, QUERY, 200)
    assert changes.cited_matches(conn, QUERY, before=None, within=None) == 23


def test_the_vector_pass_runs_on_one_blas_thread(with_cited, where, monkeypatch):
    """The pass is one matrix-vector product, bound by memory: on one BLAS thread it is faster than on
    two (100 k rows on 2 shared cores: 16.0 → 9.7 ms) and leaves the other core to the words ranking;
    numpy's default (a thread a core) took both."""
    from threadpoolctl import threadpool_info

    def blas_threads() -> set[int]:
        return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}

    if blas_threads() == {1}:
        pytest.skip("numpy's BLAS has one thread here already: nothing to tell apart")
    index = LibraryIndex(where, HashingEmbedder())
    for _ in index.sync(with_cited):
        pass
    seen: list[set[int]] = []
    real = library_search._Scored.of

    def noted(*args, **kwargs):
        seen.append(blas_threads())
        return real(*args, **kwargs)

    monkeypatch.setattr(library_search._Scored, "of", noted)
    assert index.search(with_cited, QUERY, limit=10, own_only=True) and seen == [{1}]
    assert blas_threads() != {1}  # numpy's own setting again after it
