"""Conference answers of the kind asked, read from the node that holds that kind, citing its path —
or one plain sentence saying what the site data lacks.

The tree is written here: the location sits beside the dates (as on ICML 2023's "Dates" page), the
organisers' office address is labelled "location" too, keynotes are records of a list, and the
question's evidence is given by hand (what retrieval found), so each test states the answer step.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.conference import site_topics
from scholar_tui.core.conference.answer import answer_question
from scholar_tui.core.conference.kinds import node_evidence
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.tree import Tree, tree_from_data

SITE = {
    "Conf2030": {
        "Dates": {
            "Meeting Dates": {
                "date": "Sun Jul 23rd through Sat the 29th, 2030",
                "location": "the Harbour Convention Centre",
                "Sessions": [
                    {"Session": "Tutorials", "Start Date": "Mon Jul 24th"},
                    {"Session": "Workshops", "Start Date": "Fri Jul 28th"},
                ],
            }
        },
        "Help": {
            "Contact": {
                "Address": {"Attn": "Jo Bloggs", "location": "12 Office Street, Springfield", "Phone": "555-0100"}
            }
        },
        "Program": {
            "Keynote Speakers": [
                {"speaker": {"name": "Ada Lovelace", "bio": "Analyst."}, "title": "Engines that think"},
                {"speaker": {"name": "Alan Turing", "bio": "Mathematician."}, "title": "Machines that learn"},
                {"speaker": {"name": "Grace Hopper", "bio": "Admiral."}, "title": "Compilers for everyone"},
            ],
            "Workshops": [
                {"type": "Workshop on Graph Learning", "duration": "Half Day"},
                {"type": "Workshop on Causal Inference", "duration": "Full Day"},
            ],
        },
        "Registration": {"Pricing": ["Student", "Workshops", "$200.00 USD", "Regular", "Workshops", "$400.00 USD"]},
    }
}


def _tree() -> Tree:
    return tree_from_data(SITE)


def _node(tree: Tree, path_end: str):
    found = [node for node in tree.nodes if node_path_text(tree, node).endswith(path_end)]
    assert found, (path_end, [node_path_text(tree, node) for node in tree.nodes][:20])
    return found[0]


def _ask(question: str, *path_ends: str):
    tree = _tree()
    evidence = [node_evidence(tree, _node(tree, end), rank) for rank, end in enumerate(path_ends, start=1)]
    return answer_question(question, evidence, tree)


def _cited_paths(answered) -> list[str]:
    return [item.path for item in answered.evidence if item.rank in answered.cited]


def test_where_is_answered_by_the_location_beside_the_dates_not_by_the_dates():
    """Before: the best path's value, the dates ("Sun Jul 23rd through …")."""
    answered = _ask("Where is Conf 2030 taking place?", "Meeting Dates»date»Sun Jul 23rd through Sat the 29th, 2030")
    assert answered.answer == "the Harbour Convention Centre"
    assert any(path.endswith("Meeting Dates»location»the Harbour Convention Centre") for path in _cited_paths(answered))


def test_the_conference_location_is_the_site_s_own_not_the_organisers_office():
    """Before: the contact page's address, the best path."""
    answered = _ask(
        "What is the location of the conference?",
        "Address»location»12 Office Street, Springfield",
        "Meeting Dates»date»Sun Jul 23rd through Sat the 29th, 2030",
    )
    assert answered.answer == "the Harbour Convention Centre"


def test_a_value_of_another_kind_is_refused_and_the_sentence_says_what_is_missing():
    """A "when" whose evidence holds only a place and a phone number: no date to give, so no answer
    of another kind; one plain sentence instead (before: the phone number)."""
    answered = _ask("When does the contact office open?", "Address»Phone»555-0100", "Address»Attn»Jo Bloggs")
    assert is_abstain(answered.answer) and answered.operation == "abstain"
    assert answered.answer.startswith("Conf2030's site data has no date")
    assert "555-0100" not in answered.answer


def test_a_where_with_no_place_anywhere_is_the_abstain_sentence_not_a_date():
    tree = tree_from_data({"Conf2031": {"Dates": {"date": "Jul 1st through Jul 3rd"}, "Chairs": {"name": "Jo Bloggs"}}})
    evidence = [node_evidence(tree, node, 1) for node in tree.leaves() if node.label == "date"]
    answered = answer_question("Where is Conf 2031 held?", evidence, tree)
    assert answered.answer == "Conf2031's site data has no location for held." or is_abstain(answered.answer)
    assert "Jul" not in answered.answer


def test_how_many_counts_the_records_of_the_node_the_question_names():
    """Before: the children of the best path's ancestor (the speaker's record: 2 fields)."""
    answered = _ask("How many keynotes are there?", "Keynote Speakers»Engines that think»speaker»name»Ada Lovelace")
    assert answered.answer.startswith("3")
    assert any(path.endswith("Program»Keynote Speakers") for path in _cited_paths(answered))


def test_who_are_lists_the_people_of_the_named_node_by_name():
    answered = _ask("Who are the keynote speakers?", "Keynote Speakers»Machines that learn»title»Machines that learn")
    assert answered.answer == "Ada Lovelace, Alan Turing and Grace Hopper"


def test_which_lists_the_records_of_the_named_node_not_a_price_table():
    """Before: the registration table the word "Workshops" also appears in."""
    answered = _ask("Which workshops are at Conf 2030?", "Pricing»Workshops", "Pricing»$200.00 USD")
    assert answered.answer == "Workshop on Graph Learning and Workshop on Causal Inference"


def test_a_topic_the_site_never_mentions_is_said_plainly(monkeypatch):
    monkeypatch.setattr(site_topics, "MIN_VOCABULARY", 0)  # this site is small; ICML's says ~9,000 words
    answered = _ask(
        "Is there free Wi-Fi at the convention centre?", "Meeting Dates»location»the Harbour Convention Centre"
    )
    assert answered.answer == "Conf2030's site data has no mention of “Wi-Fi”."
    assert is_abstain(answered.answer) and answered.cited == []


PROGRAMME = tree_from_data(
    {
        "Fjord2031": {
            "Organization": {
                "In-Use Track PC": {
                    "Program Committee Members": [
                        {"name": "Marguerite Vandersloot", "affiliation": "NYU, USA"},
                        {"name": "Ken Aalto", "affiliation": "Aalto University, FI"},
                    ]
                }
            },
            "Program": {
                "Table": [
                    {
                        "content": "MAIN TRACK 1B: KG COMPLETENESS",
                        "chair": "Marguerite Vandersloot",
                        "item": [{"title": "Tidal Graphs", "authors": ["Ola Berg"]}],
                    }
                ]
            },
            "Calls": {
                "Research Track": {
                    "Submission Details": "At least one author of each accepted paper must register for the "
                    "conference and present the paper there.",
                    "Format": "Papers are submitted as PDF.",
                    "Length": "A paper has up to 15 pages.",
                    "Review": "Each paper is reviewed by three members.",
                    "Camera-ready": "The final paper is due in August.",
                }
            },
        }
    }
)


def test_a_paper_asked_of_a_person_is_not_a_field_of_the_person_s_own_record():
    """Before: "NYU, USA" passed the kind checks — the affiliation beside her name in a programme committee list,
    read as the fullest field of the record the question names, is no paper title."""
    from scholar_tui.core.answer_kind import Kind
    from scholar_tui.core.conference.computed import Computed
    from scholar_tui.core.conference.kind_checks import checked

    from .conference_support import node_at

    name = "Marguerite Vandersloot"
    ends = [f"Members»{name}»name»{name}", f"KG COMPLETENESS»chair»{name}", f"Members»{name}»affiliation»NYU, USA"]
    evidence = [node_evidence(PROGRAMME, node_at(PROGRAMME, end), rank) for rank, end in enumerate(ends, start=1)]
    question = f"what paper is {name} presenting?"
    affiliation = Computed("NYU, USA", "span", [1, 3])
    answer = checked(question, Kind.PAPER, affiliation, evidence, PROGRAMME)
    assert answer.operation == "abstain"
    assert "NYU" not in answer.text
    title = Computed("Tidal Graphs", "span", [1])  # a title the operator found stands
    assert checked(question, Kind.PAPER, title, evidence, PROGRAMME).text == "Tidal Graphs"


def test_what_a_talk_is_about_is_not_the_slot_that_only_names_its_speaker():
    """Before: "Invited Talk 1: Marguerite Vandersloot" — the slot's title says who talks, not on what."""
    from scholar_tui.core.answer_kind import Kind
    from scholar_tui.core.conference.computed import Computed
    from scholar_tui.core.conference.kind_checks import checked

    from .conference_support import node_at

    name = "Marguerite Vandersloot"
    evidence = [node_evidence(PROGRAMME, node_at(PROGRAMME, f"Members»{name}»name»{name}"), 1)]
    question = f"what's {name}'s talk about at the workshop?"
    slot = checked(question, Kind.TEXT, Computed(f"Invited Talk 1: {name}", "span", [1]), evidence, PROGRAMME)
    assert slot.operation == "abstain"
    title = Computed("Tidal Graphs: Forecasting Harbour Traffic", "span", [1])  # a topic in words of its own
    assert checked(question, Kind.TEXT, title, evidence, PROGRAMME).text == title.text


PAPERS = tree_from_data(
    {
        "Fjord2031": {
            "Program": {
                "Accepted Papers": {
                    "Resource Track": [
                        {
                            "title": "TIDE: A Pipeline to Search a Harbour Archive",
                            "authors": ["Annelise Toulouse", "Franck Michelsen", "Anna Bobrova"],
                        },
                        {"title": "Wave Nets", "authors": ["Ola Bergstrom"]},
                    ]
                }
            }
        }
    }
)


def test_what_a_listed_person_presents_is_the_record_they_are_listed_on():
    """Before: "Annelise Toulouse Franck Michelsen Anna Bobrova" — the authors she is listed among, not her paper."""
    from .conference_support import leaf_evidence

    answer = answer_question("what's Annelise Toulouse presenting?", leaf_evidence(PAPERS, "Annelise Toulouse"), PAPERS)
    assert "Franck" not in answer.answer
    assert "TIDE" in answer.answer
