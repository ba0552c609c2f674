"""Where papers are published: "where do the workshop papers get published?" asks for proceedings, which a site
labels as such or states in a sentence, never as a "location".

Before: each answerable question here abstained ("…has no location for workshop papers published"): a "where"
was read as a place, and the place readers look only for nodes labelled as places.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.conference.publication import asks_publication
from scholar_tui.core.conference.tree import Tree, tree_from_data
from tests.conference_support import ask_on

SITE = {
    "Conf2031": {
        "Program": {"Workshops": {"Workshop Proceedings": "http://ceur-ws.org/Vol-9999"}},
        "Calls": {
            "Call For Papers": {
                "introduction": "Papers published at Conf2031 are included in the Lecture Notes in Computer Science "
                "series. Submissions are double blind."
            },
            "Call For Tutorials": {"format": "Tutorials published at Conf2031 get a page on the site."},
        },
        "Venue": {"location": "Harbour Convention Centre"},
    }
}


def _tree() -> Tree:
    return tree_from_data(SITE)


def test_a_node_labelled_as_proceedings_answers_where_papers_are_published():
    answered = ask_on(
        _tree(),
        "where do the workshop papers get published?",
        "Workshop Proceedings»http://ceur-ws.org/Vol-9999",
        "Venue»location»Harbour Convention Centre",
    )
    assert answered.answer == "http://ceur-ws.org/Vol-9999"


def test_a_sentence_saying_where_papers_appear_answers_when_no_node_is_so_labelled():
    answered = ask_on(
        _tree(),
        "where do Conf2031 papers get published?",
        "Venue»location»Harbour Convention Centre",
        "Call For Papers»introduction»Papers published at Conf2031 are included in the Lecture Notes in Computer "
        "Science series. Submissions are double blind.",
    )
    assert "Lecture Notes in Computer Science" in answered.answer
    assert "Harbour" not in answered.answer


def test_a_sentence_naming_only_the_conference_itself_is_no_venue():
    """ "Tutorials published at Conf2031" names the conference, not where they are published: no answer, and
    never the venue's location."""
    answered = ask_on(
        _tree(),
        "where do the tutorials get published?",
        "Call For Tutorials»format»Tutorials published at Conf2031 get a page on the site.",
        "Venue»location»Harbour Convention Centre",
    )
    assert is_abstain(answered.answer)


def test_asking_for_a_publication_venue():
    for question in (
        "where do the poster and demo papers get published?",
        "where are the proceedings published?",
        "which proceedings are the papers in? which proceedings is it",
    ):
        assert asks_publication(question), question
    for question in (
        "which journal sponsors the doctoral consortium?",  # the journal acts
        "Which journal's papers are eligible for the journal-to-conference track?",
        "where is the poster session?",
        "where are the posters presented?",
    ):
        assert not asks_publication(question), question
