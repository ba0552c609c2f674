"""A person's own wording does not veto an answer the site holds (issue #24, false abstentions).

A person sets the scene in their own words ("I only bought a workshop registration", "I want to catch the … talk",
"what does the package cost us?"). No site writes "bought", "catch" or "us", so before, such a word vetoed the
answer ("…has no mention of “bought”") or weighed most in the confidence share, and a right answer was refused.
Now a word the site never uses vetoes only when it is a specific one ("Wi-Fi", "catering": beyond the everyday
words of the bundled MiniLM's vocabulary); English clitics ("what's", "Chen's", "haven't") are not part of a word;
the verbs of the asker's own clauses and the pronouns leave the subject of a question for a value. The abstain
sentence names the thing asked from the clause that asks. The site is big enough (1,600 reviewer names) for a
word's absence to mean something, as on a real conference site.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference import plain_sentence, site_topics, support
from scholar_tui.core.conference.tree import tree_from_data
from scholar_tui.models import english_words
from tests.conference_support import ask_on

CHILD_CARE_RULE = (
    "Parents must hold a conference registration for the same dates as their child's care. For example, if you "
    "have only purchased a workshop registration, then your child is only eligible for child care on Friday and "
    "Saturday."
)
SITE = {
    "Conf2030": {
        "Year(2030)": {"location": "Harbour Convention Centre", "full name": "Conf"},
        "Attend": {
            "Child Care": {"important information": CHILD_CARE_RULE},
            "Parking": {"height": "The garage takes vehicles up to 8 feet 11 inches high."},
        },
        "Exhibitor Info": {
            "Exhibitor Levels": {"Gold": {"money": "$50,000 USD"}, "Silver": {"money": "$20,000 USD"}},
        },
        "Contact Us": {"email": "office@conf.example"},
        "Program": {
            "Sessions": [
                {"session": "1B KG Completeness", "talks": ["GNNQ: A Neuro-Symbolic Approach to Query Answering"]},
                {"session": "2A Ontologies", "talks": ["OWL Reasoning at Scale"]},
            ]
        },
        "Organization": {"Reviewers": [{"name": f"Reviewer{number} Surname{number}"} for number in range(1600)]},
    }
}
TREE = tree_from_data(SITE)


def test_an_everyday_word_the_site_never_uses_does_not_veto_the_answer():
    """Before: "Conf2030's site data has no mention of “bought”."."""
    question = "we just bought the gold exhibitor level, what did it cost?"
    assert site_topics.unknown_topic(question, TREE) is None
    answered = ask_on(TREE, question, "Exhibitor Levels»Gold»money»$50,000 USD")
    assert answered.answer == "$50,000 USD"


def test_a_specific_word_the_site_never_uses_still_vetoes():
    assert site_topics.unknown_topic("Is there free Wi-Fi at the convention centre?", TREE) == "Wi-Fi"
    assert site_topics.unknown_topic("is there a shuttle to the convention centre?", TREE) == "shuttle"
    answered = ask_on(
        TREE, "Is there free Wi-Fi at the convention centre?", "Year(2030)»location»Harbour Convention Centre"
    )
    assert answered.answer == "Conf2030's site data has no mention of “Wi-Fi”."


def test_without_the_vocabulary_every_unknown_word_vetoes_as_before(monkeypatch):
    monkeypatch.setattr(english_words, "_ranks", lambda: {})
    assert not english_words.everyday("bought")
    assert site_topics.unknown_topic("we just bought the gold exhibitor level, what did it cost?", TREE) == "bought"


def test_everyday_words_are_read_from_the_bundled_vocabulary():
    assert english_words.everyday("bought") and english_words.everyday("flight") and english_words.everyday("catch")
    assert not english_words.everyday("catering") and not english_words.everyday("wifi")
    assert not english_words.everyday("password")


def test_a_pronoun_is_not_what_a_value_question_is_about():
    """Before: "…has no amount for gold exhibitor package us." ("us" is on the site, in "Contact Us")."""
    about = support.subject("what does a gold exhibitor package cost us?", TREE, Kind.MONEY)
    assert "us" not in about and "gold" in about
    # nor a yes/no question's, where "anybody" is beyond the everyday words but closed-class
    assert site_topics.unknown_topic("did anybody take the gold exhibitor level?", TREE) is None
    assert "anybo" not in support.subject("did anybody take the gold exhibitor level?", TREE, Kind.TEXT)
    answered = ask_on(TREE, "what does the gold exhibitor level cost us?", "Exhibitor Levels»Gold»money»$50,000 USD")
    assert answered.answer == "$50,000 USD"


def test_the_asker_s_own_doing_leaves_a_value_question_s_subject():
    about = support.subject("I want to catch the GNNQ talk, which session is it in?", TREE, Kind.TEXT)
    assert "catch" not in about and "gnnq" in about
    about = support.subject("If we designate our student author, how much volunteering is asked?", TREE, Kind.TEXT)
    assert "desig" not in about and "volun" in about
    # a yes/no question's own verb is what it asks, and stays
    assert support.asker_doing("can I bring my dog to the garage?") == set()


def test_a_yes_no_question_after_a_condition_is_left_whole():
    assert support.asks_yes_no("if I only bought a workshop registration can my kid use the child care on wednesday?")
    assert not support.asks_yes_no("if I only bought a workshop registration which days can my kid use child care?")


def test_english_clitics_are_not_part_of_a_word():
    """Before: "what's Bo Chen's homepage?" was about "what'" and "chen'", words no path holds."""
    about = support.subject("what's Bo Chen's homepage?", TREE, Kind.TEXT)
    assert "chen" in about and "chen'" not in about and "what'" not in about
    assert "room'" not in support.subject("What room's the Knot workshop in?", TREE, Kind.PLACE)
    assert "year'" in support.subject("What is the official name of this year's conference?", TREE, Kind.TEXT)


def test_the_abstain_sentence_names_the_thing_asked_from_the_clause_that_asks():
    """Before: "…no information on I'm driving high roof camper van" and "…no person for designate student author"."""
    question = "I'm driving a high-roof camper van, whats the max vehicle height for the garage?"
    assert plain_sentence.asking_clause(question) == "whats the max vehicle height for the garage"
    topic = plain_sentence.question_topic(question, TREE) or ""
    assert "vehicle height" in topic and "camper" not in topic and "driving" not in topic
    topic = (
        plain_sentence.question_topic(
            "If we designate our student author, how much volunteering is asked of them?", TREE
        )
        or ""
    )
    assert "designate" not in topic and "volunteering" in topic


COMMITTEE = tree_from_data(
    {
        "Conf2030": {
            "Organizing Committee": {
                "General Chair": {"name": "Ada Stone", "affiliation": "ETH Zurich"},
                "Program Chairs": [
                    {"name": "Bo Chen", "affiliation": "Kyoto University"},
                    {"name": "Cy Dee", "affiliation": "Inria"},
                ],
            },
            "Organization": {"Reviewers": [{"name": f"Reviewer{number} Surname{number}"} for number in range(1600)]},
        }
    }
)


def test_where_a_role_s_one_person_record_is_from_is_its_affiliation():
    """Before: "Conf2030's site data has no location for general chair." beside "affiliation: ETH Zurich"."""
    answered = ask_on(COMMITTEE, "where is the general chair from?", "General Chair»name»Ada Stone")
    assert answered.answer == "ETH Zurich"
