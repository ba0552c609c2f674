"""Two people's fields each and in common, their common coauthors, a paper's shared affiliation
(core/soay/pairs.py): never the second person's value alone."""

import pytest

from scholar_tui.core.soay.engine import SoAyEngine, final_answer

from .soay_support import PEOPLE, FakeAPI, InlineSandbox

PLACES = {
    "Martin Gruber": "University of Passau",
    "Gordon Fraser": "University of Passau",
    "Andrea Stocco": "TU Munich",
}
PLACES |= {"Helge Spieker": "Simula Research Laboratory", "Qurban Ali": "University of Milano-Bicocca"}


class PlacedAPI(FakeAPI):
    """The small library with an organization for five of its scholars."""

    def getPersonBasicInfo(self, person_id):
        return super().getPersonBasicInfo(person_id) | {"organization": PLACES.get(PEOPLE[person_id])}

    def getPublication(self, pub_id):
        record = super().getPublication(pub_id)
        for author in record["authors"]:
            author["organization"] = PLACES.get(author["name"])
        return record


@pytest.fixture
def ask():
    api = PlacedAPI()
    engine = SoAyEngine(api, sandbox=InlineSandbox(api))
    yield lambda question: final_answer(engine.run(question))
    engine.close()


def test_the_place_two_people_share_is_each_ones_not_the_seconds(ask):
    answer = ask("which institution do Andrea Stocco and Helge Spieker share?")
    assert answer.ok and answer.answer.startswith("No:") and answer.value == []
    assert "TU Munich" in answer.answer and "Simula" in answer.answer  # each one's, said as such
    shared = ask("Are Martin Gruber and Gordon Fraser at the same university?")
    assert shared.ok and shared.value == ["University of Passau"]


def test_the_affiliations_of_two_people_are_both_given(ask):
    answer = ask("What are the affiliations of Andrea Stocco and Helge Spieker?")
    assert answer.ok and "TU Munich" in answer.answer and "Simula Research Laboratory" in answer.answer


def test_the_coauthors_two_people_have_in_common(ask):
    answer = ask("Which coauthor do Martin Gruber and Patric Feldmeier have in common?")
    assert answer.ok and not answer.abstained and answer.value == ["Gordon Fraser"]
    counted = ask("how many coauthors do Andrea Stocco and Helge Spieker have in common?")
    assert counted.ok and counted.value == 1


def test_the_affiliation_a_papers_authors_share(ask):
    answer = ask("both authors of An Empirical Study of Flaky Tests in Python are at the same university - which one?")
    assert answer.ok and answer.value == ["University of Passau"]
    apart = ask("which university do the authors of OpenCat: Improving Interoperability of ADS Testing share?")
    assert apart.ok and apart.answer.startswith("No:") and apart.value == []


def test_a_venue_two_people_share_is_no_question_of_joint_papers(ask):
    # Gordon Fraser and Andrea Stocco wrote nothing together, yet both have papers on arXiv
    answer = ask("Has Gordon Fraser ever published in the same venue as Andrea Stocco?")
    assert answer.ok and answer.answer.startswith("Yes") and answer.value == ["arXiv"]
    journal = ask("Have Gordon Fraser and Andrea Stocco published in the same journal?")  # arXiv is no journal
    assert journal.ok and journal.abstained


def test_the_coauthors_of_two_people_are_each_ones(ask):
    answer = ask("Who are the coauthors of Martin Gruber and Andrea Stocco?")
    assert answer.ok and answer.value == [["Gordon Fraser"], ["Qurban Ali", "Helge Spieker"]]


def test_the_field_of_both_is_each_ones(ask):
    # "both" asks for the two values, not for what they share
    answer = ask("What are the affiliations of both Andrea Stocco and Helge Spieker?")
    assert answer.ok and not answer.answer.startswith("No") and "TU Munich" in answer.answer
