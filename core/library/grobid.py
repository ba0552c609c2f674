"""A PDF read by a GROBID server: its TEI into the same PaperRecord the built-in reader makes.

GROBID (``/api/processFulltextDocument``, form field ``input``) answers with TEI XML: the header's
``titleStmt/title``, ``sourceDesc//author/persName`` (forename, surname), ``publicationStmt/date``,
``idno`` (DOI, arXiv) and ``profileDesc/abstract``; the body's ``<div>``s with ``<head n="3.1">``
and ``<p>`` (``<s>`` sentences when ``segmentSentences=1``); ``<ref type="bibr" target="#b12">``
in-text citations; and ``back//listBibl/biblStruct xml:id="b12"`` entries (analytic title and
authors, monogr title as venue, imprint date, idno). With ``teiCoordinates`` every element carries
``coords="page,x,y,w,h;…"``: the page of each heading, sentence and citation.

Each citation becomes an ``[n]`` marker (n = the entry's place in listBibl, from 1) after the text
GROBID marked, as the built-in reader writes them, so PaSa reads both alike.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

import httpx

from scholar_tui.core.library.pdf_layout import PdfError
from scholar_tui.indexes.records import (
    AuthorRecord,
    PaperRecord,
    ReferenceRecord,
    SectionRecord,
    arxiv_id,
    clean_space,
    doi,
)

TEI = "{http://www.tei-c.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
COORDINATES = ("ref", "s", "head", "p", "biblStruct")
MAX_TEI_BYTES = 64 * 1024 * 1024


def read_with_grobid(
    path: Path, url: str, *, timeout_s: float = 120.0, transport: httpx.BaseTransport | None = None
) -> PaperRecord:
    """Send ``path`` to GROBID at ``url`` and read its TEI; PdfError (one line) when that fails."""
    tei = _fulltext(path, url, timeout_s, transport)
    record = parse_tei(tei, path.name)
    record.pdf_path = str(path.resolve())
    return record


def _fulltext(path: Path, url: str, timeout_s: float, transport: httpx.BaseTransport | None) -> bytes:
    data = {
        "segmentSentences": "1",
        "consolidateHeader": "0",
        "consolidateCitations": "0",
        "teiCoordinates": list(COORDINATES),
    }
    endpoint = f"{url.rstrip('/')}/api/processFulltextDocument"
    try:
        content = path.read_bytes()
    except OSError as error:
        raise PdfError(f"{path.name}: cannot read the file ({error.strerror or error})") from error
    if not content:
        raise PdfError(f"{path.name}: empty file (0 bytes), not a PDF")
    try:
        with httpx.Client(timeout=timeout_s, transport=transport) as client:
            response = client.post(endpoint, data=data, files={"input": (path.name, content, "application/pdf")})
    except httpx.TimeoutException:
        raise PdfError(f"{path.name}: GROBID at {url} did not answer within {timeout_s:.0f} s") from None
    except httpx.HTTPError as error:
        raise PdfError(
            f"{path.name}: GROBID at {url} is not reachable ({type(error).__name__}); "
            "start it or unset pdf.grobid_url to use the built-in reader"
        ) from None
    if response.status_code == 503:
        raise PdfError(f"{path.name}: GROBID at {url} is busy (503); try again")
    if response.status_code != 200:
        raise PdfError(f"{path.name}: GROBID could not read it (HTTP {response.status_code})")
    if len(response.content) > MAX_TEI_BYTES:
        raise PdfError(f"{path.name}: GROBID's answer is larger than {MAX_TEI_BYTES >> 20} MB; not read")
    return response.content


def _text(element: ElementTree.Element | None) -> str | None:
    return clean_space("".join(element.itertext())) if element is not None else None


def _page(element: ElementTree.Element) -> int | None:
    coords = element.get("coords")
    if coords:
        first = coords.split(";")[0].split(",")[0]
        if first.strip().isdigit():
            return int(first)
    return None


def _person(pers: ElementTree.Element) -> str | None:
    parts = [_text(name) for name in pers.iter() if name.tag in (f"{TEI}forename", f"{TEI}surname")]
    return clean_space(" ".join(part for part in parts if part))


def _year(element: ElementTree.Element | None) -> tuple[str | None, int | None]:
    if element is None:
        return None, None
    when = element.get("when") or _text(element) or ""
    found = re.match(r"(\d{4})(-\d{2})?(-\d{2})?", when)
    if not found:
        return None, None
    return found.group(0), int(found.group(1))


def parse_tei(tei: bytes, name: str = "the PDF") -> PaperRecord:
    """GROBID's TEI as a PaperRecord (see the module doc); PdfError when it is not TEI."""
    try:
        root = ElementTree.fromstring(tei)
    except ElementTree.ParseError as error:
        raise PdfError(f"{name}: GROBID's answer is not XML ({error})") from None
    if root.tag != f"{TEI}TEI":
        raise PdfError(f"{name}: GROBID's answer is not TEI (root <{root.tag.split('}')[-1]}>)")
    header = root.find(f"{TEI}teiHeader")
    title = _text(root.find(f".//{TEI}titleStmt/{TEI}title"))
    analytic = root.find(f".//{TEI}sourceDesc//{TEI}analytic")
    authors = [
        AuthorRecord(name=person)
        for pers in (analytic.iter(f"{TEI}persName") if analytic is not None else [])
        if (person := _person(pers))
    ]
    date, _ = _year(root.find(f".//{TEI}publicationStmt/{TEI}date"))
    if date is None:
        date, _ = _year(root.find(f".//{TEI}sourceDesc//{TEI}imprint/{TEI}date"))
    ids = {
        (idno.get("type") or "").lower(): _text(idno)
        for idno in (header.iter(f"{TEI}idno") if header is not None else [])
    }
    abstract = _text(root.find(f".//{TEI}profileDesc/{TEI}abstract"))
    references, ordinals = _references(root)
    body = root.find(f".//{TEI}text/{TEI}body")
    sections = _sections(body, ordinals) if body is not None else []
    identifier = arxiv_id(ids.get("arxiv"))
    return PaperRecord(
        title=title or Path(name).stem,
        source="pdf",
        arxiv_id=identifier,
        doi=doi(ids.get("doi")),
        abstract=abstract,
        date=date,
        url=f"https://arxiv.org/abs/{identifier}" if identifier else None,
        authors=authors,
        sections=sections,
        references=references,
    )


def _references(root: ElementTree.Element) -> tuple[list[ReferenceRecord], dict[str, int]]:
    references: list[ReferenceRecord] = []
    ordinals: dict[str, int] = {}
    for _position, bibl in enumerate(root.iter(f"{TEI}biblStruct"), start=0):
        key = bibl.get(XML_ID)
        if key is None:  # the header's own biblStruct has no xml:id
            continue
        ordinal = len(references) + 1
        ordinals[key] = ordinal
        analytic = bibl.find(f"{TEI}analytic")
        monogr = bibl.find(f"{TEI}monogr")
        title = _text(analytic.find(f"{TEI}title")) if analytic is not None else None
        venue = _text(monogr.find(f"{TEI}title")) if monogr is not None else None
        if title is None:
            title, venue = venue, None
        holder = analytic if analytic is not None and analytic.find(f"{TEI}author") is not None else monogr
        names = [
            person
            for pers in (holder.iter(f"{TEI}persName") if holder is not None else [])
            if (person := _person(pers))
        ]
        _, year = _year(bibl.find(f".//{TEI}imprint/{TEI}date"))
        ids = {(idno.get("type") or "").lower(): _text(idno) or "" for idno in bibl.iter(f"{TEI}idno")}
        raw = _text(bibl.find(f"{TEI}note[@type='raw_reference']")) or "; ".join(
            part for part in (", ".join(names), title, venue, str(year) if year else None) if part
        )
        page = _page(bibl)
        references.append(
            ReferenceRecord(
                ref_key=f"pdf:{ordinal}",
                ordinal=ordinal,
                raw=raw,
                title=title,
                year=year,
                arxiv_id=arxiv_id(ids.get("arxiv")),
                doi=doi(ids.get("doi")),
                authors=names,
                venue=venue,
                ids={"grobid": key, **({"page": str(page)} if page else {})},
            )
        )
    return references, ordinals


def _sections(body: ElementTree.Element, ordinals: dict[str, int]) -> list[SectionRecord]:
    sections: list[SectionRecord] = []
    for div in body.iter(f"{TEI}div"):
        head = div.find(f"{TEI}head")
        number = (head.get("n") or None) if head is not None else None
        mentions: dict[str, int] = {}
        pages: list[list[int]] = []
        paragraphs = []
        length = 0
        for paragraph in div.findall(f"{TEI}p"):
            sentences = paragraph.findall(f"{TEI}s") or [paragraph]
            pieces: list[str] = []
            for sentence in sentences:
                page = _page(sentence) or _page(paragraph)
                offset = length + sum(len(piece) + 1 for piece in pieces)
                if page and (not pages or pages[-1][1] != page):
                    pages.append([offset, page])
                pieces.append(_render(sentence, ordinals, mentions))
            text = " ".join(piece for piece in pieces if piece)
            if text:
                paragraphs.append(text)
                length += len(text) + 2
        title = _text(head)
        if not title and not paragraphs:
            continue
        sections.append(
            SectionRecord(
                ordinal=len(sections) + 1,
                number=number,
                title=title,
                level=number.count(".") + 1 if number else 1,
                text="\n\n".join(paragraphs),
                reference_keys=mentions,
                page=(_page(head) if head is not None else None) or (pages[0][1] if pages else None),
                pages=pages,
            )
        )
    return sections


def _render(element: ElementTree.Element, ordinals: dict[str, int], mentions: dict[str, int]) -> str:
    """Text with each bibliographic <ref> followed (or, when it is only a number, replaced) by [n]."""
    parts = [element.text or ""]
    for child in element:
        if child.tag == f"{TEI}ref" and child.get("type") == "bibr":
            shown = "".join(child.itertext())
            ordinal = ordinals.get((child.get("target") or "").lstrip("#"))
            if ordinal is None:
                parts.append(shown)
            else:
                key = f"pdf:{ordinal}"
                mentions[key] = mentions.get(key, 0) + 1
                bare = re.fullmatch(r"\s*[\[(]?\s*\d{1,4}\s*[\])]?\s*", shown)
                parts.append(f"[{ordinal}]" if bare else f"{shown} [{ordinal}]")
        else:
            parts.append(_render(child, ordinals, mentions) if child.tag != f"{TEI}note" else "")
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())
