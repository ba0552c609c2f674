"""Conference answers read from the node whose label is what the question names, or the abstain sentence.

The tree is written here (an awards page, a keynote list, a panel, a program with a time-zone link,
a registration page), and each question's evidence is given by hand (what retrieval found), so each
test states the answer step: a prize's winner is not another prize's, a title is not a description
that mentions the thing, a Yes rests on evidence about what was asked, a link answers "where can I
find", and a bare link does not answer "which time zone".
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.conference.answer import answer_question
from scholar_tui.core.conference.kinds import node_evidence
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.tree import Tree, tree_from_data

SITE = {
    "Conf2031": {
        "Awards": [
            {"type": "Best Reviewer -- Main Track", "name": "Jo Reviewer", "institution": "Somewhere University"},
            {
                "type": "Best Student Paper -- Main Track",
                "prize": "1000 USD",
                "title": "Graphs that Grow",
                "authors": ["Sam Student"],
            },
            {
                "type": "Best Paper -- Main Track",
                "prize": "2000 USD",
                "title": "Rules that Reason",
                "authors": ["Pat Author"],
            },
        ],
        "Sponsorships": {
            "Gold": {
                "description": "Opportunity to be named as sponsor of one of the best paper awards "
                "and a talk before each keynote session"
            }
        },
        "Program": {
            "Keynote Speakers": [
                {"Ethics for Machines": {"speaker": {"name": "Ada Lovelace", "bio": "Analyst."}}},
                {"Engines of Thought": {"speaker": {"name": "Alan Turing", "bio": "Mathematician."}}},
            ],
            "Panel": [{"type": "Panel 1", "title": "Graphs in Industry", "Moderator": "Kim Host"}],
            "Schedule": {"Time Zone Converter": "https://time.example.org/?zone=cst", "CST": "China Standard Time"},
            "Proceedings": "The proceedings are at https://publisher.example.org/conf2031 for all attendees.",
        },
        "Organization": [{"name": "Lee Editor", "type": "Proceedings Chair"}],
        "Registration": {"Rates": {"Regular": {"type": "Regular", "price": "$100 USD"}}},
    }
}


def _tree() -> Tree:
    return tree_from_data(SITE)


def _node(tree: Tree, path_end: str):
    found = [node for node in tree.nodes if node_path_text(tree, node).endswith(path_end)]
    assert found, (path_end, [node_path_text(tree, node) for node in tree.nodes])
    return found[0]


def _ask(question: str, *path_ends: str):
    tree = _tree()
    evidence = [node_evidence(tree, _node(tree, end), rank) for rank, end in enumerate(path_ends, start=1)]
    return answer_question(question, evidence, tree)


def test_a_prize_s_winner_is_the_record_whose_category_names_every_word_of_the_prize():
    """Before: the reviewer award's winner ("Jo Reviewer"), whose category shares "best" and "main track"."""
    answered = _ask(
        "Who won the best paper award in the main track?",
        "Gold»description»" + SITE["Conf2031"]["Sponsorships"]["Gold"]["description"],
        "type»Best Reviewer -- Main Track",
    )
    assert answered.answer == "Rules that Reason"


def test_the_fewest_other_words_pick_the_prize_and_another_prize_is_not_its_winner():
    answered = _ask(
        "Who won the best student paper award?",
        "type»Best Reviewer -- Main Track",
        "type»Best Student Paper -- Main Track",
    )
    assert answered.answer == "Graphs that Grow"
    answered = _ask("Who won the best poster award?", "type»Best Reviewer -- Main Track")
    assert is_abstain(answered.answer) and answered.operation == "abstain"


def test_a_title_is_read_from_the_record_that_holds_the_person_named_not_from_a_description():
    """Before: the sponsorship description that mentions "keynote" (the best path)."""
    answered = _ask(
        "What is the title of Ada Lovelace's keynote?",
        "Gold»description»" + SITE["Conf2031"]["Sponsorships"]["Gold"]["description"],
        "speaker»name»Ada Lovelace",
    )
    assert answered.answer == "Ethics for Machines"


def test_a_title_is_a_title_field_not_a_role_that_shares_the_word():
    """Before: "Proceedings Chair"-like roles: a "type" field is not the title asked for."""
    answered = _ask("What is the title of the panel?", "type»Panel 1", "title»Graphs in Industry")
    assert answered.answer == "Graphs in Industry"
    answered = _ask("What is the title of the panel?", "Lee Editor»type»Proceedings Chair")
    assert is_abstain(answered.answer)


def test_a_yes_must_rest_on_evidence_about_what_was_asked():
    """Before: "Yes" from a registration type that says nothing of child care."""
    answered = _ask("Is there child care at the conference?", "Regular»type»Regular", "Regular»price»$100 USD")
    assert is_abstain(answered.answer) and "child care" in answered.answer


def test_where_can_i_find_is_answered_by_a_link_about_the_thing_not_a_role():
    """Before: the proceedings chair's role, "Proceedings Chair" (the best path)."""
    answered = _ask(
        "Where can I find the proceedings?",
        "Lee Editor»type»Proceedings Chair",
        "Program»Proceedings»The proceedings are at https://publisher.example.org/conf2031 for all attendees.",
    )
    assert "https://publisher.example.org/conf2031" in answered.answer


def test_a_bare_link_does_not_answer_a_question_that_asks_no_link():
    """Before: the time-zone converter's address."""
    answered = _ask(
        "Which time zone is the program in?",
        "Time Zone Converter»https://time.example.org/?zone=cst",
        "Schedule»CST»China Standard Time",
    )
    assert answered.answer == "China Standard Time"
