"""Hybrid search on the imported sample with the real embedder: paraphrases, the date cut-off, incremental updates."""

import json

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.core.library.importer import run_import
from scholar_tui.indexes.library_search import IndexFinished, LibraryIndex, SearchError

from .library_support import fixture_path

pytestmark = pytest.mark.embeddings


@pytest.mark.parametrize(
    "paraphrase, arxiv_id",
    [
        ("where the roots of many derivatives of a random polynomial end up", "2212.11867"),
        ("forecasting firms' sustainability scores from news text", "2212.11765"),
        ("neural networks for sequences that run on integer arithmetic only", "2212.11791"),
        ("getting exoplanet atmospheres from high resolution spectra", "2212.11816"),
    ],
)
def test_a_paraphrase_finds_the_paper(indexed, where, real_embedder, paraphrase, arxiv_id):
    hits = LibraryIndex(where, real_embedder).search(indexed, paraphrase, limit=5)
    assert hits[0].arxiv_id == arxiv_id, [(h.arxiv_id, h.title) for h in hits]


def test_the_date_cutoff_is_honoured(indexed, where, real_embedder):
    index = LibraryIndex(where, real_embedder)
    query = "where the roots of many derivatives of a random polynomial end up"
    hits = index.search(indexed, query, before="2022-12-01", limit=20)
    assert hits and all(hit.date < "2022-12-01" for hit in hits)
    assert "2212.11867" not in {hit.arxiv_id for hit in hits}  # published 2022-12-22
    esg = index.search(indexed, "forecasting firms' sustainability scores from news text", before="2022-12-01")
    assert esg[0].arxiv_id == "2212.11765"  # published 2022-11-13
    assert index.search(indexed, query, before="2022-11-01") == []  # nothing in the sample is that old
    for wrong in ("last year", "2023-13-99", "2023-02-30", "2023-00"):
        with pytest.raises(SearchError, match=f"the date cut-off must be a date like 2022-12-01 .*, not '{wrong}'"):
            index.search(indexed, query, before=wrong)
    assert index.search(indexed, query, before="2022-12") == index.search(indexed, query, before="2022-12-01")


def test_only_new_or_changed_papers_are_embedded(indexed, where, real_embedder):
    index = LibraryIndex(where, real_embedder)
    assert index.coverage(indexed).level == 49
    run_import("bibtex", fixture_path("bibtex", "sample.bib"), indexed)  # three new papers, one known
    finished = [event for event in index.sync(indexed) if isinstance(event, IndexFinished)][0]
    assert (finished.embedded, finished.removed, finished.indexed) == (3, 0, 52)
    with indexed.transaction():
        indexed.conn.execute("update papers set abstract = 'Changed.' where arxiv_id = '2212.11867'")
    finished = [event for event in index.sync(indexed) if isinstance(event, IndexFinished)][0]
    assert (finished.embedded, finished.removed, finished.indexed) == (1, 1, 52)
    hits = index.search(indexed, "Über formal unentscheidbare Sätze", limit=3)
    assert hits[0].title.startswith("Über formal unentscheidbare Sätze")


def test_cli_search_json(indexed):
    result = CliRunner().invoke(
        cli,
        [
            "library",
            "search",
            "integer-only recurrent neural networks",
            "--before",
            "2022-12-31",
            "--limit",
            "3",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    hits = json.loads(result.stdout)  # the embedder's loading bar goes to stderr
    assert hits[0]["arxiv_id"] == "2212.11791" and hits[0]["vector_rank"] == 1 and hits[0]["text_rank"] == 1
