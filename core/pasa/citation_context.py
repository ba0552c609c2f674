"""Citation context: the sentences of an expanded section that cite a paper, matched against the query.

PaSa's Selector reads only a paper's title and abstract. A paper reached by [Expand] comes with
more: the sentence that cites it says what the citing authors used it for, often in the query's
own words ("… exploit the RUS policy [26], [27]"). The sentence is kept to show beside the score,
and its match with the query is one input of the Selector's scoring head.
"""

from __future__ import annotations

import re

from scholar_tui.core.pasa.queries import CITE, FORMULA, split_sentences

WORD = re.compile(r"[a-z][a-z0-9\-]{2,}")
STOP = frozenset(
    """the and for with from that this these those which what who whom could would should you your some
any about into onto over under are was were been being has have had not but can may might will using used use based
via per than then there their them they its our ours provide works work papers paper studies study show shows shown
such also more most other others between within without each both only well how why when where while like""".split()
)
MAX_SENTENCE_CHARS = 400


def citing_sentences(text: str | None, ordinal: int) -> list[str]:
    """The sentences of ``text`` whose citation markers include ``[ordinal]``, markers and formulas removed."""
    if not text:
        return []
    found = []
    for sentence in split_sentences(text):
        if str(ordinal) in CITE.findall(sentence):
            readable = " ".join(FORMULA.sub(" ", sentence).split())
            found.append(readable[:MAX_SENTENCE_CHARS])
    return found


def content_words(text: str) -> set[str]:
    """Lower-cased words of three letters or more, stop words out, cut to five letters (a crude stem)."""
    return {word[:5] for word in WORD.findall(text.lower()) if word not in STOP}


def lexical_match(query: str, text: str) -> float:
    """Share of the query's content words that ``text`` contains (0..1)."""
    wanted = content_words(query)
    if not wanted:
        return 0.0
    return len(wanted & content_words(text)) / len(wanted)


def best_context(query: str, sentences: list[str]) -> tuple[float, str]:
    """The citing sentence that matches the query best, and its match (0, "" when there is none)."""
    best, chosen = 0.0, ""
    for sentence in sentences:
        score = lexical_match(query, CITE.sub(" ", sentence))
        if score > best or not chosen:
            best, chosen = score, sentence
    return best, chosen
