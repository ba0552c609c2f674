"""The question words of English, owned here once: the wh-words that open a question asking for content, the
degree words that make "how" ask an amount or a length, and the auxiliaries that open a yes/no question.

Every reader of a question derives what it needs from these, so a word added here is read alike by all of them:
the form of a question (``question_shape``: "Can I …?" opens with an auxiliary, so it asks yes or no), how it asks
(``asking``: a wh-question, and the asker's verb after an auxiliary and a pronoun), two questions joined by "and"
(``parts``: "When and where is X?", "How much was the prize and who paid for it?"), a contraction read in full
("what's" → "what is"), and the words that name no topic (``lexical.STOPWORDS``, ``kinds.GENERIC``). General
English grammar, no site's wording.
"""

from __future__ import annotations

from collections.abc import Iterable

WH_WORDS = ("what", "which", "who", "whom", "whose", "when", "where", "why", "how")
"""The wh-words: a question that opens with one asks for content (a thing, a person, a time, a place, a way)."""
HOW_DEGREES = ("much", "many", "long", "often", "far", "big")
""""How much", "how many", "how long": the words after "how" that make it ask a degree (one question word)."""
AUXILIARIES = "is are am was were can could do does did will would should shall may might must has have had".split()
"""The auxiliaries that open a yes/no question ("Is there …?", "Can I …?", "Do I need to …?") and stand between a
wh-word and the asker ("when do I …", "what can we …")."""


def alternation(choices: Iterable[str]) -> str:
    """A regex alternation of ``choices``, longest first: "whom" is tried before "who", "how much" before "how"."""
    return "|".join(sorted(set(choices), key=lambda choice: (-len(choice), choice)))


WH_PHRASE = rf"(?:{alternation(set(WH_WORDS) - {'how'})}|how(?:\s+(?:{alternation(HOW_DEGREES)}))?)"
"""One question word as a regex, a degree's "how" with its word: "who", "where", "how", "how much", "how long"."""
CONTRACTED = (*WH_WORDS, "that", "there", "it")
"""Words a person writes with "is" cut short: "what's", "who's", "there's" (no question word owns, so a "'s" after
one is "is", never a possessive)."""
