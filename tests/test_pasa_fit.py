"""Paper search that can say "nothing fits", and titles that name the query ranked above unrelated papers."""

from __future__ import annotations

from scholar_tui.core.pasa.fit import closest_line, fits, key_phrases, lift_title_matches, named_phrase, shares_nothing
from scholar_tui.core.pasa.selector_head import FEATURES, PRIOR_FEATURES, LogisticHead, SelectorHead

from .pasa_support import crawl_with_head

ADDERNET = "AdderNet: deep networks that replace multiplications with additions"


def test_a_title_names_a_coined_name_or_a_phrase_of_the_query_whatever_its_case_and_plural():
    assert named_phrase(ADDERNET, "Addernet: Do we really need multiplications in deep learning") == "addernet"
    assert named_phrase("papers on software fault localization", "A survey on software fault localization")
    assert named_phrase("multiplication-free networks", "Multiplication free neural networks") is None  # not whole
    assert named_phrase("multiplication-free networks", "Multiplication-free networks for edge devices")
    # one common word names nothing in particular: "molecules" alone does not
    assert named_phrase("graph neural networks for molecules", "Molecules in space") is None
    assert ["addernet"] in key_phrases(ADDERNET)


def test_a_paper_fits_by_a_key_phrase_or_a_close_dense_match_only():
    assert fits(ADDERNET, "Addernet: Do we really need multiplications in deep learning", "", dense=0.2)
    assert fits("graph neural networks for molecules", "Molecule Edit Graph Attention Network", "", dense=0.65)
    assert not fits("graph neural networks for molecules", "The quest for a quantum neural network", "", dense=0.47)
    assert fits("graph neural networks", "Semi-supervised classification with graph convolutional networks", "", 0.3)
    assert shares_nothing("dark matter detection with liquid xenon", "Binarized neural networks", "")
    assert not shares_nothing("dark matter detection with liquid xenon", "Theory of simple liquids", "soft matter")
    assert not shares_nothing(ADDERNET, "Looknn: Neural network with no multiplication", "")  # plural aside


def test_a_title_that_names_the_query_moves_above_every_unrelated_paper_and_nothing_else_moves():
    ranked = ["related A", "unrelated B", "related C", "unrelated D", "names E", "related F"]
    lifted = lift_title_matches(
        ranked, lambda paper: paper.startswith("names"), lambda paper: paper.startswith("unrelated")
    )
    assert lifted == ["related A", "names E", "unrelated B", "related C", "unrelated D", "related F"]


def test_the_sentence_names_the_closest_papers_as_such():
    line = closest_line(["A", "B", "C", "D"])
    assert line == "No paper in the library fits: closest are “A”; “B”; “C”."


def _head(weights: dict[str, float], bias: float) -> SelectorHead:
    def model(features):
        return LogisticHead(
            features, [weights.get(name, 0.0) for name in features], bias, [0.0] * len(features), [1.0] * len(features)
        )

    return SelectorHead(
        model(PRIOR_FEATURES), model(FEATURES), 0.5, 0.999, judge_limit=2, selection="expected_f1", origin="test"
    )


def test_an_empty_selection_when_nothing_in_the_pool_fits(where, mini_library):
    """The head still ranks the pool and its expected-F1 cut chooses papers, but none is about the query:
    nothing is selected, and the run says so with the closest papers (before: the cut's papers were selected)."""
    finished = crawl_with_head(
        where,
        mini_library,
        _head({"description_lexical": 6.0}, -1.0),
        plain_limit=3,
        query="Direct detection of dark matter with liquid xenon detectors",
    )
    assert finished.results and finished.selected == []
    assert finished.nothing_fits.startswith("No paper in the library fits: closest are “")
    assert finished.results[0].title in finished.nothing_fits
    assert finished.results[0].rationale.startswith("not selected: the head's choice, but it holds no key phrase")


def test_a_paper_whose_title_names_the_query_never_ranks_below_an_unrelated_one(where, mini_library):
    """A head that prefers late plain-search hits puts unrelated papers first; the one titled as the query
    asks is lifted above all of them (before: it came after the unrelated ones)."""
    query = "Sideband cooling to the motional ground state"
    finished = crawl_with_head(where, mini_library, _head({"plain_log_rank": 4.0}, -8.0), plain_limit=6, query=query)
    titles = [paper.title for paper in finished.results]
    named = titles.index("Sideband cooling to the motional ground state")
    unrelated = [index for index, title in enumerate(titles) if shares_nothing(query, title, "")]
    assert unrelated and all(named < index for index in unrelated)
