"""A paper's reference list: lines split into entries, each entry read into its fields.

Entries are split on their printed labels (``[12]``, ``(12)``, ``12.``) when the list is numbered,
else on the hanging indent (the first line of an entry starts at the column's left edge, the rest
are indented), else on blocks. Fields are read from the common styles: ACS/RSC
(``Surname, I.; Surname, I. Title. Venue Year, vol, pages``), ACL/APA/natbib
(``Names. Year. Title. Venue``), IEEE (``I. Surname, "Title," Venue, Year``). What a style does
not give stays None; the raw entry is always kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from scholar_tui.core.library.pdf_layout import Line, without_raised
from scholar_tui.indexes.records import ReferenceRecord, arxiv_id, doi

LABEL = re.compile(r"^\s*(?:\[(\d{1,4})\]|\((\d{1,4})\)|(\d{1,4})\.(?=\s))\s*")
YEAR = re.compile(r"(?<![\d/.])((?:19[5-9]|20[0-4])\d)([a-z])?(?![\d])")
ARXIV_IN = re.compile(r"arXiv[:\s]*(?:abs/)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})", re.I)
ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})", re.I)
DOI_IN = re.compile(r"(?:doi(?:\.org)?[:/]\s*|\b)(10\.\d{4,9}/[^\s,;]+)", re.I)
QUOTED = re.compile(r"[“\"]([^”\"]{8,}?)[,.]?[”\"]")
# ACS: "Surname, I. J.; Surname, I.;" … the last author ends with the initials' period.
ACS_AUTHORS = re.compile(
    r"^((?:[^;.]{1,60}?,\s(?:[A-Z][a-z]?\.[\s\-]?)+;\s*)*[^;.]{1,60}?,\s(?:[A-Z][a-z]?\.[\s\-]?)+)\s*"
)
# ACL/natbib: "Names. 2024. Title. Venue."
NAMES_YEAR = re.compile(r"^(.{3,600}?)\.\s+((?:19|20)\d\d[a-z]?)\.\s+(.+)$")
# APA: "Names (2020). Title. Venue."
NAMES_PAREN_YEAR = re.compile(r"^(.{3,600}?)\s\(((?:19|20)\d\d[a-z]?)\)\.?\s+(.+)$")


@dataclass
class Entry:
    label: int | None
    page: int
    lines: list[str] = field(default_factory=list)

    @property
    def raw(self) -> str:
        text = ""
        for line in self.lines:
            if text.endswith("\x02"):
                text = text[:-1] + line
            elif re.search(r"[A-Z]\.-$", text):
                text = text + line  # 'K.-' + 'R.;': hyphenated initials
            elif (
                text.endswith("-")
                and re.search(r"[a-z]-$", text)
                and line[:1].islower()
                and not re.search(r"(?:https?:|www\.)\S*$", text)
            ):
                text = text + line  # a hyphen the PDF printed as text; 'blood-brain' loses nothing here
            elif text.endswith(("/", "_")) or (
                re.search(r"(?:https?://|www\.|doi\.org)\S*$", text) and not line[:1].isupper()
            ):
                text = text + line  # a URL or DOI broken over two lines
            else:
                text = f"{text} {line}" if text else line
        return " ".join(without_raised(text.replace("\x02", "")).split())


def split_entries(lines: list[Line]) -> list[Entry]:
    """The reference list's lines as entries (see the module doc for the rules)."""
    lines = [line for line in lines if line.text.strip()]
    if not lines:
        return []
    labelled = sum(1 for line in lines if LABEL.match(line.text))
    if labelled >= 3:
        return _split_on_labels(lines)
    return _split_on_indent(lines)


def _label(text: str) -> int | None:
    match = LABEL.match(text)
    if not match:
        return None
    return int(next(group for group in match.groups() if group))


def _split_on_labels(lines: list[Line]) -> list[Entry]:
    entries: list[Entry] = []
    for line in lines:
        label = _label(line.text)
        expected = (entries[-1].label or 0) + 1 if entries else None
        if label is not None and (expected is None or label == expected or (not entries and label <= 2)):
            entries.append(Entry(label, line.page, [LABEL.sub("", line.text, count=1)]))
        elif entries:
            entries[-1].lines.append(line.text)
    return entries


def _split_on_indent(lines: list[Line]) -> list[Entry]:
    """Hanging indent: a line at its column's left edge starts an entry."""
    lefts: dict[tuple[int, bool], float] = {}
    for line in lines:
        key = (line.page, _right_column(line, lines))
        lefts[key] = min(lefts.get(key, line.x0), line.x0)
    indented_somewhere = any(line.x0 > lefts[(line.page, _right_column(line, lines))] + 3 for line in lines)
    entries: list[Entry] = []
    previous: Line | None = None
    for line in lines:
        left = lefts[(line.page, _right_column(line, lines))]
        at_edge = line.x0 <= left + 3
        if indented_somewhere:
            starts = at_edge
        else:  # no hanging indent: entries are blocks
            starts = previous is None or line.block != previous.block or line.page != previous.page
        if starts or not entries:
            entries.append(Entry(None, line.page, [line.text]))
        else:
            entries[-1].lines.append(line.text)
        previous = line
    return entries


def _right_column(line: Line, lines: list[Line]) -> bool:
    page_right = max(other.x1 for other in lines if other.page == line.page)
    page_left = min(other.x0 for other in lines if other.page == line.page)
    return line.x0 > (page_left + page_right) / 2 - 20 and page_right - page_left > 300


def parse_entry(raw: str) -> dict:
    """authors, title, year (with its a/b suffix), venue, doi and arXiv id of one entry's text."""
    found_doi = DOI_IN.search(raw)
    found_arxiv = ARXIV_IN.search(raw) or ARXIV_URL.search(raw)
    fields: dict[str, Any] = {
        "authors": [],
        "title": None,
        "year": None,
        "suffix": "",
        "venue": None,
        "doi": doi(found_doi.group(1).rstrip(".)")) if found_doi else None,
        "arxiv_id": arxiv_id(found_arxiv.group(1)) if found_arxiv else None,
    }
    text = re.sub(r"\s*(?:https?://\S+|doi:\s*\S+|PMID:\s*\d+\.?)", "", raw).strip()
    for reader in (_acs, _names_year, _names_paren_year, _ieee, _fallback):
        read = reader(text)
        if read:
            fields.update({key: value for key, value in read.items() if value})
            break
    years = YEAR.findall(raw)
    if fields["year"] is None and years:
        fields["year"], fields["suffix"] = int(years[-1][0]), years[-1][1]
    if fields["title"]:
        fields["title"] = fields["title"].strip(' .,;:“”"')
    if fields["venue"]:
        fields["venue"] = _venue(fields["venue"])
    return fields


def _venue(text: str) -> str | None:
    """'In ICML, 2017. arXiv:1704.01212.' -> 'ICML'; 'Nature 2020, 5, 1–9' -> 'Nature'."""
    text = re.sub(r"^in\s+", "", text.strip(), flags=re.I)
    text = re.split(
        r"[,(]?\s*(?:19|20)\d\d\b|\barXiv\b|\bdoi\b|\bURL\b|,\s*(?:\d|pages?\b|pp\.|vol)", text, maxsplit=1, flags=re.I
    )[0]
    return text.strip(" ,.;:") or None


def _split_names(text: str) -> list[str]:
    text = re.sub(r",?\s+(?:and|&)\s+", ", ", text.strip())
    text = re.sub(r"\bet al\.?", "", text)
    names = [" ".join(name.split()) for name in text.split(",")]
    return [name for name in names if re.search(r"[A-Za-z]{2}", name) and len(name) < 60]


def _acs(text: str) -> dict | None:
    match = ACS_AUTHORS.match(text)
    if not match or ";" not in match.group(1) and not re.match(r"^[^,]{2,40}, (?:[A-Z]\.\s?)+\s", text):
        return None
    authors = [" ".join(part.split()) for part in match.group(1).split(";") if part.strip()]
    authors = [_surname_first(name) for name in authors]
    title, venue = _title_then_rest(text[match.end() :])
    year = YEAR.search(venue or "")
    venue_name = re.split(r"\s(?:19|20)\d\d\b", venue)[0].strip(" ,.") if venue else None
    return {
        "authors": authors,
        "title": title,
        "venue": venue_name or None,
        "year": int(year.group(1)) if year else None,
        "suffix": year.group(2) or "" if year else "",
    }


def _surname_first(name: str) -> str:
    """'Keith, J. A.' -> 'J. A. Keith'."""
    surname, _, given = name.partition(",")
    return f"{given.strip()} {surname.strip()}".strip() if given.strip() else surname.strip()


def _names_then_year(pattern: re.Pattern, text: str) -> dict | None:
    """An entry printed as names, year (bare or in parentheses), then title and venue: ``pattern``'s
    groups are the names, the year with its letter (2020a), and the rest."""
    match = pattern.match(text)
    if not match:
        return None
    title, venue = _title_then_rest(match.group(3))
    year = match.group(2)
    return {
        "authors": _split_names(match.group(1)),
        "title": title,
        "venue": venue.strip(" .") or None,
        "year": int(year[:4]),
        "suffix": year[4:],
    }


def _names_year(text: str) -> dict | None:
    return _names_then_year(NAMES_YEAR, text)


def _title_then_rest(text: str) -> tuple[str, str]:
    """A title ends at its first '. ' (or at '? ' / '! ', which it keeps) before the venue."""
    found = re.search(r"(?<!\d)\.\s+(?=\S)|(?<=[?!])\s+(?=[A-Z])", text)
    if not found:
        return text, ""
    return text[: found.start()], text[found.end() :]


def _names_paren_year(text: str) -> dict | None:
    return _names_then_year(NAMES_PAREN_YEAR, text)


def _ieee(text: str) -> dict | None:
    match = QUOTED.search(text)
    if not match:
        return None
    venue = text[match.end() :].strip(" ,.")
    venue = re.sub(r"^in\s+", "", venue, flags=re.I)
    return {
        "authors": _split_names(text[: match.start()].strip(" ,")),
        "title": match.group(1),
        "venue": re.split(r",\s", venue)[0] or None,
    }


def _fallback(text: str) -> dict | None:
    """Names. Title. Venue — the sentence after the names is the title."""
    parts = [part for part in re.split(r"(?<=[a-z0-9\)])\.\s+(?=[A-Z0-9])", text) if part.strip()]
    if len(parts) >= 2:
        return {"authors": _split_names(parts[0]), "title": parts[1], "venue": ". ".join(parts[2:]) or None}
    return {"title": text} if len(text) > 20 else None


def references_from(entries: list[Entry]) -> tuple[list[ReferenceRecord], list[dict]]:
    """ReferenceRecords (ordinal = the printed label, else the position) and the parsed fields."""
    records, parsed = [], []
    for position, entry in enumerate(entries, start=1):
        raw = entry.raw
        if not raw:
            continue
        fields = parse_entry(raw)
        ordinal = entry.label or position
        ids = {"page": str(entry.page)}
        records.append(
            ReferenceRecord(
                ref_key=f"pdf:{ordinal}",
                ordinal=ordinal,
                raw=raw[:2000],
                title=fields["title"],
                year=fields["year"],
                arxiv_id=fields["arxiv_id"],
                doi=fields["doi"],
                authors=fields["authors"][:100],
                venue=fields["venue"],
                ids=ids,
            )
        )
        parsed.append(fields)
    return records, parsed
