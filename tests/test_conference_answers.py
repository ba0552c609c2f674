"""Answers computed over the evidence: each operator on a small tree written for it."""

import pytest

from scholar_tui.core.conference.answer import answer_question, compute_answer
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.paths import leaf_path
from scholar_tui.core.conference.question_shape import question_form
from scholar_tui.core.conference.tree import tree_from_data
from scholar_tui.core.conference.values import find_amounts, find_dates, format_amount

from .conftest import ScriptedLLM

TREE = tree_from_data(
    {
        "CONF2025": {
            "Dates": {
                "Important Dates": {
                    "Abstract registration": "March 3, 2025",
                    "Full paper submission": "March 10, 2025",
                    "Notification to authors": "May 20, 2025",
                    "Camera-ready": "June 1, 2025",
                }
            },
            "Program": {
                "Keynote Speakers": [
                    {"name": "Ada Lovelace", "talk": "Engines of thought"},
                    {"name": "Alan Turing", "talk": "Can machines think?"},
                    {"name": "Grace Hopper", "talk": "Compilers for everyone"},
                ]
            },
            "Sponsorship": {
                "Packages": [
                    {"level": "Diamond", "price": "$20,000"},
                    {"level": "Platinum", "price": "$15,000"},
                    {"level": "Gold", "price": "$8,000"},
                ]
            },
            "Attend": {
                "Virtual attendance": "Remote attendance is possible through the virtual platform.",
                "Visa": "The conference does not provide visa support letters.",
            },
            "Organization": {
                "Program Committee": [
                    {"name": "Jane Doe", "affiliation": "University of Somewhere, Norway"},
                    {"name": "John Roe", "affiliation": "Example Labs, Chile"},
                ]
            },
        }
    }
)


def evidence(*texts: str) -> list[EvidencePath]:
    """Evidence paths, ranked in the order given, for the leaves whose path ends with each text."""
    found = []
    for rank, text in enumerate(texts, start=1):
        leaf = next(node for node in TREE.leaves() if leaf_path(TREE, node).text.endswith(text))
        path = leaf_path(TREE, leaf)
        found.append(EvidencePath(rank, leaf.id, path.text, path.value, path.text, 1.0 / rank))
    return found


def test_question_forms_are_read_from_general_wording():
    assert question_form("How many keynotes are there?") == "count"
    assert question_form("How much do a diamond and a platinum sponsor pay together?") == "sum"
    assert question_form("Can I attend remotely?") == "yes_no"
    assert question_form("What is the earliest deadline?") == "earliest"
    assert question_form("When is the last date?") == "latest"
    assert question_form("Who are the keynote speakers?") == "list"
    assert question_form("Where is Jane Doe based?") == "span"


def test_count_counts_the_children_of_the_node_the_question_names():
    answer = compute_answer(
        "How many keynote speakers are there?", evidence("Ada Lovelace", "Engines of thought"), TREE
    )
    # cites every evidence path inside the list it counted (both found records are keynotes)
    assert (answer.text, answer.operation, answer.cited) == ("3 keynote speakers", "count", [1, 2])


def test_sum_adds_the_amounts_of_each_thing_named():
    found = evidence("Gold»price»$8,000", "Platinum»price»$15,000", "Diamond»price»$20,000")
    answer = compute_answer("How much do a diamond and a platinum sponsor pay together?", found, TREE)
    assert answer.text == "$35,000" and answer.operation == "sum"
    assert answer.cited == [2, 3]  # the gold package, ranked first, is not what was asked


def test_earliest_and_latest_dates_over_the_section():
    found = evidence("Full paper submission»March 10, 2025")
    earliest = compute_answer("What is the earliest deadline date?", found, TREE)
    assert earliest.text == "March 3, 2025" and earliest.operation == "earliest"
    latest = compute_answer("When is the last date in the schedule?", found, TREE)
    assert latest.text == "June 1, 2025" and latest.operation == "latest"


def test_yes_no_with_the_supporting_path():
    remote = compute_answer("Can I attend the conference remotely?", evidence("virtual platform."), TREE)
    # never a bare verdict: the sentence that decides it beside it
    assert (remote.text, remote.cited) == ("Yes, remote attendance is possible through the virtual platform.", [1])
    visa = compute_answer("Does the conference provide visa letters?", evidence("visa support letters."), TREE)
    # the verdict with the sentence it rests on, when that shares the question's words
    assert (visa.text, visa.operation) == ("No, the conference does not provide visa support letters.", "yes_no")
    # "the same?" compares the values of the section: the packages cost different amounts
    same = compute_answer(
        "Is the price the same for every sponsorship package?", evidence("Diamond»price»$20,000"), TREE
    )
    assert same.text.startswith("No, ") and "$20,000" in same.text and same.cited[0] == 1
    # a record found by the thing the question names: yes, and who
    who = compute_answer("Is anyone on the committee from Example Labs, Chile?", evidence("Example Labs, Chile"), TREE)
    assert who.text == "Yes, John Roe"


FAQ = tree_from_data(
    {
        "FAQ2025": {
            "Authors": {
                "Code": "Authors are encouraged to submit code to foster reproducibility.",
                "Remote": "Presenters who would otherwise not be able to travel may attend and present remotely.",
                "Visa": "No. Please check the registration page for visa letters.",
                "Pages": "Submitted papers can be up to eight pages long.",
            }
        }
    }
)


def _faq(question: str, text: str):
    leaf = next(node for node in FAQ.leaves() if node.text == text)
    path = leaf_path(FAQ, leaf)
    return compute_answer(question, [EvidencePath(1, leaf.id, path.text, path.value, path.text, 1.0)], FAQ)


def test_yes_no_reads_restrictions_negation_scope_and_stated_verdicts():
    code = "Authors are encouraged to submit code to foster reproducibility."
    # asking whether something is obligatory: "encouraged" does not say "need"
    assert _faq("Do I need to submit code with my paper?", code).text.startswith("No, authors are encouraged")
    assert _faq("Can I submit code with my paper?", code).text.startswith("Yes, authors are encouraged")
    remote = "Presenters who would otherwise not be able to travel may attend and present remotely."
    # the "not" bears on travelling, not on presenting remotely (outside its five-word scope)
    assert _faq("Can presenters present remotely?", remote).text.startswith("Yes,")
    assert _faq("Are presenters able to travel?", remote).text.startswith("No,")
    # a FAQ answer that starts "No." decides, whatever its next sentence says
    assert _faq(
        "Does the conference provide visa letters?", "No. Please check the registration page for visa letters."
    ).text.startswith("No")
    # never a bare verdict: a sentence sharing one of the question's words ("page") that states the fact is
    # written beside it (one sharing none is no support at all, see test_conference_answer_labels)
    limit = _faq("Is there a page limit?", "Submitted papers can be up to eight pages long.").text
    assert limit == "Yes, submitted papers can be up to eight pages long."


def test_span_takes_the_records_other_field_when_the_path_names_the_person():
    answer = compute_answer("Where is Jane Doe based?", evidence("name»Jane Doe"), TREE)
    assert answer.text == "University of Somewhere, Norway"


def test_list_gathers_the_same_field_of_every_record():
    answer = compute_answer("Who are the keynote speakers?", evidence("Ada Lovelace", "Alan Turing"), TREE)
    assert answer.text == "Ada Lovelace, Alan Turing and Grace Hopper" and answer.operation == "list"
    assert answer.cited == [1, 2]


def _one_leaf_answer(question: str, text: str):
    tree = tree_from_data({"C": {"Registration": text}})
    leaf = next(tree.leaves())
    path = leaf_path(tree, leaf)
    return compute_answer(question, [EvidencePath(1, leaf.id, path.text, path.value, "", 1.0)], tree)


def test_a_value_is_cut_out_of_a_long_text_for_when_questions():
    # the date's own sentence answers when it is short enough to read ...
    answer = _one_leaf_answer(
        "When does early registration end?",
        "Registration opens for all attendees on the website in spring. The early rate is "
        "available until Feb 16 '23 (Anywhere on Earth).",
    )
    assert (
        answer.text == "The early rate is available until Feb 16 '23 (Anywhere on Earth)."
        and answer.operation == "value"
    )
    # ... and the date alone when its sentence is a paragraph
    long_sentence = (
        "Registration opens for all attendees, presenters, volunteers, exhibitors and sponsors on the "
        "conference website in the spring of the year, and the early rate, which covers the main "
        "conference and the workshops, is available until Feb 16 '23 (Anywhere on Earth) for everyone."
    )
    answer = _one_leaf_answer("When does early registration end?", long_sentence)
    assert answer.text == "Feb 16 '23" and answer.operation == "value"


def test_a_long_value_is_cut_to_the_sentence_that_says_it_most_directly():
    text = (
        "Due to the uncertainty of travel this year, the conference will be run in a hybrid format, and "
        "participants, presenters and organisers are welcome to join on site or from home as they prefer. "
        "The conference will be run on Zoom. Registered participants will receive the link for joining "
        "two days before the start."
    )
    assert (
        _one_leaf_answer("What platform will the conference be run on?", text).text
        == "The conference will be run on Zoom."
    )


def test_of_several_dates_the_one_whose_headings_the_question_names():
    # "notified" and "Notification" agree in their first five letters; the deadline ranks first
    found = evidence("Abstract registration»March 3, 2025", "Notification to authors»May 20, 2025")
    answer = compute_answer("When will authors be notified?", found, TREE)
    assert (answer.text, answer.cited) == ("May 20, 2025", [2])
    assert compute_answer("When is the abstract due?", found, TREE).text == "March 3, 2025"


def test_value_parsers():
    assert [found.day.isoformat() for found in find_dates("from Jul 23rd, 2023 to 2023-07-29 and 3 August 2023")] == [
        "2023-07-23",
        "2023-07-29",
        "2023-08-03",
    ]
    assert [(amount.value, amount.currency) for amount in find_amounts("$1,200 or USD 75.00 or 30 €")] == [
        (1200.0, "$"),
        (75.0, "$"),
        (30.0, "€"),
    ]
    fee = find_amounts("Tutorials: $75.00 USD")[0]
    assert fee.text == "$75.00 USD" and format_amount(1365, fee) == "$1,365.00 USD"


def test_a_model_writes_from_the_same_evidence_and_cites_it():
    llm = ScriptedLLM("Three keynotes are planned [1].")
    answered = answer_question("How many keynote speakers are there?", evidence("Ada Lovelace"), TREE, llm, "generate")
    assert answered.answer == "Three keynotes are planned." and answered.cited == [1]
    assert answered.computed == "3 keynote speakers"  # the computed answer is kept beside it
    assert "A computed answer (count): 3 keynote speakers" in llm.history[0].messages[0]["content"]


def test_an_unknown_answer_mode_is_refused():
    with pytest.raises(ValueError):
        answer_question("q?", evidence("Ada Lovelace"), TREE, None, "oracle")


def test_a_run_of_paragraphs_under_one_heading_is_answered_whole():
    tree = tree_from_data(
        {
            "C": {
                "Registration": {
                    "How to cancel part of my registration": [
                        "Click My Stuff in the navigation bar.",
                        "Under Registration history click the current year.",
                        "Click Register and unselect the parts you want to cancel.",
                    ]
                }
            }
        }
    )
    leaf = [node for node in tree.leaves()][2]
    path = leaf_path(tree, leaf)
    answer = compute_answer(
        "How can I cancel part of my registration?", [EvidencePath(1, leaf.id, path.text, path.value, "", 1.0)], tree
    )
    assert answer.text.startswith("Click My Stuff in the navigation bar. Under Registration history")
    assert answer.text.endswith("unselect the parts you want to cancel.") and answer.cited == [1]
