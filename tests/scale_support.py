"""A small deterministic synthetic library for the scale tests (tests/test_library_scale.py).

Titles of five to nine words from a vocabulary of 3,000 made-up words (so a title's words are as
rare as in a real library), authors drawn Zipf-like from a pool of people (some written two ways:
'Ada Quist' and 'A. Quist'), and bibliographies that cite earlier papers by arXiv id plus a raw
entry naming a work outside the library, as unArXive's do. The same seed gives the same library.
"""

from __future__ import annotations

import itertools
import random

from scholar_tui.indexes.library import Library
from scholar_tui.indexes.records import AuthorRecord, PaperRecord, ReferenceRecord, SectionRecord

SYLLABLES = ["ka", "lo", "mi", "ren", "tor", "vas", "qui", "nel", "dar", "sup", "ex", "om", "bri", "fen", "gal"]


def _vocabulary(rng: random.Random, size: int) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def _people(rng: random.Random, size: int) -> list[str]:
    given = [w.capitalize() for w in _vocabulary(rng, 400)]
    surnames = [w.capitalize() + "son" for w in _vocabulary(rng, 2000)]
    return [f"{rng.choice(given)} {rng.choice(surnames)}" for _ in range(size)]


def arxiv_of(number: int) -> str:
    return f"2301.{number:05d}"


def synthetic_records(papers: int, seed: int = 7) -> list[PaperRecord]:
    rng = random.Random(seed)
    words = _vocabulary(rng, 3000)
    people = _people(rng, max(50, papers // 2))
    # Zipf: a few people write many papers (cumulative weights: random.choices sums them otherwise)
    weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(people))))
    records = []
    for number in range(papers):
        title = " ".join(rng.choice(words) for _ in range(rng.randint(5, 9))).capitalize()
        authors = []
        for name in rng.choices(people, cum_weights=weights, k=rng.randint(1, 4)):
            if rng.random() < 0.1:  # the same person written with an initial
                first, last = name.split(" ", 1)
                name = f"{first[0]}. {last}"
            if all(a.name != name for a in authors):
                authors.append(AuthorRecord(name))
        references = [
            ReferenceRecord(f"ref{k}", ordinal=k + 1, raw=f"{arxiv_of(cited)}", arxiv_id=arxiv_of(cited))
            for k, cited in enumerate(sorted({rng.randrange(number) for _ in range(3)} if number else set()))
        ]
        outside = " ".join(rng.choice(words) for _ in range(6)).capitalize()
        references.append(
            ReferenceRecord("outside", ordinal=len(references) + 1, raw=f"X. Nobody, {outside}, J. Sci. 3 (2001)")
        )
        section = SectionRecord(1, "1", "Introduction", 1, f"We build on [{1}].", {"ref0": 1} if number else {})
        records.append(
            PaperRecord(
                title=title,
                source="unarxive",
                arxiv_id=arxiv_of(number),
                abstract=" ".join(rng.choice(words) for _ in range(30)),
                date="2023-01-15",
                authors=authors,
                sections=[section],
                references=references,
            )
        )
    return records


def fill(library: Library, records: list[PaperRecord]) -> list[int]:
    """Store the records in one transaction, re-linked, as an import does (without its identity pass)."""
    with library.transaction():
        ids = [library.store_paper(record)[0] for record in records]
        library.relink()
    return ids
