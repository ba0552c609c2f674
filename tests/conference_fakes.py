"""Stand-in embedders for Conference QA tests that must stay fast (the real one is tested apart):
the one hashing fake of ``library_support``, and a dense model in miniature."""

from __future__ import annotations

import numpy as np

from .library_support import HashingEmbedder

__all__ = ["ConceptEmbedder", "HashingEmbedder"]


class ConceptEmbedder:
    """A dense model in miniature: it knows only ``concepts`` (a phrase → a dimension), so it
    matches paraphrases mapped to one concept and is blind to every other word (names, say).

    Every text also gets a small constant component, so a text without concepts still has a
    direction (it ties with all the others).
    """

    name = "concept-test"
    dimension = 64

    def __init__(self, concepts: dict[str, int]) -> None:
        self.concepts = concepts

    def embed(self, texts):
        matrix = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            lowered = text.lower()
            for phrase, dimension in self.concepts.items():
                if phrase in lowered:
                    matrix[row, dimension] += 1.0
            matrix[row, -1] = 0.1
            matrix[row] /= np.linalg.norm(matrix[row])
        return matrix
