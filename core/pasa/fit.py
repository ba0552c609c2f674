"""Whether a paper fits the query at all, and whether its title names what the query asks for.

The scoring head ranks the papers *of one query* against each other (``selector_head``): its
calibrated score says "better than the rest of this pool", not "about what was asked". On a query
the library cannot answer ("graph neural networks for molecules" over a library with one chemistry
paper) the pool's best papers still score high, and the expected-F1 cut selected four of them,
three unrelated, one with P(True) 1.00. Absolute checks, from the query's own words and the
library's statistics, sit beside the head:

* The query's **subject** (``Subject``): its key phrases (RAKE, ``phrases.candidate_phrases``), a
  phrase of two words or more ("bug localization") or one coined name or acronym ("AdderNet",
  "LLM"), each with its *specificity*: the mean rarity of its words in the library (BM25 idf, read
  from FTS5's vocabulary). A paper *holds* a phrase when its text names it whole (plurals and
  hyphens do not matter) or covers it (``_covers``: every word of it that is not generic in the
  library, ``GENERIC_SHARE``; a generic word never carries the subject alone). The subject also
  knows the most specific phrase that *no paper of the pool* holds: a part of the question the
  library lacks.
* ``Subject.covers``: the paper holds a key phrase; when the library lacks what the query asks
  (``Subject.missing_from_library``), only a phrase at least as specific as the most specific one
  it lacks. A match on a generic part is then no fit: "Protein structure prediction with deep
  learning" over a library without a protein paper — "deep learning" (idf 3.1 here) is held by many
  titles, "protein structure prediction" (5.1) by none, so "Deep learning" does not fit; "Monte
  Carlo simulation of light transport in biological tissue" — "biological tissue" is nowhere, so a
  Monte Carlo paper of particle physics does not fit.
* The library *lacks* the query's subject when the query names one subject (``ONE_SUBJECT_PHRASES``
  key phrases or fewer: a person's "X for Y" or "Y with X"), at least ``LACKING_SHARE`` of its
  phrases' weight is held by no paper of the pool, and no paper matches it closely (``DENSE_FIT``).
  A related-work sentence (AutoScholarQuery's queries) describes several things, and its papers
  each answer one; a phrase of it no paper holds is often an incidental one ("key ingredient",
  "perform slightly worse"), so there a paper that names any key phrase still fits. On the plain
  pools of the 29 test queries of ``bench pasa`` this keeps 45 of the 48 answers among the top 5
  that fit before (without the one-subject condition: 32), and 73 of the 78 other papers.
* ``fits``: the paper covers the subject, or its dense match with the query is at least
  ``DENSE_FIT`` (a paraphrase shares few words). Only a paper that fits may be selected; when none
  of the head's choices fits, nothing is selected and the search says so, with the closest papers.
  The Selector's P(True) is one input of the head's score, which orders and chooses; it never
  makes a paper fit: the tiny model says True to a shared generic term as readily as to the subject.
* A paper whose title names the subject (``Subject.names``: the most specific phrase some paper
  of the pool holds, named whole) is never ranked below a paper that stands lower (``Subject.standing``: one
  that does not fit, or holds only a less specific phrase, and matches the query less than
  closely) — ``lift_title_matches``. For a query of several things (a related-work sentence) only
  papers sharing no word of it stand lower: lifting every title with "neural networks" above
  "On exact computation with an infinitely wide neural net" cost a test query of ``bench pasa``
  one of its two answers in the top 20.

``DENSE_FIT`` = 0.60 (all-MiniLM-L6-v2 cosine of the query and the title + abstract): on seven
off-topic probes over the unArXive sample library (the person sets' "nothing fits" queries of
``tests/data/pasa``, among them dark matter detection, protein structure prediction, traffic-light
control, wind turbine faults) the best paper of the plain search reaches 0.38–0.52; every
answerable query of those sets has a paper at 0.58 or more, mostly 0.63–0.98.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from scholar_tui.core.pasa.phrases import STOPWORDS, TOKEN, candidate_phrases, matched_phrases, query_core

DENSE_FIT = 0.60
LACKING_SHARE = 0.5
ONE_SUBJECT_PHRASES = 3
CLOSEST_SHOWN = 3
# A word that one paper in twenty holds names a field, not a subject ("learning", "network", "model",
# "neural", "quantum" in the unArXive sample library); its BM25 idf (a large library's) is the bound.
GENERIC_SHARE = 1 / 20
GENERIC_IDF = math.log(1.0 + (1.0 - GENERIC_SHARE) / GENERIC_SHARE)
# Below this many papers one paper is more than 1 in 40 of the library: rarity cannot tell a field's word from
# a subject's (in a library of 10, a word one paper holds is "1 in 10"), so a phrase is covered as before
# rarity was read, by all its words but one.
RARITY_PAPERS = round(2 / GENERIC_SHARE)

T = TypeVar("T")


def _normal(word: str) -> str:
    """A word as phrases are compared: lower case, a possessive and a plural 's' dropped ("Pauli's
    equation" = "Pauli equation", "networks" = "network")."""
    word = re.sub(r"'s?$", "", word.lower())
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _tokens(text: str) -> list[str]:
    """Words of ``text``, hyphenated ones split ("multiplication-free" → two words), normalized; a typographic
    apostrophe is the typewriter one ("Pauli’s" is one word, as "Pauli's")."""
    words = TOKEN.findall(text.replace("’", "'"))
    return [_normal(part) for token in words for part in re.split(r"[-/]", token) if part]


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


def _phrases(query: str) -> list[str]:
    """The query's phrases that can name something: two words or more, or one coined word."""
    return [
        phrase
        for phrase, _ in candidate_phrases(query_core(query))
        if (len(phrase.split()) >= 2 or _coined(phrase)) and _tokens(phrase)
    ]


def key_phrases(query: str) -> list[list[str]]:
    """The query's key phrases, normalized (see ``_phrases``)."""
    return [_tokens(phrase) for phrase in _phrases(query)]


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


def _covers(words: set[str], phrase: KeyPhrase) -> bool:
    """Whether a text's ``words`` cover a phrase of three words or more that it does not name whole: it
    holds the phrase's first word (the first word of an English term distinguishes it: "graph" of "graph
    neural networks", so "quantum neural network" is not about it), every word of the phrase that is not
    generic in the library, and lacks at most one word, a generic one. A generic word never carries the
    subject: the words held must include one that is not generic. So "Graph convolutional networks"
    covers "graph neural networks" where "neural" is generic (a GCN is a graph neural network), while
    "Protein function prediction" does not cover "protein structure prediction" ("structure" is not
    generic: another subject), nor "graph neural networks" the query's "graph convolutional networks"."""
    if len(phrase.words) < 3 or phrase.words[0] not in words:
        return False
    missing = [word for word in phrase.words if word not in words]
    held = [word for word in phrase.words if word in words]
    if phrase.generic is None:  # a library too small to tell generic words: all words but one, the first held
        return len(missing) <= 1
    return (
        len(missing) <= 1
        and all(word in phrase.generic for word in missing)
        and any(word not in phrase.generic for word in held)
    )


@dataclass(frozen=True)
class KeyPhrase:
    text: str  # as the query writes it
    words: list[str]  # normalized (``_tokens``)
    specificity: float  # the mean rarity (BM25 idf in the library) of its words
    weight: float  # their summed rarity: how much of the query's subject the phrase carries
    generic: frozenset[str] | None = frozenset()  # its words that name a field, not a subject (``generic_words``);
    # None where the library is too small for rarity to tell (``RARITY_PAPERS``)


class _Text:
    """A text's normalized words, in order and as a set, made once."""

    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.words = set(self.tokens)

    def holds(self, phrase: KeyPhrase, whole: bool = False) -> bool:
        """Whether the text names ``phrase`` whole, or (``whole`` False) at least covers it."""
        return _contains(self.tokens, phrase.words) or (not whole and _covers(self.words, phrase))


@dataclass(frozen=True)
class Subject:
    """What a query asks about (see the module doc): its key phrases, and the most specific one that
    no paper of the pool holds (``lacking``; None when the pool holds them all)."""

    query: str
    phrases: tuple[KeyPhrase, ...]
    lacking: KeyPhrase | None
    lacking_share: float  # the share of the phrases' weight that no paper of the pool holds
    best_dense: float  # the pool's closest dense match with the query
    most_specific_held: float  # the specificity of the most specific phrase some pool paper holds

    @property
    def one_subject(self) -> bool:
        """Whether the query names one subject (a person's "X for Y"), not the several things of a
        related-work sentence (``ONE_SUBJECT_PHRASES``)."""
        return len(self.phrases) <= ONE_SUBJECT_PHRASES

    @property
    def missing_from_library(self) -> bool:
        """Whether the library lacks what the query asks about: no paper of the pool matches the query
        closely, and most of its key phrases' weight is held by none (``LACKING_SHARE``)."""
        return (
            self.lacking is not None
            and self.one_subject
            and self.lacking_share >= LACKING_SHARE
            and self.best_dense < DENSE_FIT
        )

    def held(self, text: str, whole: bool = False) -> list[KeyPhrase]:
        """The key phrases ``text`` names (``whole``) or at least covers."""
        words = _Text(text)
        return [phrase for phrase in self.phrases if words.holds(phrase, whole)]

    def covers(self, text: str) -> bool:
        """Whether ``text`` holds a key phrase at least as specific as any the library lacks."""
        return self.specificity(text) is not None

    def specificity(self, text: str, whole: bool = False) -> float | None:
        """How specific the most specific key phrase is that ``text`` holds (``whole``: names whole),
        when it covers the subject (None: it does not)."""
        floor = self.lacking.specificity if self.lacking is not None and self.missing_from_library else 0.0
        held = [phrase.specificity for phrase in self.held(text, whole) if phrase.specificity >= floor]
        return max(held) if held else None

    def names(self, title: str) -> float | None:
        """How specific the phrase is by which a title names the query's subject: the most specific
        phrase the library holds, named whole (None: the title names only a more generic part, or
        nothing). Covering is not naming: "non-adiabatic … models" covers "non-linear models"."""
        specificity = self.specificity(title, whole=True)
        return specificity if specificity is not None and specificity >= self.most_specific_held else None

    def standing(self, title: str, text: str, dense: float) -> float:
        """Where a paper stands against a title that names the subject (``lift_title_matches``): a close
        dense match above any (infinite), a paper that covers the subject as specific as the phrase it
        holds, one that does not fit at all 0: "Sideband cooling to the motional ground state" ranks
        above "Laser cooling of trapped ions" for "Sideband cooling of trapped ions to the motional
        ground state". For a query of several things only a paper sharing no word of it stands lower:
        there the head's order is kept (a title naming one part of a related-work sentence is no
        better than a paper matching another part in other words)."""
        if not self.one_subject:
            return 0.0 if shares_nothing(self.query, title, text) else math.inf
        if dense >= DENSE_FIT:
            return math.inf
        return self.specificity(text) or 0.0


def generic_words(words: Iterable[str], rarity: Callable[[str], dict[str, float]]) -> frozenset[str]:
    """The ``words`` that are generic in the library: held by at least ``GENERIC_SHARE`` of its papers
    (their idf below ``GENERIC_IDF``), or stop words (no index term at all)."""
    return frozenset(word for word in words if max(rarity(word).values(), default=0.0) < GENERIC_IDF)


def subject_of(
    query: str,
    pool_texts: Iterable[str],
    pool_dense: Iterable[float],
    rarity: Callable[[str], dict[str, float]],
    papers: int | None = None,
) -> Subject:
    """The query's subject over a pool: ``pool_texts`` are its papers' texts (title, abstract, citing
    sentence), ``pool_dense`` their dense matches with the query, ``rarity`` gives each index term of a
    text its idf in the library of ``papers`` papers (None: large enough to read generic words from it)."""
    informative = papers is None or papers >= RARITY_PAPERS
    phrases = []
    for text in dict.fromkeys(_phrases(query)):
        weights = list(rarity(text).values())
        mean = sum(weights) / len(weights) if weights else 0.0
        normalized = _tokens(text)
        generic = generic_words(normalized, rarity) if informative else None
        phrases.append(KeyPhrase(text, normalized, mean, sum(weights), generic))
    unheld = list(phrases)
    for pool_text in pool_texts:
        if not unheld:
            break
        words = _Text(pool_text)
        unheld = [phrase for phrase in unheld if not words.holds(phrase)]
    lacking = max(unheld, key=lambda phrase: phrase.specificity, default=None)
    total = sum(phrase.weight for phrase in phrases)
    share = sum(phrase.weight for phrase in unheld) / total if total else 0.0
    held = [phrase.specificity for phrase in phrases if phrase not in unheld]
    return Subject(query, tuple(phrases), lacking, share, max(pool_dense, default=0.0), max(held, default=math.inf))


def fits(subject: Subject, text: str, dense: float) -> bool:
    """Whether a paper (``text``: its title, abstract and citing sentence) is about what the query asks:
    it covers the query's subject, or matches the query closely."""
    return dense >= DENSE_FIT or subject.covers(text)


def unfit_reason(subject: Subject, text: str, dense: float) -> str:
    """Why a paper that does not fit does not, in words a person reads beside its score."""
    held = subject.held(text)
    close = f"its dense match {dense:.2f} is below {DENSE_FIT:.2f}"
    if not held:
        return f"it holds no key phrase of the query and {close}"
    lacking = f"“{subject.lacking.text}”" if subject.lacking is not None else "a more specific part"
    shared = ", ".join(f"“{phrase.text}”" for phrase in held)
    return f"it shares only {shared}, while no paper of the library holds {lacking}, and {close}"


def shares_nothing(query: str, title: str, abstract: str) -> bool:
    """Whether title and abstract hold no content word of the query, plurals and hyphens aside (an
    unrelated paper: "Looknn: Neural network with no multiplication" shares "multiplication")."""
    if matched_phrases(query, f"{title} {abstract}"):
        return False
    wanted = {word for word in _tokens(query_core(query)) if len(word) > 3 and word not in STOPWORDS}
    return not wanted & set(_tokens(f"{title} {abstract}"))


def lift_title_matches(
    ranked: Sequence[T], title_names: Callable[[T], float | None], standing: Callable[[T], float]
) -> list[T]:
    """``ranked`` with every paper whose title names the query's subject moved up to just above the first
    paper ranked before it that stands lower; every other paper keeps its order. ``title_names``: how
    specific the most specific key phrase is that the title holds (None: the title does not cover the
    subject); ``standing``: a paper's own (``Subject.standing``)."""
    out: list[T] = []
    for paper in ranked:
        named = title_names(paper)
        if named is not None:
            lower = next((index for index, earlier in enumerate(out) if standing(earlier) < named), None)
            if lower is not None:
                out.insert(lower, paper)
                continue
        out.append(paper)
    return out


def closest_line(titles: Sequence[str]) -> str:
    """The one sentence a search says when nothing fits, naming the closest papers as such."""
    shown = "; ".join(f"“{title}”" for title in titles[:CLOSEST_SHOWN])
    return "No paper in the library fits: closest are " + (shown if shown else "none (the pool is empty)") + "."
