"""core/answer_kind: what a question asks for, whether a value fits it, the abstain sentence."""

import pytest

from scholar_tui.core.answer_kind import Kind, abstain_sentence, asked_kind, fits, is_abstain


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Where was Zeros of random polynomials published?", Kind.VENUE),
        ("In which journal did Marcus Michelen publish on random polynomials?", Kind.VENUE),
        ("What venue did that paper appear at?", Kind.VENUE),
        ("How many citations does Zeros of random polynomials have?", Kind.COUNT),
        ("How often has it been cited?", Kind.COUNT),
        ("number of coauthors of Michelen", Kind.COUNT),
        ("When was it published?", Kind.DATE),
        ("What year did the paper come out?", Kind.DATE),
        ("When is the paper submission deadline?", Kind.DATE),
        ("Where is ICML 2023 taking place?", Kind.PLACE),
        ("What is the location of the conference?", Kind.PLACE),
        ("Which university is Michelen at?", Kind.PLACE),
        ("Who did Michelen work with?", Kind.PEOPLE),
        ("With whom did he write it?", Kind.PEOPLE),
        ("Name the co-authors of Michelen", Kind.PEOPLE),
        ("Who are the keynote speakers?", Kind.PEOPLE),
        ("What papers has Michelen written?", Kind.PAPER),
        ("What has Michelen published?", Kind.PAPER),
        ("How much does registration cost?", Kind.MONEY),
        ("How much does a silver exhibitor package run?", Kind.MONEY),
        ("How much will the workshop set me back?", Kind.MONEY),
        ("How much time does the tutorial run?", Kind.COUNT),
        ("What are the research interests of Michelen?", Kind.TEXT),
        ("What are the interests of the person who wrote it?", Kind.TEXT),
    ],
)
def test_asked_kind_reads_the_cue_not_a_list_of_questions(question, kind):
    assert asked_kind(question) is kind


def test_the_earliest_cue_wins_over_words_inside_a_title():
    # the title says "where" and "how many"; the question asks for a year
    assert asked_kind("In which year was 'Where and how many zeros' published?") is Kind.DATE


@pytest.mark.parametrize(
    ("kind", "value", "ok"),
    [
        (Kind.VENUE, "Physical Review B", True),
        (Kind.VENUE, 2021, False),  # a year is not a venue
        (Kind.PLACE, "2021", False),
        (Kind.PLACE, "July 23-29, 2023", False),  # a date is not a location
        (Kind.PLACE, "Honolulu, Hawaii", True),
        (Kind.DATE, "July 23-29, 2023", True),
        (Kind.DATE, 2021, True),
        (Kind.DATE, "Honolulu", False),
        (Kind.COUNT, 12, True),
        (Kind.COUNT, "12", True),
        (Kind.COUNT, None, False),
        (Kind.COUNT, [3, 4], False),
        (Kind.COUNT, True, False),
        (Kind.COUNT, -1, False),
        (Kind.PEOPLE, ["Marcus Michelen", "Oren Yakir"], True),
        (Kind.PEOPLE, "We study the zeros of random polynomials and prove 3 theorems about them.", False),
        (Kind.PEOPLE, [], False),
        (Kind.PAPER, ["Zeros of random polynomials"], True),
        (Kind.TEXT, "", False),
        (Kind.MONEY, "$950 (student $450)", True),
        (Kind.MONEY, "July 23", False),
    ],
)
def test_fits_refuses_a_value_of_another_kind(kind, value, ok):
    assert fits(kind, value) is ok


def test_abstain_sentence_names_what_is_missing_and_is_recognised():
    sentence = abstain_sentence("citation count", "Zeros of random polynomials")
    assert sentence == "The library has no citation count for Zeros of random polynomials."
    assert is_abstain(sentence)
    assert abstain_sentence("location", source="ICML 2023's site data") == "ICML 2023's site data has no location."
    assert not is_abstain("It was published in 2021.")
    assert not is_abstain(None)
