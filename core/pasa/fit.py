"""Whether a paper fits the query at all, and whether its title names what the query asks for.

The scoring head ranks the papers *of one query* against each other (``selector_head``): its
calibrated score says "better than the rest of this pool", not "about what was asked". On a query
the library cannot answer ("graph neural networks for molecules" over a library with one chemistry
paper) the pool's best papers still score high, and the expected-F1 cut selected four of them,
three unrelated, one with P(True) 1.00. Two absolute checks, from the query's own words, sit beside
the head:

* ``named_phrase``: the query's key phrases (RAKE, ``phrases.candidate_phrases``) that a title
  holds whole — a phrase of two words or more ("bug localization"), or one coined name or acronym
  ("AdderNet", "LLM"). Plurals and hyphens do not matter ("Addernet", "multiplication-free").
  A paper whose title names what the query asks for is never ranked below a paper that shares no
  word of the query (``lift_title_matches``).
* ``fits``: the paper names a key phrase of the query in its title or abstract, or its dense match
  with the query is at least ``DENSE_FIT``. Only a paper that fits may be selected; when none of
  the head's choices fits, nothing is selected and the search says so, with the closest papers.

``DENSE_FIT`` = 0.60 (all-MiniLM-L6-v2 cosine of the query and the title + abstract): on four
off-topic probes over the unarXive sample library (dark matter detection, protein structure
prediction, robot grasping, graph networks for molecules) the best unrelated paper of the pool
reaches 0.41–0.51; the papers a person expects for the queries of ``tests/data/pasa`` mostly name a
key phrase, and the closest ones without one reach 0.6–0.8.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from scholar_tui.core.pasa.phrases import STOPWORDS, TOKEN, candidate_phrases, matched_phrases, query_core

DENSE_FIT = 0.60
CLOSEST_SHOWN = 3

T = TypeVar("T")


def _normal(word: str) -> str:
    """A word as phrases are compared: lower case, a plural 's' dropped ("networks" = "network")."""
    word = word.lower()
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _tokens(text: str) -> list[str]:
    """Words of ``text``, hyphenated ones split ("multiplication-free" → two words), normalized."""
    return [_normal(part) for token in TOKEN.findall(text) for part in re.split(r"[-/]", token) if part]


def _coined(word: str) -> bool:
    """A name a person coined: a capital inside the word ("AdderNet"), an acronym ("LLM"), or digits mixed
    with letters ("GPT4"). A lone common word ("molecules") names nothing in particular."""
    letters = [char for char in word if char.isalpha()]
    if len(letters) < 2:
        return False
    return (
        any(char.isupper() for char in word[1:])
        or (word.isupper() and len(letters) >= 2)
        or (any(char.isdigit() for char in word) and bool(letters))
    )


def key_phrases(query: str) -> list[list[str]]:
    """The query's phrases that can name something: two words or more, or one coined word (normalized)."""
    phrases = []
    for phrase, _ in candidate_phrases(query_core(query)):
        words = phrase.split()
        if len(words) >= 2 or _coined(phrase):
            phrases.append(_tokens(phrase))
    return [phrase for phrase in phrases if phrase]


def _contains(tokens: list[str], phrase: list[str]) -> bool:
    width = len(phrase)
    return any(tokens[start : start + width] == phrase for start in range(len(tokens) - width + 1))


def named_phrase(query: str, text: str) -> str | None:
    """The first key phrase of ``query`` that ``text`` holds whole, as ``text``'s words say it (None: none)."""
    tokens = _tokens(text)
    for phrase in key_phrases(query):
        if _contains(tokens, phrase):
            return " ".join(phrase)
    return None


def _covers(tokens: set[str], phrase: list[str]) -> bool:
    """A phrase of three words or more is covered by all its words but one, its first among them: the
    first word of an English term distinguishes it ("graph" of "graph neural networks", so "graph
    convolutional networks" is about it and "quantum neural network" is not)."""
    if len(phrase) < 3 or phrase[0] not in tokens:
        return False
    return sum(word in tokens for word in phrase) >= len(phrase) - 1


def fits(query: str, title: str, abstract: str, dense: float) -> bool:
    """Whether a paper is about what the query asks: it names a key phrase of it (or covers one, see
    ``_covers``), or matches it closely."""
    text = f"{title} {abstract}"
    if dense >= DENSE_FIT or named_phrase(query, text) is not None:
        return True
    tokens = set(_tokens(text))
    return any(_covers(tokens, phrase) for phrase in key_phrases(query))


def shares_nothing(query: str, title: str, abstract: str) -> bool:
    """Whether title and abstract hold no content word of the query, plurals and hyphens aside (an
    unrelated paper: "Looknn: Neural network with no multiplication" shares "multiplication")."""
    if matched_phrases(query, f"{title} {abstract}"):
        return False
    wanted = {word for word in _tokens(query_core(query)) if len(word) > 3 and word not in STOPWORDS}
    return not wanted & set(_tokens(f"{title} {abstract}"))


def lift_title_matches(ranked: Sequence[T], names: Callable[[T], bool], unrelated: Callable[[T], bool]) -> list[T]:
    """``ranked`` with every paper whose title names the query moved up to just above the first
    unrelated paper ranked before it; every other paper keeps its order."""
    out: list[T] = []
    for paper in ranked:
        if names(paper):
            first_unrelated = next((index for index, earlier in enumerate(out) if unrelated(earlier)), None)
            if first_unrelated is not None:
                out.insert(first_unrelated, paper)
                continue
        out.append(paper)
    return out


def closest_line(titles: Sequence[str]) -> str:
    """The one sentence a search says when nothing fits, naming the closest papers as such."""
    shown = "; ".join(f"“{title}”" for title in titles[:CLOSEST_SHOWN])
    return "No paper in the library fits: closest are " + (shown if shown else "none (the pool is empty)") + "."
