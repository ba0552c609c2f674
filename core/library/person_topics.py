"""searchPerson without a name, as an exact top-k that reads only the people who can reach it (#28).

A question like "who works on quantum physics?" matches thousands of people in a large library, and
the ranking (``api_backends._rank_people``: the overlap of the organisation and interest asked with
each person's, then citations, then name) is continuous, so no index gives it. But the overlap has an
upper bound the indexes do give: ``fuzzy.overlap_score`` matches each query word to at most one word
of the person's text, so it is at most the mean over the query words of the best similarity of any
word the person holds; and those words are known per index term (the organisation and stated
interests in ``person_topic_index``) and per category (the interests the library derives from the
papers' categories), never per person.

Two exact ways, the first tried first: ``top_in_rank_order`` scores the people who hold a matching
word in the order that ranks equal scores (most cited first, then by name: migration m021's indexes
give them in that order) until the ``limit``-th kept has the best score anyone can have and comes
before anybody not yet read: a common interest ("machine learning", thousands of people) costs a few
dozen people at any size. When that is not certain within
a budget (one few people match fully), or when few people hold a matching word at all (the walk in
rank order would pass many who hold none: ``api_backends.FEW_HOLDERS``), ``top_people`` orders every
person who can pass by their best possible rank (bound, then citations, name, id) and scores a batch at
a time until the ``limit``-th exact rank comes before the next person's best possible one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from scholar_tui.indexes.fuzzy import token_similarity

RankKey = tuple[float, int, str, int]  # (-score, -citations, name, person id): smaller ranks first
PASSING = 0.5  # _rank_people keeps a person whose overlap with each field asked is at least this
RANK_ORDER_BUDGET = 20  # top_in_rank_order reads at most this many people per person asked for


@dataclass(frozen=True)
class TopicField:
    """One field asked (the organisation or the interest): its query words and the words a person
    can hold for it: index terms of ``person_topic_index``'s ``columns`` and category names."""

    words: list[str]
    terms: list[str]
    columns: str
    categories: dict[str, list[str]]  # category code -> the words of its name

    def best(self) -> float:
        """The best overlap anybody can have: each query word's best match among all the words."""
        from scholar_tui.indexes.records import fold

        held = [fold(term).split() for term in self.terms] + list(self.categories.values())
        if not self.words:
            return 0.0
        best = [
            max((token_similarity(word, term) for words in held for term in words), default=0.0) for word in self.words
        ]
        return round(sum(best) / len(self.words), 4)


def field_bounds(words: list[str], sources: Iterable[tuple[list[str], set[int]]]) -> dict[int, float]:
    """The best overlap with ``words`` each person can have, when ``sources`` gives (the words of a
    term or category name, the people who hold it); people no source gives cannot match at all.
    Rounded as ``overlap_score`` rounds, so that a score never exceeds its bound."""
    if not words:
        return {}
    similarities: list[tuple[float, ...]] = []
    held: dict[int, int] = {}  # person -> bit mask of the sources they hold
    for source_words, people in sources:
        best = tuple(max((token_similarity(word, term) for term in source_words), default=0.0) for word in words)
        if not any(best):
            continue
        bit = 1 << len(similarities)
        similarities.append(best)
        for person_id in people:
            held[person_id] = held.get(person_id, 0) | bit
    by_mask: dict[int, float] = {}  # few distinct masks: each bound is computed once
    for mask in set(held.values()):
        chosen = [best for index, best in enumerate(similarities) if mask >> index & 1]
        by_mask[mask] = round(sum(max(column) for column in zip(*chosen, strict=True)) / len(words), 4)
    return {person_id: by_mask[mask] for person_id, mask in held.items()}


def passing_bounds(fields: list[dict[int, float]]) -> dict[int, float]:
    """The people whose bound in every field asked can pass, with their bound of the summed score
    (``_rank_people`` adds the organisation's overlap and the interest's, in that order)."""
    if not fields:
        return {}
    people = set.intersection(*(set(field) for field in fields))
    totals = {}
    for person_id in people:
        if all(field[person_id] >= PASSING for field in fields):
            total = 0.0
            for field in fields:
                total += field[person_id]
            totals[person_id] = total
    return totals


def best_total(fields: list[TopicField]) -> float:
    """The best summed score anybody can have (0 when a field cannot pass: nobody is found)."""
    total = 0.0
    for field in fields:
        best = field.best()
        if best < PASSING:
            return 0.0
        total += best
    return total


def top_in_rank_order(
    ranked: Iterator[tuple[int, int, str | None]],
    best: float,
    score_batch: Callable[[list[int]], list[tuple[float, dict]]],
    limit: int,
) -> list[dict] | None:
    """The ``limit`` best people by (score, citations, name, id), scoring people in the order that
    ranks equal scores (``ranked``: (person, citations, name) most cited first, the name given once
    the order is by name), when that is certain within ``RANK_ORDER_BUDGET * limit`` people: nobody
    not yet read, scoring ``best`` at most, can come before the ``limit``-th kept. None when it is
    not certain (the caller orders every candidate by bound)."""
    kept: list[tuple[RankKey, dict]] = []
    head = next(ranked, None)
    read, size = 0, 2 * limit
    while head is not None and read < RANK_ORDER_BUDGET * limit:
        batch = [head, *islice(ranked, size - 1)]
        head = next(ranked, None)
        read, size = read + len(batch), 2 * size
        kept = _best_of(kept, score_batch([person_id for person_id, _, _ in batch]), limit)
        if len(kept) == limit and (head is None or _before_anybody_unread(kept[-1][0], best, head)):
            return [entry for _, entry in kept]
    return [entry for _, entry in kept] if head is None else None  # everybody read: nothing else can score


def _before_anybody_unread(last: RankKey, best: float, head: tuple[int, int, str | None]) -> bool:
    """Whether the ``limit``-th kept ranks before anybody from ``head`` on: they score ``best`` at
    most, have at most ``head``'s citations and, where ``head`` gives a name, come after it by name."""
    person_id, citations, name = head
    if name is None:  # ordered by citations only: equal citations may come in any order of names
        return last[0] < -best or (last[0] == -best and last[1] < -citations)
    return last < (-best, -citations, name, person_id)


def _best_of(
    kept: list[tuple[RankKey, dict]], scored: list[tuple[float, dict]], limit: int
) -> list[tuple[RankKey, dict]]:
    """The ``limit`` best of what was kept and what was just scored."""
    for score, entry in scored:
        kept.append(((-score, -(entry["num_citation"] or 0), entry["name"], entry["id"]), entry))
    kept.sort(key=lambda item: item[0])
    return kept[:limit]


def top_people(
    bounds: dict[int, float],
    rank_keys: dict[int, tuple[int | None, str]],
    score_batch: Callable[[list[int]], list[tuple[float, dict]]],
    limit: int,
) -> list[dict]:
    """The ``limit`` best people by (score, citations, name, id), scoring a batch at a time in the
    order of their best possible rank. ``rank_keys``: (citations, name) per person; ``score_batch``:
    the passing people of a batch with their exact scores and entries (``num_citation``, ``name``)."""

    def best_possible(person_id: int) -> RankKey:
        citations, name = rank_keys[person_id]
        return (-bounds[person_id], -(citations or 0), name, person_id)

    order = sorted(bounds, key=best_possible)
    kept: list[tuple[RankKey, dict]] = []
    start, size = 0, 2 * limit
    while start < len(order):
        kept = _best_of(kept, score_batch(order[start : start + size]), limit)
        start, size = start + size, 2 * size  # a long tail of near misses costs log(n) batches
        if len(kept) == limit and start < len(order) and kept[-1][0] < best_possible(order[start]):
            break
    return [entry for _, entry in kept]
