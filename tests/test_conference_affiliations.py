"""Where people are from: a question asking for an organisation ("what university is she at?", "where are the
tutorial chairs from?", "where does X work?") is answered by the "affiliation"/"institution" field of the person's
record, which a site never labels "location"; a question that asks none, or names no one the site lists, is not.

Before: each of these abstained ("…has no location for …"): the place readers looked only for fields labelled as
places, and a speaker's record offered its photo's link as its "fullest" field before its institution.
"""

from __future__ import annotations

from scholar_tui.core.answer_kind import Kind, is_abstain
from scholar_tui.core.conference.affiliations import asks_affiliation
from scholar_tui.core.conference.question_shape import conference_kind
from scholar_tui.core.conference.tree import Tree, tree_from_data
from tests.conference_support import ask_on

SITE = {
    "Conf2031": {
        "Organization": {
            "Organizing Committee": {
                "Accessibility Chair": {"name": "Mira Okonkwo", "affiliation": "University of Northwind"},
                "Tutorial Chairs": [
                    {"name": "Lena Fischer", "affiliation": "Southport Tech"},
                    {"name": "Omar Haddad", "affiliation": "Eastvale Institute"},
                    {"name": "Ines Duarte", "affiliation": "Westmere College"},
                ],
            },
            "Board": {"Board Members": [{"name": "Paul Grant", "affiliation": "Elected 2029 President"}]},
            "Outstanding Reviewers": [{"name": "Andrea Bell", "affiliation": "Northgate University"}],
            "Organization Community": [
                {"name": "Kim Ode", "type": "Sponsor Chairs", "affiliation": "Lakeside University"},
                {"name": "Lu Wei", "type": "Sponsor Chairs", "affiliation": "Hillcrest Labs"},
                {"name": "Sam Roe", "type": "Web Chair", "affiliation": "Riverside College"},
            ],
        },
        "Program": {
            "Panel": {
                "Panelists": [
                    {
                        "name": "Raj Patel",
                        "photo": "https://conf2031.example.org/photos/raj-patel-150x150.png",
                        "institution": "Globex, Oslo",
                    },
                ]
            }
        },
    }
}


def _tree() -> Tree:
    return tree_from_data(SITE)


def test_where_a_named_speaker_works_is_his_institution_not_his_photo_link():
    """Before: the record's "fullest" field was the photo's link, refused as no place, and the institution
    beside it was never read: "…has no location for Raj Patel work"."""
    answered = ask_on(_tree(), "where does Raj Patel work?", "Raj Patel»name»Raj Patel", "raj-patel-150x150.png")
    assert answered.answer == "Globex, Oslo"


def test_what_university_a_role_holder_is_at_is_the_affiliation_beside_her_name():
    answered = ask_on(
        _tree(),
        "what university is the accessibility chair at?",
        "Accessibility Chair»affiliation»University of Northwind",
        "Accessibility Chair»name»Mira Okonkwo",
    )
    assert answered.answer == "University of Northwind"


def test_where_a_shared_role_s_holders_are_from_is_every_holder_s_affiliation():
    """The heading "Tutorial Chairs" is the role the three records share: each one's organisation is asked."""
    answered = ask_on(
        _tree(),
        "where are the tutorial chairs from?",
        "Lena Fischer»affiliation»Southport Tech",
        "Omar Haddad»name»Omar Haddad",
    )
    for organisation in ("Southport Tech", "Eastvale Institute", "Westmere College"):
        assert organisation in answered.answer


def test_every_holder_of_a_role_written_in_a_field_and_no_other_role_s():
    """The role is each record's "type" field: both sponsor chairs' organisations, not the web chair's."""
    answered = ask_on(
        _tree(),
        "which unis are the sponsor chairs from?",
        "Kim Ode»type»Sponsor Chairs",
        "Kim Ode»affiliation»Lakeside University",
    )
    assert "Lakeside University" in answered.answer and "Hillcrest Labs" in answered.answer
    assert "Riverside" not in answered.answer


def test_a_role_the_site_does_not_list_is_not_answered_by_another_role_s_affiliation():
    """No "registration chair": the accessibility chair's university must not stand in for one."""
    answered = ask_on(
        _tree(),
        "which uni is the registration chair at?",
        "Accessibility Chair»affiliation»University of Northwind",
        "Accessibility Chair»name»Mira Okonkwo",
    )
    assert is_abstain(answered.answer)


def test_a_board_member_s_role_written_as_affiliation_is_no_organisation():
    answered = ask_on(_tree(), "what institution is Paul Grant affiliated with?", "Paul Grant»name»Paul Grant")
    assert "President" not in answered.answer


def test_a_person_whose_name_merely_shares_a_stem_is_not_the_one_asked():
    """ "Andreas" and "Andrea" share a stem: the reviewer Andrea Bell's university is not Andreas Bell's."""
    answered = ask_on(_tree(), "what university is Andreas Bellamy at?", "Andrea Bell»affiliation»Northgate University")
    assert "Northgate" not in answered.answer


def test_asking_for_the_organisation_a_person_is_with():
    for question in (
        "which unis are the chairs from?",
        "which uni's the accessibility chair at?",
        "what company does she work for?",
        "what institution is the president affiliated with?",
        "where are the tutorial chairs from?",
    ):
        assert asks_affiliation(question), question
        assert conference_kind(question) is Kind.PLACE, question
    for question in (
        "which company sponsors the best reviewer award?",  # the company acts: a sponsor, not someone's employer
        "where is the shuttle from the airport?",
        "where is the banquet?",
        "Which Program Committee member is affiliated with 'Northgate University'?",  # names it, asks who
    ):
        assert not asks_affiliation(question), question


def test_whether_a_named_person_is_at_an_organisation_is_read_from_his_own_record():
    """Before: "Is X at Org like Y?" abstained, or computed a Yes from Y's record naming Org (the verifier refused
    it): X's own institution decides, and the answer names it."""
    tree = _tree()
    yes = ask_on(tree, "is Raj Patel at Globex?", "Raj Patel»name»Raj Patel")
    assert yes.answer.startswith("Yes") and "Globex" in yes.answer
    no = ask_on(tree, "is Raj Patel at Initech like Mira Okonkwo?", "Raj Patel»name»Raj Patel")
    assert no.answer.startswith("No") and "Globex" in no.answer


def test_whether_at_is_not_decided_by_another_person_s_record():
    answered = ask_on(_tree(), "is Mira Okonkwo at Globex like Raj Patel?", "Raj Patel»name»Raj Patel")
    assert not answered.answer.startswith(("Yes", "No"))
