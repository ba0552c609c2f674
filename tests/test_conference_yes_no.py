"""Yes/no questions answered with the sentence that decides them, or the plain sentence: never a bare verdict."""

from scholar_tui.core.conference.answer import answer_question, compute_answer
from scholar_tui.core.conference.deciding import asked_class, denies
from scholar_tui.core.conference.metrics import token_f1
from scholar_tui.core.conference.tree import tree_from_data

from .conference_support import leaf_evidence

SITE = tree_from_data(
    {
        "Quay2031": {
            "Attend": {
                "Health": "Masks are not required at this time. We follow the local guidelines.",
                "Arrival": "Participation invitations are sent to registered speakers in August.",
                "Travel": {"Visa letters": "Write to the local chair for a letter."},
            },
            "Awards": {
                "Challenge Winners": {
                    "tracks": [
                        {"description": "Harbour routing track", "title": "Tidal Paths", "authors": ["A. Lee"]},
                        {
                            "description": "Lighthouse detection track",
                            "information": "Not assigned (no system was submitted for evaluation)",
                        },
                    ]
                }
            },
            "Authors": {
                "Submissions": "Upon acceptance the camera-ready version of the paper will include the appendices. "
                "Papers can be up to eight pages long. (For the final version, an extra page will be allowed.",
            },
            "Calls": {
                "Research Track": {
                    "description": "Authors are asked to read the calls of the other tracks before they submit "
                    "a paper to the research track.",
                    "Submission Details": "Papers are submitted through the submission system. The submission of "
                    "the same paper to several tracks is not allowed and leads to its rejection.",
                }
            },
        }
    }
)


def test_the_verdict_comes_with_its_sentence_even_when_it_shares_one_word():
    """Before: a bare "No" (the sentence shares only "mask" with the question)."""
    answer = compute_answer(
        "Do I have to wear a mask?",
        leaf_evidence(SITE, "Masks are not required at this time. We follow the local guidelines."),
        SITE,
    )
    assert answer.text == "No, masks are not required at this time."


def test_an_award_not_given_is_read_from_the_records_other_field():
    """Before: "Yes, lighthouse detection track" — the track's own name echoed back as the verdict's reason."""
    answer = compute_answer(
        "Did anyone win the lighthouse detection track?",
        leaf_evidence(SITE, "Lighthouse detection track", "Not assigned (no system was submitted for evaluation)"),
        SITE,
    )
    assert answer.text.lower().startswith("no, not assigned")
    assert 2 in answer.cited  # the field that says so is cited


def test_the_sentence_stating_the_asked_permission_decides_over_the_best_overlap():
    """Before: "Yes, authors are asked to read the calls …" (the best-overlap sentence of the first path); the
    sentence that says whether it is allowed sits in the next path."""
    answer = compute_answer(
        "Can I submit the same paper to the research track and another track?",
        leaf_evidence(
            SITE,
            "Authors are asked to read the calls of the other tracks before they submit a paper to the research track.",
            "Papers are submitted through the submission system. The submission of the same paper to several "
            "tracks is not allowed and leads to its rejection.",
        ),
        SITE,
    )
    assert answer.text.startswith("No, the submission of the same paper to several tracks is not allowed")
    assert answer.cited == [2]


def test_a_sentence_that_does_not_name_the_subject_decides_nothing():
    """Before: a bare "No" for a visa question over a page about participation invitations."""
    answer = compute_answer(
        "Do I need a visa to attend?",
        leaf_evidence(SITE, "Participation invitations are sent to registered speakers in August."),
        SITE,
    )
    assert answer.operation == "abstain" and "visa" in answer.text


def test_predicate_classes_read_how_people_ask_and_how_sites_deny():
    assert asked_class("Did anyone win the best poster award?").name == "award"
    assert asked_class("Do I have to register?").name == "obligation"
    assert asked_class("Can I bring a guest?").name == "permission"
    assert asked_class("Will they pay for my hotel?").name == "payment"
    assert asked_class("Is the venue in Hawaii?") is None
    assert denies("Did anyone win it?", "Not assigned (no submissions)")
    assert denies("Will they pay for travel?", "ICML does not provide travel funding for speakers.")
    assert not denies("Do I need to register?", "At least one author must register.")


def test_a_thing_granted_is_decided_by_the_sentence_that_grants_it():
    """Before: "Yes, upon acceptance the camera-ready version … will include the appendices" (session 11's
    held-out run): the sentence sharing most words, which says nothing of an extra page."""
    answer = compute_answer(
        "Do accepted papers get an extra page for the camera-ready version?",
        leaf_evidence(
            SITE,
            "Upon acceptance the camera-ready version of the paper will include the appendices. Papers can be up to "
            "eight pages long. (For the final version, an extra page will be allowed.",
        ),
        SITE,
    )
    assert answer.text == "Yes, for the final version, an extra page will be allowed."


def test_is_there_an_x_is_decided_by_a_sentence_naming_x():
    """Before: "Yes, workshop contents should be available online …" (the page's best-overlap sentence, which
    says nothing of an online submission process)."""
    site = tree_from_data(
        {
            "Quay2031": {
                "Calls": {
                    "Workshops": "Workshop contents should be available online for remote attendees. "
                    "Proposals are sent through the online submission system before the deadline."
                }
            }
        }
    )
    text = next(node.text for node in site.leaves() if node.text and node.text.startswith("Workshop contents"))
    answer = compute_answer("Is there an online submission process for workshops?", leaf_evidence(site, text), site)
    assert answer.text == "Yes, proposals are sent through the online submission system before the deadline."


def test_a_yes_no_answer_carries_its_verdict_apart_from_the_sentence_that_decides_it():
    """The value a benchmark scores against STAR's bare "Yes"/"No" is the verdict; the sentence stays beside it.
    Before: the event had only the text "No, masks are not required at this time." (scored F1 0.29 against "No")."""
    answered = answer_question(
        "Do I have to wear a mask?",
        leaf_evidence(SITE, "Masks are not required at this time. We follow the local guidelines."),
        SITE,
    )
    assert answered.value == "No"
    assert answered.support == "masks are not required at this time."
    assert answered.answer == "No, masks are not required at this time."  # what a person reads, unchanged
    assert answered.to_json()["value"] == "No" and answered.to_json()["support"] == answered.support
    assert token_f1("No", answered.value) == 1.0 and token_f1("No", answered.answer) < 0.5


def test_an_answer_that_is_no_verdict_is_its_own_value():
    answered = answer_question(
        "When are participation invitations sent?",
        leaf_evidence(SITE, "Participation invitations are sent to registered speakers in August."),
        SITE,
    )
    assert answered.operation != "yes_no" and answered.value == answered.answer and answered.support == ""


def test_a_sentence_that_says_its_own_verdict_gives_it_as_the_value():
    faq = tree_from_data(
        {
            "Fjord2030": {
                "FAQ": {
                    "Workshops": {
                        "Can a workshop be fully virtual?": "No, fully "
                        "virtual workshops are not possible this year; every workshop meets at the venue."
                    }
                }
            }
        }
    )
    answered = answer_question(
        "Can a workshop be fully virtual?",
        leaf_evidence(
            faq, "No, fully virtual workshops are not possible this year; every workshop meets at the venue."
        ),
        faq,
    )
    assert answered.answer.startswith("No, fully virtual workshops") and answered.value == "No"
    assert answered.support.startswith("fully virtual workshops are not possible")


WORKSHOPS = tree_from_data(
    {
        "Fjord2031": {
            "Calls": {
                "Accepted workshops": {
                    "workshops": [
                        {"workshop": "Robust Tidal Models", "author": ["Mira Holt", "Ken Aalto"]},
                        {"workshop": "Sea Ice Forecasting", "author": ["Ola Berg"]},
                    ]
                }
            },
            "Awards": {"Best Paper": {"title": "Wave Nets", "winners": ["Ina Solberg"]}},
        }
    }
)


def test_a_yes_no_asking_an_award_is_not_decided_by_a_field_that_only_names_the_person():
    """Before: "Yes, author: Mira Holt" — she organises a workshop; nothing cited says she won anything."""
    answer = compute_answer(
        "did mira holt win any award at fjord 2031?", leaf_evidence(WORKSHOPS, "Mira Holt"), WORKSHOPS
    )
    assert answer.operation == "abstain"
    assert not answer.text.startswith("Yes")


def test_a_winner_listed_under_an_awards_heading_still_decides_the_award_question():
    answer = compute_answer(
        "did Ina Solberg win the best paper award?", leaf_evidence(WORKSHOPS, "Ina Solberg"), WORKSHOPS
    )
    assert answer.text.startswith("Yes")


def test_given_as_an_adjective_states_no_award():
    """Before: "for given subjects" stated the award class, and a challenge's description decided "did anyone win
    the open track?" with a Yes resting on nothing about winners."""
    from scholar_tui.core.conference.deciding import states

    award = asked_class("did anyone win the open track of the challenge?")
    assert award is not None
    assert not states(award, "Participants build knowledge bases from LMs, for given subjects and relations.")
    assert states(award, "The prize was given to A. Lee.")
    assert states(award, "Open track winners: A. Lee")


BOARD = tree_from_data(
    {
        "Fjord2031": {
            "Organization": {
                "Board Members": [
                    {"name": "Ingrid Solheimsvik", "affiliation": "Elected 2018 & 2021 General Chair"},
                    {"name": "Tor Aasvangen", "affiliation": "Treasurer"},
                ]
            },
            "Awards": {"Test of Time Award": {"title": "Wave Nets", "authors": ["Tor Aasvangen"]}},
        }
    }
)


def test_an_award_asked_is_not_decided_by_a_sentence_that_names_no_award():
    """Before: "Yes, elected 2018 & 2021 General Chair" — her role on the board, a sentence of three words and more,
    said nothing of an award."""
    evidence = leaf_evidence(BOARD, "Elected 2018 & 2021 General Chair", "Ingrid Solheimsvik")
    answer = compute_answer("did Ingrid Solheimsvik win any award at fjord?", evidence, BOARD)
    assert not answer.text.startswith("Yes")
