"""A question's conditions (a venue, a topic, a year, a third person, a paper, "with him") are applied
to the answer or said as not applied — never ignored while the answer reads as if they were (#24).
Over the small library of soay_support, with a few venues of its own."""

from types import SimpleNamespace

import pytest

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.soay.engine import SoAyEngine, final_answer
from scholar_tui.core.soay.narrowing import add_narrowings
from scholar_tui.core.soay.phrasing import render_value
from scholar_tui.core.soay.plans import default_plans
from scholar_tui.core.soay.reading import read_question

from .soay_support import PAPERS, FakeAPI, InlineSandbox

VENUES = {"paper:1": "Phys. Rev. B 91, 184507 (2015)", "paper:2": "ICSE 2023", "paper:3": "arXiv"}
FLAKY_PYTHON, FLAKY_PREDICTION, NEUROEVOLUTION = (PAPERS[key][0] for key in ("paper:1", "paper:2", "paper:3"))


class VenueAPI(FakeAPI):
    """Gordon Fraser's three papers in three venues (or, ``held=False``, none with a venue at all)."""

    def __init__(self, held: bool = True) -> None:
        self.held = held

    def getPublication(self, pub_id):
        record = super().getPublication(pub_id)
        record["venue"] = VENUES.get(pub_id, record["venue"]) if self.held else None
        return record


class RecordingLoop:
    """An AutoFeedback loop that runs each program once and counts the programs sent through it."""

    def __init__(self) -> None:
        self.programs: list[str] = []

    def events(self, question, generate, run, **options):
        program = generate([])
        self.programs.append(program)
        return SimpleNamespace(final_request=program, final_response=run(program), rounds=[])
        yield  # a generator, as the real loop is: it yields its rounds, here none


def _asker(api, feedback=None):
    engine = SoAyEngine(api, sandbox=InlineSandbox(api), feedback=feedback)
    return engine, lambda question: final_answer(engine.run(question))


@pytest.fixture
def ask():
    engine, asker = _asker(VenueAPI())
    yield asker
    engine.close()


def test_a_venue_named_narrows_the_papers_through_its_abbreviation(ask):
    listed = ask("Which of Gordon Fraser's papers appeared in Physical Review B?")
    assert FLAKY_PYTHON in listed.answer and FLAKY_PREDICTION not in listed.answer
    assert NEUROEVOLUTION not in listed.answer and "Physical Review B" in listed.answer
    counted = ask("How many of Gordon Fraser's papers were published in Physical Review B?")
    assert counted.value == 1  # not his publication count (3): that holds no venue, counting the papers does


def test_a_venue_none_of_the_papers_has_is_an_answer_and_a_venue_never_held_is_said_missing(ask):
    none = ask("Which of Gordon Fraser's papers appeared at NeurIPS?")
    assert not none.abstained
    assert none.answer.startswith("No paper of Gordon Fraser in the library matches the venue NeurIPS")
    # the papers known only as arXiv preprints may have appeared there: the answer says so (session 12)
    assert none.answer.endswith(
        "known only as arXiv preprints: where they appeared after arXiv is not in the library)."
    )
    engine, unheld = _asker(VenueAPI(held=False))
    missing = unheld("Which of Gordon Fraser's papers appeared at NeurIPS?")
    engine.close()
    assert missing.abstained and is_abstain(missing.answer) and "venue for any paper of Gordon Fraser" in missing.answer


def test_a_condition_the_plan_cannot_apply_is_said_not_ignored(ask):
    answer = ask("Where did Gordon Fraser work in 2021?")  # an affiliation has no year
    assert answer.abstained and is_abstain(answer.answer)
    assert answer.answer == "The library has no way to apply the year 2021 to the affiliation of Gordon Fraser."


def test_more_than_two_people_all_narrow_the_joint_papers(ask):
    three = ask("Have Gordon Fraser, Martin Gruber and Patric Feldmeier written a paper together?")
    assert three.answer.startswith("No:") and "all of Gordon Fraser, Martin Gruber and Patric Feldmeier" in three.answer
    two = ask("Did Gordon Fraser and Martin Gruber write together?")
    assert two.answer.startswith("Yes:")


def test_a_persons_coauthors_on_a_paper_are_its_other_authors(ask):
    answer = ask(f"Who are Martin Gruber's coauthors on {FLAKY_PYTHON}?")
    assert answer.ok and answer.answer.endswith(": Gordon Fraser.")  # not Patric Feldmeier, Fraser's coauthor
    stranger = ask(f"Who are Andrea Stocco's coauthors on {FLAKY_PYTHON}?")
    assert stranger.abstained and "no Andrea Stocco among the authors" in stranger.answer


def test_with_him_leaves_the_person_out_of_the_authors(ask):
    answer = ask("Who wrote Gordon Fraser's latest paper with him?")
    assert answer.value == ["Patric Feldmeier"]


def test_coauthors_narrowed_by_a_topic_are_the_authors_of_those_papers(ask):
    answer = ask("Who did Patric Feldmeier work with on neuroevolution?")
    assert answer.value == ["Gordon Fraser"]
    gruber = ask("Who did Gordon Fraser collaborate with on flaky tests?")
    assert gruber.value == ["Martin Gruber"]  # not Patric Feldmeier, who wrote no flaky test paper with him


def test_they_in_a_second_question_are_the_first_parts_answer(ask):
    answer = ask("Which papers did Gordon Fraser write in 2023 and where were they published?")
    assert "ICSE 2023" in answer.answer and "Phys. Rev. B" not in answer.answer


def test_it_after_the_latest_paper_is_that_paper(ask):
    answer = ask("Who wrote Gordon Fraser's latest paper and where did it appear?")
    assert answer.answer.endswith("Venue of the latest paper of Gordon Fraser: arXiv.")


def test_a_lists_values_are_said_once():
    assert render_value(["arXiv", "arXiv", "ICSE"]) == "arXiv, ICSE"


def test_a_comparison_runs_its_programs_through_autofeedback():
    loop = RecordingLoop()
    engine, ask = _asker(VenueAPI(), feedback=loop)
    answer = ask("Who has published more, Gordon Fraser or Andrea Stocco?")
    engine.close()
    assert answer.answer.startswith("Gordon Fraser has the higher") and len(loop.programs) == 2


def test_a_venue_is_read_from_the_question_and_narrows_any_papers_walked():
    reading = read_question("How many papers did X publish in Phys. Rev. B in 2006?", "person")
    assert reading.venue == "Phys. Rev. B" and reading.year == 2006 and reading.topic is None
    plan = next(plan for plan in default_plans() if plan.key == "searchPerson|getPersonPubs:one|title|count|year")
    program = add_narrowings(plan.program, plan.narrow, (("venue", "'Nature'"),))
    assert program is not None and "getPublication(pub_id=p['pub_id'])['venue']" in program
    affiliation = next(plan for plan in default_plans() if plan.key == "searchPerson|organization|value|all")
    assert add_narrowings(affiliation.program, "", (("venue", "'Nature'"),)) is None  # walks no papers


def test_a_venue_before_the_paper_noun_narrows_too(ask):
    answer = ask("Who did Gordon Fraser write his Physical Review B paper with?")
    assert answer.value == ["Martin Gruber"]  # the authors of that one paper, not all his coauthors
    pair = ask("Which ICSE papers did Gordon Fraser write with Martin Gruber?")
    assert FLAKY_PREDICTION in pair.answer and FLAKY_PYTHON not in pair.answer


def test_a_topic_said_by_a_verb_narrows_the_papers(ask):
    answer = ask("Which of Gordon Fraser's papers deal with neuroevolution?")
    assert NEUROEVOLUTION in answer.answer and FLAKY_PYTHON not in answer.answer


def test_a_figure_that_cannot_be_narrowed_is_never_swapped_for_a_count_of_papers(ask):
    answer = ask("How many citations do Gordon Fraser's Physical Review B papers have?")
    assert answer.abstained and "venue Physical Review B" in answer.answer and answer.value is None


def test_a_pair_with_no_joint_paper_is_told_no_not_missing(ask):
    answer = ask("Which papers has Andrea Stocco written with Gordon Fraser?")
    assert not answer.abstained and answer.answer.startswith("No:") and "0 joint papers" in answer.answer


def test_the_words_before_the_paper_noun_narrow_the_papers(ask):
    answer = ask("Where did Martin Gruber's flaky test papers appear?")
    assert (
        answer.answer
        == "Venue of the papers of Martin Gruber on flaky test: Phys. Rev. B 91, 184507 (2015), ICSE 2023."
    )
    listed = ask("Which journal did Gordon Fraser's neuroevolution paper appear in?")
    assert listed.answer.endswith(": arXiv.") and "ICSE" not in listed.answer


def test_it_after_a_paper_the_library_cannot_rank_is_still_that_paper(ask):
    answer = ask("Which of Gordon Fraser's papers has the most citations and where was it published?")
    assert answer.abstained and answer.answer == "The library has no citation count for the papers of Gordon Fraser."
