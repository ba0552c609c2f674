"""A number asked by name, and a "who" answered by a body of people (``core.conference.answer``).

Both found on session 12's held-out set after its first run (ISWC: "What LNCS volume number are the ISWC 2022
proceedings?" → a heading naming the LNCS proceedings; ICML: "who's on the oversight committee of the journal to
conference track" → "Oversight Committee NeurIPS/ICLR/ICML Journal to Conference Track"). On a site written here.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import Kind, is_abstain
from scholar_tui.core.conference.kind_checks import of_kind
from scholar_tui.core.conference.tree import tree_from_data

from .conference_support import ask_on

SITE = tree_from_data(
    {
        "Quay2031": {
            "Authors": {"Guide": "INFORMATION FOR AUTHORS OF TRACKS PUBLISHED IN THE LNCS PROCEEDINGS."},
            "Venue": {"Rooms": {"Keynotes": "Keynotes are in room 204 of the harbour building."}},
        }
    }
)


def test_a_number_asked_by_name_is_a_value_that_writes_one_or_the_plain_sentence():
    answered = ask_on(SITE, "What LNCS volume number are the proceedings?", "Guide»" + _guide())
    assert is_abstain(answered.answer) and "number" in answered.answer
    found = ask_on(
        SITE, "what's the room number for the keynotes?", "Keynotes»Keynotes are in room 204 of the harbour building."
    )
    assert "204" in found.answer


def test_a_body_of_people_answers_no_who():
    """The kind check every "who" answer passes (``of_kind``): a committee or a track is not its members."""
    assert not of_kind(Kind.PEOPLE, "Oversight Committee NeurIPS/ICLR/ICML Journal to Conference Track")
    assert not of_kind(Kind.PEOPLE, "Program Board")
    assert of_kind(Kind.PEOPLE, "Barbara Engelhardt, Hugo Larochelle, Iain Murray")


def _guide() -> str:
    return "INFORMATION FOR AUTHORS OF TRACKS PUBLISHED IN THE LNCS PROCEEDINGS."
