"""In-text citations linked to reference entries, written as ``[n]`` markers PaSa reads.

PaSa's [Expand] finds the sentences citing a paper by the ``[n]`` markers of a section's text (the
form unArXive's papers have, ``core.pasa.citation_context``). A PDF cites in one of two ways:

- numbered: ``[12]``, ``[3, 5–7]``, superscripts (already ``[…]`` from the layout), or ``(149)``
  when the reference list is labelled that way and nothing else cites; each number is checked
  against the printed labels and a range is expanded (``[5–7]`` → ``[5], [6], [7]``);
- author–year: ``He et al., 2025``, ``(Smith and Jones, 2020; Lee, 2019a)``, ``Smith (2020)``: each
  year is matched to an entry of that year whose first author's surname is written just before it
  (and the second author's, for "X and Y"), and ``[n]`` is added after the year, the text kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scholar_tui.core.library.pdf_layout import RAISED
from scholar_tui.indexes.records import fold

NUMBERED = re.compile(r"\[(\d{1,4}(?:\s*[,;–\-]\s*\d{1,4})*)\]")
PARENTHESISED = re.compile(r"\((\d{1,4}(?:\s*[,;–\-]\s*\d{1,4})*)\)")
YEAR_IN_TEXT = re.compile(r"(?<![\d./\-])((?:19[5-9]|20[0-4])\d)([a-z])?(?![\d\-])")
MARK_AFTER_STOP = re.compile(r"([.!?])\s*(\[\d+\](?:,\s*\[\d+\])*)(?=\s+[A-Z\u201c\"(]|\s*$)")
MAX_RANGE = 40  # '[1–200]' is not a citation of 200 papers
LOOK_BACK = 90  # characters before a year in which its authors are written


@dataclass
class AuthorYear:
    ordinal: int
    year: int
    suffix: str
    surnames: list[str]  # folded, first author first


@dataclass
class CitationIndex:
    style: str  # "numbered" | "parenthesised" | "author-year"
    labels: set[int] = field(default_factory=set)
    by_year: dict[int, list[AuthorYear]] = field(default_factory=dict)

    @classmethod
    def build(cls, style: str, references: list, parsed: list[dict]) -> "CitationIndex":
        index = cls(style, {reference.ordinal for reference in references})
        for reference, fields in zip(references, parsed, strict=False):
            if fields.get("year") is None:
                continue
            surnames = [_surname(name) for name in fields.get("authors") or []]
            surnames = [name for name in surnames if name]
            if surnames:
                index.by_year.setdefault(fields["year"], []).append(
                    AuthorYear(reference.ordinal, fields["year"], fields.get("suffix") or "", surnames)
                )
        return index


def _surname(name: str) -> str:
    words = fold(name).split()
    while words and len(words[-1]) == 1 and len(words) > 1:  # 'Smith J' (initials after)
        words.pop()
    return words[-1] if words else ""


def _numbers(inside: str) -> list[int]:
    numbers: list[int] = []
    for part in re.split(r"\s*[,;]\s*", inside.strip()):
        bounds = re.split(r"\s*[–\-]\s*", part)
        if len(bounds) == 2 and bounds[0].isdigit() and bounds[1].isdigit():
            low, high = int(bounds[0]), int(bounds[1])
            if low < high and high - low <= MAX_RANGE:
                numbers.extend(range(low, high + 1))
                continue
        numbers.extend(int(bound) for bound in bounds if bound.isdigit())
    return numbers


def link(text: str, index: CitationIndex, mentions: dict[int, int]) -> str:
    """``text`` with its citations as ``[n]`` markers; ``mentions`` counts each ordinal cited.
    Raised digits are citations in a numbered paper and footnote marks (dropped) otherwise."""
    if index.style == "author-year":
        return _link_author_year(" ".join(RAISED.sub(" ", text).split(" ")), index, mentions)
    pattern = PARENTHESISED if index.style == "parenthesised" else NUMBERED

    def replace(match: re.Match) -> str:
        known = [number for number in _numbers(match.group(1)) if number in index.labels]
        if not known:
            return "" if match.re is RAISED else match.group(0)  # an unknown raised number: a footnote mark
        for number in known:
            mentions[number] = mentions.get(number, 0) + 1
        return ", ".join(f"[{number}]" for number in dict.fromkeys(known))

    linked = RAISED.sub(replace, pattern.sub(replace, text))
    # 'learning.¹ Graphs …': a mark printed after the full stop cites the sentence before it
    return MARK_AFTER_STOP.sub(r" \2\1", linked)


def _link_author_year(text: str, index: CitationIndex, mentions: dict[int, int]) -> str:
    pieces: list[str] = []
    last = 0
    previous_end = 0
    previous_authors = ""  # 'Gusenbauer and Haddaway, 2021, 2020': the second year has the same authors
    for match in YEAR_IN_TEXT.finditer(text):
        year, suffix = int(match.group(1)), match.group(2) or ""
        candidates = index.by_year.get(year)
        if not candidates:
            continue
        start = max(previous_end, match.start() - LOOK_BACK)
        window = text[start : match.start()]
        # the authors of this citation, not the previous sentence's ('et al.' and initials do not end it)
        window = re.split(r";|(?<!\bal)(?<!\b[A-Z])\.(?=\s)", window)[-1]
        if previous_end and match.start() - previous_end < 4 and not re.search(r"[A-Za-z]", window):
            window = previous_authors
        ordinal = _best(window, suffix, candidates)
        if ordinal is None:
            continue
        previous_authors = window
        mentions[ordinal] = mentions.get(ordinal, 0) + 1
        end = match.end()
        pieces.append(text[last:end])
        pieces.append(f" [{ordinal}]")
        last = previous_end = end
    pieces.append(text[last:])
    return "".join(pieces)


def _best(window: str, suffix: str, candidates: list[AuthorYear]) -> int | None:
    words = fold(window).split()
    best: tuple[int, int] | None = None
    best_ordinal = None
    for candidate in candidates:
        if suffix and candidate.suffix and suffix != candidate.suffix:
            continue
        first = candidate.surnames[0]
        if first not in words:
            continue
        position = len(words) - 1 - words[::-1].index(first)
        score = position + (3 if len(candidate.surnames) > 1 and candidate.surnames[1] in words else 0)
        score += 2 if suffix and suffix == candidate.suffix else 0
        if len(words) - position > 12:  # the name is too far from the year to be its author
            continue
        if best is None or score > best[0]:
            best, best_ordinal = (score, candidate.ordinal), candidate.ordinal
    return best_ordinal
