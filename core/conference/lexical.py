"""Words as the lexical side of retrieval sees them, and BM25 over a conference's paths.

Questions paraphrase a site's labels ("rebuttal" for "author response", "cost" for "fee"), and a
dense model of 22 M parameters misses some of those while matching exact rare words badly ("ISWC",
"OpenReview", a person's name). BM25 is the other half: exact and rare words count most. Both
sides see the same normalised words: lower case, letters and digits, a light suffix stemmer.

The synonym groups are general conference vocabulary (what any call for papers, registration
page or committee list says), never one site's wording; a question word ("when", "who") adds
the kinds of labels that answer it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable, Sequence

import numpy as np

from scholar_tui.core.conference.question_words import AUXILIARIES, WH_WORDS
from scholar_tui.indexes.text_rank import bm25_idf, bm25_norm, bm25_term

WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")
STOPWORDS = frozenset(
    "a an the of to in on at for from by with and or be been being i me my we our you your it its this that these "
    "those there here any some all each about into as if than then so such not no yes get got please tell know "
    "want like also just conference "
    # spoken fillers: "Where's ICML gonna be?" asks nothing about "gonna"
    "gonna wanna gotta kinda sorta ya".split()
) | {*WH_WORDS, *AUXILIARIES} - {"am"}
"""Words that name nothing: the question words (``question_words``) among them, but for "am", which is also the
morning of a time a site writes ("9:00 am")."""

# General conference vocabulary: words in one group stand for each other.
SYNONYM_GROUPS: tuple[frozenset[str], ...] = tuple(
    frozenset(group.split())
    for group in (
        "deadline deadlines due dates date",
        "rebuttal response responses discussion",
        "fee fees cost costs price prices pricing pay paid payment rate rates registration",
        "venue location place held city address",
        "remote remotely virtual online hybrid",
        "hotel hotels accommodation accommodations lodging stay",
        "keynote keynotes invited plenary speaker speakers talk talks",
        "chair chairs organizer organizers organizing committee",
        "visa visas invitation",
        "camera ready final",
        "template templates style latex format formatting",
        "contact email mail",
        "homepage website webpage url link",
        "page pages length limit",
        "sponsor sponsors sponsorship exhibitor exhibitors expo",
        "grant grants funding financial support scholarship",
        "award awards prize prizes",
        "proceedings publisher publish published publication",
        "paper papers submission submissions manuscript manuscripts article",
        "review reviews reviewer reviewers reviewing",
        "child childcare care children",
        "policy policies rule rules guideline guidelines",
    )
)
# What kind of label answers a question word.
QUESTION_WORD_HINTS = {
    "when": "date dates deadline time",
    "who": "chair chairs name speaker committee",
    "where": "location venue",
    "much": "fee price cost",
    "long": "length duration",
    "many": "number",
}


def stem(word: str) -> str:
    """A light suffix stemmer: plurals and -ing/-ed, enough for 'deadlines'/'deadline'."""
    if len(word) <= 4 or not word.isalpha():
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    if word.endswith("ing") and len(word) >= 7:
        return word[:-3]
    if word.endswith("ed") and len(word) >= 6:
        return word[:-2]
    return word


INDEFINITE = frozenset(
    "us anybody anyone somebody someone everybody everyone nobody anything something everything nothing myself "
    "ourselves yourself yourselves themselves mine ours yours".split()
)
"""Pronouns ``lexical.STOPWORDS`` lacks ("cost us", "did anybody win"): closed-class words that name nothing."""
CLITIC = re.compile(r"^([a-z0-9]+)'(?:s|re|ve|ll|d|m)$")
NEGATED = re.compile(r"^([a-z]+)n't$")
NEGATED_IRREGULAR = {"ca": "can", "wo": "will", "sha": "shall", "ai": "is"}


def without_clitic(raw: str, names: Container[str] = (), *, possessive: bool = False) -> str:
    """A word without the clitic English writes onto it: "what's" is "what", "haven't" is "have", and a name's
    possessive ("Chen's", one of ``names``) the name: a path says "Chen", never "Chen's", and the wh-word and the
    auxiliary name nothing. A common noun's possessive ("this year's") stays as written unless ``possessive``
    (whether the site uses a word at all is a question of the word, not of whose it is)."""
    negated = NEGATED.match(raw)
    if negated:
        return NEGATED_IRREGULAR.get(negated.group(1), negated.group(1))
    clitic = CLITIC.match(raw)
    if clitic and (possessive or clitic.group(1) in STOPWORDS or clitic.group(1) in names):
        return clitic.group(1)
    return raw


def words(text: str) -> list[str]:
    """The text's content words, stemmed (stopwords and one-letter words left out)."""
    return [stem(word) for word in WORD.findall(text.lower()) if word not in STOPWORDS and len(word) > 1]


_GROUP_OF: dict[str, set[str]] = {}
for _group in SYNONYM_GROUPS:
    _stems = {stem(word) for word in _group}
    for _word in _stems:
        _GROUP_OF.setdefault(_word, set()).update(_stems)


def expanded_query(question: str, vocabulary: Container[str] = (), *, hints: bool = True) -> dict[str, float]:
    """The question's words with weight 1, and their synonyms and question-word hints at a lower weight.

    An added word never outweighs a word the person wrote (weight ``EXPANSION_WEIGHT``). A written
    word that ``vocabulary`` (the site's words) lacks but that splits into two of its words counts
    as those two ("homepage" for a site's "Home page", "timezone" for "time zone").
    """
    asked = words(question)
    weights: dict[str, float] = {word: 1.0 for word in asked}
    for word in asked:
        if vocabulary and word not in vocabulary:
            for part in compound_parts(word, vocabulary):
                weights.setdefault(part, 1.0)
    lowered = set(WORD.findall(question.lower()))
    hinted = [hint for word, hint in QUESTION_WORD_HINTS.items() if word in lowered] if hints else []
    for word in [*asked, *(term for hint in hinted for term in words(hint))]:
        for other in _GROUP_OF.get(word, {word}):
            weights.setdefault(other, EXPANSION_WEIGHT)
    return weights


def compound_parts(word: str, vocabulary: Container[str]) -> tuple[str, ...]:
    """``word`` as two words of ``vocabulary`` written together, or () when it is not one."""
    for cut in range(COMPOUND_MIN_PART, len(word) - COMPOUND_MIN_PART + 1):
        head, tail = word[:cut], word[cut:]
        if head in vocabulary and stem(tail) in vocabulary:
            return head, stem(tail)
    return ()


COMPOUND_MIN_PART = 3
"""Both halves of a split compound have at least three letters ("home"+"page", not "a"+"gent")."""
EXPANSION_WEIGHT = 0.5
"""An added word counts half a written one: a general prior, not tuned on a conference."""


class BM25:
    """Okapi BM25 over documents given as word lists (the library search's formula and constants,
    ``indexes.text_rank``; these words are this module's own); ``scores`` is one float per document."""

    def __init__(self, documents: Sequence[Sequence[str]]) -> None:
        self.count = len(documents)
        self.lengths = np.array([len(document) for document in documents], dtype=np.float32)
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for index, document in enumerate(documents):
            for word, frequency in Counter(document).items():
                rows, counts = postings.setdefault(word, ([], []))
                rows.append(index)
                counts.append(frequency)
        self.postings = {
            word: (np.array(rows), np.array(counts, dtype=np.float32)) for word, (rows, counts) in postings.items()
        }

    def idf(self, word: str) -> float:
        return bm25_idf(self.count, len(self.postings[word][0]) if word in self.postings else 0)

    def scores(self, query: dict[str, float] | Iterable[str]) -> np.ndarray:
        weights = query if isinstance(query, dict) else {word: 1.0 for word in query}
        total = np.zeros(self.count, dtype=np.float32)
        if not self.count:
            return total
        norm = bm25_norm(self.lengths)
        for word, weight in weights.items():
            if word not in self.postings:
                continue
            rows, counts = self.postings[word]
            total[rows] += bm25_term(weight * self.idf(word), counts, norm[rows])
        return total
