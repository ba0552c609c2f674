"""Cited works from raw bibliography entries, and the AutoScholarQuery-style set built from them."""

from __future__ import annotations

import json

import pytest

from scholar_tui.core.pasa.queries import (
    QuerySetError,
    build_queries,
    clean_clause,
    question_for,
    read_queries,
    split_sentences,
    write_queries,
)
from scholar_tui.core.pasa.reference_titles import extract_title
from scholar_tui.core.pasa.works import prepare_cited_works

from .pasa_support import FILLER_TITLES

STYLES = {
    # IEEE / APS: quoted titles
    "H. Coles, T. Laurent, and A. Ventresque, “Pit: A practical mutation testing tool for java (demo),” in "
    "Proceedings of ISSTA, 2016.": "Pit: A practical mutation testing tool for java (demo)",
    # LaTeX quotes
    "K.~Koide, M.~Yokozuka, and A.~Banno, ``Voxelized GICP for Fast and Accurate 3D Point Cloud Registration,'' "
    "in ICRA, 2021.": "Voxelized GICP for Fast and Accurate 3D Point Cloud Registration",
    # Springer LNCS
    "Hubara, I., Courbariaux, M., Soudry, D., El-Yaniv, R., Bengio, Y.: Binarized neural networks. In: NeurIPS "
    "(2016)": "Binarized neural networks",
    # ACM / NeurIPS: the author list ends with initials, two-letter surnames
    "Haiyan Yin, Dingcheng Li, Xu Li, and Ping Li. Meta-cotgan: A meta cooperative training paradigm for improving "
    "adversarial text generation. In Proceedings of AAAI, 2020.": "Meta-cotgan: A meta cooperative training paradigm for improving adversarial text generation",
    "Ball, J. M., and James, R. D. Proposed experimental tests of a theory of fine microstructure and the two-well "
    "problem. Phil. Trans. R. Soc. Lond. A 338 (1992).": "Proposed experimental tests of a theory of fine microstructure and the two-well problem",
    # AAAI with the year after the authors
    "Williams, J.; Kleinegesse, S.; Comanescu, R.; and Radu, O. 2018. Recognizing emotions in video using multimodal "
    "DNN feature fusion. In Proceedings of Challenge-HML.": "Recognizing emotions in video using multimodal DNN feature fusion",
    # physics: commas only
    "M. Diehl, P. Plößl and A. Schäfer, Proof of sum rules for double parton distributions in QCD, Eur. Phys. J. C 79 "
    "(2019) 253 [1811.00289].": "Proof of sum rules for double parton distributions in QCD",
    "P. S. de Laplace, Théorie analytique des probabilités, Vol. 7 (Courcier, 1820).": "Théorie analytique des probabilités",
    # entries that name no title
    "E. Turov, J. Exp. Theor. Phys. 9, 890 (1959).": None,
    "Kristensen, L. E., van Dishoeck, E. F., Bergin, E. A., et al. 2012, , 542, A8": None,
    "Sakai, N., & Yamamoto, S. 2013, Chemical Reviews, 113, 8981": None,
    "S. Chekanov et al. [ZEUS], Eur. Phys. J. C 60 (2009), 25-45 doi:10.1140/epjc/s10052-009-0881-x": None,
}


@pytest.mark.parametrize("raw", list(STYLES))
def test_titles_come_out_of_every_citation_style(raw):
    assert extract_title(raw) == STYLES[raw]


def test_cited_works_become_papers_once(mini_library):
    # The mini library was prepared when built: a second pass reads nothing, not even the entry that
    # names no title (the Phys. Rev. A one), read once and remembered as untitled.
    again = prepare_cited_works(mini_library)
    assert again.read == again.linked == again.added == again.untitled == 0
    untitled = mini_library.conn.execute(
        "select count(*) from paper_references where title_read = 1 and read_title is null and cited_paper_id is null"
    ).fetchone()[0]
    assert untitled == 1
    works = [paper for paper in mini_library.all_papers() if paper["source"] == "reference"]
    titles = {paper["title"] for paper in works}
    # Gilmer et al. is cited by two papers (an arXiv id both times): one work
    assert sorted(titles) == sorted(
        {
            "Neural message passing for quantum chemistry",
            "Semi-supervised classification with graph convolutional networks",
            "How powerful are graph neural networks?",
            "Attention is all you need",
            "Hierarchical graph representation learning with differentiable pooling",
            "Geometric deep learning: going beyond euclidean data",
            *FILLER_TITLES,
        }
    )  # the unrelated ion-trap paper's cited works
    gilmer = next(paper for paper in works if paper["title"].startswith("Neural message"))
    assert gilmer["arxiv_id"] == "1704.01212" and gilmer["date"] == "2017"
    assert len(mini_library.cited_by(gilmer["id"])) == 2  # citation edges to it


def test_cited_works_on_the_real_library(imported):
    before = imported.counts()
    # the import read every entry's title once; the preparation takes only those that name one
    read, titled = imported.conn.execute(
        "select count(*), count(read_title) from paper_references where title_read = 1"
    ).fetchone()
    assert read == before["references"] == 1786
    report = prepare_cited_works(imported)
    assert report.read == titled and report.untitled == 0
    # Most entries name a title; the rest are journal-only physics and astronomy entries.
    assert 900 <= report.linked <= 1200 and report.linked == titled
    after = imported.counts()
    assert after["papers"] == before["papers"] + report.added and after["citations"] >= report.linked - 50
    assert prepare_cited_works(imported).linked == 0


def test_sentences_clauses_and_questions():
    text = "Pemantle and Rivin [14] conjectured it. Kabluchko et al. [3], [4] proved it; see also [7]."
    assert split_sentences(text) == [
        "Pemantle and Rivin [14] conjectured it.",
        "Kabluchko et al. [3], [4] proved it; see also [7].",
    ]
    assert (
        clean_clause("Several works studied zeros under differentiation [3], [4], [7].")
        == "Several works studied zeros under differentiation"
    )
    assert (
        question_for("[26], [27] propose to exploit the RUS policy to mimic tangent activation functions")
        == "Which papers propose to exploit the RUS policy to mimic tangent activation functions?"
    )
    assert (
        question_for("Applications of this approach to elastoplastic materials can be found in [2], [3].")
        == "Could you provide me some works about applications of this approach to elastoplastic materials can be found?"
    )
    assert (
        question_for("In [25], [26], words are swapped based on genetic algorithms")
        == "Could you provide me some works about words are swapped based on genetic algorithms?"
    )
    assert question_for("the measure $\\mu$ is \\emph{nice} [2], [3]") is None  # LaTeX left behind
    assert question_for("see [2], [3]") is None  # nothing to ask


def test_query_set_from_the_real_library(imported, tmp_path):
    prepare_cited_works(imported)
    report = build_queries(imported)
    queries = report.queries
    assert 40 <= len(queries) <= 150 and report.papers >= 15
    assert {query.passage for query in queries} == {"introduction", "related-work"}
    for query in queries:
        assert len(query.answers) >= 2
        source = imported.paper(query.source_paper_id)
        assert query.query_date == source["date"]
        cited = {row["cited_paper_id"] for row in imported.references(query.source_paper_id)}
        for answer in query.answers:
            paper = imported.paper(answer.paper_id)
            assert answer.paper_id in cited and paper["source"] == "reference"
            assert paper["date"] < query.query_date  # only papers before the query date
    per_section: dict = {}
    for query in queries:
        key = (query.source_paper_id, query.section)
        per_section[key] = per_section.get(key, 0) + 1
    assert max(per_section.values()) <= 5
    # deterministic, and it survives a round trip through JSONL
    assert [q.query for q in build_queries(imported).queries] == [q.query for q in queries]
    path = tmp_path / "queries.jsonl"
    assert write_queries(path, queries) == len(queries)
    line = json.loads(path.read_text().splitlines()[0])
    assert set(line) >= {"query", "answers", "answer_ids", "query_date"}
    assert read_queries(path) == queries


def test_a_bad_query_file_is_one_clear_error(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"query": "x", "answers": [{"paper_id": 1, "title": "t"}], "query_date": "2022-01-01"}\n{"query": "y"}\n'
    )
    with pytest.raises(QuerySetError, match="bad.jsonl:2: not an AutoScholarQuery line"):
        read_queries(path)
    path.write_text("not json\n")
    with pytest.raises(QuerySetError, match="bad.jsonl:1: not JSON"):
        read_queries(path)


def test_cited_works_after_an_import_stop_when_asked_and_the_search_makes_the_rest(imported, monkeypatch):
    """The Library tab's Cancel during the cited-works step (``with_cited_works(should_stop=…)``):
    what was made stays, the rest is left to the first Paper search's preparation, nothing twice."""
    from scholar_tui.core.pasa import works
    from scholar_tui.core.pasa.works import prepare_imported

    ids = [row[0] for row in imported.conn.execute("select id from papers order by id")]
    asked = []

    def stop_after_the_first_batch() -> bool:
        asked.append(True)
        return len(asked) > 1

    monkeypatch.setattr(works, "PAPERS_AT_ONCE", 20)  # 49 papers: three batches, the last two stopped
    stopped = prepare_imported(imported, ids, stop_after_the_first_batch)
    assert stopped.stopped and 0 < stopped.added < 972
    rest = prepare_cited_works(imported)
    assert stopped.added + rest.added == 972 and not rest.stopped
    assert prepare_imported(imported, ids, lambda: True).stopped  # asked before any batch: nothing made


def _cited_state(library) -> tuple:
    papers = library.conn.execute(
        "select id, arxiv_id, doi, openalex_id, title, title_key, date, year, url, source from papers order by id"
    ).fetchall()
    links = library.conn.execute("select id, cited_paper_id from paper_references order by id").fetchall()
    ids = sorted(library.conn.execute("select kind, value, paper_id from paper_ids").fetchall())
    sources = sorted(library.conn.execute("select paper_id, source, source_id from paper_sources").fetchall())
    merges = library.conn.execute("select kept_id, evidence, record from paper_merges order by id").fetchall()
    return papers, links, ids, sources, merges


def test_cited_works_made_together_are_those_made_one_by_one(imported, where, tmp_path):
    """The new works of a batch are inserted a few hundred rows a statement (one FTS5 flush each, not
    one a work): the papers, links, ids, sources and merges are those of ``store_paper`` entry by entry."""
    import shutil

    from scholar_tui.config.locations import Locations
    from scholar_tui.core.pasa.works import cited_work_record, prepare_imported
    from scholar_tui.indexes.library import Library

    root = tmp_path / "one-by-one"
    other = Locations(config_dir=root, data_dir=root / "data", cache_dir=root / "cache", log_dir=root / "logs")
    other.ensure()
    shutil.copy(where.database_file, other.database_file)
    ids = [row[0] for row in imported.conn.execute("select id from papers order by id")]
    flushes = []
    imported.conn.set_trace_callback(lambda sql: flushes.append(sql) if "papers_fts_data" in sql else None)
    made = prepare_imported(imported, ids)
    imported.conn.set_trace_callback(None)
    assert made.added == 972 and len(flushes) < 100  # one work a statement wrote FTS5's segments 4,000 times

    library = Library.open(other)
    with library.transaction():
        rows = library.conn.execute(
            "select id, paper_id, read_title, year, arxiv_id, doi, openalex_id from paper_references "
            "where read_title is not null and cited_paper_id is null order by id"
        ).fetchall()
        cited = set()
        for reference_id, citing, title, year, arxiv, doi, openalex in rows:
            fields = {"year": year, "arxiv_id": arxiv, "doi": doi, "openalex_id": openalex}
            paper_id, _ = library.store_paper(cited_work_record(fields, title))
            if paper_id != citing:
                library.conn.execute(
                    "update paper_references set cited_paper_id = ? where id = ?", (paper_id, reference_id)
                )
                cited.add(paper_id)
        library.relink(cited)
    assert _cited_state(library) == _cited_state(imported)
    library.close()
