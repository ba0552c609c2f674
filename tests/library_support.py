"""Fixtures and helpers shared by the tests/test_library_*.py modules.

The real unarXive sample is imported once per session into a prepared folder; each test that
needs it gets a copy of that database in its own SCHOLAR_TUI_HOME (``imported``), so tests stay
independent without paying for the import again. The search index (real embedder) is built once
the same way (``indexed``). OpenAlex answers come from the hand-written fixtures through
``openalex_transport()`` (an httpx.MockTransport), never from the network.
"""

from __future__ import annotations

import json
import re
import shutil
import zlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest

from scholar_tui.config.locations import Locations
from scholar_tui.core.library.importer import run_import
from scholar_tui.core.scale_library import generate
from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import AuthorRecord, PaperRecord

from .conftest import SHARED_DATA

FIXTURES = Path(__file__).parent / "fixtures" / "library"
UNARXIVE = SHARED_DATA / "unarxive" / "arXiv_src_2212_086.jsonl"


def generated_unarxive(tmp_path_factory, papers: int, name: str = "scale") -> Path:
    """A synthetic unArXive file of ``papers`` papers (core/scale_library, seeded): the same every run."""
    path = tmp_path_factory.mktemp(name) / "library.jsonl"
    generate(papers, path)
    return path


def imported_library(where: Locations, path: Path) -> Iterator[Library]:
    """``path`` imported into a fresh library of ``where`` (without vectors, as `import --no-index` leaves
    it), closed after the test: a fixture's body (``yield from``)."""
    library = Library.open(where)
    run_import("unarxive", path, library)
    yield library
    library.close()


def fixture_path(*parts: str) -> Path:
    return FIXTURES.joinpath(*parts)


def _prepared_locations(root: Path) -> Locations:
    return Locations(config_dir=root, data_dir=root / "data", cache_dir=root / "cache", log_dir=root / "logs").ensure()


@pytest.fixture(scope="session")
def prepared_library(tmp_path_factory) -> Locations:
    """A folder whose database holds the imported unarXive sample (built once per session)."""
    if not UNARXIVE.is_file():
        pytest.skip(f"real data not found at {UNARXIVE} (the shared/ folder beside the repository)")
    where = _prepared_locations(tmp_path_factory.mktemp("library-prepared"))
    library = Library.open(where)
    run_import("unarxive", UNARXIVE, library)
    library.close()  # the last connection closing folds the WAL back into the file
    return where


@pytest.fixture
def imported(prepared_library: Locations, where: Locations, shared_data: Path):
    """This test's own library, holding the 49 papers of the sample."""
    shutil.copy(prepared_library.database_file, where.database_file)
    library = Library.open(where)
    yield library
    library.close()


@pytest.fixture
def empty_library(where: Locations):
    library = Library.open(where)
    yield library
    library.close()


@pytest.fixture(scope="session")
def real_embedder():
    """The default embedding model, loaded once for the session (offline)."""
    from scholar_tui.config.settings import Settings
    from scholar_tui.models import load_embedder

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HF_HUB_OFFLINE", "1")
        patch.setenv("TRANSFORMERS_OFFLINE", "1")
        embedder = load_embedder(Settings())
        embedder.embed(["warm up"])
    return embedder


@pytest.fixture(scope="session")
def indexed_library(prepared_library: Locations, real_embedder, tmp_path_factory) -> Locations:
    """The prepared library with its search index built (embeds the 49 papers once)."""
    from scholar_tui.indexes.library_search import sync_index

    where = _prepared_locations(tmp_path_factory.mktemp("library-indexed"))
    shutil.copy(prepared_library.database_file, where.database_file)
    library = Library.open(where)
    sync_index(where, library, real_embedder)
    library.close()
    return where


@pytest.fixture
def indexed(indexed_library: Locations, where: Locations, shared_data: Path):
    shutil.copy(indexed_library.database_file, where.database_file)
    shutil.copytree(indexed_library.lancedb_dir, where.lancedb_dir, dirs_exist_ok=True)
    library = Library.open(where)
    yield library
    library.close()


# Question words say nothing about a topic; kept out so "when does X end" finds X.
STOPWORDS = {"the", "a", "an", "of", "is", "for", "to", "in", "and", "what", "when", "does", "do", "how", "who", "are"}


class HashingEmbedder:
    """The test double of the embedder, for tests that must stay fast (the real one is tested apart).

    Bag of words hashed into 384 dimensions, L2-normalised: texts that share words are close. It
    counts its calls and texts, so a test can tell what was embedded again. Never offered to users.
    """

    name = "hashing-test"
    dimension = 384

    def __init__(self) -> None:
        self.calls = 0
        self.texts = 0

    def embed(self, texts):
        self.calls += 1
        self.texts += len(texts)
        matrix = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z0-9$]+", text.lower()):
                if word not in STOPWORDS:
                    matrix[row, zlib.crc32(word.encode()) % self.dimension] += 1.0
            norm = np.linalg.norm(matrix[row])
            matrix[row] = matrix[row] / norm if norm else matrix[row]
            if not norm:
                matrix[row, 0] = 1.0
        return matrix


# -- recorded OpenAlex and arXiv answers --------------------------------------------------------------
def _json_response(name: str) -> httpx.Response:
    return httpx.Response(200, json=json.loads(fixture_path("openalex", name).read_text(encoding="utf-8")))


def _vu() -> dict:
    lines = fixture_path("openalex", "authors_snapshot.jsonl").read_text().splitlines()
    return json.loads(lines[1])


def openalex_handler(request: httpx.Request) -> httpx.Response:
    """Route a request to the fixture OpenAlex would have answered with; unknown ids get 404."""
    path, params = request.url.path, request.url.params
    filters = params.get("filter", "")
    if path == "/authors" and params.get("search"):
        return _json_response("authors_search_michelen.json")
    if path == "/authors" and filters.startswith("last_known_institutions.id:I9000000001"):
        return _json_response("authors_at_I9000000001.json")
    if path == "/authors/A9000000001":
        return _json_response("author_A9000000001.json")
    if path == "/authors/A9000000002":
        return httpx.Response(200, json=_vu())
    if path == "/institutions":
        return _json_response("institutions_search.json")
    if path == "/works" and params.get("search"):
        return _json_response("works_search_page.json")
    if path == "/works" and filters == "author.id:A9000000001":
        return _json_response("works_by_A9000000001.json")
    if path == "/works" and filters.startswith("author.id:"):
        return httpx.Response(200, json={"meta": {"count": 0}, "results": []})
    if path == "/works" and filters == "cites:W9000000001":
        return _json_response("works_citing_W9000000001.json")
    if path == "/works" and filters.startswith("openalex:"):
        return _json_response("works_referenced_page.json")
    if path == "/works/W9000000001":
        return _json_response("work_W9000000001.json")
    return httpx.Response(404, json={"error": "Not Found", "message": f"nothing at {path}"})


def arxiv_handler(request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        200,
        content=fixture_path("arxiv", "search_feed.xml").read_bytes(),
        headers={"Content-Type": "application/atom+xml"},
    )


def recording(handler):
    """A MockTransport that also keeps every request it answered."""
    seen: list[httpx.Request] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return handler(request)

    return httpx.MockTransport(record), seen


__all__ = [
    "FIXTURES",
    "UNARXIVE",
    "HashingEmbedder",
    "arxiv_handler",
    "empty_library",
    "fixture_path",
    "imported",
    "indexed",
    "indexed_library",
    "openalex_handler",
    "prepared_library",
    "real_embedder",
    "recording",
]


def one_scholar_library(where: Locations) -> None:
    """A library of one paper by two people (Ada Lovelace, Charles Babbage): enough for an engine or a
    tab to answer about a scholar."""
    library = Library.open(where)
    with library.transaction():
        library.store_paper(
            PaperRecord(
                title="Analytical Engines for Bernoulli Numbers",
                source="test",
                date="1843-01-01",
                authors=[AuthorRecord("Ada Lovelace"), AuthorRecord("Charles Babbage")],
            )
        )
    library.close()
