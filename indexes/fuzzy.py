"""Fuzzy matching of names, organizations, interests and titles.

Questions carry partial and misspelled names ("Michelen", "M. Michelen", "Michelin", "Eyyub
Sari"), so matching works on folded tokens (case and accents removed): every query token finds
its best unused counterpart, where an initial matches a name ("m" ~ "marcus"), a prefix of three
or more letters matches ("mich" ~ "michelen") and a near spelling matches by edit ratio. Scores
are in [0, 1].
"""

from __future__ import annotations

from difflib import SequenceMatcher
from functools import lru_cache

from scholar_tui.indexes.records import fold

STOPWORDS = {
    "a",
    "an",
    "and",
    "the",
    "of",
    "on",
    "in",
    "for",
    "to",
    "with",
    "by",
    "via",
    "from",
    "at",
    "as",
    "is",
    "its",
    "their",
    "into",
    "using",
    "towards",
    "toward",
    "paper",
    "about",
}


def tokens(text: str | None) -> list[str]:
    return fold(text or "").split()


def content_tokens(text: str | None) -> list[str]:
    return [token for token in tokens(text) if token not in STOPWORDS]


@lru_cache(maxsize=200_000)  # a library's vocabulary is small; searches compare the same words again and again
def token_similarity(query: str, candidate: str) -> float:
    if query == candidate:
        return 1.0
    if len(query) == 1:  # the question gives an initial: 'M. Michelen'
        return 0.85 if candidate[0] == query else 0.0
    if len(candidate) == 1:  # the name has only an initial: weak evidence for a full word
        return 0.5 if query[0] == candidate else 0.0
    if len(query) >= 3 and candidate.startswith(query):
        return 0.85
    shorter, longer = sorted((len(query), len(candidate)))
    if 2 * shorter < 0.82 * (shorter + longer):  # the ratio cannot reach 0.82 with lengths this far apart
        return 0.0
    if query[0] != candidate[0] and query[-1] != candidate[-1]:  # a misspelling keeps one end of the word
        return 0.0
    matcher = SequenceMatcher(None, query, candidate)
    if matcher.real_quick_ratio() < 0.82 or matcher.quick_ratio() < 0.82:  # cheap upper bounds first
        return 0.0
    ratio = matcher.ratio()
    return ratio if ratio >= 0.82 else 0.0


def _assign(query: list[str], candidate: list[str]) -> tuple[list[float], set[int]]:
    """Greedy best matching, longest query tokens first: (score per query token, candidate tokens used)."""
    used: set[int] = set()
    scores = [0.0] * len(query)
    for index in sorted(range(len(query)), key=lambda i: -len(query[i])):
        best, best_j = 0.0, -1
        for j, token in enumerate(candidate):
            if j in used:
                continue
            score = token_similarity(query[index], token)
            if score > best:
                best, best_j = score, j
        if best_j >= 0:
            used.add(best_j)
            scores[index] = best
    return scores, used


def name_score(query: str, name: str) -> float:
    """How well a (partial) name in a question names this person."""
    q, n = tokens(query), tokens(name)
    if not q or not n:
        return 0.0
    if q == n or sorted(q) == sorted(n):
        return 1.0
    scores, used = _assign(q, n)
    # Some word longer than an initial must really match: 'Michelen' is not 'M. Antonelli'.
    if not any(score >= 0.82 and len(token) > 1 for score, token in zip(scores, q, strict=False)):
        return 0.0
    precision = sum(scores) / len(q)
    if min(scores) == 0.0:
        precision *= 0.6  # a word of the query that is nowhere in the name
    recall = len(used) / len(n)
    surname = 0.05 if len(n) - 1 in used else -0.05  # a surname match says more than a first name
    return round(max(0.0, min(1.0, 0.75 * precision + 0.25 * recall + surname)), 4)


def overlap_score(query: str, text: str) -> float:
    """The share of the query's content words found in the text (organizations, interests)."""
    q, t = content_tokens(query), content_tokens(text)
    if not q or not t:
        return 0.0
    scores, _ = _assign(q, t)
    return round(sum(scores) / len(q), 4)


@lru_cache(maxsize=50_000)
def _title_tokens(title: str) -> tuple[str, ...]:
    return tuple(content_tokens(title))


def title_score(query: str, title: str, floor: float = 0.0) -> float:
    """How well publication info (a title, maybe with extra words or missing some) names a title.

    Scores under ``floor`` may be reported lower than they are: a search that keeps only scores
    above a threshold skips the costly sequence comparison for titles that cannot reach it.
    """
    q, t = list(_title_tokens(query)), list(_title_tokens(title))
    if not q or not t:
        return 0.0
    if q == t:
        return 1.0
    scores, used = _assign(q, t)
    precision = sum(scores) / len(q)  # how much of the query is about this title
    coverage = len(used) / len(t)  # how much of the title the query names
    by_words = max(0.5 * precision + 0.5 * coverage, 0.92 * coverage if coverage == 1 else 0)
    if by_words < floor / 2:  # hardly a word in common: a character-level match would be a coincidence
        return round(by_words, 4)
    matcher = SequenceMatcher(None, " ".join(q), " ".join(t))
    if matcher.real_quick_ratio() <= max(by_words, floor) or matcher.quick_ratio() <= max(by_words, floor):
        return round(by_words, 4)  # the sequence ratio cannot beat the words (or the floor)
    return round(max(matcher.ratio(), by_words), 4)
