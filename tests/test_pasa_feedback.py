"""PaSa's tool calls through AutoFeedback: requests, errors, retries, logs, and sending one by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scholar_tui.config.settings import load_settings
from scholar_tui.core.autofeedback import AutoFeedback, FeedbackLoop
from scholar_tui.core.autofeedback.human import send_by_hand
from scholar_tui.core.pasa.engine import PaSaEngine, PaSaOptions
from scholar_tui.core.pasa.phrases import search_candidates
from scholar_tui.core.pasa.queue import Budgets
from scholar_tui.core.pasa.tool_requests import DOCUMENTATION, ToolExecutor, expand_request, search_request
from scholar_tui.core.pasa.tools import LibraryTools, ToolResult
from scholar_tui.core.sandbox import APICall
from scholar_tui.indexes.autofeedback_log import FeedbackLog
from scholar_tui.models.base import CancelToken

from .library_support import HashingEmbedder
from .pasa_support import GNN, RoutedLLM, paper_id

QUERY = "Which papers study graph neural networks for molecules?"


def send(executor: ToolExecutor, text: str):
    return executor.send(text)


def pasa_feedback(where) -> FeedbackLoop:
    embedder = HashingEmbedder()
    documentation = AutoFeedback(where, embedder, **DOCUMENTATION)
    return FeedbackLoop(documentation, log=FeedbackLog(where), source="pasa")


def run(agent: PaSaEngine, query: str) -> list:
    """The crawl's events (these tests leave the plain search out: the Crawler's calls are what they check)."""
    return [event for event in agent.run(query) if not getattr(event, "plain", False)]


# -- the requests ---------------------------------------------------------------------------------
def test_search_request_queues_new_papers_and_a_repeat_finds_nothing_new(where, mini_library):
    executor = ToolExecutor(LibraryTools(where, mini_library, HashingEmbedder(), search_limit=4, plain_limit=0))
    first = send(executor, search_request("graph neural networks"))
    assert first.call.ok and first.action == "Search" and first.argument == "graph neural networks"
    assert len(first.call.result) == 4 and all(paper["paper_id"].startswith("paper:") for paper in first.call.result)
    again = send(executor, search_request("graph  neural networks"))
    assert not again.call.ok and again.call.error_code == "E_NOTHING_NEW"
    assert "all 4 papers it found are already queued" in again.call.error
    assert again.result is not None and len(again.result.paper_ids) == 4  # the duplicates still count in the tree


def test_expand_request_errors_name_what_to_do(where, mini_library):
    executor = ToolExecutor(LibraryTools(where, mini_library, HashingEmbedder(), plain_limit=0))
    gnn = paper_id(mini_library, GNN)
    missing = send(executor, expand_request(gnn, "2 Related Works"))
    assert missing.call.error_code == "E_NO_SUCH_SECTION"
    assert (missing.action, missing.argument) == ("Expand", "2 Related Works")  # what a failed retry tried
    assert "1 Introduction; 2 Related Work" in missing.call.error  # the sections that cite something
    quiet = send(executor, expand_request(gnn, "3 Method"))
    assert quiet.call.error_code == "E_NO_CITATIONS"
    cited = send(executor, expand_request(gnn, "2 Related Work"))
    assert cited.call.ok and {paper["title"] for paper in cited.call.result} >= {"Attention is all you need"}
    assert (
        send(executor, 'expandSection(paper_id="twelve", section="1 Introduction")').call.error_code == "E_BAD_ARGUMENT"
    )
    assert (
        send(executor, 'expandSection(paper_id="paper:99999", section="1 Introduction")').call.error_code
        == "E_NOT_FOUND"
    )
    assert send(executor, 'searchPapers(query="")').call.error_code == "E_BAD_ARGUMENT"
    assert send(executor, 'searchPapers(query="x", year="2020")').call.error_code == "E_BAD_ARGUMENT"


def test_static_scan_checks_tool_requests_against_their_specs(where):
    af = AutoFeedback(where, HashingEmbedder(), **DOCUMENTATION)
    literal = af.scan_request('<<API>>search_papers(query="graph neural networks")<</API>>', QUERY, ["searchPapers"])
    assert literal is not None and literal.sub_type == "E2.2" and "searchPapers" in literal.feedback
    parameter = af.scan_request(
        '<<API>>expandSection(paper_id="paper:1", Section="2 Related Work")<</API>>', QUERY, ["expandSection"]
    )
    assert parameter is not None and parameter.error_type == "E3" and "section" in parameter.feedback
    assert af.scan_request(search_request("graph neural networks"), QUERY, ["searchPapers"]) is None


def test_dynamic_analysis_explains_nothing_new_from_the_tools_documentation(where, mini_library):
    af = AutoFeedback(where, HashingEmbedder(), **DOCUMENTATION)
    executor = ToolExecutor(LibraryTools(where, mini_library, HashingEmbedder(), search_limit=4, plain_limit=0))
    send(executor, search_request("graph neural networks"))
    observation = af.analyse_response(send(executor, search_request("graph neural networks")).call, QUERY)
    assert not observation.satisfied and observation.error_code == "E_NOTHING_NEW"
    assert "search with a different wording" in observation.meaning


@pytest.mark.embeddings
@pytest.mark.parametrize(
    "code, advice",
    [
        ("E_NOTHING_NEW", "search with a different wording"),
        ("E_NO_CITATIONS", "expand another section"),
        ("E_NO_SUCH_SECTION", "copy a name from the sections"),
    ],
)
def test_the_retrieved_meaning_keeps_the_advice_with_the_real_embedder(where, real_embedder, code, advice):
    """The documentation is chunked by sentence similarity: what to do must come back with the code."""
    af = AutoFeedback(where, real_embedder, **DOCUMENTATION)
    call = APICall(
        name="expandSection",
        arguments={"paper_id": "paper:3", "section": "1 Introduction"},
        ok=False,
        error=f"{code}: the message",
        error_code=code,
    )
    observation = af.analyse_response(call, QUERY)
    assert code in observation.meaning and advice in observation.meaning


# -- the registry: PaSa's requests reach PaSa's tools whatever the caller imported --------------------
# A fresh interpreter that imports send_by_hand alone, as a front end does: the request must be
# answered by the library's tools, not sent to the academic APIs (which know no searchPapers).
SEND_ALONE = """
import json, sys
from scholar_tui.config.locations import locations
from scholar_tui.config.settings import load_settings
from scholar_tui.core.autofeedback.human import send_by_hand
from tests.library_support import HashingEmbedder

before = "scholar_tui.core.pasa.tool_requests" in sys.modules
where = locations()
result = send_by_hand(where, load_settings(where), 'searchPapers(query="graph neural networks")', embedder=HashingEmbedder)
print(json.dumps({"imported_before": before, "ok": result.ok, "response": result.response}))
"""


def test_a_pasa_request_reaches_pasas_tools_without_importing_them_first(where, mini_library):
    mini_library.close()
    done = subprocess.run(
        [sys.executable, "-c", SEND_ALONE], capture_output=True, text=True, cwd=Path(__file__).parents[1]
    )
    assert done.returncode == 0, done.stderr[-2000:]
    sent = json.loads(done.stdout.splitlines()[-1])
    assert sent["imported_before"] is False
    assert sent["ok"] and any("Graph" in paper["title"] for paper in sent["response"]), sent


def test_the_registry_names_each_tool_module_and_routes_by_api():
    from scholar_tui.core.autofeedback.registry import TOOL_MODULES, tool_apis, tool_apis_for

    assert {name: tool_apis(name).name for name in TOOL_MODULES} == {"pasa": "pasa"}
    assert tool_apis_for(expand_request(3, "2 Related Work")) is tool_apis("pasa")
    assert tool_apis_for('<<API>>getCoauthors(name="Ada")<</API>>') is None  # an academic API
    with pytest.raises(ValueError, match="known: pasa"):
        tool_apis("soay")


# -- the crawl ------------------------------------------------------------------------------------
def test_a_search_that_adds_nothing_is_retried_with_another_candidate(where, mini_library):
    query = "Give me papers on message passing neural networks for molecule property prediction with attention"
    first, second, third = search_candidates(query, 6)[:3]
    llm = RoutedLLM(search=[f"[Search] {first} [Search] {second} [Stop]"], retry=[f"[Search] {third} [Stop]"])
    tools = LibraryTools(where, mini_library, HashingEmbedder(), plain_limit=0)
    real_search = tools.search
    ids = sorted(paper["id"] for paper in mini_library.all_papers())

    def scripted_search(query, before):  # the second search finds only what the first did
        if query == first:
            return ToolResult(ids[:3], "library")
        if query == second:
            return ToolResult(ids[:2], "library")
        return real_search(query, before)

    tools.search = scripted_search
    agent = PaSaEngine(
        llm,
        tools,
        PaSaOptions(
            budgets=Budgets(max_actions=2, max_papers=40),
            query_mode="candidates",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
        feedback=pasa_feedback(where),
    )
    events = run(agent, query)
    searches = [event for event in events if event.kind == "search"]
    assert [event.query for event in searches] == [first, second, third]
    assert searches[2].retry_of == searches[1].node
    feedback = [event for event in events if event.kind == "feedback_finished"]
    assert [event.status for event in feedback] == ["solved", "solved"]
    assert not feedback[0].retried and feedback[1].retried
    wanting = feedback[1].rounds[0]
    assert not wanting.ok and "E_NOTHING_NEW" in wanting.reason and second in wanting.request
    # the Crawler was shown the observation and the documentation's advice, after its own session
    retry = next(request for request in llm.history if RoutedLLM.kind_of(request) == "retry")
    assert retry.messages[1]["content"].startswith(f"[Search] {first}")
    assert "E_NOTHING_NEW" in retry.messages[2]["content"] and "different wording" in retry.messages[2]["content"]
    # the retry's papers are queued under the retry's node
    found = next(event for event in events if event.kind == "found" and event.parent == searches[2].node)
    assert found.papers and not {paper.paper_id for paper in found.papers} & set(ids[:3])
    log = FeedbackLog(where)
    loops = log.loops()
    assert {loop["source"] for loop in loops} == {"pasa"} and len(loops) == 2
    assert sorted(loop["rounds"] for loop in loops) == [1, 2]


def test_an_expand_with_nothing_left_to_try_waits_for_a_person(where, mini_library):
    gnn = paper_id(mini_library, GNN)
    everything = [paper["id"] for paper in mini_library.all_papers()]
    llm = RoutedLLM(
        search=["[Search] graph neural networks [Stop]"],
        expand=["[Expand] 2 Related Work [Stop]"],
        retry=["[Expand] 1 Introduction [Stop]"],
    )
    tools = LibraryTools(where, mini_library, HashingEmbedder(), plain_limit=0)

    def search_everything(query, before):  # the search queues the whole library: expanding adds nothing
        return ToolResult([gnn] + [i for i in everything if i != gnn], "library")

    tools.search = search_everything
    agent = PaSaEngine(
        llm,
        tools,
        PaSaOptions(
            budgets=Budgets(max_actions=2, max_papers=100),
            query_mode="candidates",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
        feedback=pasa_feedback(where),
    )
    events = run(agent, "graph neural networks")
    feedback = [event for event in events if event.kind == "feedback_finished"]
    assert feedback[-1].status == "limit_hit" and len(feedback[-1].rounds) == 3  # 1 + the 2 dynamic rounds
    retried = [event for event in events if event.kind == "expand" and event.retry_of is not None]
    assert [event.section for event in retried] == ["1 Introduction"]  # the third try repeats it: no new node
    log = FeedbackLog(where)
    waiting = log.loops(status="limit_hit")
    assert len(waiting) == 1 and waiting[0]["source"] == "pasa"
    # a person reads the loop and sends a request of their own from the debugger: it is logged
    result = send_by_hand(
        where,
        load_settings(where),
        search_request("attention transformers"),
        log=log,
        loop_id=waiting[0]["id"],
        embedder=HashingEmbedder,
    )
    assert result.sent == "request" and result.ok and result.loop_status == "fixed_by_hand"
    assert any("Attention" in paper["title"] for paper in result.response)


def test_a_section_the_grammar_did_not_offer_is_sent_and_its_error_corrects_the_model(where, mini_library):
    """A model behind an endpoint ignores grammars: its misnamed section is not dropped but answered."""
    llm = RoutedLLM(
        search=["[Search] graph neural networks [Stop]"],
        expand=["[Expand] Related Work [Stop]"],
        retry=["[Expand] 2 Related Work [Stop]"],
    )
    tools = LibraryTools(where, mini_library, HashingEmbedder(), search_limit=4, plain_limit=0)
    agent = PaSaEngine(
        llm,
        tools,
        PaSaOptions(
            budgets=Budgets(max_actions=2, max_papers=40),
            query_mode="candidates",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
        feedback=pasa_feedback(where),
    )
    events = run(agent, "graph neural networks")
    decided = next(event for event in events if event.kind == "decided" and event.session == "expand")
    assert decided.actions == ["[Expand] Related Work"] and decided.refused == []
    feedback = next(
        event
        for event in events
        if event.kind == "feedback_finished" and event.rounds[0].request.startswith("<<API>>expandSection")
    )
    assert feedback.status == "solved" and "E_NO_SUCH_SECTION" in feedback.rounds[0].reason
    retry = next(request for request in llm.history if RoutedLLM.kind_of(request) == "retry")
    assert "2 Related Work" in retry.messages[2]["content"]  # the error listed the real names
    retried = next(event for event in events if event.kind == "expand" and event.retry_of is not None)
    cited = next(event for event in events if event.kind == "found" and event.parent == retried.node)
    assert "Attention is all you need" in {paper.title for paper in cited.papers}
    # without AutoFeedback the misnamed section is refused and nothing is expanded
    plain = PaSaEngine(
        RoutedLLM(search=["[Search] graph neural networks [Stop]"], expand=["[Expand] Related Work [Stop]"]),
        tools,
        PaSaOptions(
            budgets=Budgets(max_actions=2, max_papers=40),
            query_mode="candidates",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
    )
    events = run(plain, "graph neural networks")
    decided = next(event for event in events if event.kind == "decided" and event.session == "expand")
    assert decided.refused == ["[Expand] Related Work"] and not any(event.kind == "expand" for event in events)


def test_cancelling_during_a_feedback_loop_ends_it_as_failed(where, mini_library):
    gnn = paper_id(mini_library, GNN)
    everything = [paper["id"] for paper in mini_library.all_papers()]
    token = CancelToken()

    class CancellingLLM(RoutedLLM):
        def reply_for(self, request):
            if self.kind_of(request) == "retry":
                token.cancel()  # the person presses Cancel while the Crawler retries
            return super().reply_for(request)

    llm = CancellingLLM(
        search=["[Search] graph neural networks [Stop]"],
        expand=["[Expand] 2 Related Work [Stop]"],
        retry=["[Expand] 1 Introduction [Stop]"],
    )
    tools = LibraryTools(where, mini_library, HashingEmbedder(), plain_limit=0)

    def search_everything(query, before):
        return ToolResult([gnn] + [i for i in everything if i != gnn], "library")

    tools.search = search_everything
    agent = PaSaEngine(
        llm,
        tools,
        PaSaOptions(
            budgets=Budgets(max_actions=2, max_papers=100),
            query_mode="candidates",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
        feedback=pasa_feedback(where),
    )

    events = list(agent.run("graph neural networks", cancel=token))
    assert events[-1].kind == "finished" and events[-1].cancelled
    # the retry's generation stopped at the cancel: nothing new was sent, no retry node is shown
    assert not [event for event in events if event.kind in ("search", "expand") and event.retry_of is not None]
    assert not [event for event in events if event.kind == "feedback_finished" and event.retried]
    expand_loop = next(loop for loop in FeedbackLog(where).loops() if "expandSection" in (loop["final_request"] or ""))
    assert expand_loop["status"] == "failed"  # never left 'running', never mistaken for a loop to fix by hand


def test_a_free_query_retry_that_repeats_a_tried_search_is_not_sent_again(where, mini_library):
    llm = RoutedLLM(
        search=["[Search] graph neural networks [Search] message passing [Stop]"],
        retry=["[Search] graph neural networks [Stop]", "[Search] attention [Stop]"],
    )
    tools = LibraryTools(where, mini_library, HashingEmbedder(), plain_limit=0)
    real_search = tools.search
    ids = sorted(paper["id"] for paper in mini_library.all_papers())

    def scripted_search(query, before):
        if query in ("graph neural networks", "message passing"):
            return ToolResult(ids[:3], "library")  # the second finds only what the first did
        return real_search(query, before)

    tools.search = scripted_search
    agent = PaSaEngine(
        llm,
        tools,
        PaSaOptions(
            budgets=Budgets(max_actions=2, max_papers=40),
            query_mode="free",
            rationale="template",
            use_head=False,
            judge_limit=100,
        ),
        feedback=pasa_feedback(where),
    )
    events = run(agent, "graph neural networks")
    assert [event.query for event in events if event.kind == "search"] == [
        "graph neural networks",
        "message passing",
        "attention",
    ]  # the repeat was never sent as a retry
    feedback = [event for event in events if event.kind == "feedback_finished"][-1]
    assert feedback.status == "solved" and len(feedback.rounds) == 3
