"""The online half of the tools, against recorded arXiv and OpenAlex answers (no network)."""

from __future__ import annotations

import httpx

from scholar_tui.config.settings import NetworkSettings
from scholar_tui.core.library.online import OnlineSources
from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.tools import REFERENCES_SECTION, LibraryTools

from .library_support import HashingEmbedder, arxiv_handler, openalex_handler, recording
from .pasa_support import RoutedLLM


def both_sources(request: httpx.Request) -> httpx.Response:
    return arxiv_handler(request) if request.url.host == "export.arxiv.org" else openalex_handler(request)


def online_tools(where, library, handler=both_sources):
    transport, seen = recording(handler)
    sources = OnlineSources(library, NetworkSettings(timeout_s=1.0), transport=transport, backoff_s=0.0)
    return LibraryTools(where, library, HashingEmbedder(), online=sources, search_limit=6, plain_limit=0), seen


def test_online_search_caches_results_into_the_library(where, mini_library):
    tools, seen = online_tools(where, mini_library)
    result = tools.search("random polynomials", "2023-01-01")
    assert result.origin == "library+online" and not result.notices
    hosts = [request.url.host for request in seen]
    assert hosts == ["export.arxiv.org", "api.openalex.org"]
    assert "submittedDate:[199101010000 TO 202212312359]" in seen[0].url.params["search_query"]
    assert seen[1].url.params["filter"] == "to_publication_date:2022-12-31"
    titles = {mini_library.paper(paper_id)["title"] for paper_id in result.paper_ids}
    assert "Zeros of a growing number of derivatives of random polynomials with independent roots" in titles
    assert "Normalized Contrastive Learning for Text-Video Retrieval" in titles  # from the arXiv feed
    # cached: the same search offline finds them locally now
    tools.online = None
    local = tools.search("random polynomials derivatives", "2023-01-01")
    assert local.origin == "library" and set(local.paper_ids) & set(result.paper_ids)


def test_an_openalex_paper_expands_to_its_referenced_works(where, mini_library):
    tools, seen = online_tools(where, mini_library)
    found = tools.search("random polynomials", None)
    work = next(
        paper_id for paper_id in found.paper_ids if mini_library.paper(paper_id)["openalex_id"] == "W9000000001"
    )
    outline = tools.outline(work)
    assert outline.expandable == [REFERENCES_SECTION] and outline.paper.sections == [REFERENCES_SECTION]
    cited = tools.expand(work, outline, REFERENCES_SECTION)
    titles = {mini_library.paper(paper_id)["title"] for paper_id in cited.paper_ids}
    assert "Dynamics of zeroes under repeated differentiation" in titles and len(titles) == 3
    assert cited.origin == "library+online"
    assert any(request.url.path == "/works/W9000000001" for request in seen)


def test_no_network_is_said_once_and_the_library_still_answers(where, mini_library):
    def unreachable(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("no route to host", request=request)

    tools, seen = online_tools(where, mini_library, unreachable)
    first = tools.search("graph neural networks", None)
    assert first.origin == "library" and first.paper_ids
    assert len(first.notices) == 1 and "cannot reach export.arxiv.org" in first.notices[0]
    assert tools.online is None
    second = tools.search("message passing", None)
    assert second.notices == [] and len(seen) == 1  # never asked again


def test_a_crawl_online_reports_where_papers_came_from(where, mini_library):
    tools, _ = online_tools(where, mini_library)
    llm = RoutedLLM(
        search=["[Search] random polynomials [Stop]"],
        expand=["[Expand] References [Stop]"],
        relevant=lambda title: "polynomial" in title.lower(),
    )
    agent = PaSaEngine(
        llm,
        tools,
        PaSaOptions(
            budgets=Budgets(max_actions=3, max_papers=30),
            query_mode="candidates",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
    )
    papers_before = mini_library.paper_count()
    events = [event for event in agent.run("random polynomials") if not getattr(event, "plain", False)]
    assert events[0].online is True
    # the last line says how many papers the crawl brought into the library
    added = mini_library.paper_count() - papers_before
    assert added > 0 and events[-1].library_added == added
    assert events[-1].summary().endswith(f"; {added} papers added to the library")
    found = [event for event in events if event.kind == "found" and event.papers]
    assert found[0].origin == "library+online"
    expanded = [event for event in events if event.kind == "expand"]
    assert expanded and expanded[0].section == REFERENCES_SECTION
    assert events[-1].selected and all("polynomial" in paper.title.lower() for paper in events[-1].selected)
