"""The sentence that decides a yes/no question, and whether it says yes or no.

A person asking "Do I need to …?", "Can I …?", "Did anyone win …?", "Will they pay for …?" asks whether a
predicate of one of a few classes holds of a subject: an obligation, a permission, a thing granted ("Do
accepted papers get an extra page?"), an award given, a cost covered. Sites state such rules in the same few ways ("… must …", "… is not allowed", "Not assigned",
"ICML does not provide travel funding"), so the sentence that decides is the one that states the asked
predicate's class about the asked subject, wherever it sits among the cited paths, and its verdict is read
from whether that predicate is negated there. Nothing here names a site's labels.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.paths import path_headings, path_headings_text
from scholar_tui.core.conference.values import sentences

PREFIX = 5
"""Words match by their first five letters ("transfer" / "not Transferable"), as elsewhere in conference QA."""

NEGATED = r"(?:not|no|never|cannot|can't|won't|isn't|aren't|doesn't|don't|non-?|no longer)\s*(?:be\s+)?"


@dataclass(frozen=True)
class PredicateClass:
    """One way a yes/no question asks: the question's cue, the words by which a sentence states the predicate,
    and the words by which it denies it."""

    name: str
    asked: re.Pattern[str]
    stated: re.Pattern[str]
    denied: re.Pattern[str]


CLASSES = (
    PredicateClass(
        "obligation",
        re.compile(
            r"\b(?:have to|has to|need to|needs to|need an?|need any|must|required|mandatory|obliged|"
            r"necessary|compulsory|obligatory)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:must|required?|requires|mandatory|have to|has to|needs? to|obligatory|necessary|only|"
            r"encouraged|recommended|optional)\b",
            re.I,
        ),
        re.compile(
            rf"\b{NEGATED}(?:required|mandatory|necessary|needed|obligatory|compulsory)\b|\bno need\b|\boptional\b",
            re.I,
        ),
    ),
    PredicateClass(
        "permission",
        re.compile(
            r"^\s*(?:can|may|could)\s+(?:i|we|you|one|they|authors?|attendees?|students?|participants?)\b|"
            r"\b(?:allowed|permitted|ok to|okay to)\b",
            re.I,
        ),
        re.compile(
            r"\b(?:allowed|permitted|may|can|welcome|accepted|possible|able to|\w+able)\b|\bprohibited\b|\bforbidden\b",
            re.I,
        ),
        re.compile(
            rf"\b{NEGATED}(?:allowed|permitted|accept(?:ed)?|supported|possible|appropriate|\w+able)\b|"
            r"\b(?:prohibited|forbidden|cannot|may not)\b",
            re.I,
        ),
    ),
    PredicateClass(
        "grant",
        re.compile(
            r"^\s*(?:do|does|did|will|would|can|could)\s+(?:\w+\s+){0,4}?(?:get|gets|receive|receives|be given|"
            r"be granted|be allowed|have)\s+(?:an?|any|another|one more|extra|additional|more)\b",
            re.I,
        ),
        re.compile(r"\b(?:allowed|granted|given|receives?|gets?|offered|provided|entitled|permitted)\b", re.I),
        re.compile(rf"\b{NEGATED}(?:allowed|granted|given|offered|provided|permitted)\b", re.I),
    ),
    PredicateClass(
        "award",
        re.compile(r"\b(?:win|wins|won|winner|winners|awarded|award(?:ed)? to|get an award|receive an award)\b", re.I),
        re.compile(r"\b(?:won|winners?|awarded|assigned|given to|received|goes to)\b", re.I),
        re.compile(rf"\b{NEGATED}(?:assigned|awarded|given|received)\b|\bno winners?\b|\bnone\b", re.I),
    ),
    PredicateClass(
        "payment",
        re.compile(
            r"\b(?:pay|pays|paid|cover|covers|covered|reimburse|reimbursed|fund|funded|funding|sponsor)\s+(?:for\b)?"
            r"|\bfree of charge\b|\bfor free\b",
            re.I,
        ),
        re.compile(
            r"\b(?:pay|pays|paid|cover|covers|covered|reimburs\w*|fund\w*|financial|free|grants?|waived?)\b", re.I
        ),
        re.compile(
            rf"\b{NEGATED}(?:provide|offer|pay|cover|reimburse)\w*\b|\bno (?:financial|funding|travel)\b|"
            r"\bat (?:their|your|the authors?['’]?) own (?:cost|expense)\b",
            re.I,
        ),
    ),
)


def asked_class(question: str) -> PredicateClass | None:
    """The class of predicate a yes/no question asks about, or None ("Is the venue in Hawaii?" asks a fact)."""
    return next((kind for kind in CLASSES if kind.asked.search(question)), None)


def _prefixes(text: str) -> set[str]:
    return {word[:PREFIX] for word in words(text)}


def shared_subject(subject: set[str], item: EvidencePath, sentence: str) -> int:
    """How many of the subject's prefixes the sentence or its path's headings name. A synonym does not count:
    the sentence that decides names the thing asked ("invitations" are not a "visa")."""
    headings = path_headings_text(item.path)
    said = _prefixes(f"{headings} {sentence}")
    return len(subject & said)


def names_enough(subject: set[str], shared: int) -> bool:
    """A sentence decides for a subject when it (with its headings) names at least half of it: "Registrations
    are not Transferable." decides "Can I transfer my registration to a colleague?", a page on challenges
    does not decide "Do I need a visa?"."""
    return not subject or (shared >= 1 and shared * 2 >= len(subject))


@dataclass(frozen=True)
class Deciding:
    item: EvidencePath
    sentence: str


def names_its_record(chosen: Deciding) -> bool:
    """Whether the sentence is the name of the record it sits in (a heading of its path repeats it): a
    challenge track's "description" under the heading it names says what the track is, not whether anyone
    won it."""
    said = " ".join(words(chosen.sentence))
    headings = path_headings(chosen.item.path)
    return bool(said) and any(" ".join(words(heading)) == said for heading in headings)


def deciding_sentence(
    question: str, subject: set[str], evidence: Sequence[EvidencePath], chosen: Deciding, negates: bool = False
) -> Deciding | None:
    """A sentence stating the asked predicate's class about the subject when ``chosen`` (the best-overlap
    sentence of the best path) does not: over every sentence of every cited path naming at least half the
    subject, the one naming most, of equals the best-ranked path. None when the question asks no such class,
    ``chosen`` states it already or names the whole subject and ``negates`` what the question asks ("Resource
    track submissions are not anonymous" decides "Do I have to anonymize …?"), or no sentence does."""
    predicate = asked_class(question)
    if predicate is None or states(predicate, chosen.sentence):
        return None
    best: tuple[int, Deciding] | None = None
    for item in evidence:
        for sentence in sentences(item.value) or [item.value]:
            if not states(predicate, sentence):
                continue
            shared = shared_subject(subject, item, sentence)
            own = len(subject & _prefixes(sentence))  # a paragraph's headings name its page, not each sentence
            if (
                names_enough(subject, shared)
                and (own or len(sentences(item.value)) <= 1)
                and (best is None or shared > best[0])
            ):
                best = (shared, Deciding(item, sentence))
    held = shared_subject(subject, chosen.item, chosen.sentence) if chosen.sentence else -1
    if best is None or (negates and (held == len(subject) or held > best[0])):
        return None  # a sentence not stating the asked predicate decides only by negating what is asked of the
        # subject, naming it whole or better than any sentence that states the predicate ("… are not anonymous")
    return best[1]


def states(predicate: PredicateClass, sentence: str) -> bool:
    """Whether ``sentence`` states or denies a predicate of the class ("fully virtual workshops will not be
    supported" states whether one may run one)."""
    return bool(predicate.stated.search(sentence) or predicate.denied.search(sentence))


LIMIT_WORDS = frozenset({"limit", "maxim", "cap", "max"})
BOUND = re.compile(r"\b(?:up to|at most|no (?:longer|more) than|not exceed|maximum|max\.?|limited to)\b", re.I)
"""Sites state a limit by its bound ("can be up to eight pages long"), not always by the word "limit"."""


def names_thing(thing: Sequence[str], said: Deciding) -> bool:
    """Whether the sentence itself names every word of the thing (a one-value field by its path too)."""
    wanted = {word[:PREFIX] for word in thing}
    named = _prefixes(said.sentence)
    if len(sentences(said.item.value)) <= 1:  # a field ("Time Zone Converter: https://…") is named by its path
        named |= _prefixes(said.item.path)
    if BOUND.search(said.sentence):  # "up to eight pages" states a page limit
        named |= wanted & LIMIT_WORDS
    return wanted <= named


def naming_thing(thing: Sequence[str], subject: set[str], evidence: Sequence[EvidencePath]) -> Deciding | None:
    """For "Is there an X?": the cited sentence that itself names every word of X (a sentence about something
    else on X's page says nothing of whether X exists; a one-value field is named by its path), naming most of
    the subject; None when none does."""
    best: tuple[int, Deciding] | None = None
    for item in evidence:
        for sentence in sentences(item.value) or [item.value]:
            if names_thing(thing, Deciding(item, sentence)):
                shared = shared_subject(subject, item, sentence)
                if best is None or shared > best[0]:
                    best = (shared, Deciding(item, sentence))
    return best[1] if best else None


def denies(question: str, sentence: str) -> bool:
    """Whether ``sentence`` denies the asked predicate ("Not assigned", "is not allowed", "not required")."""
    predicate = asked_class(question)
    return predicate is not None and bool(predicate.denied.search(sentence))
