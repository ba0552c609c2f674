"""SoAy's plans generated from the API graph, how a question picks one, and the checked answer."""

import pytest

from scholar_tui.core.answer_kind import Kind, is_abstain
from scholar_tui.core.library.apis import SPECS
from scholar_tui.core.soay.choose import rank_plans
from scholar_tui.core.soay.phrasing import checked_answer
from scholar_tui.core.soay.plans import default_plans, generate_plans
from scholar_tui.core.soay.reading import read_question


def test_every_output_field_of_the_seven_apis_is_the_tail_of_a_plan():
    plans = generate_plans(SPECS)
    answered = {(plan.hops[-1].api, plan.field) for plan in plans}
    for name, spec in SPECS.items():
        for field in spec.returns:
            assert (name, field.name) in answered, (name, field.name)
            for inner in field.fields:
                assert (name, f"{field.name}.{inner}") in answered, (name, field.name, inner)
    assert all(plan.description and "ENTITY" in plan.program for plan in plans)
    assert max(len(plan.hops) for plan in plans) == 3


def test_plans_start_from_a_person_a_paper_or_a_pair_and_reach_three_hops():
    keys = {plan.key for plan in default_plans()}
    assert "searchPublication|getPublication:one|venue|value|all" in keys
    assert "searchPublication|getPublication:one|num_citation|value|all" in keys
    assert "searchPublication|getPublication:one|first:authors.name|value|all" in keys
    assert "searchPerson|getCoauthors:one|getPersonPubs:each|title|value|all" in keys  # papers of coauthors
    assert "pair|getPersonPubs:one|title|value|pair" in keys  # joint papers
    assert "searchPerson|getPersonPubs:one|getPublication:each|venue|value|topic" in keys


def best(masked: str, start: str):
    return rank_plans(read_question(masked, start))[0][0]


@pytest.mark.parametrize(
    ("question", "start", "key"),
    [
        ("Where was X published?", "paper", "searchPublication|getPublication:one|venue|value|all"),
        ("In which journal did the paper X appear?", "paper", "searchPublication|getPublication:one|venue|value|all"),
        ("How many citations does X have?", "paper", "searchPublication|getPublication:one|num_citation|value|all"),
        ("how often was X cited", "paper", "searchPublication|getPublication:one|num_citation|value|all"),
        ("Who is the first author of X?", "paper", "searchPublication|getPublication:one|first:authors.name|value|all"),
        (
            "Who wrote X?",
            "paper",
            (
                "searchPublication|getPublication:one|authors|value|all",
                "searchPublication|getPublication:one|authors.name|value|all",
            ),
        ),
        (
            "Where does the lead author of X work?",
            "paper",
            (
                "searchPublication|getPublication:one|first:authors.organization|value|all",
                "searchPublication|getPublication:one|getPersonBasicInfo:first|organization|value|all",
            ),
        ),
        (
            "What does the first author of X work on?",
            "paper",
            "searchPublication|getPublication:one|getPersonInterest:first|interests|value|all",
        ),
        ("Who did X work with?", "person", "searchPerson|getCoauthors:one|name|value|all"),
        ("How many people has X collaborated with?", "person", "searchPerson|getCoauthors:one|name|count|all"),
        (
            "What have X's coauthors published?",
            "person",
            "searchPerson|getCoauthors:one|getPersonPubs:each|title|value|all",
        ),
        (
            "In which journal did X publish on random polynomials?",
            "person",
            "searchPerson|getPersonPubs:one|getPublication:each|venue|value|topic",
        ),
        ("Which papers did X and X write together?", "pair", "pair|getPersonPubs:one|title|value|pair"),
        ("How many papers did X publish in 2021?", "person", "searchPerson|getPersonPubs:one|title|count|year"),
    ],
)
def test_a_question_picks_its_plan_by_what_it_asks_and_starts_from(question, start, key):
    assert best(question, start).key in ((key,) if isinstance(key, str) else key)


def test_the_topic_of_a_question_narrows_the_papers():
    reading = read_question("In which journal did X publish on random polynomials?", "person")
    assert reading.asked is Kind.VENUE and reading.topic == "random polynomials"


def venue_plan():
    return next(p for p in default_plans() if p.key == "searchPublication|getPublication:one|venue|value|all")


def test_a_year_for_a_where_is_refused():
    text, reason = checked_answer(venue_plan(), Kind.VENUE, "Zeros of random polynomials", 2021)
    assert reason == "wrong kind" and "2021" not in text and is_abstain(text)


def test_a_missing_field_is_one_plain_sentence_never_none():
    citations = next(
        p for p in default_plans() if p.key == "searchPublication|getPublication:one|num_citation|value|all"
    )
    text, reason = checked_answer(citations, Kind.COUNT, "Zeros of random polynomials", None)
    assert (text, reason) == ("The library has no citation count for Zeros of random polynomials.", "missing")
    assert "None" not in text


def test_a_value_of_the_asked_kind_is_phrased():
    text, reason = checked_answer(venue_plan(), Kind.VENUE, "Zeros of random polynomials", "Physical Review B")
    assert reason == "" and text == "Venue of Zeros of random polynomials: Physical Review B."
