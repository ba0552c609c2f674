"""A value stated inside a cited sentence answers when no typed reading finds it (issue #24).

Sites state values in prose ("Requests must be received by April 24", "call the hotline at 858-555-0199"). Before,
when no node was labelled for the value, the engine said the site data had none: a false abstention. The sentence
must hold a value of the asked form and be supported like any answer; a date of the event is not a deadline.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import Kind, is_abstain
from scholar_tui.core.conference.stated_value import value_form
from scholar_tui.core.conference.tree import tree_from_data
from tests.conference_support import ask_on

REQUEST = (
    "Authors of accepted journal papers may ask to present them at the conference. "
    "Requests must be received by April 24, 2030 at the journal track's form."
)
HOTLINE = "If you experience harassment, please call the conduct hotline at 858-555-0199 at any hour."
REGISTRATION = "Registration opens in May. For questions about registration, please write to reg@conf.example."
PRIZE = "EUR 500, sponsored by SoundBox Ltd"
DIVERSITY = "The Diversity and Inclusion co-chairs can be reached by email at diversity-chairs@conf.example."
EXPO = "Expo talks and panels will be held on Sun Jul 23, 2030, the day before the main conference tutorials."
SITE = {
    "Conf2030": {
        "Year(2030)": {
            "location": "Harbour Convention Centre",
            "full name": "Conf",
            "date": "Sun Jul 23rd through Sat the 29th",
        },
        "Journal to Conference Track": {"Request to present": {"details": REQUEST}},
        "Code of Conduct": {"Reporting": {"details": HOTLINE, "chairs": DIVERSITY}},
        "Call For Workshops": {"Workshop Chairs": {"e-mail": "workshop-chairs@conf.example"}},
        "Organizing Committee": {"Diversity & Inclusion Chairs": [{"name": "Jane Roe", "affiliation": "Uni"}]},
        "Contact": {"general": "info@conf.example"},
        "Registration": {"help": REGISTRATION},
        "Call For Expo": {"introduction": EXPO, "proposals": "Expo proposals are reviewed by the expo chairs."},
        "People": {
            "Organising committee": [
                {"Role": "Programme chair", "Person": "Lukas Brenner", "Affiliation": "ETH Zurich"},
                {"Role": "Programme chair", "Person": "Sara Lindgren", "Affiliation": "KTH"},
                {"Role": "Workshop chair", "Person": "Tomas Ruiz", "Affiliation": "UPF"},
            ]
        },
        "Program": {"Thursday, 27 October": {"CLOSING CEREMONY": {"time": "16:20-17:20", "chair": "Ann Archer"}}},
        "Programme": {
            "Best paper award and closing": {"Prize": PRIZE, "Time": "16:30"},
            "Panel": {"Moderator": "Ines Marchand", "Panelists": "Sara Lindgren, Tomas Ruiz"},
        },
        "Sponsors": {"Gold": "SoundBox Ltd", "Silver": "OpenEars Foundation"},
        "Dates": {"Paper Submissions": {"Camera-ready deadline": "May 31 '30 (Anywhere on Earth)"}},
        "Organization": {"Reviewers": [{"name": f"Reviewer{number} Surname{number}"} for number in range(1600)]},
    }
}
TREE = tree_from_data(SITE)


def test_a_deadline_stated_in_a_sentence_answers():
    """The conference's own dates, ranked first, say nothing of requests: the sentence stating the deadline does."""
    answered = ask_on(
        TREE,
        "deadline to request presenting a journal paper?",
        "Year(2030)»date»Sun Jul 23rd through Sat the 29th",
        f"Request to present»details»{REQUEST}",
    )
    assert not is_abstain(answered.answer) and "April 24, 2030" in answered.answer
    assert answered.cited == [2]


def test_an_address_stated_in_a_sentence_answers():
    """Before: "no information on registration" — the first path's address ("Contact » general") says nothing of
    registration, and no node is labelled "email" under "Registration"."""
    answered = ask_on(
        TREE,
        "What is the email address for registration questions?",
        "Contact»general»info@conf.example",
        f"Registration»help»{REGISTRATION}",
    )
    assert "reg@conf.example" in answered.answer and answered.cited == [2]


def test_a_phone_number_stated_in_a_sentence_answers():
    """Before: "no information on conduct hotline" — no node is labelled "phone"."""
    answered = ask_on(TREE, "what's the phone number of the conduct hotline?", f"Reporting»details»{HOTLINE}")
    assert "858-555-0199" in answered.answer


def test_a_date_of_the_event_is_not_the_deadline_asked():
    due = value_form("when are expo talk proposals due?", Kind.DATE)
    assert due is not None and not due("Call For Expo»introduction", EXPO)
    assert due("Request to present»details", REQUEST)


def test_only_a_value_of_the_asked_form_is_a_stated_value():
    asks_phone = value_form("what's the hotline's phone number?", Kind.TEXT)
    assert asks_phone is not None and asks_phone("", HOTLINE) and not asks_phone("", "Held on 2030-07-24.")
    assert value_form("what is the expo about?", Kind.TEXT) is None  # free text: the typed readers decide


def test_a_field_labelled_person_names_the_role_holder():
    """Before: "Programme chair and Programme chair" (each record's role field), then refused as an echo of the
    question: a record's "Person" field is where a site writes who holds the role."""
    answered = ask_on(TREE, "Who are the programme chairs?", "Programme chair»Role»Programme chair")
    assert "Lukas Brenner" in answered.answer and "Sara Lindgren" in answered.answer
    assert "Tomas Ruiz" not in answered.answer


def test_who_does_it_is_the_agent_a_sentence_names():
    """Before: "no person for sponsors best paper prize" — the sponsor is a company, written "sponsored by …"."""
    answered = ask_on(
        TREE,
        "Who sponsors the best paper prize?",
        f"Best paper award and closing»Prize»{PRIZE}",
        "Sponsors»Silver»OpenEars Foundation",
    )
    assert answered.answer == "SoundBox Ltd" and answered.cited == [1]


def test_who_does_it_is_the_name_under_the_heading_of_its_doer():
    """Before: "no person for moderates panel" — the panelists' path ranked first was refused, and the name under
    "Moderator" was never read as the one who moderates."""
    answered = ask_on(
        TREE, "Who moderates the panel?", "Panel»Panelists»Sara Lindgren, Tomas Ruiz", "Panel»Moderator»Ines Marchand"
    )
    assert answered.answer == "Ines Marchand" and answered.cited == [2]


def test_how_to_contact_someone_is_the_address_a_sentence_gives():
    """Before: the workshop chairs' address (ranked first) was refused for the diversity chairs, and the sentence
    giving theirs was not read: "no information on diversity chairs"."""
    contact = value_form("How do I contact the diversity chairs?", Kind.TEXT)
    assert contact is not None and contact("Reporting»chairs", DIVERSITY)
    answered = ask_on(
        TREE,
        "How do I contact the diversity chairs?",
        "Diversity & Inclusion Chairs»Jane Roe»name»Jane Roe",
        "Workshop Chairs»e-mail»workshop-chairs@conf.example",
        f"Reporting»chairs»{DIVERSITY}",
    )
    assert "diversity-chairs@conf.example" in answered.answer and answered.cited == [3]


def test_a_programme_row_is_dated_by_the_day_it_sits_under():
    """Before: "no date for closing ceremony" — the row holds only its time; the day is its heading."""
    answered = ask_on(TREE, "when's the closing ceremony?", "CLOSING CEREMONY»time»16:20-17:20")
    assert answered.answer == "Thursday, 27 October: 16:20-17:20"


def test_a_yes_no_question_is_not_answered_by_a_stated_value():
    """A yes or no is no date: "Is the year given in the programme?" over a programme row stays a yes, a no or the
    plain sentence, never "Thursday, 27 October: …"."""
    answered = ask_on(
        TREE, "Is the year of the conference specified in the program?", "CLOSING CEREMONY»time»16:20-17:20"
    )
    assert "27 October" not in answered.answer


def test_a_small_site_that_never_names_the_thing_states_no_value_of_it():
    """A small site's silence on a word weighs nothing in the support share: without this check "$300" (its
    fee) answered "How much is the gala dinner?" on a site that never names a gala nor a dinner."""
    small = tree_from_data({"Tiny2030": {"Registration": {"Fees": {"In person": "$300", "Virtual": "$100"}}}})
    answered = ask_on(small, "How much is the gala dinner?", "Fees»In person»$300")
    assert is_abstain(answered.answer)
