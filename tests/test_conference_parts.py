"""Two questions in one: each part answered of its own kind, or the part the data lacks said."""

from scholar_tui.core.conference.answer import compute_answer
from scholar_tui.core.conference.parts import split_parts
from scholar_tui.core.conference.tree import tree_from_data

from .conference_support import leaf_evidence

SITE = tree_from_data(
    {
        "Quay2031": {
            "Home": {"date": "12-15 May 2031", "location": "Bergen, Norway"},
            "Awards": [{"type": "Best Poster", "prize": "300 EUR", "sponsor": "Harbour Labs"}],
        }
    }
)


def test_joined_questions_are_split_with_the_pronoun_resolved():
    assert split_parts("when and where is Quay 2031?") == ["When is Quay 2031?", "Where is Quay 2031?"]
    assert split_parts("How much was the best poster prize and who paid for it?") == [
        "How much was the best poster prize?",
        "Who paid for the best poster prize?",
    ]
    # two nouns joined are one question
    assert split_parts("Who are the general chairs and the program chairs?") is None
    assert split_parts("When are the workshops and tutorials?") is None


def test_when_and_where_answers_both_parts():
    """Before: the date alone ("12-15 May 2031"), the place asked dropped silently."""
    answer = compute_answer(
        "When and where is Quay 2031?", leaf_evidence(SITE, "12-15 May 2031", "Bergen, Norway"), SITE
    )
    assert "12-15 May 2031" in answer.text and "Bergen" in answer.text
    assert answer.cited or answer.read  # each part cites what it was read from


def test_two_counts_asked_at_once_are_two_parts():
    """Before: None for the first (one count, "2 diamond and platinum exhibitors") and "How many are full-day?"
    for the second part (the thing counted left out: the count was of another list)."""
    assert split_parts("how many diamond and platinum exhibitors are there") == [
        "How many diamond exhibitors are there",
        "How many platinum exhibitors are there",
    ]
    assert split_parts("how many tutorials are half-day and how many are full-day?") == [
        "How many tutorials are half-day?",
        "How many tutorials are full-day?",
    ]
    assert split_parts("how many keynotes and panels are there in total?") is None  # one total asked


PROGRAM = tree_from_data(
    {
        "Fjord2031": {
            "Program": {
                "Tutorials": [
                    {"type": "Reasoning for Beginners", "duration": "Half Day", "abstract": "Not a full day of it."},
                    {"type": "Graph Schemas", "duration": "Half Day", "abstract": "Schemas and shapes."},
                    {"type": "Earth Observation Data", "duration": "Full Day", "abstract": "Satellites."},
                ],
                "Exhibitors": {"Diamond": ["Harbour Labs", "Fjord AI"], "Platinum": ["Quay Systems"]},
            }
        }
    }
)


def test_a_count_of_things_with_an_attribute_counts_the_records_that_say_it():
    """Before: "3 tutorials" for "how many are half-day" (every record of the list, the attribute unread)."""
    answer = compute_answer("How many tutorials are half-day?", leaf_evidence(PROGRAM, "Half Day"), PROGRAM)
    assert answer.text.startswith("2 tutorials")
    both = compute_answer(
        "how many tutorials are half-day and how many are full-day?", leaf_evidence(PROGRAM, "Half Day"), PROGRAM
    )
    assert both.text.startswith("2 tutorials are half-day; 1 tutorial is full-day")
