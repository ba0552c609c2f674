"""The entry a question names among the entries of one list: its own fields answer, never a neighbour's."""

from scholar_tui.core.answer_kind import is_abstain
from scholar_tui.core.conference.answer import compute_answer
from scholar_tui.core.conference.checks import asked_predicate
from scholar_tui.core.conference.tree import tree_from_data

from .conference_support import ask_on, leaf_evidence

SITE = tree_from_data(
    {
        "Fjord2031": {
            "Home": {"date": "12-15 May 2031", "location": "Bergen, Norway"},
            "Careers": {
                "Job Posting": [
                    {"name": "Acme", "introduce": "Acme builds rockets for research labs."},
                    {"name": "Globex", "introduce": "Globex is a Tromso-based firm selling graph tools."},
                    {"name": "Initech", "introduce": "Initech writes reporting software."},
                ],
                "Job Fair": {
                    "Schedule": [
                        {
                            "Sponsor": "Acme",
                            "SLOT 1 DATE AND TIME": "10:00-11:00, May 12",
                            "SLOT 2 DATE AND TIME": "14:00-15:00, May 13",
                        },
                        {
                            "Sponsor": "Globex",
                            "SLOT 1 DATE AND TIME": "09:05-09:35, May 14",
                            "SLOT 2 DATE AND TIME": "16:20-17:00, May 15",
                        },
                    ]
                },
            },
            "Committee": [
                {"name": "Jane Roe", "affiliation": "Globex"},
                {"name": "Ola Nor", "affiliation": "Acme"},
            ],
            "Grants": [
                {
                    "type": "Student Grants",
                    "description": "Please apply only if you are a student (a proof of it is required).",
                },
                {
                    "type": "Free Registration",
                    "description": "Please apply only if you are not a student and have no other funds.",
                },
            ],
            "Awards": [
                {
                    "type": "Tableau Challenge Winners",
                    "prize": "800 EUR",
                    "Sponsor": "Harbour Labs",
                    "Dataset Track Prize": [{"name": "TABLEX", "authors": ["A. Berg"]}],
                },
                {
                    "type": "Reasoner Challenge Winners",
                    "tracks": [
                        {"description": "Ontology reasoner for streaming data", "information": "Not assigned"},
                        {"description": "Ontology reasoner for medical rules", "winners": ["K. Lund", "P. Moe"]},
                    ],
                },
            ],
        }
    }
)


def test_a_slot_is_read_from_the_entry_the_question_names():
    """Before: Acme's first slot (the best-ranked path, a neighbour of the entry named) for Globex's."""
    answer = compute_answer("when's Globex's first job fair slot?", leaf_evidence(SITE, "10:00-11:00, May 12"), SITE)
    assert "09:05" in answer.text


def test_an_ordinal_picks_the_field_of_that_number():
    """Before: Globex's SLOT 1 for "the second slot"."""
    answer = compute_answer("when's Globex's second slot?", leaf_evidence(SITE, "09:05-09:35, May 14"), SITE)
    assert "16:20" in answer.text


def test_an_entry_the_list_does_not_hold_has_no_value_there():
    """Before: Acme's slot for Initech, which posts jobs but has no slot at the job fair."""
    answer = compute_answer(
        "when's Initech's job fair slot?", leaf_evidence(SITE, "10:00-11:00, May 12", "Initech"), SITE
    )
    assert is_abstain(answer.text), answer.text


def test_a_yes_no_is_decided_by_the_named_entrys_sentence():
    """Before: "No, please apply only if you are not a student …" (the free registration's rule)."""
    answer = compute_answer(
        "do I have to prove I'm a student to apply for the student grant?",
        leaf_evidence(SITE, "Please apply only if you are not a student and have no other funds."),
        SITE,
    )
    assert "proof" in answer.text and answer.text.startswith("Yes"), answer.text


def test_who_paid_for_a_prize_is_its_sponsor():
    """Before: "800 EUR; TABLEX." (a winner's name for who paid)."""
    answer = compute_answer(
        "How much was the Tableau prize and who paid for it?", leaf_evidence(SITE, "TABLEX", "800 EUR"), SITE
    )
    assert "800" in answer.text and "Harbour Labs" in answer.text, answer.text


def test_did_anyone_win_is_decided_by_the_records_own_field():
    """Before: "Yes, description: Ontology reasoner for streaming data" (the track's name, under "Winners")."""
    nobody = compute_answer(
        "did anyone win the streaming data track of the reasoner challenge?",
        leaf_evidence(SITE, "Ontology reasoner for streaming data"),
        SITE,
    )
    assert nobody.text.startswith("No") and "not assigned" in nobody.text.lower(), nobody.text
    somebody = compute_answer(
        "did anyone win the medical rules track of the reasoner challenge?",
        leaf_evidence(SITE, "Ontology reasoner for medical rules"),
        SITE,
    )
    assert somebody.text.startswith("Yes") and "K. Lund" in somebody.text, somebody.text


def test_where_an_organisation_is_based_is_read_from_its_own_record():
    """Before: "Jane Roe" (a committee member whose affiliation names the company: her record, not its)."""
    answered = ask_on(SITE, "where is globex based", "Jane Roe»affiliation»Globex", "Job Posting»Globex»name»Globex")
    assert answered.answer.startswith("Tromso"), answered.answer


POSTINGS = tree_from_data(
    {
        "Fjord2031": {
            "Home": {"location": "Bergen, Norway"},
            "Job Postings/Fair": {
                "Job Posting": [
                    {"name": "Acme", "introduce": "Acme builds rockets.", "contact": "https://acme.example/jobs"},
                    {"name": "Globex", "introduce": "Globex sells tools.", "contact": "jobs@globex.example"},
                    {"name": "Initech", "introduce": "Initech writes software.", "contact": ["https://i.example/a"]},
                ],
                "Job Fair": {"Schedule": [{"Sponsor": "Acme", "SLOT 1": "10:00-11:00, May 12"}]},
            },
        }
    }
)


def test_how_many_things_have_a_listed_thing_counts_that_lists_entries():
    """Before: "2 companies" (the fields of one company's record)."""
    answer = compute_answer(
        "how many companies have job postings on the job fair page?",
        leaf_evidence(POSTINGS, "https://acme.example/jobs"),
        POSTINGS,
    )
    assert answer.text.startswith("3"), answer.text


CALLS = tree_from_data(
    {
        "Fjord2031": {
            "Home": {"location": "Bergen, Norway"},
            "Call For Resources Track Papers": {
                "Review Criteria": "In exceptional cases, when it is not possible to make the resource public, authors "
                "must provide anonymous access to the resource for the reviewers.",
                "Submission Details": "Fjord submissions for the resources track are not anonymous. We encourage "
                "embedding metadata in the PDF.",
            },
        }
    }
)


def test_a_yes_no_is_decided_by_the_sentence_naming_all_that_is_asked():
    """Before: "No, in exceptional cases, … authors must provide anonymous access …" (the best-ranked sentence
    names the resource but not the track's submissions)."""
    answer = compute_answer(
        "do i need to anonymize my resources track submission",
        leaf_evidence(
            CALLS,
            "In exceptional cases, when it is not possible to make the resource public, authors must provide "
            "anonymous access to the resource for the reviewers.",
            "Fjord submissions for the resources track are not anonymous. We encourage embedding metadata in the PDF.",
        ),
        CALLS,
    )
    assert answer.text.startswith("No") and "not anonymous" in answer.text, answer.text


WORKSHOPS = tree_from_data(
    {
        "Fjord2031": {
            "Home": {"location": "Bergen, Norway"},
            "Workshops": [
                {
                    "workshop": "Spurious Correlations and Stability",
                    "location": "Room 316",
                    "essays": [
                        {"essay": "Replicable Reinforcement Learning", "form": "Poster"},
                        {"essay": "Stable Features", "form": "Oral"},
                    ],
                },
                {"workshop": "Graph Learning Dynamics", "location": "Room 315", "essays": []},
            ],
        }
    }
)


def test_a_paper_of_another_workshop_does_not_answer_for_a_workshop():
    """Before: "Poster" (the form of a paper titled "Replicable Reinforcement Learning" in another workshop)."""
    answered = ask_on(
        WORKSHOPS, "which room is the reinforcement learning workshop in?", "essay»Replicable Reinforcement Learning"
    )
    assert is_abstain(answered.answer), answered.answer


PRIZES = tree_from_data(
    {
        "Fjord2031": {
            "Home": {"location": "Bergen, Norway"},
            "Sponsorships": {
                "Platinum": [
                    "Opportunity to be named as sponsor for the prize of one of the best paper awards at the "
                    "conference (best research paper, best in-use paper) – first come, first served."
                ]
            },
            "Awards": [
                {"type": "Best Paper -- In-use Track", "prize": "1500 USD", "title": "Graphs at Work"},
                {"type": "Best Paper -- Research Track", "prize": "1000 USD", "title": "Rules that Reason"},
            ],
        }
    }
)


def test_prize_money_asks_an_amount():
    """Before: the sponsorship package's sentence naming the prize (no amount in it) for "the prize money"."""
    answer = compute_answer(
        "what's the prize money for the best in-use paper?",
        leaf_evidence(
            PRIZES,
            "Opportunity to be named as sponsor for the prize of one of the best paper awards at the conference "
            "(best research paper, best in-use paper) – first come, first served.",
            "Best Paper -- In-use Track",
            "1500 USD",
        ),
        PRIZES,
    )
    assert "1500" in answer.text, answer.text


def test_a_thing_asked_that_the_site_never_names_is_not_its_neighbours_paragraph():
    """Before: the dinner's paragraph for "the dress code for the dinner" (the site never says "dress" or "code")."""
    site = tree_from_data(
        {
            "Fjord2031": {
                "Home": {"location": "Bergen, Norway"},
                "Social": {"Dinner": "The conference dinner on 10 May takes place on a boat. Tickets cost NOK 950."},
            }
        }
    )
    answer = compute_answer(
        "What is the dress code for the dinner?",
        leaf_evidence(site, "The conference dinner on 10 May takes place on a boat. Tickets cost NOK 950."),
        site,
    )
    assert is_abstain(answer.text), answer.text


def test_a_yes_no_asked_of_a_manner_must_be_decided_by_a_path_saying_it():
    """Before: no predicate, so "Can I attend ISWC 2022 remotely?" was decided by the free registration's rule
    ("… the only option for you to attend …"); the manner asked is what a deciding path must say."""
    assert asked_predicate("Can I attend ISWC 2022 remotely?") == ["remotely"]
    assert asked_predicate("Do I really need a visa?") == []  # a filler says how one speaks, not what is asked


def test_how_can_i_find_asks_where_as_where_can_i_find_does():
    """Before: the workshops' dates ("Fri Jul 28th through Sat the 29th") for "How can I find … workshops"."""
    site = tree_from_data(
        {
            "Fjord2031": {
                "Home": {"location": "Bergen, Norway"},
                "Important Dates": {"Workshops": "Fri Jul 28th through Sat the 29th"},
                "Call For Workshops": {
                    "2031 accepted workshops": {
                        "url": "https://fjord.example.org/schedule?type=Workshop",
                        "workshops": [{"workshop": "Graph Learning", "location": "Room 315"}],
                    }
                },
            }
        }
    )
    answer = compute_answer(
        "How can I find 2031 accepted workshops",
        leaf_evidence(site, "Fri Jul 28th through Sat the 29th", "https://fjord.example.org/schedule?type=Workshop"),
        site,
    )
    assert "https://fjord.example.org/schedule" in answer.text, answer.text


def test_a_who_is_not_answered_by_a_label_naming_the_thing_asked_about():
    """Before: "Proceedings & Metadata" (a chair's role label) for "who publishes the proceedings?"."""
    site = tree_from_data(
        {
            "Fjord2031": {
                "Home": {"location": "Bergen, Norway"},
                "Organization": [
                    {"name": "Gia Pirro", "type": "Proceedings & Metadata"},
                    {"name": "Ann Lee", "type": "General Chair"},
                ],
            }
        }
    )
    answer = compute_answer("who publishes the proceedings?", leaf_evidence(site, "Proceedings & Metadata"), site)
    assert is_abstain(answer.text), answer.text
