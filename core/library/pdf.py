"""A research paper's PDF as a PaperRecord: front matter, sections with pages, references, citations.

``read_pdf(path)`` is the built-in reader (pdftext on PDFium, no server): the layout's lines
(``pdf_layout``) are sorted into front matter (title, authors, abstract), headings and body
paragraphs, and the reference list (``pdf_references``); every in-text citation of the body becomes
an ``[n]`` marker linked to its entry (``pdf_citations``), so PaSa can [Expand] a PDF's sections
with citation contexts exactly as it does an unArXive paper's. Every section keeps the page it
starts on and where each later page begins in its text (``SectionRecord.pages``), so a paragraph
or a citing sentence can be cited as "p. 7".

With ``grobid_url`` the PDF goes to a GROBID server instead and its TEI is read (``grobid``).

A file that cannot be read raises ``PdfError`` (one line); a page that cannot be read is skipped
and named in ``PaperRecord.notes``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from scholar_tui.core.library.pdf_citations import CitationIndex, link
from scholar_tui.core.library.pdf_layout import (
    RAISED_OPEN,
    Layout,
    Line,
    PdfError,
    median_gap,
    read_layout,
    render_lines,
    without_raised,
)
from scholar_tui.core.library.pdf_references import references_from, split_entries
from scholar_tui.indexes.records import AuthorRecord, PaperRecord, SectionRecord, arxiv_id, clean_space, doi

__all__ = ["PdfError", "read_pdf"]

ARXIV_STAMP = re.compile(r"arXiv:(\d{4}\.\d{4,5})(v\d+)?\s*\[[^\]]+\]\s*(\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4})?")
DOI_PRINTED = re.compile(r"(?:doi(?:\.org)?[:/]\s*)(10\.\d{4,9}/[^\s,;]+)", re.I)
NUMBERED_HEADING = re.compile(r"^((?:\d{1,2}|[A-Z]|[IVX]{1,4})(?:\.\d{1,2}){0,3})\.?\s+(\S.*)$")
REFERENCES_HEADING = re.compile(
    r"^(?:references?|bibliography|literature cited|works cited|references and notes)$", re.I
)
ABSTRACT_HEADING = re.compile(r"^abstract\b[\s.:—–-]*", re.I)
AFFILIATION = re.compile(
    r"univ|institut|depart|dept\.|laborator|\blab\b|research|school|college|academy|\binc\b|ltd|"
    r"corporation|company|center|centre|hospital|@|e-?mail|faculty|\d{5}",
    re.I,
)
KNOWN_UNNUMBERED = re.compile(
    r"^(?:abstract|introduction|references?|bibliography|acknowledge?ments?|appendix|appendices|"
    r"conclusions?|discussion|related work|supplementary|limitations|ethics statement|"
    r"author contributions|conflicts? of interest|funding|data availability)\b",
    re.I,
)
NOT_HEADING = re.compile(r"^(?:table|figure|fig\.|algorithm|listing|equation|proof|theorem|lemma|definition)\b", re.I)
PAGE_MARK = 0xF0000  # a private-use character per page inside paragraph text, removed when stored
SENTENCE_END = (".", ":", "?", "!")


@dataclass
class Heading:
    line: Line
    number: str | None
    title: str
    level: int


@dataclass
class Draft:
    """A section being filled: its heading and paragraphs (each a list of lines)."""

    heading: Heading | None
    paragraphs: list[list[Line]] = field(default_factory=list)


def read_pdf(path: Path, *, grobid_url: str | None = None, grobid_timeout_s: float = 120.0) -> PaperRecord:
    """The paper in ``path``; ``PdfError`` (one line) when it cannot be read."""
    path = Path(path)
    if grobid_url:
        from scholar_tui.core.library.grobid import read_with_grobid

        return read_with_grobid(path, grobid_url, timeout_s=grobid_timeout_s)
    layout = read_layout(path)
    render_lines(layout)
    front, drafts, entries = _split_paper(_body_lines(layout), layout.body_size)
    references, parsed = references_from(entries)
    numbered_list = any(entry.label is not None for entry in entries)
    index = CitationIndex.build(_citation_style(numbered_list, drafts), references, parsed)
    abstract = _abstract(front, drafts)  # takes the abstract's draft out of the sections
    sections = [section for section in _sections(drafts, index) if section.text or section.title]
    title, authors = _title_and_authors(front, layout)
    record = PaperRecord(
        title=title or clean_space(layout.metadata.get("Title")) or path.stem,
        source="pdf",
        abstract=abstract,
        authors=[AuthorRecord(name=name) for name in authors],
        sections=sections,
        references=references,
        pdf_path=str(path.resolve()),
        notes=list(layout.skipped_pages),
    )
    _identify(record, layout)
    return record


def _split_paper(lines: list[Line], body_size: float) -> tuple[list[Line], list[Draft], list]:
    """Front matter, the section drafts, and the reference list's entries."""
    headings = _headings(lines, body_size)
    heading_at = {id(heading.line): heading for heading in headings}
    references_at = next(
        (
            i
            for i, line in enumerate(lines)
            if id(line) in heading_at and REFERENCES_HEADING.match(heading_at[id(line)].title)
        ),
        None,
    )
    _letters_only_in_appendices(lines, heading_at, references_at)
    after_references = _end_of_references(lines, references_at, heading_at)
    front, drafts = _drafts(lines, heading_at, references_at, after_references)
    reference_lines = lines[references_at + 1 : after_references] if references_at is not None else []
    return front, drafts, split_entries(reference_lines)


def _identify(record: PaperRecord, layout: Layout) -> None:
    """arXiv id and date from arXiv's side stamp, a DOI printed on page 1, else the PDF's creation date."""
    stamp = _arxiv_stamp(layout)
    identifier = arxiv_id(stamp.group(1)) if stamp else None
    printed_doi = DOI_PRINTED.search(" ".join(line.text for line in layout.lines if line.page == 1))
    record.arxiv_id = identifier
    record.doi = doi(printed_doi.group(1).rstrip(".)")) if printed_doi else None
    record.date = _date(stamp, layout)
    record.year = int(record.date[:4]) if record.date else None
    if identifier:
        record.venue, record.url = "arXiv", f"https://arxiv.org/abs/{identifier}"


# -- lines ---------------------------------------------------------------------------------------
def _arxiv_stamp(layout: Layout) -> re.Match | None:
    for line in layout.lines:
        if line.page == 1:
            found = ARXIV_STAMP.search(line.text)
            if found:
                return found
    return None


def _body_lines(layout: Layout) -> list[Line]:
    """Lines that carry the paper's text: no page numbers, running heads, side stamps, footnotes
    or figure labels (set smaller than the body)."""
    repeated = _running_heads(layout.lines)
    # Reference lists are often set smaller than the body (IEEE: 8 pt under 10 pt): from the last
    # 'References' line on, only text much smaller than the body (figure labels) is dropped.
    starts = [
        i
        for i, line in enumerate(layout.lines)
        if REFERENCES_HEADING.match(re.sub(r"^\d{1,2}\.?\s+", "", without_raised(line.text).strip()))
    ]
    small_from = starts[-1] if starts else len(layout.lines)
    kept = []
    for position, line in enumerate(layout.lines):
        text = line.text.strip()
        if not text or re.fullmatch(r"[\divxlc]{1,4}|page \d+( of \d+)?", text, flags=re.I):
            continue
        if ARXIV_STAMP.search(text) or (line.y1 - line.y0) > 2.5 * max(1.0, line.x1 - line.x0):
            continue
        if _head_key(line) in repeated:
            continue
        if line.size < layout.body_size * (0.88 if position < small_from else 0.6) and not line.bold:
            continue
        kept.append(line)
    return kept


def _head_key(line: Line) -> str:
    return re.sub(r"\d+", "#", line.text.strip().lower())


def _running_heads(lines: list[Line]) -> set[str]:
    """Text printed at the top or bottom of at least three pages (journal name, short title)."""
    by_page: dict[int, list[Line]] = {}
    for line in lines:
        by_page.setdefault(line.page, []).append(line)
    counts: dict[str, int] = {}
    for page_lines in by_page.values():
        ends = sorted(page_lines, key=lambda line: line.y0)
        for line in {id(line): line for line in ends[:2] + ends[-2:]}.values():
            key = _head_key(line)
            if len(key) > 3:
                counts[key] = counts.get(key, 0) + 1
    return {key for key, count in counts.items() if count >= 3}


def _headings(lines: list[Line], body: float) -> list[Heading]:
    """Lines set apart as headings: bold or larger than the body, short, alone in their block."""
    blocks: dict[tuple[int, int], list[Line]] = {}
    for line in lines:
        blocks.setdefault((line.page, line.block), []).append(line)
    candidates = []
    for line in lines:
        text = line.text.strip()
        styled = line.bold or line.size > body * 1.12
        block = blocks[(line.page, line.block)]
        alone = all(other.bold or other.size > body * 1.12 for other in block) and len(block) <= 3
        # A heading pdftext grouped with the paragraph below it still opens its block.
        alone = alone or (block[0] is line and bool(NUMBERED_HEADING.match(text) or KNOWN_UNNUMBERED.fullmatch(text)))
        if (
            styled
            and alone
            and 2 < len(text) < 110
            and not NOT_HEADING.match(text)
            and re.match(r"[A-Z0-9IVX]", text)
            and sum(c.isalpha() for c in text) >= 3
            and not text.endswith((",", ";"))
            and sum(c.isdigit() for c in text) <= len(text) * 0.3
        ):
            candidates.append(line)
    candidates = _after_front_matter(candidates)
    sizes = sorted({round(line.size) for line in candidates}, reverse=True)
    headings = []
    for line in candidates:
        text = line.text.strip()
        numbered = NUMBERED_HEADING.match(text)
        number, title = (
            (numbered.group(1), numbered.group(2)) if numbered and len(numbered.group(2)) > 2 else (None, text)
        )
        if number and re.fullmatch(r"[A-Z]", number) and not line.bold:
            number, title = None, text
        level = number.count(".") + 1 if number else min(3, sizes.index(round(line.size)) + 1)
        headings.append(Heading(line, number, without_raised(title).rstrip(". "), level))
    numbered_count = sum(1 for heading in headings if heading.number)
    if numbered_count >= 3:  # numbered sections: an unnumbered bold line is a table head or a box title
        headings = [heading for heading in headings if heading.number or KNOWN_UNNUMBERED.match(heading.title)]
    return _merge_two_line_headings(headings)


def _after_front_matter(candidates: list[Line]) -> list[Line]:
    """The title and author lines are large or bold too: page 1's headings start at 'Abstract',
    'Introduction' or the first numbered heading."""
    for position, line in enumerate(candidates):
        text = line.text.strip()
        if (
            line.page > 1
            or ABSTRACT_HEADING.match(text)
            or re.match(r"\d{1,2}\.?\s+[A-Z]", text)
            or KNOWN_UNNUMBERED.match(text)
        ):
            return candidates[position:]
    return candidates


def _letters_only_in_appendices(lines: list[Line], heading_at: dict[int, Heading], references_at: int | None) -> None:
    """'A Perspective on …' is a title, not appendix A: letter numbers count after the references."""
    for position, line in enumerate(lines):
        heading = heading_at.get(id(line))
        if (
            heading
            and heading.number
            and heading.number[0].isalpha()
            and (references_at is None or position < references_at)
        ):
            heading.number, heading.title = None, without_raised(line.text.strip()).rstrip(". ")


def _merge_two_line_headings(headings: list[Heading]) -> list[Heading]:
    """A title broken over two lines of one block is one heading."""
    merged: list[Heading] = []
    for heading in headings:
        previous = merged[-1] if merged else None
        if (
            previous
            and previous.line.page == heading.line.page
            and previous.line.block == heading.line.block
            and heading.number is None
            and previous.level == heading.level
        ):
            previous.title = f"{previous.title} {heading.title}"
            heading.line.text = ""  # its words now live in the previous heading
            continue
        merged.append(heading)
    return merged


def _end_of_references(lines: list[Line], start: int | None, heading_at: dict[int, Heading]) -> int:
    """Where the reference list stops: the next heading (an appendix), else the end."""
    if start is None:
        return len(lines)
    for position in range(start + 1, len(lines)):
        if id(lines[position]) in heading_at and lines[position].text:
            return position
    return len(lines)


# -- sections ------------------------------------------------------------------------------------
def _drafts(
    lines: list[Line], heading_at: dict[int, Heading], references_at: int | None, after_references: int
) -> tuple[list[Line], list[Draft]]:
    """Front matter (lines before the first heading that is not 'Abstract') and section drafts."""
    front: list[Line] = []
    drafts: list[Draft] = []
    gap = median_gap(lines)
    for position, line in enumerate(lines):
        if references_at is not None and references_at <= position < after_references:
            continue
        heading = heading_at.get(id(line))
        if heading is not None:
            if line.text:  # a second heading line merged into the first is empty
                drafts.append(Draft(heading))
            continue
        if not drafts:
            front.append(line)
            continue
        draft = drafts[-1]
        if not draft.paragraphs or _starts_paragraph(draft.paragraphs[-1][-1], line, lines, position, gap):
            draft.paragraphs.append([line])
        else:
            draft.paragraphs[-1].append(line)
    return front, drafts


def _starts_paragraph(previous: Line, line: Line, lines: list[Line], position: int, gap: float) -> bool:
    if line.page != previous.page or abs(line.x0 - previous.x0) > 150:  # a new page or column continues
        return previous.text.rstrip().endswith(SENTENCE_END) and _indented(line, lines, position)
    if line.y0 - previous.y0 > gap * 1.6:
        return True
    if _indented(line, lines, position) and previous.text.rstrip().endswith(SENTENCE_END):
        return True
    return previous.text.rstrip().endswith(SENTENCE_END) and previous.x1 < _column_right(previous, lines, position) - 40


def _indented(line: Line, lines: list[Line], position: int) -> bool:
    following = lines[position + 1] if position + 1 < len(lines) else None
    return bool(following and following.page == line.page and 4 < line.x0 - following.x0 < 40)


def _column_right(line: Line, lines: list[Line], position: int) -> float:
    nearby = lines[max(0, position - 12) : position + 12]
    return max(
        (other.x1 for other in nearby if other.page == line.page and abs(other.x0 - line.x0) < 30), default=line.x1
    )


def _join(paragraph: list[Line]) -> str:
    """The paragraph's lines as one text, a page mark where a new page starts, hyphens healed."""
    text = ""
    page = None
    for line in paragraph:
        piece = line.text.strip()
        if line.page != page:
            piece = chr(PAGE_MARK + line.page) + piece
            page = line.page
        if text.endswith("\x02"):
            text = text[:-1] + piece
        elif re.search(r"[a-z]-$", text) and re.match(r"[\U000F0000-\U000F0FFF]?[a-z]", piece):
            text = text[:-1] + piece  # 'solubil-' + 'ity': a hyphen PDFium did not mark as soft
        else:
            text = f"{text} {piece}" if text else piece
    return text.replace("\x02", "")


def _sections(drafts: list[Draft], index: CitationIndex) -> list[SectionRecord]:
    sections = []
    for ordinal, draft in enumerate(drafts, start=1):
        heading = draft.heading
        mentions: dict[int, int] = {}
        texts = [link(_join(paragraph), index, mentions) for paragraph in draft.paragraphs]
        text, pages = _strip_page_marks("\n\n".join(texts))
        sections.append(
            SectionRecord(
                ordinal=ordinal,
                number=heading.number if heading else None,
                title=heading.title if heading else None,
                level=heading.level if heading else None,
                text=text,
                reference_keys={f"pdf:{number}": count for number, count in mentions.items()},
                page=heading.line.page if heading else (pages[0][1] if pages else None),
                pages=pages,
            )
        )
    return sections


def _strip_page_marks(text: str) -> tuple[str, list[list[int]]]:
    pages: list[list[int]] = []
    out = []
    length = 0
    for char in text:
        code = ord(char)
        if code >= PAGE_MARK:
            page = code - PAGE_MARK
            if not pages or pages[-1][1] != page:
                pages.append([length, page])
            continue
        out.append(char)
        length += 1
    return "".join(out), pages


def _citation_style(numbered_list: bool, drafts: list[Draft]) -> str:
    """Numbered (brackets or superscripts), numbers in parentheses, or author–year."""
    if numbered_list:
        body = " ".join(line.text for draft in drafts for paragraph in draft.paragraphs for line in paragraph)
        marked = len(re.findall(r"\[\d{1,4}(?:\s*[,;–\-]\s*\d{1,4})*\]", body)) + body.count(RAISED_OPEN)
        parenthesised = len(re.findall(r"\(\d{1,4}(?:\s*[,–\-]\s*\d{1,4})*\)", body))
        # '(12)' is also how equations are numbered: it cites only where nothing else does
        return "parenthesised" if parenthesised > 5 * marked or (parenthesised and not marked) else "numbered"
    return "author-year"


# -- front matter --------------------------------------------------------------------------------
def _title_and_authors(front: list[Line], layout: Layout) -> tuple[str | None, list[str]]:
    first_page = [line for line in front if line.page == 1] or [line for line in layout.lines if line.page == 1][:30]
    runs: list[list[Line]] = []
    for line in first_page:
        if runs and runs[-1][-1].size == line.size and line.y0 - runs[-1][-1].y1 < line.size * 1.5:
            runs[-1].append(line)
        else:
            runs.append([line])
    titled = [run for run in runs if len(" ".join(line.text for line in run).split()) >= 3]
    if not titled:
        return None, []
    title_run = max(titled, key=lambda run: (run[0].size, -first_page.index(run[0])))
    title = clean_space(without_raised(" ".join(line.text for line in title_run)))
    after = first_page[first_page.index(title_run[-1]) + 1 :]
    return title, _authors(after)


def _authors(lines: list[Line]) -> list[str]:
    names: list[str] = []
    for line in lines[:8]:
        text = "".join(" , " if raised else part for part, raised in line.parts)
        if AFFILIATION.search(text) or ABSTRACT_HEADING.match(line.text):
            break
        text = re.sub(r"[†‡∗*¶§♯♮♭⋆✝✉]+|\d+", " , ", text)
        text = re.sub(r"\s+(?:and|&)\s+|^\s*and\s+", " , ", text)
        for name in text.split(","):
            name = " ".join(name.split())
            if _plausible_name(name):
                names.append(name)
            elif (
                name
                and names
                and re.fullmatch(r"[A-Z][\w.\-']*(?: [A-Z][\w.\-']*)?", name)
                and len(names[-1].split()) == 1
            ):
                names[-1] = f"{names[-1]} {name}"
    merged: list[str] = []
    for name in names:  # 'Andrew' at a line's end, 'D. White' on the next
        if merged and len(merged[-1].split()) == 1:
            merged[-1] = f"{merged[-1]} {name}"
        else:
            merged.append(name)
    return [name for name in merged if len(name.split()) >= 2][:50]


def _plausible_name(name: str) -> bool:
    words = name.split()
    if not 1 <= len(words) <= 5 or any(char.isdigit() for char in name) or len(name) > 60:
        return False
    return all(
        word[:1].isupper() or word.lower() in ("van", "von", "de", "der", "di", "da", "la", "le", "du")
        for word in words
    )


def _abstract(front: list[Line], drafts: list[Draft]) -> str | None:
    for draft in drafts[:2]:
        if draft.heading and ABSTRACT_HEADING.match(draft.heading.title):
            text = " ".join(_join(paragraph) for paragraph in draft.paragraphs)
            drafts.remove(draft)
            return clean_space(without_raised(_strip_page_marks(text)[0]))
    for position, line in enumerate(front):  # 'Abstract—We …' run into its paragraph
        if ABSTRACT_HEADING.match(line.text):
            rest = ([line] if len(line.text) > 20 else []) + front[position + 1 :]
            text = _join(rest)
            return clean_space(without_raised(ABSTRACT_HEADING.sub("", _strip_page_marks(text)[0], count=1)))
    return None


def _date(stamp: re.Match | None, layout: Layout) -> str | None:
    if stamp and stamp.group(3):
        try:
            return datetime.strptime(stamp.group(3), "%d %b %Y").date().isoformat()
        except ValueError:
            pass
    created = layout.metadata.get("CreationDate", "")
    found = re.match(r"D:(\d{4})(\d{2})?(\d{2})?", created)
    if found and 1950 <= int(found.group(1)) <= 2100:
        if found.group(2) and found.group(3):
            return f"{found.group(1)}-{found.group(2)}-{found.group(3)}"
        return found.group(1)
    return None
