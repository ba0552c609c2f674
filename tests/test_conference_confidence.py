"""The confidence check and the labelled lookups of conference answers, on a site written here.

The site is big enough (a reviewer list of 1,600 names) for a word's absence and rarity to mean
something, as on a real conference site; the evidence is given by hand (what retrieval found), so each
test states the answer step. On the old code each answer below was a confident wrong one.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import Kind, is_abstain
from scholar_tui.core.conference import kinds, support
from scholar_tui.core.conference.answer import answer_question
from scholar_tui.core.conference.kinds import node_evidence
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.person import PersonQuestion, verdict
from scholar_tui.core.conference.tree import Tree, tree_from_data
from scholar_tui.core.conference.yes_no import yes_no_verdict

SITE = {
    "Conf2030": {
        "Year(2030)": {
            "date": "Sun Jul 23rd through Sat the 29th",
            "location": "Harbour Convention Centre",
            "Change in Location": "Conf 2030 will now be held in Portville, Freedonia from July 23rd - July 29th.",
            "Important Dates": {
                "Tutorials": "Mon Jul 24th",
                "Conference Sessions": "Tue Jul 25th through Thu the 27th",
                "Last chance for a refund on registration fees": "Jul 01 '30 01:59 PM",
            },
        },
        "Dates": {
            "Industry Submission": {"date": "26 July 2030", "deadline": "23:59 AoE"},
            "Industry Papers Notification": {"date": "25 August 2030", "deadline": "23:59 AoE"},
        },
        "Future Meetings": {
            "Conf 2031": {"meeting name": "Conf 2031", "location": "Northtown, Elbonia"},
        },
        "Calls": {
            "Call For Workshops": {
                "FAQ": "Will there be financial support for inviting speakers? No, but the rooms are free.",
                "notes": "Conf does not provide travel funding for workshop speakers.",
            },
            "Call For Tutorials": {
                "introduction": "Tutorial proposals should be submitted via this form by Friday, February 17th 2030.",
                "decisions": "Acceptance and rejection decisions are sent by email.",
                "Submission system": "Proposals are sent through the conference's own submission system.",
            },
        },
        "Attend": {
            "Registration": {"Register url": "https://registration.conf2030.org/"},
            "Parking": {"Cost": "The current self-parking rate at the centre is 15.00, per vehicle payable at exit."},
            "Child Care": {
                "rules": "A parent must remain at the venue (Harbour Convention Centre) while their child is in care.",
                "pets": "Service animals only; no pets.",
            },
        },
        "Organization": {
            "Organization Community": [
                {"name": "Ann Archer", "type": "General Chair"},
                {"name": "Ben Baker", "type": "Industry Track Chairs"},
                {"name": "Cleo Cole", "type": "Industry Track Chairs"},
            ],
            "Reviewers": [{"name": f"Reviewer{number} Surname{number}"} for number in range(1600)],
            "Research Track PC": {
                "Program Committee Members": [{"name": f"Member{number} Person"} for number in range(4)],
            },
        },
    }
}


def _tree() -> Tree:
    return tree_from_data(SITE)


TREE = _tree()


def _node(path_end: str):
    found = [node for node in TREE.nodes if node_path_text(TREE, node).endswith(path_end)]
    assert found, path_end
    return found[0]


def _ask(question: str, *path_ends: str):
    evidence = [node_evidence(TREE, _node(end), rank) for rank, end in enumerate(path_ends, start=1)]
    return answer_question(question, evidence, TREE)


def _cited(answered) -> list[str]:
    return [item.path for item in answered.evidence if item.rank in answered.cited]


# -- the confidence check ---------------------------------------------------------------------------------
def test_an_answer_of_the_kind_asked_about_another_thing_is_refused():
    """Before: the refund deadline, a date under "Year(2030)", for the acceptance rate "this year"."""
    answered = _ask(
        "What is the acceptance rate this year?", "Last chance for a refund on registration fees»Jul 01 '30 01:59 PM"
    )
    assert is_abstain(answered.answer)
    assert answered.answer.startswith("Conf2030's site data has no") and "acceptance rate" in answered.answer


def test_a_yes_resting_only_on_the_venue_s_name_is_refused():
    """Before: "Yes" from the child-care rules, which name the convention centre the question names too."""
    answered = _ask(
        "Are pets allowed in the convention centre?",
        "Child Care»rules»A parent must remain at the venue (Harbour Convention Centre) while their child is in care.",
    )
    assert is_abstain(answered.answer) and "pets" in answered.answer


def test_the_subject_is_weighed_by_rarity_and_leaves_out_how_the_question_asks():
    about = support.subject("How much does parking at the convention centre cost this year?", TREE, Kind.MONEY)
    assert about == {"park"}  # "how much", "cost" (the kind), "this year" and the venue's own name say nothing
    rare, common = support.weight(TREE, "park"), support.weight(TREE, "surna")
    assert rare > common
    parking = node_path_text(
        TREE, _node("Parking»Cost»The current self-parking rate at the centre is 15.00, per vehicle payable at exit.")
    )
    assert support.supported("How much does parking cost?", TREE, Kind.MONEY, [parking])
    assert not support.supported("How much does a hotel room cost?", TREE, Kind.MONEY, [parking])


def test_another_edition_s_node_supports_nothing_unless_the_question_names_its_year():
    path = node_path_text(TREE, _node("Conf 2031»location»Northtown, Elbonia"))
    assert kinds.other_edition("Where is the conference held?", TREE, path)
    assert not kinds.other_edition("Where will Conf 2031 be held?", TREE, path)
    assert not kinds.other_edition(
        "Where is it?", TREE, node_path_text(TREE, _node("Year(2030)»location»Harbour Convention Centre"))
    )


# -- the node labelled with what is asked -------------------------------------------------------------------
def test_a_date_is_read_from_the_node_named_by_the_question_not_a_sentence_that_mentions_it():
    """Before: the tutorial proposals' deadline, a date in a paragraph of the tutorials' call."""
    answered = _ask(
        "What day are the tutorials?",
        "Call For Tutorials»introduction»Tutorial proposals should be submitted via this form by Friday, February 17th 2030.",
    )
    assert answered.answer == "Mon Jul 24th"
    assert any(path.endswith("Important Dates»Tutorials»Mon Jul 24th") for path in _cited(answered))


def test_the_conference_s_dates_are_its_own_not_a_session_s():
    """Before: the conference sessions' days, the best path."""
    answered = _ask(
        "What are the dates of the conference?", "Important Dates»Conference Sessions»Tue Jul 25th through Thu the 27th"
    )
    assert answered.answer == "Sun Jul 23rd through Sat the 29th"


def test_which_city_is_answered_by_a_town_of_this_edition_not_the_next_one():
    """Before: the building ("Harbour Convention Centre"); the next edition's town sat first in the evidence."""
    answered = _ask(
        "Which city is Conf 2030 in?",
        "Conf 2031»location»Northtown, Elbonia",
        "Year(2030)»location»Harbour Convention Centre",
    )
    assert "Portville" in answered.answer and "Northtown" not in answered.answer
    assert "Northtown" in _ask("Where will Conf 2031 be held?", "Conf 2031»location»Northtown, Elbonia").answer


def test_a_role_held_by_several_people_names_them_all():
    """Before: the one record retrieval found first ("Ben Baker")."""
    answered = _ask("Who chairs the industry track?", "Ben Baker»type»Industry Track Chairs")
    assert answered.answer == "Ben Baker and Cleo Cole"


# -- yes or no ----------------------------------------------------------------------------------------------
def test_a_permission_is_refused_by_a_sentence_that_forbids_it():
    """Before: "Yes" — the negation bears on "allowed", a word the question does not use."""
    assert yes_no_verdict("Can I park my car overnight?", "Overnight parking is not allowed.") == "No"
    assert yes_no_verdict("Can I park my car overnight?", "Overnight parking is available.") == "Yes"


def test_a_person_s_expected_yes_or_no_is_read_from_the_answer_s_first_word():
    """Before: "Yes, … is not allowed." held "No" (in "not") and counted as right."""
    expects_no = PersonQuestion("Can I park my car overnight?", ["No"], False)
    assert verdict(expects_no, "Yes, overnight parking is not allowed.") == "wrong"
    assert verdict(expects_no, "No, overnight parking is not allowed.") == "right"
    assert verdict(PersonQuestion("Can I attend remotely?", ["Yes|hybrid"], False), "The format is hybrid.") == "right"


def test_what_does_x_cost_asks_for_an_amount_and_a_when_clause_asks_nothing():
    """Before: "What does parking … cost?" read "does parking" as the thing asked, so any text answered it."""
    from scholar_tui.core.conference.question_shape import conference_kind

    assert conference_kind("What does parking at the convention center cost?") is Kind.MONEY
    assert conference_kind("What do I need to pay attention to when I register?") is Kind.TEXT
    assert conference_kind("What day are the tutorials?") is Kind.DATE


def test_when_and_where_over_the_same_side_by_side_node_each_take_their_own_kind():
    """The date and the location sit side by side under "Year(2030)": each question takes its own, never the other."""
    when = _ask("When is Conf 2030?", "Year(2030)»location»Harbour Convention Centre")
    where = _ask("Where is Conf 2030?", "Year(2030)»date»Sun Jul 23rd through Sat the 29th")
    assert when.answer == "Sun Jul 23rd through Sat the 29th"
    assert where.answer == "Harbour Convention Centre"


def test_where_do_i_sign_up_is_answered_by_the_link_the_site_labels_so_beyond_the_evidence():
    """Before: the value of the best path ("Mon Jul 24th"): a pointer question answered with no pointer."""
    answered = _ask("Where do I sign up for the conference?", "Important Dates»Tutorials»Mon Jul 24th")
    assert answered.answer == "https://registration.conf2030.org/"
    assert any(path.endswith("Register url»https://registration.conf2030.org/") for path in _cited(answered))


def test_a_deadline_is_not_answered_by_the_notification_of_the_same_thing():
    """Before: "25 August 2030", the industry papers' notification, whose record has a field labelled "deadline"."""
    answered = _ask("What is the deadline for industry papers?", "Industry Papers Notification»date»25 August 2030")
    assert is_abstain(answered.answer)
    told = _ask("When will industry papers be notified?", "Industry Papers Notification»date»25 August 2030")
    assert told.answer == "25 August 2030"


def test_how_many_people_counts_the_list_the_question_names():
    """Before: the children of the best path's parent, whatever they were."""
    answered = _ask(
        "How many people are on the research track program committee?", "Industry Submission»date»26 July 2030"
    )
    assert answered.answer.startswith("4 ")


def test_an_either_or_question_is_not_answered_yes_or_no():
    """Before: "Is the conference in person or virtual?" → "Yes"."""
    from scholar_tui.core.conference.question_shape import question_form

    assert question_form("Is the conference in person or virtual?") != "yes_no"
    assert question_form("Is the conference in person?") == "yes_no"


def test_a_question_asking_what_something_is_is_not_answered_by_a_bare_date():
    """Before: "26 July 2030", the value of the best path, for a question that asks for no date."""
    answered = _ask("What is the submission system?", "Industry Submission»date»26 July 2030")
    assert is_abstain(answered.answer) and "submission system" in answered.answer


def test_a_yes_or_no_rests_on_the_path_that_says_most_of_what_is_asked_not_the_first():
    """Before: the first path (a socials FAQ about financial support) was the verdict's ground."""
    answered = _ask(
        "Does the conference provide free travel for workshop speakers?",
        "Call For Workshops»FAQ»Will there be financial support for inviting speakers? No, but the rooms are free.",
        "Call For Workshops»notes»Conf does not provide travel funding for workshop speakers.",
    )
    assert answered.answer.startswith("No")
    assert _cited(answered) == [
        "Conf2030»Calls»Call For Workshops»notes»Conf does not provide travel funding for workshop speakers."
    ]
