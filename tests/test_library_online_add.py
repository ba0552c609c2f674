"""Search arXiv or OpenAlex online, then add the chosen results (and what they cite) to the library.

The real recorded responses in ../shared/data/online/ are served by httpx.MockTransport from the
files (skipped when absent); the repository's own hand-written answers make the same flow run
without ../shared; a dead network gives one plain line.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from click.testing import CliRunner

from scholar_tui.app.cli import cli
from scholar_tui.config.settings import NetworkSettings
from scholar_tui.core.library.apis import local_api
from scholar_tui.core.library.online import AddFinished, AddProgress, OnlineFailed, OnlineFound, OnlineSources
from scholar_tui.indexes.library import Library

from .library_support import arxiv_handler, openalex_handler, recording


def recorded_handler(online: Path):
    """Answer as arXiv and OpenAlex did in the recorded files; referenced works come from the same page."""
    works_page = json.loads((online / "openalex-works-search.json").read_text(encoding="utf-8"))
    by_id = {work["id"].rsplit("/", 1)[-1]: work for work in works_page["results"]}

    def handle(request: httpx.Request) -> httpx.Response:
        params = request.url.params
        if request.url.host == "export.arxiv.org":
            query = params.get("search_query", "")
            name = (
                "arxiv-atom-au-del_maestro.xml" if "au:del_maestro" in query else "arxiv-atom-2026-search-testing.xml"
            )
            return httpx.Response(200, content=(online / name).read_bytes())
        if request.url.path == "/works" and params.get("search"):
            return httpx.Response(200, json=works_page)
        if request.url.path == "/works" and params.get("filter", "").startswith("openalex:"):
            wanted = params["filter"].removeprefix("openalex:").split("|")
            return httpx.Response(200, json={"meta": {"count": 0}, "results": [by_id[w] for w in wanted if w in by_id]})
        return httpx.Response(404, json={"error": "Not Found"})

    return handle


def _events(generator) -> list:
    return list(generator)


def test_recorded_arxiv_author_search_adds_one_del_maestro(where, shared_data):
    transport, seen = recording(recorded_handler(shared_data / "online"))
    sources = OnlineSources(Library.open(where), NetworkSettings(), transport=transport)
    [found] = _events(sources.search("arxiv", "au:del_maestro", limit=10))
    assert isinstance(found, OnlineFound) and len(found.records) == 10
    assert seen[0].url.params["search_query"] == "au:del_maestro"  # arXiv's own syntax goes as typed
    assert sources.library.counts()["papers"] == 0  # nothing is stored before a person chooses
    events = _events(sources.add(found.records, query="au:del_maestro"))
    assert [e.done for e in events if isinstance(e, AddProgress)] == list(range(1, 11))
    finished = events[-1]
    assert isinstance(finished, AddFinished) and len(finished.paper_ids) == 10 and len(finished.merged) == 1
    [person] = local_api(sources.library).searchPerson(name="Adrian Del Maestro")
    assert person["num_pubs"] == 10 and person["aliases"] == ["A. Del Maestro"]


def test_recorded_openalex_search_adds_chosen_works_with_their_references(where, shared_data):
    transport, seen = recording(recorded_handler(shared_data / "online"))
    sources = OnlineSources(Library.open(where), NetworkSettings(), transport=transport)
    [found] = _events(sources.search("openalex", "machine learning public health"))
    assert len(found.records) == 49
    chosen = found.records[:2]
    events = _events(sources.add(chosen))
    finished = events[-1]
    assert len(finished.paper_ids) == 2 and not finished.problem
    cited = list(dict.fromkeys(ref.openalex_id for record in chosen for ref in record.references))
    asked = [r.url.params["filter"] for r in seen if r.url.params.get("filter", "").startswith("openalex:")]
    assert asked and sorted(sum((a.removeprefix("openalex:").split("|") for a in asked), [])) == sorted(cited)
    assert [e.stage for e in events if isinstance(e, AddProgress)][-1] == "references"
    paper = sources.library.paper(finished.paper_ids[0])
    assert len(sources.library.references(paper["id"])) == len(chosen[0].references)


def test_written_answers_add_a_paper_and_the_works_it_cites(where):
    """The repository's own small answers: runs without ../shared."""
    sources = OnlineSources(Library.open(where), NetworkSettings(), transport=httpx.MockTransport(openalex_handler))
    [found] = _events(sources.search("openalex", "random polynomials"))
    michelen = [r for r in found.records if r.openalex_id == "W9000000001"]
    finished = _events(sources.add(michelen))[-1]
    assert len(finished.paper_ids) == 1 and len(finished.cited_ids) == 3
    references = sources.library.references(finished.paper_ids[0])
    assert sum(1 for r in references if r["cited_paper_id"]) == 3  # every reference now resolves in the library
    arxiv = OnlineSources(Library.open(where), NetworkSettings(), transport=httpx.MockTransport(arxiv_handler))
    [found] = _events(arxiv.search("arxiv", "random polynomials"))
    assert len(found.records) == 3 and found.summary() == "3 results from arXiv for “random polynomials”"


def test_offline_search_is_one_plain_line(where):
    def unreachable(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)

    sources = OnlineSources(Library.open(where), NetworkSettings(), transport=httpx.MockTransport(unreachable))
    [failed] = _events(sources.search("arxiv", "graph neural networks"))
    assert isinstance(failed, OnlineFailed)
    assert (
        failed.summary()
        == "cannot reach export.arxiv.org (ConnectError): working offline; import files instead; the local library still answers"
    )
    [empty] = _events(sources.search("openalex", "  "))
    assert isinstance(empty, OnlineFailed) and empty.summary().startswith("type what to search OpenAlex for")


def test_cli_online_search_lists_then_adds_the_picked_results(where, monkeypatch):
    import scholar_tui.core.library.online as online

    original = online.OnlineSources.__init__

    def with_fixtures(self, library, network, *, transport=None, backoff_s=1.0):
        original(self, library, network, transport=httpx.MockTransport(openalex_handler), backoff_s=backoff_s)

    monkeypatch.setattr(online.OnlineSources, "__init__", with_fixtures)
    runner = CliRunner()
    listed = runner.invoke(cli, ["library", "online", "search", "openalex", "random polynomials", "--list-only"])
    assert listed.exit_code == 0, listed.output
    assert "  1. " in listed.output and "Zeros of a growing number of derivatives" in listed.output
    assert "2 results from OpenAlex for “random polynomials”" in listed.output
    assert Library.open(where).counts()["papers"] == 0
    added = runner.invoke(cli, ["library", "online", "search", "openalex", "random polynomials", "--pick", "1"])
    assert added.exit_code == 0, added.output
    assert "added 1 papers to the library and 3 works they cite" in added.output
    assert Library.open(where).counts()["papers"] == 4
    bad = runner.invoke(cli, ["library", "online", "search", "openalex", "random polynomials", "--pick", "x"])
    assert bad.exit_code == 2 and "use numbers from the list" in bad.output
