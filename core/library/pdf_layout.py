"""A PDF's text as lines with their page, place and font: what the reader above it interprets.

pdftext (Apache-2.0, on pypdfium2/PDFium) gives each page's blocks, lines and spans with font
name, size and weight, and flags superscripts. Here a page that PDFium cannot read is skipped and
named instead of losing the paper; a span set smaller than its line and made of digits (``¹³``,
``⁴,⁵``, ``⁶–¹⁰``) becomes a bracketed marker ``[13]`` so that one parser reads numbered
citations whether they were printed as ``[13]`` or as a superscript.

Hostile files stop here with one line (``PdfError``): no bytes, not a PDF, encrypted, a page tree
longer than any paper, damaged beyond PDFium's repair.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

MAX_PAGES = 2000  # a thesis has a few hundred; a 10,000-page tree is an attack or a scan dump
SOFT_HYPHEN = "\x02"  # PDFium's mark for a hyphen that breaks a word at the end of a line
SUPERSCRIPT_CITATION = re.compile(r"^[\d,\s–\-]*\d[\d,\s–\-]*$")
# Raised digits are kept between these two private-use characters until the citation style is
# known: numbered, they are citations ([n]); author–year, they are footnote marks and go.
RAISED_OPEN, RAISED_CLOSE = "\ue010", "\ue011"
RAISED = re.compile(f"{RAISED_OPEN}([^{RAISED_CLOSE}]*){RAISED_CLOSE}")
# LaTeX's OT1 fonts print accents as separate spacing characters before the letter (M¨uller).
SPACING_ACCENTS = {
    "¨": "\u0308",
    "´": "\u0301",
    "`": "\u0300",
    "ˆ": "\u0302",
    "˜": "\u0303",
    "¸": "\u0327",
    "ˇ": "\u030c",
    "˚": "\u030a",
}
ACCENTED = re.compile("([" + "".join(SPACING_ACCENTS) + r"])\s?([A-Za-zıȷ])")
BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|medi|[-_,]bd|cmbx|cmssbx|\bbx", re.I)


class PdfError(Exception):
    """A PDF that cannot be read at all; the message is one line and says why."""


@dataclass
class Line:
    page: int  # 1-based, as printed in a citation "p. 7"
    block: int  # pdftext's block number on the page
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    size: float  # the font size of most of its characters
    bold: bool
    font: str
    superscripts: list[str] = field(default_factory=list)  # spans set above the line (names' marks)
    parts: list[tuple[str, bool]] = field(default_factory=list)  # (text, is a raised mark) in order


@dataclass
class Layout:
    lines: list[Line]
    pages: int
    skipped_pages: list[str]  # "page 7: <why>"
    metadata: dict[str, str]
    body_size: float  # the font size most text is set in


def _compose_accents(text: str) -> str:
    def compose(match: re.Match) -> str:
        letter = {"ı": "i", "ȷ": "j"}.get(match.group(2), match.group(2))
        return unicodedata.normalize("NFC", letter + SPACING_ACCENTS[match.group(1)])

    return ACCENTED.sub(compose, text) if any(accent in text for accent in SPACING_ACCENTS) else text


def _open(path: Path):
    """The PDFium document, or PdfError naming why it cannot be opened."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    try:
        size = path.stat().st_size
    except OSError as error:
        raise PdfError(f"{path.name}: cannot read the file ({error.strerror or error})") from error
    if size == 0:
        raise PdfError(f"{path.name}: empty file (0 bytes), not a PDF")
    with path.open("rb") as handle:
        head = handle.read(1024)
    if b"%PDF-" not in head:
        raise PdfError(f"{path.name}: not a PDF (no %PDF- header)")
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == pdfium_c.FPDF_ERR_PASSWORD:
            raise PdfError(
                f"{path.name}: encrypted (password-protected); open it in a viewer and save a copy without a password"
            ) from None
        reason = str(error).split(":")[-1].strip() or "unknown error"
        raise PdfError(f"{path.name}: damaged PDF that PDFium cannot open ({reason})") from None
    pages = len(document)
    if pages > MAX_PAGES:
        document.close()
        raise PdfError(f"{path.name}: {pages:,} pages, more than the {MAX_PAGES:,} a paper can have; not read")
    if pages == 0:
        document.close()
        raise PdfError(f"{path.name}: the PDF has no pages")
    return document


def _metadata(document) -> dict[str, str]:
    try:
        return {key: value for key, value in document.get_metadata_dict().items() if value}
    except Exception:
        return {}


def _span_text(span: dict) -> str:
    from pdftext.postprocessing import postprocess_text

    return postprocess_text(span["text"])


def _line(page_number: int, block_number: int, raw: dict) -> Line | None:
    spans = [span for span in raw["spans"] if span["text"].strip()]
    if not spans:
        return None
    sizes: dict[float, int] = {}
    for span in spans:
        size = round(float(span["font"]["size"] or 0), 1)
        sizes[size] = sizes.get(size, 0) + len(span["text"].strip())
    main = max(sizes, key=lambda size: sizes[size])
    parts: list[tuple[str, bool]] = []
    superscripts = []
    for span in raw["spans"]:
        text = _span_text(span).replace("\n", " ")
        size = float(span["font"]["size"] or 0)
        raised = bool(span.get("superscript")) or (text.strip() and 0 < size < main * 0.8 and _is_raised(span, raw))
        if raised and text.strip():
            superscripts.append(text.strip())
        parts.append((text, bool(raised)))
    font = max(spans, key=lambda span: len(span["text"]))["font"]
    weight = font.get("weight") or 0
    bold_chars = sum(
        len(s["text"].strip())
        for s in spans
        if (s["font"].get("weight") or 0) >= 600 or BOLD_NAME.search(s["font"].get("name") or "")
    )
    total = sum(len(s["text"].strip()) for s in spans) or 1
    x0, y0, x1, y1 = raw["bbox"].bbox
    return Line(
        page_number,
        block_number,
        x0,
        y0,
        x1,
        y1,
        "",
        main,
        bold_chars / total > 0.8 or weight >= 600,
        font.get("name") or "",
        superscripts,
        parts,
    )


def _is_raised(span: dict, line: dict) -> bool:
    """A small span whose bottom sits above the line's baseline (a superscript, not a footnote line)."""
    bottom = span["bbox"].bbox[3]
    line_bottom = line["bbox"].bbox[3]
    return bottom < line_bottom - 1.0


def without_raised(text: str) -> str:
    """``text`` without its raised-digit marks (a heading's or a title's footnote mark)."""
    return " ".join(RAISED.sub(" ", text).split()) if RAISED_OPEN in text else text


def _render(line: Line) -> str:
    """The line's text, raised digit runs kept as RAISED marks (see RAISED_OPEN)."""
    pieces = []
    for text, raised in line.parts:
        if raised and SUPERSCRIPT_CITATION.match(text.strip()):
            pieces.append(f"{RAISED_OPEN}{text.strip().strip(',')}{RAISED_CLOSE}")
        elif raised:
            pieces.append(" " if not text.strip() else "")  # a name's ∗ or †: not text
        else:
            pieces.append(text)
    joined = "".join(pieces)
    # ¹¹,¹² split into two spans is one mark
    joined = re.sub(f"{RAISED_CLOSE}(\\s*,?\\s*){RAISED_OPEN}", ", ", joined)
    return _compose_accents(" ".join(joined.split()))


def read_layout(path: Path) -> Layout:
    """Every readable page's lines, in the PDF's order; a page PDFium fails on is named and skipped."""
    from pdftext.pdf.pages import get_pages

    document = _open(path)
    lines: list[Line] = []
    skipped: list[str] = []
    try:
        metadata = _metadata(document)
        total = len(document)
        for index in range(total):
            try:
                pages = get_pages(document, [index], flatten_pdf=False, need_chars=False)
            except Exception as error:
                skipped.append(
                    f"page {index + 1}: unreadable ({' '.join(str(error).split())[:120] or type(error).__name__})"
                )
                continue
            for page in pages:
                for block_number, block in enumerate(page["blocks"]):
                    for raw in block["lines"]:
                        line = _line(index + 1, block_number, raw)
                        if line is not None:
                            lines.append(line)
    finally:
        document.close()
    if not lines:
        if skipped:
            raise PdfError(f"{path.name}: no page could be read ({skipped[0]})")
        raise PdfError(f"{path.name}: no text layer (a scanned PDF?); nothing to read without OCR")
    weights: dict[float, int] = {}
    for line in lines:
        weights[line.size] = weights.get(line.size, 0) + sum(len(text) for text, raised in line.parts if not raised)
    body = max(weights, key=lambda size: weights[size])
    return Layout(lines, total, skipped, metadata, body)


def render_lines(layout: Layout) -> None:
    """Fill each line's text (raised digits as RAISED marks)."""
    for line in layout.lines:
        line.text = _render(line)


def median_gap(lines: list[Line]) -> float:
    gaps = [b.y0 - a.y0 for a, b in zip(lines, lines[1:], strict=False) if a.page == b.page and 0 < b.y0 - a.y0 < 40]
    return statistics.median(gaps) if gaps else 14.0
