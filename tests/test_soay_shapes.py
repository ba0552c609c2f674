"""Scholar questions asked the way people ask them, over a small library written here: a paper by the
name before its colon or by "the ‹words› paper", a first name, the latest / most cited paper, yes or
no about a pair, who has more, two questions in one, "name three", the last author."""

import pytest

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.soay.choose import asked_thing, rank_plans, support
from scholar_tui.core.soay.engine import SoAyEngine, final_answer
from scholar_tui.core.soay.entities import find_people
from scholar_tui.core.soay.reading import read_question
from scholar_tui.core.soay.shapes import comparison, list_limit, split_compound
from scholar_tui.core.soay.titles import find_paper
from scholar_tui.indexes.records import fold

from .soay_support import PAPERS, FakeAPI, InlineSandbox


@pytest.fixture
def engine():
    api = FakeAPI()
    engine = SoAyEngine(api, sandbox=InlineSandbox(api))
    yield engine
    engine.close()


@pytest.fixture
def ask(engine):
    return lambda question: final_answer(engine.run(question))


def test_a_paper_is_found_by_the_name_before_its_colon():
    mention = find_paper("Where was OpenCat published?", FakeAPI())
    assert mention is not None and mention.matched.startswith("OpenCat:") and mention.text == "OpenCat"


def test_the_words_paper_names_the_one_title_that_holds_them():
    mention = find_paper("when was the page object generation paper published", FakeAPI())
    assert mention is not None and mention.matched == PAPERS["paper:5"][0]
    assert find_paper("who wrote the flaky test paper", FakeAPI()) is None  # two titles hold "flaky test"


class InitialismAPI:
    """searchPublication over two titles by shared words (no venue): an initialism's title and a near one."""

    TITLES = {
        "paper:1": "Improving the Readability of Automatically Generated Tests using Large Language Models",
        "paper:2": "Improving Test Readability with Refactoring",
    }

    def searchPublication(self, publication_info):
        words = set(fold(publication_info).split())
        return [
            {"pub_id": key, "title": title} for key, title in self.TITLES.items() if words & set(fold(title).split())
        ]

    def getPublication(self, pub_id):
        return {"pub_id": pub_id, "title": self.TITLES[pub_id], "venue": None}


def test_the_words_paper_names_a_title_through_an_initialism_of_its_words():
    # "LLMs" is how people write the title's "Large Language Models" (and "w/" its "using")
    mention = find_paper("doi for the paper on improving readability of generated tests w/ LLMs?", InitialismAPI())
    assert mention is not None and mention.matched == InitialismAPI.TITLES["paper:1"]
    # an initialism no run of the title's words spells names nothing: neither title is guessed
    assert find_paper("doi for the paper on improving readability of generated tests w/ GNNs?", InitialismAPI()) is None


class NeighbourAPI(InitialismAPI):
    """Titles that hold a topic with one particular named in it (a chain, a place, a disease)."""

    TITLES = {
        "paper:1": "Mutation Testing for Ethereum Smart Contract",
        "paper:2": "Forecasting COVID-19 Hotspots in Florida Public Schools: A Machine Learning Approach",
        "paper:3": "Analysis of a Large Patient-Level Dataset to Predict Outcome of Treatment for Drug-Resistant "
        "Tuberculosis",
    }

    def getPublication(self, pub_id):
        return {"pub_id": pub_id, "title": self.TITLES[pub_id], "venue": None, "authors": [{"name": "Haoran Wu"}]}


def test_a_title_holding_the_topic_but_another_name_in_its_place_is_not_the_paper_asked_about():
    # the library's paper is about Ethereum, the question's about Solana: a neighbour, not the paper asked
    assert find_paper("Who wrote the paper on mutation testing for Solana smart contracts?", NeighbourAPI()) is None
    # a title's beginning read in the question, which goes on to name another place than the title's
    texas = "Who wrote the paper on forecasting COVID-19 hotspots in Texas hospitals?"
    assert find_paper(texas, NeighbourAPI()) is None
    # the names the title does hold (or misspelt, or an author's) still find it
    for question in (
        "Who wrote the paper on mutation testing for Ethereum smart contracts?",
        "Who wrote the paper on mutation testing for Etherium smart contracts?",
        "Who wrote Haoran Wu's paper on mutation testing for smart contracts?",
    ):
        found = find_paper(question, NeighbourAPI())
        assert found is not None and found.matched == NeighbourAPI.TITLES["paper:1"], question
    # an all-capital word may shorten one word of the title ("TB": tuberculosis)
    tb = find_paper("Who wrote the paper on predicting drug-resistant TB treatment outcome?", NeighbourAPI())
    assert tb is not None and tb.matched == NeighbourAPI.TITLES["paper:3"]


class AlikeAPI(InitialismAPI):
    TITLES = {"paper:1": "Machine learning and public health"}


def test_a_span_read_as_a_whole_title_by_likeness_must_not_hold_a_word_the_title_lacks():
    # "in veterinary public health" reads like the title with one word changed: another paper's particular
    vet = "Who wrote the review of machine learning in veterinary public health?"
    assert find_paper(vet, AlikeAPI()) is None
    # the title's own words, a typo of one of them, still name it
    for question in ("Who wrote machine learning and public health?", "Who wrote machine lerning and public health?"):
        found = find_paper(question, AlikeAPI())
        assert found is not None and found.matched == AlikeAPI.TITLES["paper:1"], question


class PhraseAPI(InitialismAPI):
    TITLES = {
        "paper:1": "Solitons in Open N=2 String Theory",
        "paper:2": "Automated identification of metamorphic test scenarios for an ocean-modeling application",
    }


def test_a_paper_phrase_holding_a_word_the_title_lacks_names_another_paper():
    # "the paper on ‹words›" may miss one word of the title, never hold one of its own: "closed" is not "Open"
    assert find_paper("Who wrote the paper on solitons in closed string theory?", PhraseAPI()) is None
    found = find_paper("Who wrote the paper on solitons in open string theory?", PhraseAPI())
    assert found is not None and found.matched == PhraseAPI.TITLES["paper:1"]
    # a word grown from a title word is that word ("testing" from the title's "test")
    found = find_paper("How often was the ocean-modeling metamorphic testing paper cited?", PhraseAPI())
    assert found is not None and found.matched == PhraseAPI.TITLES["paper:2"]


class ContinuedAPI(InitialismAPI):
    TITLES = {
        "paper:1": "The central limit theorem via doubling of variables",
        "paper:2": "High-Resolution Transmission Spectroscopy of the Terrestrial Exoplanet GJ 486b",
        "paper:3": "FieldView: An interactive software tool for exploration of three-dimensional vector fields",
    }


def test_the_words_going_on_after_a_title_read_in_the_question_must_fit_it_too():
    # the title's beginning is read, and the question goes on with another particular than the title's
    assert (
        find_paper("Who wrote the paper on the central limit theorem via tripling of variables?", ContinuedAPI())
        is None
    )
    # what "the ‹words› paper on …" is on names it too; a word with a digit is a particular ("GJ 1214b")
    gj = "Who's the first author of the transmission spectroscopy paper on GJ 1214b?"
    assert find_paper(gj, ContinuedAPI()) is None
    found = find_paper(gj.replace("1214b", "486b"), ContinuedAPI())
    assert found is not None and found.matched == ContinuedAPI.TITLES["paper:2"]
    # a numeral of an initialism stands for its number word ("3D": three-dimensional)
    found = find_paper("what year is the FieldView paper on exploring 3D vector fields from?", ContinuedAPI())
    assert found is not None and found.matched == ContinuedAPI.TITLES["paper:3"]


class DescribedAPI(InitialismAPI):
    TITLES = {
        "paper:1": "Changes in the Scientific Information Environment During the COVID-19 Pandemic",
        "paper:2": "Long bet will lose: demystifying seemingly fair gambling via two-armed Futurity bandit",
    }


def test_a_paper_named_as_a_piece_or_by_what_it_shows_is_found_from_those_words():
    # people call an article "the piece about …" and name a paper by its claim ("the paper showing that …")
    piece = "Which journal ran the piece about the scientific information environment changing during the pandemic?"
    found = find_paper(piece, DescribedAPI())
    assert found is not None and found.matched == DescribedAPI.TITLES["paper:1"]
    shows = "In which year did the paper showing that seemingly fair gambling is a losing long bet come out?"
    found = find_paper(shows, DescribedAPI())
    assert found is not None and found.matched == DescribedAPI.TITLES["paper:2"]
    # a claim no title holds names no paper
    assert (
        find_paper("When did the paper showing that card counting beats the casino come out?", DescribedAPI()) is None
    )


def test_a_first_name_alone_finds_the_scholar_and_a_shared_one_is_not_guessed(ask):
    (helge,) = find_people("Which papers has Helge written?", FakeAPI())
    assert helge.matched == "Helge Spieker" and not helge.others
    (gordon,) = find_people("How many papers has Gordon written?", FakeAPI())
    assert gordon.others  # Gordon Fraser and Gordon Plotkin
    answer = ask("How many papers has Gordon written?")
    assert not answer.ok and answer.error_stage == "entity" and "Gordon Plotkin" in answer.error


def test_the_latest_and_the_most_cited_paper_are_the_top_ones(ask):
    latest = ask("What is Gordon Fraser's most recent publication?")
    assert latest.ok and "Many-Objective Neuroevolution for Testing Games (2025)" in latest.answer
    assert "Flaky" not in latest.answer
    earliest = ask("What was Gordon Fraser's first paper?")
    assert "An Empirical Study of Flaky Tests in Python (2021)" in earliest.answer and "2025" not in earliest.answer
    cited = ask("Which of Andrea Stocco's papers is cited the most?")
    assert "Towards Automated Page Object Generation for Web Testing (9 citations)" in cited.answer
    uncounted = ask("What's Gordon Fraser's most cited paper?")  # no citation counts: said, never a guess
    assert (
        uncounted.abstained and uncounted.answer == "The library has no citation count for the papers of Gordon Fraser."
    )


def test_yes_or_no_about_a_pair_comes_from_their_joint_papers(ask):
    yes = ask("Did Gordon Fraser and Martin Gruber ever write a paper together?")
    assert yes.answer.startswith("Yes:") and "An Empirical Study of Flaky Tests in Python" in yes.answer
    no = ask("Have Andrea Stocco and Gordon Fraser co-authored anything?")
    assert no.ok and not no.abstained and no.answer.startswith("No:") and "0 joint papers" in no.answer


def test_who_has_more_compares_both_figures(ask):
    more = ask("Who has published more, Gordon Fraser or Andrea Stocco?")
    assert more.answer == "Gordon Fraser has the higher publication count: Gordon Fraser 3, Andrea Stocco 2."
    versus = ask("Gordon Fraser vs Andrea Stocco: who has more papers?")
    assert versus.answer == more.answer
    fewer = ask("Who has fewer papers, Gordon Fraser or Andrea Stocco?")
    assert fewer.answer.startswith("Andrea Stocco has the lower")
    cited = ask("Who has more citations, Gordon Fraser or Andrea Stocco?")  # no figure: no winner
    assert cited.abstained and is_abstain(cited.answer) and "citation count" in cited.answer


def test_two_questions_in_one_are_both_answered(ask):
    answer = ask("Who wrote OpenCat and when did it come out?")
    assert answer.ok and "Qurban Ali" in answer.answer and "2025" in answer.answer
    assert split_compound("Which papers did Gordon Fraser and Martin Gruber write together?") is None
    assert split_compound("Gordon Fraser versus Andrea Stocco, who has more papers?") is None


def test_two_questions_in_one_are_said_as_one_answer(engine):
    said = [e for e in engine.run("Who wrote OpenCat and when did it come out?") if e.kind == "answer_phrased"]
    assert len(said) == 1 and "Qurban Ali" in said[0].text and "2025" in said[0].text  # what a pane shows last


def test_a_few_items_the_last_author_and_who_else(ask):
    one = ask("Name one coauthor of Gordon Fraser")  # the API ranks coauthors by joint papers
    assert one.value == ["Martin Gruber"] and one.answer == "One of the coauthors of Gordon Fraser: Martin Gruber."
    assert ask("Who is the last author of OpenCat?").value == "Helge Spieker"
    others = ask("Who else wrote OpenCat besides Andrea Stocco?")
    assert "Qurban Ali" in others.answer and "Andrea Stocco" not in others.answer


def test_the_other_papers_of_the_last_author_are_their_papers_not_their_name(ask):
    # the API graph walks from a paper to its last author's papers as it does to its first author's,
    # and "what else has … published" asks for papers: the name alone answers none of it
    for question in (
        "What else has the last author of OpenCat published?",
        "What other papers has the last author of OpenCat written?",
    ):
        answer = ask(question)
        assert answer.ok and "Evaluating Human Trajectory Prediction with Metamorphic Testing" in answer.answer, (
            question
        )
        assert "Reduce-and-chop" in answer.answer and answer.value != "Helge Spieker"
    assert ask("Who is the last author of OpenCat?").value == "Helge Spieker"  # the name, where it is asked


def test_a_field_missing_from_the_papers_on_a_topic_is_said_missing_not_that_no_paper_matches(ask):
    # Helge Spieker's trajectory paper is in the library; its record holds no affiliation: that is what
    # is missing, and "no paper of Helge Spieker matches the topic" would be a wrong answer
    answer = ask("In which city was the meeting where Helge Spieker presented his trajectory prediction paper held?")
    assert answer.abstained and is_abstain(answer.answer), answer.answer
    assert "matches" not in answer.answer and "affiliation" in answer.answer
    # a topic none of the papers is on is still said so
    none = ask("In which city was the meeting where Helge Spieker presented his quantum chemistry paper held?")
    assert "No paper of Helge Spieker in the library matches the topic" in none.answer, none.answer


def test_a_topic_written_with_a_hyphen_where_the_title_has_a_space_still_narrows_to_the_paper(ask):
    # "human-trajectory" is the title's "Human Trajectory": "no paper matches" would be a wrong answer
    answer = ask("What year is Helge Spieker's human-trajectory prediction paper from?")
    assert answer.ok and answer.value in (2024, [2024]) and "2024" in answer.answer, answer.answer


def test_which_noun_that_names_no_paper_is_not_answered_with_paper_titles(ask):
    # "which publisher" asks for a publisher: the person's paper titles are a value of another kind
    for question in (
        "Which publisher put out Helge Spieker's trajectory prediction paper?",
        "Which publisher's series is Helge Spieker's trajectory prediction paper in?",
    ):
        answer = ask(question)
        assert answer.abstained and answer.answer == "The library has no publisher for Helge Spieker.", answer.answer
    # a noun that names papers is answered with them
    papers = ask("Which papers has Helge Spieker published?")
    assert papers.ok and "Evaluating Human Trajectory Prediction with Metamorphic Testing" in papers.answer


def _on_topic(topic: str, titles: list[str]) -> list[str]:
    """The titles a topic narrowing keeps, its program lines run as the sandbox runs them."""
    from scholar_tui.core.soay.narrowing import narrowing_lines

    names = {"pubs": [{"title": title} for title in titles]}
    exec("\n".join(line.replace("TOPIC", repr(topic)) for line in narrowing_lines("topic", "pubs")), names)
    return [p["title"] for p in names["pubs"]]


def test_a_topic_word_with_a_digit_is_a_whole_word_of_the_title_not_a_stem():
    titles = ["A Luttinger Liquid Core Inside Helium-4 Filled Nanopores", "Helium-3 films on graphite"]
    assert _on_topic("helium-3", titles) == ["Helium-3 films on graphite"]  # not the helium-4 paper
    assert _on_topic("helium-4", titles) == [titles[0]]
    assert _on_topic("helium", titles) == titles
    assert _on_topic("entanglement-assisted channels", ["Entanglement assisted compound quantum channel"])


def test_a_topic_initialism_is_a_title_word_or_the_initials_of_its_words():
    titles = ["A Study on Fine-tuning Large Language Models for Unit Testing", "OpenCat: Improving ADS Testing"]
    assert _on_topic("fine-tuning LLMs", titles) == [titles[0]]  # "no paper matches" would be wrong
    assert _on_topic("ADS testing", titles) == [titles[1]]
    assert _on_topic("fine-tuning GNNs", titles) == []


def test_which_country_or_which_grant_is_not_answered_by_an_organization_or_a_title():
    # FakeAPI holds an affiliation for nobody; this API holds one, which names no country
    class Affiliated(FakeAPI):
        def getPersonBasicInfo(self, person_id):
            return {**super().getPersonBasicInfo(person_id), "organization": "University of Calgary"}

        def _person(self, pid):
            return {**super()._person(pid), "organization": "University of Calgary"}

    api = Affiliated()
    engine = SoAyEngine(api, sandbox=InlineSandbox(api))
    try:
        place = final_answer(engine.run("Which university is Helge Spieker at?"))
        assert "University of Calgary" in place.answer  # the organization, where one is asked
        country = final_answer(engine.run("Which country is Helge Spieker's university in?"))
        assert country.abstained and "University of Calgary" not in country.answer, country.answer
        grant = final_answer(engine.run("What grant funded Helge Spieker's trajectory prediction paper?"))
        assert grant.abstained and "Trajectory" not in grant.answer, grant.answer
    finally:
        engine.close()


def test_the_shapes_are_read_from_the_words():
    assert list_limit("Name three coauthors of X") == 3 and list_limit("How many of X's three papers?") is None
    assert (
        comparison("Who has more citations, X or X?") == "max" and comparison("Which papers did X and X write?") is None
    )


def test_the_paper_noun_after_the_title_names_no_field():
    reading = read_question("what's the ISBN of the X paper", "paper")
    assert support(rank_plans(reading)[0][0], reading) == 0  # not "the titles of X": an ISBN is not held
    assert asked_thing("Who funded X?") == "funding information"


def best_key(masked: str, start: str) -> str:
    reading = read_question(masked, start)
    plan = rank_plans(reading)[0][0]
    return plan.key if support(plan, reading) > 0 else "unsupported"


@pytest.mark.parametrize(
    ("question", "start", "key"),
    [
        ("Where is X now?", "person", "searchPerson|organization|value|all"),
        ("Which papers cite X?", "paper", "unsupported"),  # never the paper's own title
        ("Who published X?", "paper", "searchPublication|getPublication:one|authors.name|value|all"),
        ("What does the X paper study?", "paper", "searchPublication|getPublication:one|abstract|value|all"),
        ("What was X's last publication about?", "person", "searchPerson|getPersonPubs:one|getPublication:each|abstract|value|latest"),
        ("what is X most cited work", "person", "searchPerson|getPersonPubs:one|title|value|most_cited"),
        ("How many citations does X's most cited paper have?", "person", "searchPerson|getPersonPubs:one|num_citation|value|most_cited"),
        ("What is the venue of X's 2019 paper?", "person", "searchPerson|getPersonPubs:one|getPublication:each|venue|value|year"),
        ("when did X start publishing", "person", "searchPerson|getPersonPubs:one|year|value|earliest"),
        ("What did X publish in 2021?", "person", "searchPerson|getPersonPubs:one|title|value|year"),
    ],
)  # fmt: skip
def test_other_wordings_reach_the_field_they_ask_for(question, start, key):
    assert best_key(question, start) == key


def test_the_figure_a_paper_was_ranked_by_is_one_value(ask):
    cited = ask("How many citations does Andrea Stocco's most cited paper have?")
    assert cited.value == 9 and cited.answer == "Citation count of the most cited paper of Andrea Stocco: 9."
    assert ask("When did Gordon Fraser publish his first paper?").value == 2021


def test_more_wordings_of_people_and_papers(ask):
    prolific = ask("Who is more prolific, Gordon Fraser or Andrea Stocco?")
    assert prolific.answer.startswith("Gordon Fraser has the higher publication count")
    top = ask("Who is Gordon Fraser's most frequent coauthor?")  # ranked by joint papers: the first
    assert top.value == ["Martin Gruber"]
    about = ask("Who wrote the paper about generating page objects?")  # its words, not in a row
    assert about.ok and about.value == ["Andrea Stocco"]
    assert asked_thing("Which papers cite X?") == "list of the papers citing it"


def test_a_doi_is_read_from_a_link_that_holds_one_else_said_missing(ask):
    held = ask("What is the DOI of OpenCat?")
    assert held.value == "10.1234/opencat.2025" and held.answer.startswith("DOI of OpenCat")
    arxiv = ask("What's the DOI of the Sum and Tensor of Quantitative Effects paper?")  # an arXiv link: no DOI
    assert arxiv.abstained and arxiv.answer == "The library has no DOI for Sum and Tensor of Quantitative Effects."


def test_who_wrote_the_most_papers_with_someone_is_the_first_coauthor(ask):
    top = ask("Who wrote the most papers with Gordon Fraser?")
    assert top.value == ["Martin Gruber"] and top.answer.startswith("The most frequent of the coauthors")


def test_a_paper_named_after_a_possessive_by_its_opening_words_or_unhyphenated(ask):
    assert ask("When was Andrea's OpenCat paper published?").value == 2025  # "Andrea's" ends the name
    first = ask("Who's the first author on Reduce and chop?")  # "Reduce-and-chop: …", after a contraction
    assert first.value == "Helge Spieker"
    venue = ask("Which conference did Many-Objective Neuroevolution appear at?")  # the one title opening so
    assert venue.ok and venue.value == "arXiv"
    assert ask("whats the venue of opencat").value == "arXiv"  # lower case, no apostrophe
    assert find_paper("Which venue did Testing Games appear at?", FakeAPI()) is None  # not an opening


def test_a_topic_ends_where_the_question_goes_on():
    reading = read_question("How many papers on Luttinger liquids has X written?", "person")
    assert reading.topic == "Luttinger liquids"


def test_a_relation_named_is_no_field_and_a_paper_figure_is_a_count(ask):
    h_index = ask("What is the h-index of the first author of OpenCat?")  # not "number of interests: 1"
    assert h_index.abstained
    assert h_index.answer == (
        "The library has no h-index for the first author of OpenCat: Improving Interoperability of ADS Testing."
    )
    cited = ask("How many citations does Andrea Stocco's paper on page object generation have?")
    assert cited.value == 9 and "Number of" not in cited.answer  # its citations, not a count of papers


def test_a_scholar_left_out_is_not_a_second_one(ask):
    others = ask("Who else did Andrea Stocco publish with apart from Qurban Ali?")
    assert others.entity == "Andrea Stocco" and others.value == ["Helge Spieker"]


def test_two_papers_are_compared_by_a_figure_or_by_their_years(ask):
    cited = ask("Which has more citations, OpenCat or Towards Automated Page Object Generation for Web Testing?")
    assert cited.answer.startswith("Towards Automated Page Object Generation for Web Testing has the higher citation")
    assert cited.value == {PAPERS["paper:4"][0]: 4, PAPERS["paper:5"][0]: 9}  # "or" is no part of a title
    older = ask("Is OpenCat older than Sum and Tensor of Quantitative Effects?")
    assert older.answer.startswith("Sum and Tensor of Quantitative Effects is the earlier (year)")
    ages = ask("Who is older, Gordon Fraser or Andrea Stocco?")  # no one's age: never a list of years
    assert ages.abstained and is_abstain(ages.answer)


def test_a_span_of_years_narrows_the_papers(ask):
    assert ask("How many papers did Gordon Fraser write between 2021 and 2023?").value == 2  # not all three
    since = ask("Which papers has Gordon Fraser published since 2023?")
    assert since.answer.startswith("The papers of Gordon Fraser since 2023:") and "Python" not in since.answer
    assert ask("How many papers did Gordon Fraser publish before 2023?").value == 1
    assert ask("How many papers did Gordon Fraser publish in 2025?").value == 1
