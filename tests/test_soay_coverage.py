"""A paper named by what it is about (core/soay/coverage.py): every describing word accounted for by one record."""

from scholar_tui.core.soay.linking import link
from scholar_tui.indexes.records import fold

MESONS = 'Mesonic "screening masses" in high temperature QCD'
REST = "Automated Test Generation for REST APIs: No Time to Rest Yet"
OCEAN = "Automated identification of metamorphic test scenarios for an ocean-modeling application"
DATAMORPHIC = "Datamorphic Testing: A Methodology for Testing AI Applications"
HOPPING = "A simple approach to hopping matrix elements between nearby molecules"
ML_REVIEW = "Machine Learning in Public Health: A Review"
MUTATION = "Mutation Testing of Deep Reinforcement Learning Based on Real Faults"
FUSION = "A Self-Adjusting Fusion Representation Learning Model for Unaligned Text-Audio Sequences"
SGRAPHS = "S-Graphs+: Real-time Localization and Mapping leveraging Hierarchical Representations"
QUEENSLAND = (
    "Spatial statistical machine learning models to assess the relationship between development vulnerabilities "
    "and educational factors in children in Queensland, Australia"
)
SOLITONS = "Solitons in Open N=2 String Theory"
NMSSM = "A light Higgs boson in the NMSSM confronted with the CMS di-photon and di-tau excesses"
CHESS = "Artificial Intelligence beyond Chess: Opportunities for Medicine, Public Health, and Social Medicine"
BIGDATA = "BigData and Machine Learning for Public Health"
ABSTRACTS = {
    SGRAPHS: "We present an evolved version of the Situational Graphs, a SLAM graph and a scene graph.",
    FUSION: "Inter-modal interaction matters in multimodal sentiment analysis: sequences are usually non-alignment.",
}


class DescribedAPI:
    """searchPublication by shared words (as the library's candidates are found), getPublication with the
    abstract, and no scholar of any name."""

    TITLES = [
        MESONS,
        REST,
        OCEAN,
        DATAMORPHIC,
        HOPPING,
        ML_REVIEW,
        MUTATION,
        FUSION,
        SGRAPHS,
        QUEENSLAND,
        CHESS,
        BIGDATA,
        SOLITONS,
        NMSSM,
    ]

    def searchPublication(self, publication_info):
        words = {word for word in fold(publication_info).split() if len(word) > 2}
        scored = [(len(words & set(fold(title).split())), at, title) for at, title in enumerate(self.TITLES)]
        return [{"pub_id": f"paper:{at}", "title": title} for hits, at, title in sorted(scored, reverse=True) if hits]

    def getPublication(self, pub_id):
        title = self.TITLES[int(pub_id.split(":")[1])]
        return {"pub_id": pub_id, "title": title, "abstract": ABSTRACTS.get(title), "venue": None, "authors": []}

    def searchPerson(self, name=None, organization=None, interest=None):
        return []


def _named(question):
    linked = link(question, DescribedAPI())
    return linked.mentions[0].matched if linked else None


def test_a_paper_is_found_from_a_loose_paraphrase_of_its_title():
    assert _named("who wrote that thing about screening masses of mesons at high temperature?") == MESONS
    # "fusing" is the title's "Fusion", "self-adjusting model" its "Self-Adjusting … Model"
    assert (
        _named("first author of the paper fusing unaligned text and audio sequences with a self-adjusting model?")
        == FUSION
    )


def test_a_describing_word_may_be_the_abstracts_own():
    # "situational graphs" is what the abstract calls the S of S-Graphs+
    assert (
        _named("who's the last author on the hierarchical situational graphs localization and mapping paper") == SGRAPHS
    )


def test_a_paper_is_found_by_its_subtitle():
    assert _named("Who wrote 'No Time to Rest Yet'?") == REST


def test_a_word_said_in_place_of_a_title_word_is_another_papers():
    # "synthetic faults" for the title's "Real Faults", "N=4" for "N=2", "MSSM" for "NMSSM": however alike the
    # rest reads, the one word differing is what the question is about
    question = (
        "what's the venue of the paper on mutation testing of deep reinforcement learning based on synthetic faults?"
    )
    assert _named(question) is None
    assert (
        _named("what's the venue of the paper on mutation testing of deep reinforcement learning based on real faults?")
        == MUTATION
    )
    assert _named("when did the paper on solitons in open N=4 string theory come out?") is None
    assert _named("when did the paper on solitons in open N=2 string theory come out?") == SOLITONS
    assert _named("who is the first author of the light Higgs boson in the MSSM paper?") is None
    # a synonym the record never uses is lost with them: no answer rather than a guess
    question = "who wrote the paper with a simple way to get hopping matrix elements between neighbouring molecules?"
    assert _named(question) is None


def test_a_neighbour_read_alike_gives_way_to_the_paper_the_description_fits():
    # "metamorphic testing" reads like "Datamorphic Testing", but the ocean modelling is the other paper's
    question = "who are the authors of that metamorphic testing paper for an ocean modelling application?"
    assert _named(question) == OCEAN


def test_a_particular_no_title_holds_names_no_paper():
    # a word added to a title's words ("veterinary"), or two it lacks, describe another paper
    assert _named("Who wrote the review of machine learning in veterinary public health?") is None
    assert _named("who wrote the mutation testing of quantum programs paper?") is None
    assert _named("who wrote the paper on graph neural networks for traffic forecasting?") is None


def test_the_words_leading_into_a_description_are_the_descriptions():
    # "the paper with a simple way …": its "with" introduces the description, it asks for no coauthor
    question = "who wrote the paper with simple hopping matrix elements of molecules?"
    assert link(question, DescribedAPI()).masked(question) == "who wrote the X?"


CHATGPT = "Guiding ChatGPT to Fix Web UI Tests via Explanation-Consistency Checking"


class ScholarAPI(DescribedAPI):
    """The library above with one scholar, who wrote two of its papers."""

    TITLES = DescribedAPI.TITLES + [CHATGPT]
    NAME = "Shin Hwei Tan"

    def searchPerson(self, name=None, organization=None, interest=None):
        if name and set(fold(name).split()) & set(fold(self.NAME).split()):
            return [{"person_id": "person:1", "name": self.NAME}]
        return []

    def getPersonPubs(self, person_id):
        return [{"pub_id": f"paper:{self.TITLES.index(title)}", "title": title} for title in (CHATGPT, REST)]


def test_a_scholars_paper_is_found_from_its_description():
    question = "Who are Shin Hwei Tan's coauthors on the paper about getting ChatGPT to fix web UI tests?"
    linked = link(question, ScholarAPI())
    assert linked.start == "paper" and linked.mentions[0].matched == CHATGPT
    assert [m.matched for m in linked.extra] == ["Shin Hwei Tan"]  # the scholar, left out of the coauthors
    # a description none of the scholar's papers fits is no paper of theirs
    other = link(
        "Who are Shin Hwei Tan's coauthors on the paper about mutation testing of quantum programs?", ScholarAPI()
    )
    assert other.start == "person"


def test_a_title_read_alike_is_refused_where_the_question_names_what_it_lacks():
    # one word changed ("low" for "high") or a name the record lacks ("Victorian") is another paper
    assert _named("who wrote the paper on screening masses in low temperature QCD?") is None
    question = (
        "which journal had the spatial machine learning study of development vulnerabilities in Victorian children?"
    )
    assert _named(question) is None
    assert (
        _named(
            "which journal had the spatial machine learning study of development vulnerabilities in Queensland children?"
        )
        == QUEENSLAND
    )


def test_an_antonym_is_no_misspelling_nor_the_abstracts_stem():
    # "aligned" is not "Unaligned" misspelt, nor the abstract's "alignment"
    assert _named("first author of the fusion model for aligned text-audio sequences?") is None
    assert _named("first author of the fusion model for unaligned text-audio sequences?") == FUSION


def test_what_follows_the_paper_noun_describes_the_paper_too():
    # "… paper for mobile apps": the title holds none of it, so the library lacks the paper asked about
    assert _named("who wrote the automated test generation for REST APIs paper for mobile apps?") is None
    assert _named("who wrote the automated test generation for REST APIs paper with the most citations?") == REST


def test_a_title_said_in_other_forms():
    # "AI" is the title's "Artificial Intelligence", a "piece" is a paper, "big data" its "BigData"
    assert _named("which journal was the AI beyond chess piece in?") == CHESS
    assert _named("who wrote the big data and ML for public health talk?") == BIGDATA


def test_a_scholars_work_named_by_a_description():
    question = "which meeting did Shin Hwei Tan present her work getting ChatGPT to fix web UI tests at?"
    assert link(question, ScholarAPI()).mentions[0].matched == CHATGPT


def test_two_papers_compared_each_named_by_what_it_is_about():
    question = "Which is older: the paper on mesonic screening masses at high temperature, or the simple hopping matrix elements for molecules one?"
    linked = link(question, DescribedAPI())
    assert [m.matched for m in linked.mentions] == [MESONS, HOPPING]
