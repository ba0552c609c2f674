"""Whom to write to: "what email should I write to?", "where do I send requests?" ask for an address, which a site
gives in the sentence that says what to write about or in the node right after it (a paragraph cut across two
nodes, or "please contact the chairs" followed by "the chairs can be reached at …").

Before: both answerable questions here abstained: the address sat in the node after the retrieved one, and the
asker's verb ("write") was looked for in the cited path, which says "reached by email" instead.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.conference.contacts import asks_contact
from scholar_tui.core.conference.tree import Tree, tree_from_data
from tests.conference_support import ask_on

SITE = {
    "Conf2031": {
        "Code of Conduct": {
            "Reporting": [
                "If you have concerns related to inclusion at the conference, please contact the Inclusion chairs.",
                "The Inclusion chairs can be reached by email at inclusion@conf2031.org. The hotline is 555-0100.",
            ]
        },
        "Press": {
            "Press Policy": [
                "Requests for interviews with researchers are welcome. Such requests",
                "should be sent to press@conf2031.org",
            ]
        },
        "Venue": {"location": "Harbour Convention Centre", "Parking": "The garage opens at 7am."},
    }
}


def _tree() -> Tree:
    return tree_from_data(SITE)


def test_the_address_in_the_sentence_after_the_one_saying_whom_to_contact():
    answered = ask_on(
        _tree(),
        "I have a concern about inclusion at the conference - what email should I write to?",
        "please contact the Inclusion chairs.",
    )
    assert "inclusion@conf2031.org" in answered.answer
    assert "555-0100" not in answered.answer


def test_the_address_in_the_rest_of_a_paragraph_cut_across_two_nodes():
    answered = ask_on(
        _tree(),
        "where should I send requests for interviews with researchers?",
        "Requests for interviews with researchers are welcome. Such requests",
    )
    assert "press@conf2031.org" in answered.answer


def test_no_address_near_the_evidence_is_no_address_given():
    answered = ask_on(
        _tree(),
        "what email should I write to about parking?",
        "Parking»The garage opens at 7am.",
        "Venue»location»Harbour Convention Centre",
    )
    assert "@" not in answered.answer
    assert is_abstain(answered.answer) or "garage" in answered.answer


def test_asking_for_an_address_to_write_to():
    for question in (
        "who do I email about child care?",
        "where do i send requests for interviews?",
        "what email should I write to?",
    ):
        assert asks_contact(question), question
    for question in ("who organises the workshop?", "where is the press room?", "what email did the chairs send?"):
        assert not asks_contact(question), question
