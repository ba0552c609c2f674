"""Subject coverage (``core.conference.coverage``) and the kind of each answer, on a small workshop site written here.

Each test is a general property an answer of the old code broke on questions written after it (the dev4 sets
and the fourth site, WASP 2025): the evidence is given by hand, as retrieval found it, so each test states the
answer step alone. Every one fails on main's code before this change (9283abc) but the guard
``test_a_heading_beside_the_answer_refuses_it_only_when_its_branch_holds_a_value_like_the_answer``, which
fails on the first form of the coverage step (d53dd26), where any heading beside the answer refused it.
"""

from __future__ import annotations

import copy

from scholar_tui.core.answer_kind import Kind, is_abstain
from scholar_tui.core.conference import coverage
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.question_shape import conference_kind
from scholar_tui.core.conference.tree import Tree, tree_from_data

from .conference_support import ask_on, node_at

SITE = {
    "Kelp2030": {
        "Start": {
            "Event": "Kelp 2030 - Second Symposium on Seaweed Informatics",
            "Dates": "4-5 May 2030",
        },
        "Travel": {
            "Venue": {"Site": "Tidehouse, room 3", "Street": "2 Strand Road, Oban"},
            "Lodging": "Rooms at a reduced rate are held at the Harbour Inn until 1 April.",
        },
        "Registration": {
            "Pricing": {
                "Workshop days": [
                    {"Category": "Student", "Amount": "GBP 60"},
                    {"Category": "Regular", "Amount": "GBP 120"},
                ],
                "Affinity Workshops": "All registrations give access to the affinity workshops.",
                "Opening Reception Guest Ticket": "A registered attendee may bring a guest to the opening "
                "reception with a guest pass for GBP 25.",
            },
            "Contact": "Questions about registration go to the registration desk.",
        },
        "Remote attendance": {
            "How to join": "Registered attendees receive a link by e-mail from help@kelp2030.org on 3 May.",
        },
        "Programme": {
            "Day 1": {
                "Keynote": {
                    "Speaker": "Ana Rui",
                    "Title": "What Otters Tell Us About Kelp",
                },
                "Session A: Sensing": {"Chair": "Tom Hale", "Papers": ["Kelp from drones", "Sonar for forests"]},
            },
            "Day 2": {
                "Invited talk": {
                    "speaker": {"name": "Lena Ek", "bio": "Lena Ek is a professor at Umea University, Sweden."},
                    "title": "Seaweed Farms at Scale",
                },
                "Panel": {
                    "title": "Open data for the coast",
                    "Moderator": {"name": "Tom Hale"},
                    "Panelists": [{"name": "Ana Rui"}, {"name": "Ola Berg"}],
                },
                "Workshop dinner": {"Time": "19:30", "Place": "The Quay Kitchen, 5 Pier Street"},
            },
        },
        "Awards": [{"type": "Best Student Paper", "prize": "GBP 300", "title": "Kelp from drones"}],
        "Sponsorship": {
            "Packages": {"Silver": "Logo on the site; the chance to be named as sponsor of the best paper prize."}
        },
        "Sponsors": {
            "Gold Sponsors": [{"name": "KelpCo"}],
            "Platinum Plus Sponsors": [{"name": "Tideworks"}],
        },
        "Packages": [
            {"level": "Platinum (3000 GBP)", "description": "Logo on the site"},
            {"level": "Gold (2000 GBP)", "description": "Logo on the site"},
        ],
        "People": {
            "Contact": {"Phone": "+44 1631 000 111", "Office": "Tidehouse, room 1"},
            "Board": [{"name": "Mia Dahl", "affiliation": "Elected 2028 and 2029 Program Chair"}],
            "Committee": [
                {"role": "General Chair", "name": "Mia Dahl", "affiliation": "University of Bergen"},
                {"role": "Sponsor Chair", "name": "Ivo Sand", "affiliation": "Oban College"},
            ],
            "Reviewers": {
                "Outstanding Reviewers (Top 10%)": [{"name": "Ola Berg"}, {"name": "Ana Rui"}],
            },
        },
    }
}
TREE = tree_from_data(SITE)


def _ask(question: str, *path_ends: str, tree: Tree = TREE):
    return ask_on(tree, question, *path_ends)


RECEPTION = "Opening Reception Guest Ticket»A registered attendee may bring a guest to the opening reception with a guest pass for GBP 25."


def test_a_word_the_answer_lacks_that_a_heading_beside_it_names_refuses_the_answer_and_is_named():
    """Before: "GBP 25" — the opening reception's guest pass — for a guest ticket to the workshops: the site keeps
    the workshop prices beside it, so the answer is about another thing."""
    answered = _ask("How much does a guest ticket for the workshops cost?", RECEPTION)
    assert is_abstain(answered.answer) and "“workshops”" in answered.answer
    assert "25" in _ask("How much is a guest ticket for the opening reception?", RECEPTION).answer


def test_a_heading_beside_the_answer_refuses_it_only_when_its_branch_holds_a_value_like_the_answer():
    """The "Registration" branch beside "Remote attendance" holds no e-mail address: the address the answer
    found is not contrasted by it."""
    answered = _ask(
        "Which email address do the registration messages come from?",
        "Remote attendance»How to join»Registered attendees receive a link by e-mail from help@kelp2030.org on 3 May.",
    )
    assert "help@kelp2030.org" in answered.answer


def test_a_keynote_title_is_not_the_chair_of_a_session():
    """Before: "What Otters Tell Us About Kelp" (a keynote's title, capitalised like a name) for the chair of a
    session on otters: the site's sessions sit beside the keynote."""
    answered = _ask("Who chairs the session on otters?", "Day 1»Keynote»Title»What Otters Tell Us About Kelp")
    assert is_abstain(answered.answer) and "session" in answered.answer


def test_a_person_read_under_another_role_gives_way_to_the_role_the_question_names():
    """Before: "Tom Hale" (the moderator) for who sits on the panel."""
    answered = _ask("Who sits on the panel?", "Panel»Moderator»name»Tom Hale")
    assert answered.answer == "Ana Rui and Ola Berg"
    assert _ask("Who moderates the panel?", "Panel»Moderator»name»Tom Hale").answer == "Tom Hale"
    assert coverage.other_role("Who is the speaker?", TREE, node_at(TREE, "Panel»Moderator»name»Tom Hale")) == (
        None,
        True,
    )


def test_the_thing_of_a_named_owner_is_not_read_from_the_owner_s_own_record():
    """Before: "Umea University" — the speaker's bio — for what Lena Ek's talk is about. A record whose person is
    a role field ("Speaker: Ana Rui") is the talk itself, and its title answers."""
    answered = _ask(
        "What is Lena Ek's talk about?",
        "Invited talk»speaker»bio»Lena Ek is a professor at Umea University, Sweden.",
    )
    assert is_abstain(answered.answer) and "talk" in answered.answer
    assert (
        coverage.owner_not_possessed(
            "What is Lena Ek's bio?",
            TREE,
            node_at(TREE, "speaker»bio»" + "Lena Ek is a professor at Umea University, Sweden."),
        )
        is None
    )
    title = node_at(TREE, "Day 1»Keynote»Title»What Otters Tell Us About Kelp")
    assert coverage.owner_not_possessed("What is Ana Rui's talk about?", TREE, title) is None


def test_a_place_that_names_a_role_is_not_where_a_person_works():
    """Before: "Elected 2028 and 2029 Program Chair" (the board's "affiliation" field) for Mia Dahl's
    affiliation: the next record naming her holds a place."""
    answered = _ask(
        "What is Mia Dahl's affiliation?",
        "Board»Mia Dahl»name»Mia Dahl",
        "Committee»Mia Dahl»name»Mia Dahl",
    )
    assert answered.answer == "University of Bergen"
    site = copy.deepcopy(SITE)  # the committee as headings, one small record under each role
    site["Kelp2030"]["People"]["Committee"] = {"General Chair": {"name": "Mia Dahl", "affiliation": "Oban College"}}
    tree = tree_from_data(site)
    answered = _ask(
        "What is Mia Dahl's affiliation?",
        "Board»Mia Dahl»name»Mia Dahl",
        "Committee»General Chair»name»Mia Dahl",
        tree=tree,
    )
    assert answered.answer == "Oban College"


def test_a_count_over_a_heading_that_narrows_the_things_is_refused():
    """Before: "2 reviewers" — the outstanding ones (top 10 %) — for how many reviewers there were."""
    answered = _ask("How many reviewers did Kelp 2030 have?", "Outstanding Reviewers (Top 10%)»Ola Berg»name»Ola Berg")
    assert is_abstain(answered.answer) and "outstanding" in answered.answer
    assert coverage.narrower_set("How many outstanding reviewers were there?", "Outstanding Reviewers") is None


def test_a_head_noun_that_names_an_amount_asks_for_money():
    """Before: the sponsorship paragraph that mentions "the best paper prize" for the prize of the best student
    paper, and the lodging sentence ("a reduced rate") for the room rate: an amount is asked."""
    assert conference_kind("What was the prize for the best student paper?") is Kind.MONEY
    assert conference_kind("What is the hotel room rate?") is Kind.MONEY
    assert conference_kind("What is the title of the best student paper?") is not Kind.MONEY
    answered = _ask(
        "What was the prize for the best student paper?",
        "Packages»Silver»Logo on the site; the chance to be named as sponsor of the best paper prize.",
    )
    assert "300" in answered.answer
    answered = _ask(
        "What is the hotel room rate?",
        "Travel»Lodging»Rooms at a reduced rate are held at the Harbour Inn until 1 April.",
    )
    assert is_abstain(answered.answer)


def test_a_question_naming_only_the_event_itself_reads_its_venue_not_a_dinner_named_like_it():
    """Before: "The Quay Kitchen" — the workshop dinner's place — for where the workshop is held, on a
    workshop's own site (its "Event" field names it)."""
    site = copy.deepcopy(SITE)
    site["Kelp2030"]["Start"]["Event"] = "Kelp 2030 - Second Workshop on Seaweed Informatics"
    tree = tree_from_data(site)
    dinner = "Day 2»Workshop dinner»Place»The Quay Kitchen, 5 Pier Street"
    answered = _ask("Where is the workshop held?", dinner, tree=tree)
    assert "Tidehouse" in answered.answer or "Strand Road" in answered.answer
    assert "Quay Kitchen" in _ask("Where is the workshop dinner?", dinner, tree=tree).answer


def test_who_holds_a_role_of_a_thing_needs_the_thing_and_the_role_on_the_path():
    """Before: "Tom Hale" (a session's chair) for the chair of a panel on sonar, and "KelpCo" (a sponsor) for who
    chairs the sponsorship."""
    answered = _ask("Who chairs the panel on sonar?", "Session A: Sensing»Chair»Tom Hale")
    assert is_abstain(answered.answer) and "panel" in answered.answer
    answered = _ask("Who chairs the sponsorship?", "Gold Sponsors»KelpCo»name»KelpCo")
    assert "KelpCo" not in answered.answer
    answered = _ask("Who chairs the panel on sensing?", "Session A: Sensing»Chair»Tom Hale")
    assert is_abstain(answered.answer) and "“panel”" in answered.answer  # a panel is not a session


def test_a_rarer_word_the_site_joins_to_a_held_one_names_another_thing():
    """Before: "GBP 3000" (the Platinum package) for the Platinum Plus package: the site names "Platinum Plus"
    as a thing of its own."""
    answered = _ask("How much is the Platinum Plus package?", "Packages»Platinum (3000 GBP)»level»Platinum (3000 GBP)")
    assert is_abstain(answered.answer) and "plus" in answered.answer.lower()


def test_an_address_asked_is_an_address_and_a_phone_number_is_not_a_count():
    """Before: a date for the e-mail of remote attendance (the path holds what it is about, its value no
    address), and "2" for the organisers' phone number ("number of" read as a count)."""
    answered = _ask(
        "What is the email for remote attendance?",
        "Start»Dates»4-5 May 2030",
        "Remote attendance»How to join»Registered attendees receive a link by e-mail from help@kelp2030.org on 3 May.",
    )
    assert answered.answer == "help@kelp2030.org"
    answered = _ask("What is the phone number of the organisers?", "People»Contact»Phone»+44 1631 000 111")
    assert "1631" in answered.answer
    assert _ask("What’s the organisers’ phone number?", "People»Contact»Phone»+44 1631 000 111").answer.startswith(
        "+44"
    )


def test_two_words_a_small_site_never_uses_name_a_topic_it_lacks():
    """Before: the co-located event's name for the Wi-Fi password: a small site's silence on one word says little,
    on two together it says the topic is not there."""
    event = "Start»Event»Kelp 2030 - Second Symposium on Seaweed Informatics"
    assert is_abstain(_ask("What is the Wi-Fi password?", event).answer)


def test_a_longer_name_is_looked_up_in_an_index_of_headings_not_by_reading_every_label(monkeypatch):
    """Before: each refused answer read every heading of the site (~15 ms on ICML, growing with the site); the
    headings that hold a missing word are now found in an index built once per tree, with the same answer."""
    archive = {f"Session {number}": {"room": f"Room {number}", "chair": "Ana Lund"} for number in range(300)}
    site = {"Kelp2030": {"Archive": archive, **copy.deepcopy(SITE["Kelp2030"])}}  # read first in tree order
    tree = tree_from_data(site)
    question = "How much is the Platinum Plus package?"
    path = [node_path_text(tree, node_at(tree, "Packages»Platinum (3000 GBP)»level»Platinum (3000 GBP)"))]
    kind = conference_kind(question)
    first = coverage.longer_name(question, tree, kind, path)
    read: list[str] = []
    label_prefixes = coverage._label_prefixes
    monkeypatch.setattr(coverage, "_label_prefixes", lambda label: read.append(label) or label_prefixes(label))
    assert coverage.longer_name(question, tree, kind, path) == first == "plus"
    assert len(read) < 10  # the headings that name "plus", not the 300-odd of the site
