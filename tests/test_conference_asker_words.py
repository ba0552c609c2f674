"""The confidence check reads what a question is about, not how the asker puts it (issue #24).

A person writes "what else", "never", "through which system", "ICML's phone number": closed-class words and the
conference's own possessive name say how the question is put. A site never writes "else", so before, such a word
weighed as a subject word the cited paths lacked and a right answer was refused (a false abstention). The site is
big enough (1,600 reviewer names) for a word's absence to mean something, as on a real conference site.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import Kind, is_abstain
from scholar_tui.core.conference import support
from scholar_tui.core.conference.asking import plain_question
from scholar_tui.core.conference.question_shape import conference_kind, question_form
from scholar_tui.core.conference.tree import tree_from_data
from tests.conference_support import ask_on

SITE = {
    "Conf2030": {
        "Year(2030)": {"location": "Harbour Convention Centre", "full name": "Conf"},
        "Attending": {
            "Joining Remotely": {
                "description": "The conference will be run via Zoom and Gather.town in a hybrid format.",
                "contact information": "If iswc@agency.example never answers, please contact Jane Roe (jane@uni.example).",
            },
        },
        "Calls": {
            "Call For Workshops": {
                "workshops": [
                    {"workshop": "Workshop on Knot Theory in Learning", "author": ["Ada Stone", "Bo Chen"]},
                    {"workshop": "Workshop on Graph Signals", "author": ["Cy Dee"]},
                ]
            },
            "Call For Industry Papers": {
                "Submission": "Industry papers are submitted in EasyChair at https://easychair.org/conf2030.",
            },
        },
        "Call For Tutorials": {f"Question {number}": "Tutorial proposals should answer it." for number in range(40)},
        "Job Postings": {"Job Posting": [{"name": "Acme", "contact": "hr@acme.example"}]},
        "Important Dates": {
            "Tutorial Proposal Announcements": "May 12 '30 (Anywhere on Earth)",
            "Paper Decision notification": "Apr 24 '30 (Anywhere on Earth)",
            "Social Notification Date": "Jun 18 '30 (Anywhere on Earth)",
        },
        "Code of Conduct": {
            "Reporting": {"hotline number": "858-555-0199", "how": "Report harassment to the hotline."}
        },
        "Socials": {
            "Mentoring sessions": {"booking": "Mentoring sessions are booked in Mentorly, our booking platform."},
            "Using mentoring in labs": {"summary": "A social on mentoring sessions in small labs."},
        },
        "Call For Resources Track Papers": {
            "Submission Details": "Resource papers must be between 8 and 15 pages long, including references."
        },
        "Paper Dates": {"Camera-ready version deadline": "May 31 '30 (Anywhere on Earth)"},
        "Author Instructions": {"Paper submission site": "OpenReview"},
        "Registration": {"account": "Password must be at least 9 characters."},
        "Grants": {"Student Grants": "Students may apply by email until Sep 30."},
        "Contact Conf": {"phone number": "702-555-0100", "office": "1269 Harbour Street"},
        "Organization": {"Reviewers": [{"name": f"Reviewer{number} Surname{number}"} for number in range(1600)]},
    }
}
TREE = tree_from_data(SITE)


def test_what_else_is_answered_from_the_sentence_that_says_it():
    """Before: "no information on Apart Zoom else used run online" — "apart" and "else" weighed as the subject."""
    answered = ask_on(
        TREE,
        "Apart from Zoom what else is used to run the conference online?",
        "Joining Remotely»description»The conference will be run via Zoom and Gather.town in a hybrid format.",
    )
    assert not is_abstain(answered.answer) and "Gather.town" in answered.answer


def test_a_route_preposition_is_not_what_is_asked():
    """Before: "no information on industry papers submitted through system" — "through" weighed as the subject."""
    answered = ask_on(
        TREE,
        "industry papers get submitted through which system?",
        "Call For Industry Papers»Submission»Industry papers are submitted in EasyChair at https://easychair.org/conf2030.",
    )
    assert "EasyChair" in answered.answer


def test_the_conference_s_own_possessive_name_adds_nothing_to_the_subject():
    """Before: the subject of "What is Conf's phone number?" was "conf'", a word no path holds."""
    assert "conf'" not in support.subject("What is Conf's phone number?", TREE, Kind.TEXT)
    answered = ask_on(TREE, "What is Conf's phone number?", "Contact Conf»phone number»702-555-0100")
    assert answered.answer == "702-555-0100"


def test_closed_class_words_leave_the_subject_but_narrowing_words_stay():
    about = support.subject("who do I contact if the agency never answers my email?", TREE, Kind.PEOPLE)
    assert "never" not in about and "agenc" in about
    assert "after" in support.subject("what is the price after the early deadline?", TREE, Kind.MONEY)
    # a yes/no question is left whole: there every word is what is asked
    assert "while" in support.subject("can I post it while it is under review?", TREE, Kind.TEXT)


def test_a_short_plural_is_its_singular():
    """Before: "jobs" (left whole by the stemmer) was a subject word "Job Posting" did not hold."""
    answered = ask_on(TREE, "whats the email to apply for jobs at acme", "Job Posting»Acme»contact»hr@acme.example")
    assert answered.answer == "hr@acme.example"


def test_an_announcement_is_how_a_site_says_when_you_hear_back():
    """Before: "no date for tutorial proposers hear", the sibling "Paper Decision notification" read as the thing
    meant; a site announces its decisions as it notifies them."""
    answered = ask_on(
        TREE, "when do tutorial proposers hear back?", "Tutorial Proposal Announcements»May 12 '30 (Anywhere on Earth)"
    )
    assert "May 12" in answered.answer


def test_whats_typed_without_its_apostrophe_asks_what_is():
    """Before: "whats the phone number of …" read "number of" as a count ("no count for the hotline")."""
    assert plain_question("whats the phone number of the hotline") == "what is the phone number of the hotline"
    assert plain_question("whos running the expo") == "who organizes the expo"
    answered = ask_on(
        TREE, "whats the phone number of the hotline for reporting harassment", "Reporting»hotline number»858-555-0199"
    )
    assert answered.answer == "858-555-0199"


def test_who_is_doing_reads_the_verb_after_the_be():
    """Before: "who is organizing the knot theory workshop?" read "is" as the verb, so "organizing" was a branch
    the question named and the path lacked: "no person for organizing knot theory workshop"."""
    answered = ask_on(
        TREE, "who's organizing the knot theory workshop?", "Workshop on Knot Theory in Learning»author»Ada Stone"
    )
    assert "Ada Stone" in answered.answer and "Bo Chen" in answered.answer


def test_a_clause_on_the_asker_s_circumstance_does_not_make_a_when():
    """Before: "the minimum password length when registering" was asked as a date ("no date for …")."""
    assert conference_kind("what is the minimum password length when registering?") is Kind.TEXT
    assert conference_kind("what is the registration deadline if I am a student?") is Kind.DATE


def test_a_bound_on_a_text_s_length_is_read_in_characters():
    """Before: no unit was asked of a password's length, so the sentence stating "at least 9 characters" was
    weighed like any text, and the words it lacks ("minimum", "length") refused it."""
    answered = ask_on(
        TREE,
        "whats the minimum password length when registering?",
        "Registration»account»Password must be at least 9 characters.",
    )
    assert "9 characters" in answered.answer


def test_the_asker_s_verb_is_no_part_of_a_longer_name():
    """Before: "using" (how the asker asks: "are they using") joined "mentoring" in the heading "Using mentoring
    in labs", read as a longer name of the thing asked: "no information on system using book mentoring sessions"."""
    answered = ask_on(
        TREE,
        "what system are they using to book mentoring sessions?",
        "Mentoring sessions»booking»Mentoring sessions are booked in Mentorly, our booking platform.",
    )
    assert "Mentorly" in answered.answer


def test_a_terse_question_on_the_asker_s_own_situation_reads_the_range_asked():
    """Before: "I'm" weighed as a word no path holds (the question has no wh-word, so it was left whole), and
    "min and max" read only the low end ("8 pages")."""
    answered = ask_on(
        TREE,
        "I'm writing a resource track paper - min and max page count?",
        "Call For Resources Track Papers»Submission Details»Resource papers must be between 8 and 15 pages long, "
        "including references.",
    )
    assert "8 and 15 pages" in answered.answer


def test_a_thing_named_by_its_acronym_must_be_on_the_answer_s_path():
    """Before: the main track's camera-ready date answered for the workshop the asker names (its words "camera
    ready" and "papers" held most of the question's weight)."""
    assert support.named("the camera ready deadline for TAG-ML papers?") == {"tag", "ml"}
    answered = ask_on(
        TREE,
        "whats the camera ready deadline for TAG-ML papers?",
        "Paper Dates»Camera-ready version deadline»May 31 '30 (Anywhere on Earth)",
    )
    assert is_abstain(answered.answer)


def test_which_platform_asks_one_name_of_that_kind():
    """Before: "which platform are …" was read as a list (as "which workshops are …" is), and the name answered,
    "OpenReview", was refused because the site never calls it a "platform"."""
    assert question_form("which platform are papers submitted on?") == "span"
    assert question_form("which workshops are held in Ballroom A?") == "list"
    answered = ask_on(
        TREE, "which platform are papers submitted on?", "Author Instructions»Paper submission site»OpenReview"
    )
    assert answered.answer == "OpenReview"
