"""The default embedding model loads from its package, offline, and embeds meaningfully."""

import numpy as np
import pytest

from scholar_tui.models import LLMError, load_embedder

pytestmark = pytest.mark.embeddings


def test_default_embedder_offline(settings):
    embedder = load_embedder(settings)
    vectors = embedder.embed([
        "When does the rebuttal period end?",
        "Deadline for author responses",
        "Registration fee for ACM members",
    ])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    similar, unrelated = vectors[0] @ vectors[1], vectors[0] @ vectors[2]
    assert similar > unrelated
    assert embedder.embed([]).shape == (0, 384)


def test_missing_embedding_model_is_a_clear_error(where, monkeypatch):
    from scholar_tui.config.settings import load_settings

    monkeypatch.setenv("SCHOLAR_TUI_EMBEDDINGS__MODEL", "/nowhere/model")
    with pytest.raises(LLMError, match="embedding model '/nowhere/model' not found"):
        load_embedder(load_settings(where))
