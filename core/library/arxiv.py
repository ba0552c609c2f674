"""arXiv API Atom feeds -> PaperRecords (https://info.arxiv.org/help/api/user-manual.html).

An entry's ``id`` is the abstract URL with its version, ``published`` the v1 date, ``author``
elements may carry ``arxiv:affiliation``; ``arxiv:doi``, ``arxiv:journal_ref`` and
``arxiv:primary_category`` are optional. A bad query comes back as a feed whose only entry has
an id under ``http://arxiv.org/api/errors`` and the reason in its summary.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

from scholar_tui.indexes.double_encoding import undo_double_encoding
from scholar_tui.indexes.records import AuthorRecord, PaperRecord, arxiv_id, clean_space, doi

NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
}


class ArxivFeedError(ValueError):
    """Not an arXiv Atom feed, or arXiv answered with an error entry; ``line`` when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def _text(element: ET.Element, path: str) -> str | None:
    """The element's text, UTF-8 read as Latin-1 undone, then spaces and control characters cleaned:
    recorded feeds hold names double-encoded ("Katharina GÃ¶tz" for "Katharina Götz"), which no one can
    find by the real name. ftfy's fix_encoding changes only such sequences (text that is already right
    stays as it is). It goes first: a character whose second UTF-8 byte reads as a C1 control ("ß" is
    "Ã" and U+009F) would lose that byte to the cleaning and stay broken ("Oliver WeiÃl")."""
    found = element.find(path, NS)
    return clean_space(undo_double_encoding(found.text)) if found is not None and found.text else None


def parse_entry(entry: ET.Element) -> PaperRecord:
    entry_id = _text(entry, "atom:id") or ""
    if "arxiv.org/api/errors" in entry_id:
        raise ArxivFeedError(f"arXiv answered with an error: {_text(entry, 'atom:summary') or 'no reason given'}")
    identifier = arxiv_id(entry_id)
    title = _text(entry, "atom:title")
    if not identifier or not title:
        raise ArxivFeedError(f"an entry without an arXiv id or title (id {entry_id!r})")
    authors = []
    for author in entry.findall("atom:author", NS):
        name = _text(author, "atom:name")
        if name:
            authors.append(AuthorRecord(name=name, affiliation=_text(author, "arxiv:affiliation")))
    primary = entry.find("arxiv:primary_category", NS)
    primary_term = primary.get("term") if primary is not None else None
    categories = [primary_term] if primary_term else []
    for category in entry.findall("atom:category", NS):
        term = category.get("term")
        if term and term not in categories:
            categories.append(term)
    published = _text(entry, "atom:published")
    if published and not re.match(r"\d{4}-\d{2}-\d{2}", published):
        raise ArxivFeedError(f"entry {identifier}: field published: expected an ISO date, found {published[:40]!r}")
    return PaperRecord(
        title=title,
        source="arxiv",
        arxiv_id=identifier,
        doi=doi(_text(entry, "arxiv:doi")),
        abstract=_text(entry, "atom:summary"),
        date=published[:10] if published else None,
        venue=_text(entry, "arxiv:journal_ref") or "arXiv",
        categories=categories,
        url=f"https://arxiv.org/abs/{identifier}",
        authors=authors,
    )


def parse_feed(text: str | bytes, on_bad: Callable[[str], None] | None = None) -> tuple[list[PaperRecord], int | None]:
    """All entries of a feed and opensearch:totalResults; ArxivFeedError names the line.

    A malformed entry raises, or with ``on_bad`` is passed to it (as one line) and left out."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        line, column = error.position
        reason = str(error).split(":")[0]  # 'unclosed token: line 5, column 2'
        raise ArxivFeedError(f"not well-formed XML ({reason}, column {column})", line) from error
    if root.tag != f"{{{NS['atom']}}}feed":
        raise ArxivFeedError(f"not an Atom feed (root element {root.tag!r})", 1)
    total = _text(root, "opensearch:totalResults")
    records = []
    for index, entry in enumerate(root.findall("atom:entry", NS), start=1):
        try:
            records.append(parse_entry(entry))
        except ArxivFeedError as error:
            if str(error).startswith("arXiv answered"):
                raise
            if on_bad is None:
                raise ArxivFeedError(f"entry {index}: {error}") from None
            on_bad(f"entry {index}: {error}")
    return records, int(total) if total and re.fullmatch(r"[0-9]+", total) else None
