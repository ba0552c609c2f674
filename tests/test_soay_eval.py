import pytest

from scholar_tui.core.soay.evaluate import answers_match, judge, soay_eval


def test_outcomes_follow_the_paper_definitions():
    gold = ["searchPerson", "getPersonPubs"]
    assert judge(gold, 12, gold, 12, executed=True) == "EM"
    assert judge(gold, 12, ["searchPerson", "getPersonBasicInfo"], "12", executed=True) == "DS"
    assert judge(gold, 12, gold, 13, executed=True) == "WP"
    assert judge(gold, 12, ["searchPublication"], 13, executed=True) == "WS"
    assert judge(gold, 12, gold, None, executed=False) == "EE"


def test_answers_match_normalises_order_case_accents_and_numbers():
    assert answers_match(["Ada Lovelace", "Charles Babbage"], ["charles babbage", "ada  lovelace"])
    assert answers_match("Zürich", "zurich")
    assert answers_match(3, "3.0")
    assert answers_match(["MIT"], "mit")
    assert not answers_match(["a", "b"], ["a"])


def test_score_reproduces_the_papers_table_3():
    # SoAyGPT-4's ACC by hop in the paper: 95.83, 87.37, 82.94 -> Score 86.57
    def outcomes(hops, accuracy_percent, n=10_000):
        right = round(n * accuracy_percent / 100)
        return [(hops, "EM")] * right + [(hops, "WS")] * (n - right)

    report = soay_eval(outcomes(1, 95.83) + outcomes(2, 87.37) + outcomes(3, 82.94))
    assert report.score == pytest.approx(86.57, abs=0.01)
    assert report.by_hops[2].accuracy == pytest.approx(87.37, abs=0.01)


def test_rates_per_hop_sum_to_100():
    report = soay_eval([(1, "EM"), (1, "EE"), (2, "DS"), (2, "WP"), (2, "WS"), (3, "EM")])
    assert report.by_hops[1].rates == {"EM": 50.0, "DS": 0.0, "WS": 0.0, "WP": 0.0, "EE": 50.0}
    assert report.by_hops[2].accuracy == pytest.approx(100 / 3)
    assert report.score == pytest.approx((50 / 6 + (100 / 3) / 3 + 100 / 2))
