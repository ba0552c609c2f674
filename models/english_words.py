"""How common an English word is, from the bundled MiniLM's WordPiece vocabulary.

A site's own paths say how informative a word it uses is (its inverse document frequency), but they say
nothing of a word the site never uses: "bought", "flight", "leave" are absent from a conference site because
they are the asker's everyday words, "Wi-Fi" or "catering" because the site does not cover the topic. What
tells the two apart is how common the word is in English at large. BERT's uncased vocabulary, which the
bundled MiniLM uses, lists its whole words roughly in order of frequency in its training text (Wikipedia and
books); ``static_embeddings`` reads its ranks as a Zipf estimate for the same reason. A word among the first
``EVERYDAY_RANK`` entries is an everyday word; a word further down, or one the vocabulary splits into pieces
("wifi", "homepage"), is a specific one.

Offline and without weights: only ``vocab.txt`` of the installed package is read. When the package is absent
no word is everyday, which keeps every caller's behaviour of before.
"""

from __future__ import annotations

from functools import lru_cache

from scholar_tui.models.registry import BUNDLED, DEFAULT_EMBEDDING, package_folder

EVERYDAY_RANK = 10_000
"""About the first 8,000 whole words after BERT's ~2,000 special and single-character entries: the core
vocabulary of everyday English (a learner's dictionary defines with 2–3,000; general-service lists run to
some 10,000 word forms). "bought" (4,150), "flight" (3,463), "anybody" … "shuttle" (10,383), "rental" (12,636),
"catering" (18,641) and "password" (20,787) lie beyond it."""


@lru_cache(maxsize=1)
def _ranks() -> dict[str, int]:
    """Each whole word of the bundled MiniLM's vocabulary → its line number (empty when not installed)."""
    for name, _kind, package, inside in BUNDLED:
        if name != DEFAULT_EMBEDDING:
            continue
        folder = package_folder(package)
        vocabulary = folder / inside / "vocab.txt" if folder else None
        if vocabulary is None or not vocabulary.is_file():
            return {}
        try:
            lines = vocabulary.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return {}
        return {word: rank for rank, word in enumerate(lines, 1) if word.isalpha()}
    return {}


def english_rank(word: str) -> int | None:
    """The word's rank in the vocabulary (lower is more common), or None when it is not a whole word there."""
    return _ranks().get(word.lower())


def everyday(word: str) -> bool:
    """Whether ``word`` is an everyday English word (``EVERYDAY_RANK``); False when the vocabulary is absent."""
    rank = english_rank(word)
    return rank is not None and rank <= EVERYDAY_RANK
