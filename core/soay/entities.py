"""Finding the scholar a question is about, as a span of the question's own words; the spans a paper's
title is looked for in too (``titles.py`` finds the paper).

A tiny model asked for a name invents one; a span cannot be invented. Candidates are spans of the
question (quoted text, runs of capitalised words, the question with its frame words trimmed);
each is checked against the library with the fuzzy-search API itself, and the span whose best
hit matches it most closely wins. The question's words are kept as the API argument, exactly as
a person would type them into the search box.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from scholar_tui.core.soay.intents import EntityKind
from scholar_tui.indexes.records import fold

WORD = re.compile(r"\S+")
# Name particles that may sit inside a capitalised run ("Ludwig van Beethoven").
PARTICLES = {"van", "von", "de", "der", "da", "del", "di", "du", "le", "la", "bin", "al"}
PERSON_THRESHOLD = 0.6
AMBIGUOUS_MARGIN = 0.02  # two scholars whose names fit a span this closely are both named by it


@dataclass(frozen=True)
class Mention:
    kind: EntityKind
    text: str  # the span of the question, the API argument
    start: int
    end: int
    matched: str  # what the library holds under it (a name or a title)
    score: float
    others: tuple[str, ...] = ()  # other scholars the span names as well ("Gordon": two of them)

    def masked(self, question: str, slot: str) -> str:
        return question[: self.start] + slot + question[self.end :]


def similarity(a: str, b: str) -> float:
    """How alike a span and a library name or title read, folded as the library keys them
    (``indexes.records.fold``: 'Kühn' is 'Kuhn'); text the fold empties (CJK, Greek…) as written."""
    left, right = fold(a), fold(b)
    if not left or not right:
        left, right = a.lower(), b.lower()
    return SequenceMatcher(None, left, right).ratio()


SAME_NAME = 0.85  # a name reads this much like another (an author's, an item's): the same person


def paper_record(api: Any, title: str) -> tuple[dict[str, Any], str]:
    """The record of the paper the library's search finds first for ``title`` ({} when none), and the call
    it came from (a citation for the answer)."""
    hits = api.searchPublication(publication_info=title)
    if not hits:
        return {}, "searchPublication"
    pub_id = hits[0]["pub_id"]
    return api.getPublication(pub_id=pub_id) or {}, f"getPublication(pub_id={pub_id!r})"


def strip_span(span: str) -> str:
    return span.strip(" \t\"'“”‘’«».,;:?!()[]")


def word_spans(question: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in WORD.finditer(question)]


def capitalised_runs(question: str, names: bool = False) -> list[tuple[int, int]]:
    """Runs of capitalised words; ``names``: a comma ends a run too ("A B, C D and E F" are three people;
    a title keeps its commas)."""
    words = word_spans(question)
    runs: list[tuple[int, int]] = []
    current: list[tuple[int, int]] = []
    for index, (start, _end, word) in enumerate(words):
        clean = strip_span(word).rstrip("'s").rstrip("’s")
        first = clean[:1]
        capitalised = bool(first) and first.isupper() and index > 0
        if capitalised or (current and clean.lower() in PARTICLES):
            current.append((start, start + len(word.rstrip("?.!,;:").removesuffix("'s").removesuffix("’s"))))
            listed = names and word.endswith((",", ";"))
            if not word.rstrip("?.!,;:").endswith(("'s", "’s")) and not listed:
                continue
            # a possessive ends the name: "Vahid's EuclidNets paper" is a person, then a paper
        if current:
            runs.append((current[0][0], current[-1][1]))
        current = []
    if current:
        runs.append((current[0][0], current[-1][1]))
    return runs


def runs_through_possessives(question: str) -> list[tuple[int, int]]:
    """Capitalised runs joined across a possessive ("Pauli's Electron"): how a title that begins with a
    name's possessive is named; a person's possessive ends a run everywhere else."""
    runs = capitalised_runs(question)
    joined = []
    for (start, end), (next_start, next_end) in zip(runs, runs[1:], strict=False):
        if re.fullmatch(r"(?:'s|’s)\s+", question[end:next_start]):
            joined.append((start, next_end))
    return joined


# Words that never start or end a name typed in lower case ("who did adrian del maestro work with").
FRAME_WORDS = {
    "a",
    "an",
    "the",
    "of",
    "on",
    "in",
    "at",
    "by",
    "for",
    "with",
    "and",
    "or",
    "to",
    "from",
    "about",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "has",
    "have",
    "had",
    "do",
    "does",
    "did",
    "who",
    "whom",
    "whose",
    "what",
    "which",
    "where",
    "when",
    "how",
    "many",
    "much",
    "why",
    "paper",
    "papers",
    "work",
    "worked",
    "works",
    "write",
    "wrote",
    "written",
    "publish",
    "published",
    "author",
    "authors",
    "coauthors",
    "co-authors",
    "collaborators",
    "their",
    "his",
    "her",
    "its",
    "this",
    "that",
    "these",
    "those",
    "me",
    "tell",
    "list",
    "name",
    "give",
    "show",
    "all",
}
LOWERCASE_THRESHOLD = 0.85  # an uncapitalised span must read almost exactly like a name


def _lowercase_spans(question: str) -> list[tuple[int, int]]:
    """Runs of two or three words that could be a name typed without capitals."""
    words = word_spans(question)
    spans = []
    for i in range(len(words)):
        for j in range(i + 2, min(len(words), i + 3) + 1):
            inner = [strip_span(word).lower() for _, _, word in words[i:j]]
            if inner[0] in FRAME_WORDS or inner[-1].removesuffix("'s") in FRAME_WORDS or not all(inner):
                continue
            spans.append((words[i][0], words[j - 1][1]))
    return spans


def find_people(question: str, api: Any) -> list[Mention]:
    """Every scholar the question names (one per capitalised run), best match first, each person once;
    with no capitalised name, runs of two or three words typed in lower case that read as one."""
    found: list[Mention] = []
    runs = capitalised_runs(question, names=True)
    reversed_names = _reversed_names(question, runs, api)
    for start, end in runs:
        if any(m.start <= start < m.end for m in reversed_names):
            continue  # read with the run beside it as one "Last, First" name
        mention = _person_in(question, start, end, api)
        if mention is not None:
            found.append(mention)
    found += reversed_names
    if not found:
        for start, end in _lowercase_spans(question):
            mention = _person_in(question, start, end, api)
            if mention is not None and mention.score >= LOWERCASE_THRESHOLD:
                found.append(mention)
        found = _non_overlapping(found)
    found.sort(key=lambda m: -m.score)
    people: list[Mention] = []
    for mention in found:
        if all(mention.matched != other.matched for other in people):
            people.append(mention)
    return sorted(people, key=lambda m: m.start)


# "Oberski, Daniel", "Le Gouellec, Valentin": a name written surname first, as bibliographies and the
# arXiv's own author lists write it; the comma that parts people in a list parts it too
REVERSED_GAP = re.compile(r"^,\s*$")
GIVEN_NAME_WORDS = 3  # "Valentin J. M." after the comma: a given name and two initials at most


def _reversed_names(question: str, runs: list[tuple[int, int]], api: Any) -> list[Mention]:
    """Each "Surname, Given" pair of runs that names one scholar of the library: the given name first
    then the surname is a library name whose last word is that surname and whose first is that given
    name (or its initial). Two people listed with a comma ("Fraser, Gruber and …") name no one so."""
    found: list[Mention] = []
    for (start, end), (next_start, next_end) in zip(runs, runs[1:], strict=False):
        surname, given = strip_span(question[start:end]), strip_span(question[next_start:next_end])
        if not REVERSED_GAP.match(question[end:next_start]) or len(given.split()) > GIVEN_NAME_WORDS:
            continue
        try:
            hits = api.searchPerson(name=f"{given} {surname}")
        except Exception:
            continue
        for hit in hits[:3]:
            parts = fold(hit["name"]).split()
            first = fold(given).split()
            if not parts or not first or " ".join(parts[-len(fold(surname).split()) :]) != fold(surname):
                continue
            if parts[0] == first[0] or (len(first[0]) == 1 and parts[0].startswith(first[0])):
                span = question[start:next_end]
                found.append(
                    Mention(
                        "person", span, start, next_end, hit["name"], similarity(given + " " + surname, hit["name"])
                    )
                )
                break
    return found


def _non_overlapping(mentions: list[Mention]) -> list[Mention]:
    kept: list[Mention] = []
    for mention in sorted(mentions, key=lambda m: (-m.score, -(m.end - m.start))):
        if all(mention.end <= other.start or mention.start >= other.end for other in kept):
            kept.append(mention)
    return kept


def find_person(question: str, api: Any) -> Mention | None:
    people = find_people(question, api)
    return max(people, key=lambda m: m.score) if people else None


def _person_in(question: str, start: int, end: int, api: Any) -> Mention | None:
    """The library's scholar that a capitalised run of the question names, if any."""
    span = strip_span(question[start:end])
    if len(span) < 2:
        return None
    try:
        hits = api.searchPerson(name=span)
    except Exception:
        return None
    scored = [(_name_score(span, hit["name"]), hit["name"]) for hit in hits[:3]]
    scored = [(score, name) for score, name in scored if score >= PERSON_THRESHOLD]
    if not scored:
        return None
    score, name = max(scored, key=lambda item: item[0])
    # a lone first name or surname that several scholars share names none of them for sure
    tied = tuple(other for s, other in scored if other != name and s >= score - AMBIGUOUS_MARGIN)
    others = tied if len(span.split()) == 1 else ()
    return Mention("person", span, start, start + len(span), name, score, others)


def _name_score(span: str, name: str) -> float:
    """How well a span names a scholar: the whole name, or one word of it alone (a surname, "Michelen";
    a first name, "Helge"), which counts a little less than the whole."""
    parts = name.split()
    alone = [parts[-1]] + ([parts[0]] if len(span.split()) == 1 and len(parts) > 1 else [])
    return max([similarity(span, name)] + [similarity(span, part) * 0.9 for part in alone])
