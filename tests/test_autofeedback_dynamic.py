"""The Dynamic Analysis Component: the docs chunked into LanceDB, an error's meaning retrieved (§3.3)."""

from __future__ import annotations

import pytest

from scholar_tui.core.autofeedback import send_request
from scholar_tui.core.autofeedback.docs import ANY_API, api_documentation, semantic_chunks, split_sentences
from scholar_tui.core.library.apis import ERROR_CODES, SPECS, local_api
from scholar_tui.indexes.autofeedback_docs import TABLE, DocIndex

from .library_support import HashingEmbedder

pytestmark = pytest.mark.embeddings


def test_the_documentation_covers_descriptions_parameters_returns_and_every_error_code():
    paragraphs = api_documentation()
    sections = {(p.api, p.section) for p in paragraphs}
    assert ("getCoauthors", "parameter:person_id") in sections
    assert ("searchPublication", "returns") in sections
    for name, spec in SPECS.items():
        assert {f"error:{code}" for code in spec.errors} <= {p.section for p in paragraphs if p.api == name}
    assert {p.section for p in paragraphs if p.api == ANY_API} == {f"error:{code}" for code in ERROR_CODES}
    assert split_sentences("One sentence here. Two (local: 'a.b'). Three!") == [
        "One sentence here.",
        "Two (local: 'a.b').",
        "Three!",
    ]


def test_semantic_chunking_joins_similar_neighbours_and_keeps_headings(real_embedder):
    chunks = semantic_chunks(api_documentation(), real_embedder)
    sentences = sum(len(split_sentences(p.text)) for p in api_documentation())
    assert sum(chunk.sentences for chunk in chunks) == sentences  # nothing lost
    assert len(chunks) < sentences  # some neighbours share a chunk
    not_found = [c for c in chunks if c.api == "getCoauthors" and c.section == "error:E_NOT_FOUND"]
    assert len(not_found) == 1 and not_found[0].sentences == 2  # its two sentences belong together
    assert not_found[0].text.startswith("Error E_NOT_FOUND from getCoauthors: The id is well formed")


def test_an_error_meaning_is_retrieved_by_api_name_and_query(real_feedback):
    hits = real_feedback.analyser.retrieve("getCoauthors", "E_NOT_FOUND: no person person:999 in the local library")
    assert hits[0].api == "getCoauthors" and hits[0].section == "error:E_NOT_FOUND"
    hits = real_feedback.analyser.retrieve("getPublication", "E_BAD_ARGUMENT: 'Marcus' is not a publication id")
    assert hits[0].section == "error:E_BAD_ARGUMENT" and hits[0].api in ("getPublication", ANY_API)
    # an API that does not exist can only meet the shared chunks
    assert (
        real_feedback.analyser.retrieve("get_coauthors", "E_UNKNOWN_API: no API named")[0].section
        == "error:E_UNKNOWN_API"
    )
    rows = DocIndex(real_feedback.where).rows()
    assert {row["api"] for row in rows} == set(SPECS) | {ANY_API}


def test_a_failed_call_is_explained_from_the_documentation(real_feedback, imported):
    call = send_request(local_api(imported), '<<API>>getCoauthors(person_id="person:99999")<</API>>')
    assert not call.ok and call.error_code == "E_NOT_FOUND"
    observation = real_feedback.analyse_response(call, "Who are the coauthors of person:99999?")
    assert not observation.satisfied and observation.error_code == "E_NOT_FOUND"
    assert observation.meaning_section == "error:E_NOT_FOUND"
    assert (
        "Ids come from searchPerson" in observation.observation and "no person person:99999" in observation.observation
    )
    assert observation.request == 'getCoauthors(person_id="person:99999")'


def test_an_empty_result_is_unsatisfying_and_explained(real_feedback, imported):
    call = send_request(
        local_api(imported), '<<API>>searchPublication(publication_info="Qwertyuiop zyxw kumquat")<</API>>'
    )
    assert call.ok and call.result == []
    observation = real_feedback.analyse_response(call, "Find the paper about kumquats")
    assert not observation.satisfied and "empty result" in observation.reason
    assert observation.meaning_section == "returns" and "An empty list means" in observation.meaning


def test_a_good_call_is_satisfying_and_needs_no_retrieval(real_feedback, imported):
    call = send_request(local_api(imported), '<<API>>searchPerson(name="Michelen")<</API>>')
    observation = real_feedback.analyse_response(call, "Find Michelen")
    assert observation.satisfied and observation.meaning is None
    assert observation.response[0]["name"] == "Marcus Michelen"


def test_program_runs_are_assessed_by_their_first_failed_call(real_feedback):
    from scholar_tui.core.sandbox import APICall, SandboxResult

    failed = SandboxResult(
        ok=False,
        error="APIError: E_BAD_ARGUMENT: ...",
        error_kind="runtime",
        calls=[
            APICall("searchPerson", {"args": [], "kwargs": {"name": "Ada"}}, True, result=[{"person_id": "person:1"}]),
            APICall(
                "getPersonPubs",
                {"args": ["Ada"], "kwargs": {}},
                False,
                error="APIError: E_BAD_ARGUMENT: 'Ada' is not a person id of the local library",
                error_code="E_BAD_ARGUMENT",
            ),
        ],
    )
    observation = real_feedback.analyse_program(failed, "Papers of Ada?")
    assert observation.api == "getPersonPubs" and observation.request == 'getPersonPubs(person_id="Ada")'
    assert observation.meaning_section == "error:E_BAD_ARGUMENT"
    empty_then_index_error = SandboxResult(
        ok=False,
        error="IndexError: list index out of range",
        error_kind="runtime",
        calls=[APICall("searchPerson", {"args": [], "kwargs": {"name": "Zyx"}}, True, result=[])],
    )
    observation = real_feedback.analyse_program(empty_then_index_error, "Who is Zyx?")
    assert "IndexError" in observation.reason and observation.meaning_section == "returns"
    assert real_feedback.analyse_program(SandboxResult(ok=True, value=3, calls=[]), "?").satisfied


def test_the_index_is_rebuilt_when_the_embedder_changes(where):
    from scholar_tui.core.autofeedback import DynamicAnalyser

    first = DynamicAnalyser(where, HashingEmbedder())
    first.index()
    fingerprint = DocIndex(where).fingerprint()
    other = HashingEmbedder()
    other.name = "another-embedder"
    DynamicAnalyser(where, other).index()
    assert DocIndex(where).fingerprint() != fingerprint
    assert TABLE in DocIndex(where).db.list_tables().tables
