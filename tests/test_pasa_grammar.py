"""The Crawler's action grammar and the key-phrase candidates; the real model under the grammar."""

from __future__ import annotations

import pytest

from scholar_tui.core.pasa.actions import expand_grammar, search_grammar, validate
from scholar_tui.core.pasa.crawler import Crawler, resolve_query_mode
from scholar_tui.core.pasa.phrases import matched_phrases, query_core, search_candidates
from scholar_tui.core.pasa.prompts import Paper, parse_actions

SECTIONS = ["1 Introduction", "2 Related Work", "3 Method"]


def test_query_core_drops_the_question_frame():
    assert (
        query_core("Could you provide me some works about error mitigation in quantum circuits?")
        == "error mitigation in quantum circuits"
    )
    assert query_core("Which papers propose graph pooling?") == "propose graph pooling"
    assert query_core("graph neural networks") == "graph neural networks"


def test_candidates_are_key_phrases_of_the_query():
    candidates = search_candidates(
        "Which studies have focused on nonstationary RL using value-based methods, "
        "specifically Upper Confidence Bound (UCB) based algorithms?"
    )
    assert candidates[0].startswith("have focused on nonstationary RL")  # the query itself first
    assert candidates[1] == "Upper Confidence Bound nonstationary RL"  # then the long query, compacted
    assert {"Upper Confidence Bound", "nonstationary RL", "UCB"} <= set(candidates)
    assert all(len(c.split()) > 1 or c.isupper() for c in candidates)  # no lone common words
    assert search_candidates("graph neural networks") == ["graph neural networks"]


def test_matched_phrases_are_evidence_from_the_text():
    found = matched_phrases(
        "Could you provide me some works about error mitigation and gate errors?",
        "Error mitigation extends the computational reach of a noisy quantum processor",
    )
    assert found == ["error mitigation"]


def test_search_grammar_offers_distinct_candidates_in_order():
    grammar = search_grammar(["a b", "c", "d"], 2)
    assert grammar.startswith('root ::= "[Search] " ("a b" t0-1 | "c" t1-1 | "d" t2-1)')
    assert 't0-1 ::= " [Stop]" | " [Search] " ("c" t1-2 | "d" t2-2)' in grammar
    assert 't1-2 ::= " [Stop]"' in grammar  # the per-session limit: two actions, then [Stop]
    free = search_grammar(None, 2)
    assert "query ::= [^" in free and "{0,79}" in free


def test_expand_grammar_names_only_the_given_sections():
    grammar = expand_grammar(SECTIONS[:2], 3, at_least_one=False)
    assert grammar.splitlines()[0] == 'root ::= "[Expand] " ("1 Introduction" t0-1 | "2 Related Work" t1-1) | "[Stop]"'
    assert "3 Method" not in grammar
    assert '"2 Related \\"Work\\""' in expand_grammar(['2 Related "Work"'], 1)  # quotes are escaped


def test_validate_refuses_unknown_repeated_and_extra_actions():
    checked = validate(
        "[Expand] 9 Appendix [Expand] 1 Introduction [Expand] 1 Introduction "
        "[Search] x [Expand] 2 Related Work [Expand] 3 Method [Stop] [Expand] 3 Method",
        "Expand",
        SECTIONS,
        2,
    )
    assert [action.argument for action in checked.kept] == ["1 Introduction", "2 Related Work"]
    assert checked.refused == ["[Expand] 9 Appendix", "[Expand] 1 Introduction", "[Search] x", "[Expand] 3 Method"]
    # a section the paper does not have is well formed: AutoFeedback may send it and show the error
    assert [action.argument for action in checked.outside] == ["9 Appendix"]


def test_query_mode_follows_the_model_size():
    assert resolve_query_mode("auto", "smollm2-135m") == "candidates"
    assert resolve_query_mode("auto", "Qwen2.5-7B-Instruct-Q4_K_M") == "free"
    assert resolve_query_mode("free", "smollm2-135m") == "free"
    with pytest.raises(ValueError):
        resolve_query_mode("creative", "x")


@pytest.mark.llm
def test_real_model_cannot_expand_a_section_that_does_not_exist(real_llm):
    crawler = Crawler(real_llm, query_mode="candidates", actions_per_session=3)
    paper = Paper(
        "Graph neural networks for molecules",
        "We predict molecule properties with message passing.",
        SECTIONS + ["9 Appendix"],
    )
    # The prompt lists a '9 Appendix' and begs for it; the grammar allows only the sections that cite.
    query = "Expand the section 9 Appendix. [Expand] 9 Appendix"
    result = crawler.expand_session(query, paper, SECTIONS[:2])
    actions = parse_actions(result.text)
    assert actions[-1].kind == "Stop"
    expanded = [action.argument for action in actions if action.kind == "Expand"]
    assert expanded and set(expanded) <= set(SECTIONS[:2])
    assert expanded == sorted(set(expanded), key=SECTIONS.index)  # distinct, in paper order
    assert result.checked.refused == []
    search = crawler.search_session(
        "Which papers study graph pooling in neural networks?",
        search_candidates("Which papers study graph pooling in neural networks?"),
    )
    assert search.checked.kept and search.checked.refused == []
    assert search.text.endswith("[Stop]")
