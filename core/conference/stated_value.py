"""When no typed reading finds the value: the cited sentence that states a value of the asked kind.

The typed readers take a value from a node labelled for it ("Deadline", "phone", "Moderator") or from a value
that is nothing else (a date, an amount). Sites also state values inside prose: "Requests must be received by
April 24", "the resource track accepts papers of 8 to 15 pages", "call the hotline at 858-208-3810". A person
asking reads that sentence and has the answer. So when every typed reading abstained, the sentence of the
evidence that (1) holds a value of the form asked — a date for "when", an amount for "how much", an address for "what's the e-mail", a phone number for "phone", a link for "link" — and
(2) is supported (``support``: its headings and words hold the question's subject) is the answer, cited by its
path, and goes through every later check like any answer. Of several, the best-supported one; none: the
abstention stands. This reads how values are written in a sentence, not any site's wording.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference import support
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import PREFIX
from scholar_tui.core.conference.lexical import stem
from scholar_tui.core.conference.paths import path_headings_text
from scholar_tui.core.conference.site_topics import MIN_VOCABULARY, tree_vocabulary
from scholar_tui.core.conference.tree import PATH_SEPARATOR, Tree
from scholar_tui.core.conference.values import ASKS_LINK, EMAIL, URL, find_amounts, find_dates, sentences

PHONE = re.compile(r"(?<![\w-])(?:\+?\d{1,3}[\s.-])?(?:\(\d{2,4}\)\s?|\d{2,4}[\s.-])\d{2,4}[\s.-]\d{2,4}(?![\w-])")
"""A phone number as sites write one: groups of digits joined by spaces, dots or dashes ("858-208-3810",
"+47 72 00 11 22", "(702) 743-1827"); a date ("2023-07-24") is read as a date first."""
ASKS_PHONE = re.compile(r"\b(?:phone|telephone|hotline|mobile|fax|call)\b", re.IGNORECASE)
ASKS_ADDRESS = re.compile(r"\be-?mail\b|\bcontact\b|\breach\b", re.IGNORECASE)
"""An address asked: "what is the e-mail …", "how do I contact / reach …" (a sentence giving their e-mail)."""
ASKS_DUE = re.compile(r"\b(?:due|deadlines?|cut-?off|latest|by when)\b", re.IGNORECASE)
SAYS_DUE = re.compile(
    r"\b(?:due|deadlines?|until|no later than|submit\w*|received|clos(?:e|es|ed|ing))\b"
    r"|\bby\s+(?:[a-z]+day,?\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)",
    re.IGNORECASE,
)
"""A date asked as a deadline ("when are proposals due?") is stated by a sentence that says something is due by
it, not by one that dates the event itself ("talks will be held on July 23")."""
WHO_DOES = re.compile(r"^\s*who\s+(?!(?:is|are|was|were|will|can|should|do|does|did)\b)([a-z]+)\b", re.IGNORECASE)
AGENT = re.compile(r"\b([a-z]+ed)\s+by\s+((?:[A-Z][\w&.'’-]*)(?:\s+(?:[A-Z][\w&.'’-]*|of|and|&))*)")
""""Who sponsors the best paper prize?" is stated by "EUR 500, sponsored by SoundTrap Ltd": the agent of the
question's own verb in the passive ("moderated by", "hosted by", "provided by") — a person or an organisation."""
MAX_SENTENCE_WORDS = 60
"""A stated value is a sentence, not a page: a longer run of text without a full stop states nothing one can
cite as the answer."""


def _phone(text: str) -> bool:
    found = PHONE.search(text)
    return found is not None and not find_dates(found.group(0))


def value_form(question: str, kind: Kind) -> Callable[[str, str], object] | None:
    """What a sentence (beneath its headings) must hold to state the value asked, or None when the question's
    kind is not one a sentence states by its form (a free-text "what", a person, a place: their typed readers
    decide)."""
    if kind is Kind.PEOPLE and WHO_DOES.match(question):
        return lambda headings, sentence: _agent(question, headings, sentence)
    if ASKS_PHONE.search(question):
        return lambda headings, sentence: _phone(sentence)
    if ASKS_ADDRESS.search(question):
        return lambda headings, sentence: EMAIL.search(sentence)
    if ASKS_LINK.search(question) and kind is Kind.TEXT:
        return lambda headings, sentence: URL.search(sentence)
    if kind is Kind.DATE and ASKS_DUE.search(question):
        return lambda headings, sentence: find_dates(sentence) and SAYS_DUE.search(f"{headings} {sentence}")
    if kind is Kind.DATE:
        return lambda headings, sentence: find_dates(sentence)
    if kind is Kind.MONEY:
        return lambda headings, sentence: find_amounts(sentence)
    return None


def _headings(item: EvidencePath) -> str:
    """The path's headings without its value (the value is read sentence by sentence)."""
    return path_headings_text(item.path)


def _dated_heading(headings: str) -> str | None:
    """The nearest heading that is a date ("Thursday, 27 October" above a programme's rows), or None."""
    for heading in reversed(headings.split(PATH_SEPARATOR)):
        if find_dates(heading) and len(heading.split()) <= NAME_WORDS:
            return heading
    return None


@dataclass(frozen=True)
class Stated:
    sentence: str
    """What answers: the sentence, or the agent it names for "who <verb>s …?"."""
    rank: int
    """The rank of the evidence path the sentence is read from (what the answer cites)."""


NAME_WORDS = 6
"""A value that is a name (a person's, an organisation's) is a few words, not a sentence."""


def _agent(question: str, headings: str, sentence: str) -> str | None:
    """Who does what the question's verb says, as the sentence names them: the agent of that verb in the passive
    ("sponsored by SoundTrap Ltd" for "who sponsors"), or a short name under a heading that is the verb's doer
    ("Panel » Moderator » Ines Marchand" for "who moderates the panel"); else None."""
    verb = WHO_DOES.match(question)
    if verb is None:
        return None
    asked = stem(verb.group(1).lower())[:PREFIX]
    for match in AGENT.finditer(sentence):
        if stem(match.group(1).lower())[:PREFIX] == asked:
            return match.group(2).rstrip(" .,;&").removesuffix(" and").removesuffix(" of")
    label = headings.split(PATH_SEPARATOR)[-1]
    doer = {stem(word)[:PREFIX] for word in re.findall(r"[a-z]+", label.lower())}
    if asked in doer and len(sentence.split()) <= NAME_WORDS and sentence[:1].isupper():
        return sentence
    return None


def _site_knows(question: str, kind: Kind, tree: Tree) -> bool:
    """Whether the site uses what the question is about: some of its words, and on a small site all of them (a
    small site that never names a "gala dinner" has no sentence stating its price, whatever "$300" its fees say;
    its silence on a word weighs nothing in the support share, so the share alone cannot refuse)."""
    about = support.subject(question, tree, kind)
    if not about:
        return False
    small = len(tree_vocabulary(tree)) < MIN_VOCABULARY
    return not (small and support.subject(question, tree, kind, known_only=False) - about)


def stated_value(question: str, kind: Kind, evidence: Sequence[EvidencePath], tree: Tree) -> Stated | None:
    """The best-supported sentence of the evidence that holds a value of the asked form, with its path's rank;
    None when no supported sentence holds one."""
    holds = value_form(question, kind)
    if holds is None or not _site_knows(question, kind, tree):
        return None
    best: tuple[float, int, str] | None = None
    dated_by_heading = kind is Kind.DATE and not ASKS_DUE.search(question)
    for item in evidence:
        headings = _headings(item)
        for sentence in sentences(item.value):
            if len(sentence.split()) > MAX_SENTENCE_WORDS:
                continue
            if not holds(headings, sentence):
                day = _dated_heading(headings) if dated_by_heading else None
                if day is None:
                    continue
                sentence = f"{day}: {sentence}"  # a programme's row under its day: the day is the date asked
            said = _agent(question, headings, sentence) if kind is Kind.PEOPLE else sentence
            if not said:  # before the support check, which reads the whole question again
                continue
            share = support.support(question, tree, kind, [f"{headings} {sentence}"])
            if share >= support.SUPPORT_SHARE and (best is None or share > best[0]):
                best = (share, item.rank, said)
    return Stated(best[2], best[1]) if best is not None else None
