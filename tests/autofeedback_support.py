"""Fixtures shared by tests/test_autofeedback_*.py."""

from __future__ import annotations

import pytest

from scholar_tui.core.autofeedback import AutoFeedback
from scholar_tui.indexes.autofeedback_log import FeedbackLog

from .library_support import HashingEmbedder

INSTRUCTION = "Who are the coauthors of the scholar person:1?"


@pytest.fixture(scope="session")
def real_feedback(real_embedder, tmp_path_factory):
    """AutoFeedback with the real default embedder (its doc index in a session folder)."""
    from scholar_tui.config.locations import Locations

    root = tmp_path_factory.mktemp("autofeedback")
    where = Locations(root, root / "data", root / "cache", root / "logs").ensure()
    return AutoFeedback(where, real_embedder)


@pytest.fixture
def hashed_feedback(where):
    """AutoFeedback over a bag-of-words embedder: fast, for loop and UI tests that need no meaning."""
    return AutoFeedback(where, HashingEmbedder())


def limit_hit_loop(where) -> int:
    """A loop that ran out of rounds on an E2.2 (as SoAy would leave one), and a solved loop after it."""
    log = FeedbackLog(where)
    loop_id = log.start_loop(
        "Who are the coauthors of the scholar person:1?", source="soay", static_limit=3, dynamic_limit=2
    )
    for _ in range(3):
        log.add_round(
            loop_id,
            "static",
            request='<<API>>getCoauthor(person_id="person:1")<</API>>',
            error_type="E2",
            sub_type="E2.2",
            returns=["getCoauthor", "getCoauthors"],
            feedback="There is an error …",
        )
    log.add_round(
        loop_id,
        "dynamic",
        request='<<API>>getCoauthor(person_id="person:1")<</API>>',
        error_type="E2",
        sub_type="E2.2",
        response={"error": "E_UNKNOWN_API: no API named 'getCoauthor'"},
        ok=False,
    )
    log.finish_loop(loop_id, "limit_hit", final_request='<<API>>getCoauthor(person_id="person:1")<</API>>')
    solved = log.start_loop("Find Michelen", source="soay")
    log.add_round(
        solved, "dynamic", request='<<API>>searchPerson(name="Michelen")<</API>>', ok=True, response=[{"name": "M"}]
    )
    log.finish_loop(solved, "solved")
    log.close()
    return loop_id
