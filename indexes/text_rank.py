"""Full-text ranking without LanceDB: the BM25 that LanceDB's native FTS index computes, in numpy.

The library's hybrid search ranked its full-text side with LanceDB's inverted index
(``create_fts_index`` defaults). Importing lancedb costs a cold CLI process 2–3 s, so the index
is rebuilt here from the same analyzer and scored with the same formula, and a cold
``library search`` reads it from a side file (``library_snapshot``).

The analyzer reproduces LanceDB 0.40's defaults, measured token for token on the unArXive sample
(every one of its 2,374 words matches the same documents): split on what is not a letter or a
digit, drop tokens of 40+ bytes, lower-case, Snowball English stem, *then* drop stop words (so
``others`` → ``other`` is dropped while ``only`` → ``onli`` is kept), fold to ASCII. The score is
Okapi BM25 (``bm25_*``, which the conference search shares) with k1 = 1.2, b = 0.75 and
idf = ln(1 + (N − n + 0.5) / (n + 0.5)), a query term counted as often as it occurs in the query;
LanceDB's ``_score`` values are reproduced to float32 precision. Documents with exactly equal
scores may come in another order than LanceDB's.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

K1 = 1.2
B = 0.75
MAX_TOKEN_BYTES = 40
WORD = re.compile(r"[^\W_]+")

# The stop words LanceDB's English analyzer drops (NLTK's list), compared with stemmed tokens.
STOP_WORDS = frozenset(
    """
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he
him his himself she she's her hers herself it it's its itself they them their theirs themselves what
which who whom this that that'll these those am is are was were be been being have has had having do
does did doing a an the and but if or because as until while of at by for with about against between
into through during before after above below to from up down in out on off over under again further
then once here there when where why how all any both each few more most other some such no nor not
only own same so than too very s t can will just don don't should should've now d ll m o re ve y ain
aren aren't couldn couldn't didn didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't
ma mightn mightn't mustn mustn't needn needn't shan shan't shouldn shouldn't wasn wasn't weren
weren't won won't wouldn wouldn't
""".split()
)


def bm25_idf(documents: int, containing: int) -> float:
    """BM25's inverse document frequency of a term that ``containing`` of ``documents`` hold."""
    return math.log(1.0 + (documents - containing + 0.5) / (containing + 0.5))


def bm25_norm(lengths: np.ndarray) -> np.ndarray:
    """Each document's length normalisation, k1 · (1 − b + b · length / mean length)."""
    return K1 * (1.0 - B + B * lengths / max(float(lengths.mean()), 1e-9))


def bm25_term(idf: float, counts: np.ndarray, norm: np.ndarray) -> np.ndarray:
    """A query term's score in the documents that hold it ``counts`` times (``norm``: theirs)."""
    return idf * counts * (K1 + 1) / (counts + norm)


@lru_cache(maxsize=1)
def _stemmer():
    from snowballstemmer import stemmer

    return stemmer("english")


@lru_cache(maxsize=65536)
def _term(word: str) -> str | None:
    """One lower-cased word as the index stores it, or None for a stop word."""
    stem = _stemmer().stemWord(word)
    if stem in STOP_WORDS:
        return None
    folded = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode("ascii")
    return folded or stem


@lru_cache(maxsize=65536)
def _word_term(word: str) -> str | None:
    """A word as split from a text, as the index stores it (None: 40 bytes or more, or a stop word)."""
    if len(word.encode("utf-8")) >= MAX_TOKEN_BYTES:
        return None
    return _term(word.lower())


def analyze(text: str) -> list[str]:
    """``text`` as index terms, in order, repeats kept (``analyzed_words``' terms). One cached call a
    word: the words ranking analyzes its 200 candidates' texts at each search (30 k words)."""
    return [term for term in map(_word_term, WORD.findall(text)) if term is not None]


def analyzed_words(text: str) -> list[tuple[str, str]]:
    """``text`` as (index term, the lower-cased word it came from), in order, repeats kept."""
    return [(term, word.lower()) for word in WORD.findall(text) if (term := _word_term(word)) is not None]


@dataclass(frozen=True)
class CorpusStats:
    """What BM25 needs of the whole collection besides the documents it scores: how many documents
    there are, their mean length in index terms, and how many hold each query term."""

    documents: int
    mean_length: float
    frequency: dict[str, int]


def bm25_rescore(texts: dict[int, str], query_terms: list[str], stats: CorpusStats, depth: int) -> list[int]:
    """The ids of the ``depth`` best of ``texts`` (id -> text) for these query terms (repeats count,
    as ``TermIndex.scores`` counts them), by the same BM25 as ``TermIndex`` with the collection's
    ``stats``; ties by id, as ``TermIndex.rank`` orders rows; documents scoring 0 left out.

    A term the statistics do not know (its stem in the other index differs) counts as held by the
    documents here that hold it: a lower bound, never a division by nothing."""
    documents = {paper_id: Counter(analyze(text)) for paper_id, text in texts.items()}
    lengths = {paper_id: sum(counts.values()) for paper_id, counts in documents.items()}
    mean = stats.mean_length if stats.mean_length > 0 else max(sum(lengths.values()) / max(len(lengths), 1), 1e-9)
    total = max(stats.documents, len(texts))
    idf = {}
    for term in set(query_terms):
        holding = sum(term in counts for counts in documents.values())
        idf[term] = bm25_idf(total, max(stats.frequency.get(term, 0), holding))
    scores: dict[int, float] = {}
    for paper_id, counts in documents.items():
        norm = K1 * (1.0 - B + B * lengths[paper_id] / mean)
        score = sum(
            idf[term] * counts[term] * (K1 + 1) / (counts[term] + norm) for term in query_terms if term in counts
        )
        if score > 0:
            scores[paper_id] = score
    return sorted(scores, key=lambda paper_id: (-scores[paper_id], paper_id))[:depth]


@dataclass
class TermIndex:
    """An inverted index as flat arrays (so it saves to and loads from .npz as it is).

    ``terms`` is sorted; the postings of ``terms[i]`` are ``docs[starts[i]:starts[i + 1]]`` (row
    numbers) with their counts in ``counts``. ``lengths`` holds each document's term count.
    """

    terms: np.ndarray
    starts: np.ndarray
    docs: np.ndarray
    counts: np.ndarray
    lengths: np.ndarray

    @classmethod
    def build(cls, texts: list[str]) -> "TermIndex":
        postings: dict[str, list[tuple[int, int]]] = {}
        lengths = np.zeros(len(texts), dtype=np.int32)
        for row, text in enumerate(texts):
            terms = analyze(text)
            lengths[row] = len(terms)
            for term, count in Counter(terms).items():
                postings.setdefault(term, []).append((row, count))
        vocabulary = sorted(postings)
        sizes = [len(postings[term]) for term in vocabulary]
        flat = [pair for term in vocabulary for pair in postings[term]]
        return cls(
            terms=np.array(vocabulary, dtype=str) if vocabulary else np.zeros(0, dtype="U1"),
            starts=np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).astype(np.int64),
            docs=np.array([row for row, _ in flat], dtype=np.int32),
            counts=np.array([count for _, count in flat], dtype=np.int32),
            lengths=lengths,
        )

    def _postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        at = int(np.searchsorted(self.terms, term))
        if at == len(self.terms) or self.terms[at] != term:
            return None
        start, end = self.starts[at], self.starts[at + 1]
        return self.docs[start:end], self.counts[start:end]

    def scores(self, query: str) -> np.ndarray:
        """The BM25 score of every document for ``query`` (0 where no term matches)."""
        total = np.zeros(len(self.lengths), dtype=np.float64)
        if not len(self.lengths):
            return total
        norm = bm25_norm(self.lengths)
        for term in analyze(query):
            found = self._postings(term)
            if found is None:
                continue
            docs, counts = found
            total[docs] += bm25_term(bm25_idf(len(self.lengths), len(docs)), counts, norm[docs])
        return total

    def rank(self, query: str, *, allowed: np.ndarray | None = None, depth: int = 50) -> list[int]:
        """Row numbers of the ``depth`` best-scoring documents that match, best first (ties: row order).

        ``allowed`` (booleans per row) filters after scoring, as LanceDB's prefilter does: the
        collection statistics stay those of the whole index."""
        scores = self.scores(query)
        matching = scores > 0
        if allowed is not None:
            matching &= allowed
        rows = np.flatnonzero(matching)
        order = np.argsort(-scores[rows], kind="stable")
        return rows[order[:depth]].tolist()
