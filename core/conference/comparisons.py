"""Sums, comparisons and date order: answers computed over several paths' amounts or dates.

"How much do a diamond and a platinum sponsor pay together?", "Which is cheaper, …?", "What is the first
deadline?": each thing the question names is matched to its path, and the values are added, compared or
ordered; with fewer than two values the span operator answers.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference.computed import Computed, leaf_of, overlap, section_leaves
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.question_shape import things_named
from scholar_tui.core.conference.span_answers import span_answer
from scholar_tui.core.conference.tree import PATH_SEPARATOR, Tree
from scholar_tui.core.conference.values import Amount, find_amounts, find_dates, format_amount


def _amount_paths(evidence: Sequence[EvidencePath]) -> list[tuple[EvidencePath, float, Amount]]:
    found = []
    for item in evidence:
        amounts = find_amounts(item.value)
        if amounts:
            found.append((item, amounts[0].value, amounts[0]))
    return found


def _one_per_thing(
    question: str, candidates: list[tuple[EvidencePath, float, Amount]]
) -> list[tuple[EvidencePath, float, Amount]]:
    """For each thing the question names, the best-matching path among ``candidates`` (in rank order)."""
    chosen: list[tuple[EvidencePath, float, Amount]] = []
    for thing in things_named(question):
        thing_words = {word: 1.0 for word in words(thing)}
        scored = [
            (overlap(thing_words, item.path), -item.rank, (item, value, currency))
            for item, value, currency in candidates
            if all(item is not other[0] for other in chosen)
        ]
        scored = [entry for entry in scored if entry[0] > 0]
        if scored:
            chosen.append(max(scored)[2])
    return chosen


def sum_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    candidates = _amount_paths(evidence)
    chosen = _one_per_thing(question, candidates)
    if len(chosen) < 2:
        chosen = candidates[:2]
    if not chosen:
        return span_answer(question, evidence, tree)
    total = sum(value for _, value, _ in chosen)
    return Computed(format_amount(total, chosen[0][2]), "sum", sorted(item.rank for item, _, _ in chosen))


def compare_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """Which of the things named is cheaper/more/earlier…: their amounts (or dates) compared."""
    lowered = question.lower()
    wants_low = bool(re.search(r"\b(cheaper|less|lower|smaller|earlier|fewer)\b", lowered))
    chosen = _one_per_thing(question, _amount_paths(evidence))
    if len(chosen) >= 2:
        pick = (min if wants_low else max)(chosen, key=lambda entry: entry[1])
        item = pick[0]
        return Computed(
            f"{item.path.split(PATH_SEPARATOR)[-2] if PATH_SEPARATOR in item.path else item.value} ({item.value})",
            "compare",
            sorted(entry[0].rank for entry in chosen),
        )
    dated = [(item, found[0].day) for item in evidence if (found := find_dates(item.value))]
    if len(dated) >= 2:
        item = (min if wants_low else max)(dated[:3], key=lambda entry: entry[1])[0]
        return Computed(item.value, "compare", sorted(entry[0].rank for entry in dated[:3]))
    return span_answer(question, evidence, tree)


def date_order_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree, latest: bool) -> Computed:
    """The earliest or latest date among the best path's section (a node's children) and the evidence."""
    leaf = leaf_of(tree, evidence[0])
    pool: list[tuple[str, int | None]] = [(item.value, item.rank) for item in evidence]
    if leaf is not None:
        pool += [(node.text or "", None) for node in section_leaves(tree, leaf) if node.id != leaf.id]
    dated = [(found[0], text, rank) for text, rank in pool for found in [find_dates(text)] if found]
    if not dated:
        return span_answer(question, evidence, tree)
    best = (max if latest else min)(dated, key=lambda entry: entry[0].day)
    return Computed(best[1], "latest" if latest else "earliest", [best[2] or evidence[0].rank])
