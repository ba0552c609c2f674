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
