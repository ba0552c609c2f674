"""The span operator: one value read from the best evidence path.

The value is the path's own text, a record's other field when the path matched the thing the question names
("Where is Jane Doe based?"), the value of the asked type (a date for "when", an amount for "how much", an
address, a link) among the top paths, or a short run of paragraphs read whole. The other operators fall back
on it when their own reading finds nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference import support
from scholar_tui.core.conference.computed import PREFIX_CHARS, Computed, join_values, leaf_of, overlap
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import EXPANSION_WEIGHT, expanded_query, words
from scholar_tui.core.conference.paths import path_headings
from scholar_tui.core.conference.question_shape import asks_for_type, things_named
from scholar_tui.core.conference.records import asked_field
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import (
    ASKS_EMAIL,
    ASKS_LINK,
    EMAIL,
    HOW_MUCH,
    URL,
    WHEN,
    find_amounts,
    find_dates,
    sentences,
)

LONG_VALUE_WORDS = 40
"""A value longer than this is cut to its sentences that match the question (a general reading
limit: a paragraph is not an answer); chosen on ICML, reported on ISWC."""


def best_sentences(question: str, value: str) -> str:
    """A long value cut to its sentence that best matches the question."""
    if len(value.split()) <= LONG_VALUE_WORDS:
        return value
    asked = expanded_query(question)
    parts = sentences(value)
    if len(parts) <= 1:
        return value
    return closest_sentence(asked, parts)


def closest_sentence(asked: dict[str, float], parts: Sequence[str]) -> str:
    """The sentence sharing most (expanded) question words; of equals, the shorter says it more
    directly ("The conference will be run via Zoom." over a long one with the same words)."""
    return max(parts, key=lambda part: (overlap(asked, part), -len(part.split())))


def named_node(tree: Tree, leaf: Node, question: str) -> Node:
    """The ancestor of ``leaf`` the question names best (its label shares the most question words)."""
    asked = {word: 1.0 for word in words(question)}
    best, best_score = tree.parent(leaf) or leaf, 0.0
    for node in tree.ancestors(leaf)[1:]:
        score = overlap(asked, node.label)
        if score >= best_score and score > 0:
            best, best_score = node, score
    return best


def record_field(
    question: str, evidence: Sequence[EvidencePath], tree: Tree, labels: frozenset[str] = frozenset()
) -> Computed | None:
    """When the best path is the thing the question names ("Where is Jane Doe based?" finds "name:
    Jane Doe"), the answer is that record's field the question asks for (``records.asked_field``), a field
    labelled by one of ``labels`` (the asked kind's: "location" for "Which room …?") fitting as a synonym does."""
    top = evidence[0]
    leaf = leaf_of(tree, top)
    if leaf is None or not top.value:
        return None
    asked = {label: EXPANSION_WEIGHT for label in labels} | expanded_query(question)
    best = asked_field(question, asked, leaf, tree, fallback="fullest")
    if best is None:
        return None
    ranks = {item.node_id: item.rank for item in evidence}
    read = [] if best.id in ranks else [best]  # the field itself, cited by its own path when not retrieved
    return Computed(best.text or "", "span", sorted({top.rank, ranks.get(best.id, top.rank)}), read)


TYPE_MATCH_DEPTH = 3
"""How far down the evidence a span answer looks for a value of the asked type (a date for
"when", an amount for "how much"): the top three of five, a general prior, not tuned."""


DATE_SENTENCE_WORDS = 30
"""A date cut from a long value is answered with its sentence when that is at most this long
("Registered participants will receive the link on October 21."), else alone. 15, 20 and 30
were alike on ICML; 30 was better on ISWC (RA F1 31.4 vs 29.6)."""


def _typed_value(question: str, item: EvidencePath) -> str | None:
    """The value of the type the question asks for in ``item`` (whole when short, cut when long)."""
    value = item.value
    if WHEN.search(question):
        dates = find_dates(value)
        if not dates:
            return None
        if len(value.split()) <= 8:
            return value
        # the sentence that says it (of several dated ones, the one sharing most of the question's words:
        # "The deadline to register is July 5" for "By when do I register …?"), when short enough to read
        dated = [part for part in sentences(value) if find_dates(part)] or [value]
        asked = _beyond_headings(expanded_query(question), item.path)
        said = max(dated, key=lambda part: overlap(asked, part))
        first = find_dates(said) or dates
        return said if len(said.split()) <= DATE_SENTENCE_WORDS else first[0].text
    if HOW_MUCH.search(question):
        amounts = find_amounts(value)
        return None if not amounts else (amounts[0].text if len(value.split()) > 4 else value)
    if ASKS_EMAIL.search(question):
        found = EMAIL.search(value)
        return found.group(0) if found else None
    if ASKS_LINK.search(question):
        found = URL.search(value)
        return found.group(0) if found else None
    return None


def _typed_per_thing(question: str, evidence: Sequence[EvidencePath]) -> Computed | None:
    """ "Where will X and Y be held?": each thing's value of the asked type, in the question's order."""
    things = things_named(question)
    if len(things) < 2 or not re.search(r"\band\b", question, re.IGNORECASE):
        return None
    typed = [(item, value) for item in evidence if (value := _typed_value(question, item)) is not None]
    chosen: list[tuple[EvidencePath, str]] = []
    for thing in things:
        thing_words = {word: 1.0 for word in words(thing)}
        scored = [
            (overlap(thing_words, item.path), -item.rank, index)
            for index, (item, _) in enumerate(typed)
            if all(item is not other for other, _ in chosen)
        ]
        scored = [entry for entry in scored if entry[0] > 0]
        if scored:
            chosen.append(typed[max(scored)[2]])
    if len(chosen) < 2:
        return None
    return Computed(join_values([value for _, value in chosen]), "value", sorted(item.rank for item, _ in chosen))


HEAR_BACK = re.compile(
    r"\b(?:will|do|can|would)\s+(?:i|we|you|authors?|applicants?)\s+(?:know|hear|learn|find out|be told|be informed)\b"
    r"|\bhear back\b",
    re.IGNORECASE,
)
""""When will I know / hear back …?" asks for the notification, which a site labels so."""


def _heading_fit(question: str, path: str) -> int:
    """How many of the question's words (by prefix) the path's headings hold (its value left out)."""
    headings = {word[:PREFIX_CHARS] for word in words(" ".join(path_headings(path)))}
    asked = {word[:PREFIX_CHARS] for word in words(question)}
    if HEAR_BACK.search(question):
        asked.add("notif")
    return len(asked & headings)


def _beyond_headings(asked: dict[str, float], path: str) -> dict[str, float]:
    """The question's words a path's headings do not hold: what its value must say itself (of two
    paragraphs under "Child Care", the one that says "register" for "By when do I register …?")."""
    headings = set(words(" ".join(path_headings(path))))
    return {word: weight for word, weight in asked.items() if word not in headings}


def span_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The best path's value; a record's other field when the path is the thing named; the value
    of the asked type (date, amount, address, link) among the top paths whose headings the
    question names best (of equals the higher ranked)."""
    top = evidence[0]
    field_answer = record_field(question, evidence, tree)
    if field_answer is not None:
        return field_answer
    if asks_for_type(question):
        each = _typed_per_thing(question, evidence)
        if each is not None:
            return each
        typed = [
            (item, value)
            for item in evidence[:TYPE_MATCH_DEPTH]
            for value in [_typed_value(question, item)]
            if value is not None
        ]
        if typed:
            asked = expanded_query(question)
            item, value = max(
                typed,
                key=lambda entry: (
                    not support.other_event(question, [entry[0].path]),  # "hear back" is not the deadline
                    _heading_fit(question, entry[0].path),
                    overlap(_beyond_headings(asked, entry[0].path), entry[1]),
                    -entry[0].rank,
                ),
            )
            return Computed(value, "value" if value != item.value else "span", [item.rank])
    paragraphs = _paragraph_list(tree, top)
    if paragraphs is not None:
        kept = _on_the_day_asked(question, paragraphs)
        if len(kept) == len(paragraphs):
            return Computed(" ".join(node.text or "" for node in kept), "span", [top.rank])
        # the entries of the day asked rest on their own paths ("July 24th 9:00 am …"), not on the top one's day
        ranks = {item.node_id: item.rank for item in evidence}
        cited = sorted({ranks[node.id] for node in kept if node.id in ranks}) or [top.rank]
        read = [node for node in kept if node.id not in ranks]
        return Computed(" ".join(node.text or "" for node in kept), "span", cited, read)
    return Computed(best_sentences(question, top.value), "span", [top.rank])


MAX_PARAGRAPHS = 8


def _paragraph_list(tree: Tree, item: EvidencePath) -> list[Node] | None:
    """When the best path is one unlabelled paragraph of a short run of them (steps, rules, notes
    under one heading), the run is the answer: a heading's text is read as a whole."""
    leaf = leaf_of(tree, item)
    parent = tree.parent(leaf) if leaf is not None else None
    if leaf is None or leaf.label or parent is None:
        return None
    children = tree.children(parent)
    if not 2 <= len(children) <= MAX_PARAGRAPHS or any(not child.is_leaf or child.label for child in children):
        return None
    return children


def _weekdays(text: str) -> set[str]:
    return {match.group(1).lower() for match in support.CALENDAR.finditer(text) if match.group(1)}


MONTH_DAY = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b"
    r"|\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)
"""A day of a month, "July 24th" or "24 July": the month by its three letters and the day's number."""


def _month_days(text: str) -> set[str]:
    return {
        f"{(match.group(1) or match.group(4)).lower()} {int(match.group(2) or match.group(3))}"
        for match in MONTH_DAY.finditer(text)
    }


def _on_the_day_asked(question: str, paragraphs: list[Node]) -> list[Node]:
    """Of a run of entries by day ("Sun, July 23 2:00pm-6:00pm", "Mon, …"), those of the day the question
    names ("on Sunday", "on July 24"); all of them when it names none or none is of that day."""
    for days in (_month_days, _weekdays):
        asked = days(question)
        kept = [node for node in paragraphs if asked & days(node.text or "")] if asked else []
        if kept:
            return kept
    return paragraphs
