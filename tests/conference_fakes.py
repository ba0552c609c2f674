"""Stand-in embedders for Conference QA tests that must stay fast (the real one is tested apart).

Bag of words hashed into 384 dimensions, L2-normalised: texts that share words are close. It is
a test double, never offered to users; retrieval quality is measured with the real embedder.
"""

from __future__ import annotations

import re
import zlib

import numpy as np

STOPWORDS = {"the", "a", "an", "of", "is", "for", "to", "in", "and", "what", "when", "does", "do", "how", "who", "are"}


class HashingEmbedder:
    name = "hashing-test"
    dimension = 384

    def __init__(self) -> None:
        self.calls = 0
        self.texts = 0

    def embed(self, texts):
        self.calls += 1
        self.texts += len(texts)
        matrix = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z0-9$]+", text.lower()):
                if word not in STOPWORDS:
                    matrix[row, zlib.crc32(word.encode()) % self.dimension] += 1.0
            norm = np.linalg.norm(matrix[row])
            matrix[row] = matrix[row] / norm if norm else matrix[row]
            if not norm:
                matrix[row, 0] = 1.0
        return matrix


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
