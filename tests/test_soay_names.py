"""A scholar named surname first ("Oberski, Daniel"), as bibliographies write names (core/soay/entities.py)."""

from scholar_tui.core.soay.entities import find_people

from .soay_support import FakeAPI


def test_a_name_written_surname_first_is_one_scholar():
    # "Gordon" alone names two scholars of the library; "Fraser, Gordon" names one
    people = find_people("What has Fraser, Gordon published since 2023?", FakeAPI())
    assert [(p.matched, p.text, p.others) for p in people] == [("Gordon Fraser", "Fraser, Gordon", ())]
    initial = find_people("papers by Spieker, H.?", FakeAPI())
    assert [p.matched for p in initial] == ["Helge Spieker"]


def test_people_listed_with_commas_stay_apart():
    people = find_people("did Fraser, Gruber and Feldmeier write together?", FakeAPI())
    assert [p.matched for p in people] == ["Gordon Fraser", "Martin Gruber", "Patric Feldmeier"]
