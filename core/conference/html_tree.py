"""A conference website's HTML pages as a tree: the page is the root, headings nest sections.

The mapping follows how ConferenceQA's annotators built their trees (paper §2.1): page titles and
headings become inner nodes, text under a heading becomes its leaves, tables become lists of
records keyed by the header row, definition lists become "term: definition" pairs, and a link
standing alone becomes "text(url)": href, as in the dataset. Navigation, scripts and styles are
left out. The result is plain nested JSON, so it goes through the same ``tree_from_data`` as a
ConferenceQA file (and can be saved as one).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from scholar_tui.core.conference.tree import ConferenceError, Tree, check_readable, clean_text, tree_from_data

HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
BLOCKS = {
    "p",
    "li",
    "dd",
    "dt",
    "blockquote",
    "pre",
    "figcaption",
    "address",
    "div",
    "section",
    "article",
    "main",
    "ul",
    "ol",
    "dl",
    "br",
    "hr",
    "tr",
    "table",
    "caption",
    "form",
    "header",
    "aside",
}
SKIPPED = {"script", "style", "noscript", "template", "svg", "nav", "footer", "head", "button", "select"}
TEXT_KEY = "content"


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title = ""
        self.root: dict[str, Any] = {}
        self.stack: list[tuple[int, dict[str, Any]]] = [(0, self.root)]
        self.skip_depth = 0
        self.buffer: list[str] = []
        self.heading: tuple[int, list[str]] | None = None
        self.in_title = False
        self.links: list[tuple[str, str]] = []  # (href, text) inside the current block
        self.link: tuple[str, list[str]] | None = None
        self.term: str | None = None
        self.table: list[list[str]] | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.header_row = False

    # -- where text goes -------------------------------------------------------------------------
    @property
    def section(self) -> dict[str, Any]:
        return self.stack[-1][1]

    def _put(self, key: str, value: Any) -> None:
        section, unique, count = self.section, key, 2
        while unique in section:
            unique, count = f"{key} ({count})", count + 1
        section[unique] = value

    def _flush(self, tag: str | None = None) -> None:
        text = clean_text("".join(self.buffer))
        self.buffer = []
        links, self.links = self.links, []
        if not text:
            return
        if tag == "dt":
            self.term = text
            return
        if tag == "dd" and self.term:
            self._put(self.term, text)
            self.term = None
            return
        if len(links) == 1 and clean_text(links[0][1]) == text and links[0][0]:
            self._put(f"{text}(url)", links[0][0])  # the dataset's convention for a bare link
            return
        self.section.setdefault(TEXT_KEY, []).append(text)

    # -- parser callbacks ------------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skip_depth += 1
            return
        if self.skip_depth:
            return
        if tag == "title":
            self.in_title = True
        elif tag in HEADINGS:
            self._flush()
            self.heading = (HEADINGS[tag], [])
        elif tag == "table":
            self._flush()
            self.table = []
        elif tag == "tr" and self.table is not None:
            self.row, self.header_row = [], False
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
            self.header_row = self.header_row or tag == "th"
        elif tag == "a":
            self.link = (dict(attrs).get("href") or "", [])
        elif tag in BLOCKS and self.table is None and self.heading is None:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED:
            self.skip_depth = max(0, self.skip_depth - 1)
            return
        if self.skip_depth:
            return
        if tag == "title":
            self.in_title = False
        elif tag in HEADINGS and self.heading is not None:
            level, parts = self.heading
            self.heading = None
            text = clean_text("".join(parts))
            if not text:
                return
            while len(self.stack) > 1 and self.stack[-1][0] >= level:
                self.stack.pop()
            section: dict[str, Any] = {}
            self._put(text, section)
            self.stack.append((level, section))
        elif tag in ("td", "th") and self.cell is not None and self.row is not None:
            self.row.append(clean_text("".join(self.cell)))
            self.cell = None
        elif tag == "tr" and self.row is not None and self.table is not None:
            if any(self.row):
                self.table.append(self.row + (["\x00header"] if self.header_row else []))
            self.row = None
        elif tag == "table" and self.table is not None:
            rows, self.table = self.table, None
            self._put_table(rows)
        elif tag == "a" and self.link is not None:
            href, parts = self.link
            self.links.append((href, "".join(parts)))
            self.link = None
        elif tag in BLOCKS and self.table is None and self.heading is None:
            self._flush(tag)

    def handle_data(self, data: str) -> None:
        if self.skip_depth:
            return
        if self.in_title:
            self.title += data
        elif self.heading is not None:
            self.heading[1].append(data)
        elif self.cell is not None:
            self.cell.append(data)
        else:
            self.buffer.append(data)
            if self.link is not None:
                self.link[1].append(data)

    def _put_table(self, rows: list[list[str]]) -> None:
        if not rows:
            return
        header = rows[0][:-1] if rows[0][-1:] == ["\x00header"] else None
        body = [row for row in (rows[1:] if header else rows) if row[-1:] != ["\x00header"]]
        if header:
            records = [
                {
                    (header[i] if i < len(header) and header[i] else f"column {i + 1}"): cell
                    for i, cell in enumerate(row)
                    if cell
                }
                for row in body
            ]
            self._put("table", [record for record in records if record])
        elif all(len(row) == 2 for row in body):
            self._put("table", {row[0] or "value": row[1] for row in body})
        else:
            self._put("table", [" | ".join(cell for cell in row if cell) for row in body])

    def close(self) -> None:
        super().close()
        self._flush()


def page_data(html: str) -> tuple[str, dict[str, Any]]:
    """(page title, nested sections) for one HTML page."""
    parser = _PageParser()
    parser.feed(html)
    parser.close()
    title = clean_text(parser.title)
    body = parser.root
    # A page whose only top-level section repeats its title (the usual <h1>) is that section.
    if len(body) == 1 and isinstance(next(iter(body.values())), dict):
        heading, inner = next(iter(body.items()))
        if not title or heading.casefold() in title.casefold():
            title, body = title or heading, inner
    return title, body


def tree_from_html(html: str, name: str | None = None) -> Tree:
    title, body = page_data(html)
    root = name or title or "conference"
    if not body:
        raise ConferenceError(f"{root}: the page has no text under its headings")
    return tree_from_data({root: body}, name)


def tree_from_html_files(paths: list[Path], name: str) -> Tree:
    """Several pages of one site: each page is a child of the root, named by its title."""
    pages: dict[str, Any] = {}
    for path in sorted(paths):
        check_readable(path)
        try:
            title, body = page_data(path.read_text(encoding="utf-8-sig", errors="replace"))
        except OSError as error:
            raise ConferenceError(f"{path}: cannot read ({error.strerror})") from error
        if body:
            key, count = title or path.stem, 2
            while key in pages:
                key, count = f"{title or path.stem} ({count})", count + 1
            pages[key] = body
    if not pages:
        raise ConferenceError(f"{name}: no HTML page with text found")
    return tree_from_data({name: pages}, name)
