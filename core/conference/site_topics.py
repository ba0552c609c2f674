"""What a question is about, and whether the site speaks of it at all.

``unknown_topic``: a question word the whole site never uses ("Wi-Fi", "banquet"): the data cannot answer it,
and the engine says so instead of answering a neighbour. ``topic_words``/``names_topic``/``about_the_question``:
the question's words beyond how it asks and the kind it asks for, which a cited path must share for the
answer to be about the thing asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference.asking import FILLERS, predicate_words
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import ASKING, GENERIC, LABEL_WORDS, PREFIX
from scholar_tui.core.conference.lexical import INDEFINITE, STOPWORDS, stem, without_clitic, words
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.tree import Tree
from scholar_tui.models.english_words import everyday

UNKNOWN_MIN_LETTERS = 5
"""A question word shorter than this ("kids", "visa") may be a variant the site spells otherwise; a
longer one the site never uses names a topic it does not cover."""


def tree_vocabulary(tree: Tree) -> set[str]:
    """Every stemmed word of the tree's labels and values (cached on the tree object)."""
    cached = getattr(tree, "_vocabulary", None)
    if cached is None:
        cached = set()
        for node in tree.nodes:
            cached.update(words(f"{node.label} {node.text or ''}".replace("-", "")))
            cached.update(words(f"{node.label} {node.text or ''}"))
        tree._vocabulary = cached  # type: ignore[attr-defined]
    return cached


CALENDAR_WORD = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|"
    r"october|november|december"
)


MIN_VOCABULARY = 1500
"""A word's absence says something only of a site that says a lot (ICML 2023's data uses ~9,000 words,
ISWC 2022's ~7,000); a one-page FAQ may answer "What platform is used?" with "run on Zoom"."""


def unknown_topic(question: str, tree: Tree) -> str | None:
    """A word of the question the site never uses (joined when hyphenated: "Wi-Fi" → "wifi"), or None."""
    vocabulary = tree_vocabulary(tree)
    if len(vocabulary) < MIN_VOCABULARY:
        return None
    known = vocabulary | {word[:PREFIX] for word in vocabulary}
    for written in re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]", question):
        raw = without_clitic(written.replace("’", "'").lower(), possessive=True)  # "haven't" is "have", "Chen's" Chen
        word = raw.lower().replace("-", "")
        kind_word = any(stem(word) in cue for cue in LABEL_WORDS.values())  # "where"/"venue" say the kind asked
        if len(raw) < UNKNOWN_MIN_LETTERS or word in STOPWORDS or stem(word) in GENERIC or word in GENERIC or kind_word:
            continue
        if word in ASKING or word.endswith(("ed", "ing", "ly")):  # "donated", "reviewing": how, not what about
            continue
        if word in FILLERS or word in INDEFINITE:  # "the whole conference", "did anybody win": how a person speaks
            continue
        if CALENDAR_WORD.fullmatch(word):  # "Thursday" on a site that writes "Thu, July 27": a day, said otherwise
            continue
        if (
            stem(word) not in known
            and word not in known
            and word[:PREFIX] not in known
            and not any(part in known for part in raw.lower().split("-") if len(part) >= UNKNOWN_MIN_LETTERS)
        ) and not _everyday(raw):
            return written[: len(raw)] if written.lower().startswith(raw) else raw  # "Wi-Fi", as the person wrote it
    return None


def _everyday(raw: str) -> bool:
    """Whether a word the site never uses is an everyday English one ("bought", "flight", "high-roof": each part),
    the asker's own wording, which the confidence check (``support``) weighs with the rest of the question, rather
    than a specific thing ("Wi-Fi", "catering") that a site covering it would name."""
    parts = [part for part in raw.split("-") if part]
    return bool(parts) and all(everyday(part) or everyday(stem(part)) for part in parts)


def about_the_question(question: str, tree: Tree, answer, evidence: Sequence[EvidencePath]) -> bool:
    """Whether the paths an answer cites (or its nodes read) share a word with what the question names
    (its words beyond how it asks, the kind it asks for and the conference's name); True when it names
    nothing else ("When does the conference start?")."""
    topic = topic_words(question, tree)
    if not topic:
        return True
    texts = [item.path for item in evidence if item.rank in answer.cited]
    texts += [node_path_text(tree, node) for node in answer.read]
    said = {word[:PREFIX] for text in texts for word in words(text)}
    return bool(topic & said) or not texts


def topic_words(question: str, tree: Tree) -> set[str]:
    """The question's words beyond how it asks (``GENERIC`` and its forms, the asker's verb and fillers), the kind
    it asks for and the conference's name (by prefix)."""
    asker = {word for raw in predicate_words(question) for word in words(raw)}
    topic = {
        word[:PREFIX]
        for word in words(question)
        if word not in GENERIC
        and word not in ASKING
        and word not in asker
        and not generic_variant(word)
        and not any(word in cue for cue in LABEL_WORDS.values())
    }
    return topic - {word[:PREFIX] for word in words(tree.root.label)}


VARIANT_LETTERS = 4
"""A word is a form of a generic word when it shares its five-letter prefix and is at most this much longer
("attending" of "attend", "accessible" of "access"); a longer word names a thing of its own ("accessibility")."""


def generic_variant(word: str, generic: frozenset[str] = GENERIC) -> bool:
    """Whether ``word`` is a form of one of the ``generic`` words (see ``VARIANT_LETTERS``)."""
    return any(word[:PREFIX] == other[:PREFIX] and len(word) <= len(other) + VARIANT_LETTERS for other in generic)


def names_topic(question: str, tree: Tree, text: str) -> bool:
    """Whether ``text`` (a path, a value) shares a word with what the question names; True when it names nothing."""
    topic = topic_words(question, tree)
    return not topic or bool(topic & {word[:PREFIX] for word in words(text)})
