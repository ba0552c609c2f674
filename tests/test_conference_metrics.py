"""Token F1, exact match and evidence hit@k, checked against hand-computed values."""

from pathlib import Path

import pytest

from scholar_tui.core.conference.evidence import EvidenceIndex, hit_at_k, squash
from scholar_tui.core.conference.metrics import exact_match, normalise_answer, scored_answer, token_f1
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.tree import load_json_tree

TINY = Path(__file__).parent / "fixtures" / "conference" / "tinyqa" / "TINY2024.json"


def test_normalisation_drops_case_punctuation_articles_and_spacing():
    assert normalise_answer("  The Hawaii   Convention Center, Honolulu! ") == "hawaii convention center honolulu"


def test_token_f1_by_hand():
    # gold: 4 tokens (hawaii convention center honolulu); predicted: 3 tokens, 2 shared
    # precision 2/3, recall 2/4 -> F1 = 2 * (2/3 * 1/2) / (2/3 + 1/2) = 4/7
    assert token_f1("Hawaii Convention Center, Honolulu", "the Convention Center Lisbon") == pytest.approx(4 / 7)
    assert token_f1("Yes", "yes.") == 1.0
    assert token_f1("March 19", "") == 0.0
    assert token_f1("", "") == 1.0
    # shared tokens are counted with multiplicity: min(2,1) "300" + min(1,2) "usd" = 2 of 3 each way
    assert token_f1("300 300 usd", "300 usd usd") == pytest.approx(2 / 3)


def test_exact_match_is_strict_after_normalising():
    assert exact_match("Mar 19 '23", "mar 19 23") == 1.0
    assert exact_match("Yes", "Yes, it is") == 0.0


def _leaf(tree, text):
    return next(node for node in tree.leaves() if node.text == text)


def test_from_paths_resolve_despite_separators_roots_and_positions():
    tree = load_json_tree(TINY)
    index = EvidenceIndex(tree)
    cases = {
        "TINY2024/Dates/Important Dates/Author rebuttal period ends": "TINY2024»Dates»Important Dates»Author rebuttal period ends»March 19, 2024",
        "TINY2024>>Attend>>Venue>>location": "TINY2024»Attend»Venue»location»Lisbon Congress Centre, Portugal",
        "Attend/Child Care": "TINY2024»Attend»Child Care",  # root left out
        "TINY2023>>Attend>>Registration>>Pricing>>ACM Members>>Virtual": "TINY2024»Attend»Registration»Pricing»ACM Members»Virtual»$300",  # wrong root, record by title
        "TINY2024>>Dates>>Sessions>>1>>Start Date": "TINY2024»Dates»Sessions»Workshops»Start Date»Fri Jul 26th",  # list position
        "TINY2024/Attend/Registration/Cancellation / Refunds": "TINY2024»Attend»Registration»Cancellation / Refunds»Refunds are possible until July 1, 2024.",
        "TINY2024/Dates/ImportantDates.Paper submision deadline": "TINY2024»Dates»Important Dates»Paper submission deadline»January 31, 2024",  # no space, '.' and a typo
    }
    for source, expected in cases.items():
        resolution = index.resolve(source)
        assert resolution.resolved, source
        assert [node_path_text(tree, tree[node]) for node in resolution.nodes] == [expected], source
    assert not index.resolve("TINY2024/Dress Code").resolved
    assert squash("2023 accepted workshops/workshops") == "2023acceptedworkshopsworkshops"


def test_an_inner_node_makes_its_whole_subtree_the_evidence():
    tree = load_json_tree(TINY)
    index = EvidenceIndex(tree)
    leaves = index.evidence_leaves(index.resolve("TINY2024/Organization/General Chairs"))
    assert {tree[leaf].text for leaf in leaves} == {"Ada Lovelace", "University of London", "Alan Turing"}


def test_hit_at_k_by_hand():
    evidence = frozenset({7, 9})
    retrieved = [3, 4, 9, 1, 2]
    assert not hit_at_k(retrieved, evidence, 1)
    assert not hit_at_k(retrieved, evidence, 2)
    assert hit_at_k(retrieved, evidence, 3)
    assert hit_at_k(retrieved, evidence, 5)
    assert not hit_at_k(retrieved, frozenset(), 5)


def test_a_yes_no_answer_is_scored_in_the_form_its_gold_is_written():
    """STAR writes a yes/no gold as a bare verdict or with its reason: the verdict alone is scored against the
    first, verdict and deciding sentence against the second (before: the whole answer against both)."""
    answer = "No, authors are encouraged to submit code to foster reproducibility."
    assert scored_answer("No", "No", answer) == "No"
    assert token_f1("No", scored_answer("No", "No", answer)) == 1.0 and token_f1("No", answer) < 0.2
    gold = "No,Authors are encouraged to submit code to foster reproducibility."
    assert scored_answer(gold, "No", answer) == answer and token_f1(gold, answer) > 0.8
    assert scored_answer("July 5", "July 5, 2023", "July 5, 2023") == "July 5, 2023"  # a value is its own answer
