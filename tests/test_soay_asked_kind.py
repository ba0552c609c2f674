"""What a question about a paper asks for, read past the words that describe the paper (core/soay/reading.py,
choose.py): an answer of the kind asked, or the plain sentence."""

import pytest

from scholar_tui.core.soay.engine import SoAyEngine, final_answer

from .soay_support import FakeAPI, InlineSandbox


@pytest.fixture
def ask():
    api = FakeAPI()
    engine = SoAyEngine(api, sandbox=InlineSandbox(api))
    yield lambda question: final_answer(engine.run(question))
    engine.close()


def test_what_the_paper_is_about_is_no_question_for_its_abstract(ask):
    # "… paper about interoperability" names the paper; the DOI is what is asked
    answer = ask("doi for the OpenCat paper about interoperability of ADS testing?")
    assert answer.ok and "10.1234/opencat.2025" in answer.answer


def test_an_attribute_of_the_venue_is_not_answered_by_its_name(ask):
    # a venue is a name in the paper's record: nothing about it (an impact factor) is held
    answer = ask("what's the impact factor of the journal the OpenCat paper was in?")
    assert answer.ok and answer.abstained and "impact factor" in answer.answer
    assert "arXiv" not in answer.answer
    named = ask("what's the name of the journal the OpenCat paper was in?")  # its name is the venue itself
    assert named.ok and not named.abstained and "arXiv" in named.answer


def test_a_workshop_asked_for_is_the_venue(ask):
    answer = ask("which workshop was OpenCat presented at?")
    assert answer.ok and not answer.abstained and "arXiv" in answer.answer


def test_people_counted_on_a_paper_are_its_authors_however_typed(ask):
    for question in ("how many ppl are on the OpenCat paper?", "how many people are on the OpenCat paper?"):
        answer = ask(question)
        assert answer.ok and not answer.abstained and answer.value == 3, question
    pages = ask("how many pages does the OpenCat paper have?")  # no count of the record's is of pages
    assert pages.ok and pages.abstained


def test_who_made_a_paper_are_its_authors_not_who_funded_it(ask):
    made = ask("who did the OpenCat paper?")
    assert made.ok and not made.abstained and "Qurban Ali" in made.answer
    funded = ask("who funded the OpenCat paper?")  # no record names a funder: never its authors
    assert funded.ok and funded.abstained and "Qurban Ali" not in funded.answer
