"""unarXive JSONL: one paper per line, full text as paragraphs, bibliography with linked ids.

The format (unarXive 2022 open subset): ``metadata`` is arXiv's (title, authors_parsed, versions,
categories, journal-ref, doi, license); ``body_text`` is a list of paragraphs, each naming its
section (``section``, ``sec_number``, ``sec_type``) and holding ``{{cite:KEY}}``,
``{{formula:ID}}``, ``{{figure:ID}}`` and ``{{table:ID}}`` markers; ``bib_entries`` maps KEY to
the raw entry and the ids unarXive linked (arXiv, OpenAlex, DOI, PubMed); ``ref_entries`` holds
formula LaTeX and figure/table captions.

Quirks of real files handled here: subsection numbers restart per section ('1' under section 2
means 2.1), unnumbered sections have '-1', section titles may be empty, None, or contain
``{{cite:…}}``; the same (sub)section title recurs under different parents ("Methodology"), so a
section is a run of consecutive paragraphs, not a title.
"""

from __future__ import annotations

import re
from email.utils import parsedate_to_datetime
from typing import Any

from scholar_tui.core.library.schemas import UnarxiveLine, check
from scholar_tui.indexes.records import (
    AuthorRecord,
    PaperRecord,
    ReferenceRecord,
    SectionRecord,
    arxiv_id,
    clean_space,
    doi,
    openalex_id,
)

MARKER = re.compile(r"\{\{(cite|formula|figure|table):([^{}]+)\}\}")
LEVELS = {"section": 1, "subsection": 2, "subsubsection": 3}
YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")
RAW_ARXIV = re.compile(r"arXiv[:\s]*(?:abs/)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})", re.I)
RAW_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s,;]+)")


class UnarxiveFormatError(ValueError):
    """A line that is JSON but not an unarXive paper; the message says what is missing."""


def _render(text: str, ordinals: dict[str, int], ref_entries: dict[str, Any], mentions: dict[str, int] | None) -> str:
    """Markers become readable text: [n] for citations, $…$ for formulas, [Figure]/[Table]."""

    def replace(match: re.Match) -> str:
        kind, key = match.group(1), match.group(2)
        if kind == "cite":
            if mentions is not None and key in ordinals:
                mentions[key] = mentions.get(key, 0) + 1
            return f"[{ordinals[key]}]" if key in ordinals else "[?]"
        if kind == "formula":
            latex = (ref_entries.get(key) or {}).get("latex")
            return f"${' '.join(latex.split())}$" if latex and latex.strip() else "[formula]"
        return "[Figure]" if kind == "figure" else "[Table]"

    return MARKER.sub(replace, text)


def _date(metadata: dict) -> str | None:
    versions = metadata.get("versions") or []
    if versions and versions[0].get("created"):
        try:
            return parsedate_to_datetime(versions[0]["created"]).date().isoformat()
        except (TypeError, ValueError):
            pass
    update = metadata.get("update_date")
    return update if isinstance(update, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", update) else None


def _authors(metadata: dict) -> list[AuthorRecord]:
    parsed = metadata.get("authors_parsed")
    if parsed:
        authors = []
        for parts in parsed:
            last, first, suffix = (list(parts) + ["", "", ""])[:3]
            name = clean_space(" ".join(part for part in (first, last, suffix) if part))
            if name:
                authors.append(AuthorRecord(name=name))
        return authors
    raw = metadata.get("authors") or ""
    names = re.split(r",\s*|\s+and\s+", " ".join(raw.split()))
    return [AuthorRecord(name=name) for name in names if name]


def _references(bib_entries: dict[str, Any]) -> list[ReferenceRecord]:
    references = []
    for ordinal, (key, entry) in enumerate(bib_entries.items(), start=1):
        entry = entry or {}
        ids = entry.get("ids") or {}
        contained = [item.get("id") for item in entry.get("contained_arXiv_ids") or [] if isinstance(item, dict)]
        raw = clean_space(entry.get("bib_entry_raw"))
        years = YEAR.findall(raw or "")
        extra = {
            name: value
            for name, value in (
                ("sem_open_alex_id", ids.get("sem_open_alex_id")),
                ("pubmed_id", ids.get("pubmed_id")),
                ("pmc_id", ids.get("pmc_id")),
            )
            if value
        }
        links = [link.get("url") if isinstance(link, dict) else link for link in entry.get("contained_links") or []]
        if any(links):
            extra["links"] = " ".join(link for link in links if link)
        # unarXive links most entries; an identifier printed in the entry itself links the rest.
        in_raw_arxiv = RAW_ARXIV.search(raw or "")
        in_raw_doi = RAW_DOI.search(raw or "")
        references.append(
            ReferenceRecord(
                ref_key=key,
                ordinal=ordinal,
                raw=raw,
                year=int(years[-1]) if years else None,
                arxiv_id=arxiv_id(ids.get("arxiv_id"))
                or next((arxiv_id(c) for c in contained if arxiv_id(c)), None)
                or (arxiv_id(in_raw_arxiv.group(1)) if in_raw_arxiv else None),
                doi=doi(ids.get("doi")) or (doi(in_raw_doi.group(1).rstrip(".)")) if in_raw_doi else None),
                openalex_id=openalex_id(ids.get("open_alex_id")),
                ids=extra,
            )
        )
    return references


def _sections(body: list[dict], ordinals: dict[str, int], ref_entries: dict[str, Any]) -> list[SectionRecord]:
    sections: list[SectionRecord] = []
    numbers: list[str | None] = [None, None, None]
    current_key: tuple | None = None
    paragraphs: list[str] = []

    def close() -> None:
        if paragraphs:
            sections[-1].text = "\n\n".join(paragraphs)

    for paragraph in body:
        title_raw = paragraph.get("section")
        raw_number = str(paragraph.get("sec_number") or "").strip()
        kind = paragraph.get("sec_type") or ""
        key = (title_raw, raw_number, kind)
        if key != current_key:
            close()
            paragraphs = []
            current_key = key
            level = LEVELS.get(kind)
            number = None if raw_number in ("", "-1") else raw_number
            if level:
                numbers[level - 1] = number
                for deeper in range(level, 3):
                    numbers[deeper] = None
                if number and "." not in number and level > 1 and all(numbers[: level - 1]):
                    number = ".".join([*(part for part in numbers[: level - 1] if part), number])
            else:
                number = None  # paragraph headings ('On Metric Spaces.') carry local numbers only
            mentions: dict[str, int] = {}
            title = clean_space(_render(title_raw, ordinals, ref_entries, mentions)) if title_raw else None
            sections.append(
                SectionRecord(
                    ordinal=len(sections) + 1,
                    number=number,
                    title=title,
                    level=level or (4 if title else None),
                    text="",
                    reference_keys=mentions,
                )
            )
        text = paragraph.get("text") or ""
        rendered = _render(text, ordinals, ref_entries, sections[-1].reference_keys).strip()
        if rendered:
            paragraphs.append(rendered)
    close()
    return sections


def parse_paper(data: Any) -> PaperRecord:
    """One unarXive JSON object -> a PaperRecord; UnarxiveFormatError names what is missing."""
    if not isinstance(data, dict):
        raise UnarxiveFormatError(f"expected a JSON object, found {type(data).__name__}")
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        raise UnarxiveFormatError("no 'metadata' object")
    check(UnarxiveLine, data, UnarxiveFormatError)
    identifier = arxiv_id(str(data.get("paper_id") or metadata.get("id") or ""))
    if not identifier:
        raise UnarxiveFormatError(f"no valid arXiv id in 'paper_id' ({data.get('paper_id')!r})")
    title = clean_space(metadata.get("title"))
    if not title:
        raise UnarxiveFormatError(f"paper {identifier} has no title")
    body = data.get("body_text")
    if not isinstance(body, list):
        raise UnarxiveFormatError(f"paper {identifier} has no 'body_text' list")
    bib_entries = data.get("bib_entries") or {}
    ref_entries = data.get("ref_entries") or {}
    if not isinstance(bib_entries, dict) or not isinstance(ref_entries, dict):
        raise UnarxiveFormatError(f"paper {identifier}: 'bib_entries' and 'ref_entries' must be objects")
    ordinals = {key: index for index, key in enumerate(bib_entries, start=1)}
    abstract = metadata.get("abstract") or (data.get("abstract") or {}).get("text")
    journal = clean_space(metadata.get("journal-ref"))
    return PaperRecord(
        title=title,
        source="unarxive",
        arxiv_id=identifier,
        doi=doi(metadata.get("doi")),
        abstract=clean_space(abstract),
        date=_date(metadata),
        venue=journal or "arXiv",
        categories=(metadata.get("categories") or "").split(),
        url=f"https://arxiv.org/abs/{identifier}",
        license=metadata.get("license"),
        discipline=data.get("discipline"),
        authors=_authors(metadata),
        sections=_sections(body, ordinals, ref_entries),
        references=_references(bib_entries),
    )
