"""BibTeX in and out, with a small parser that says where a file is broken.

Reading follows BibTeX's own rules: text outside ``@type{…}`` is a comment; ``@comment``,
``@preamble`` and ``@string`` are understood; values are ``{braced}``, ``"quoted"``, numbers or
macros, joined with ``#``; an entry may use ``(…)`` instead of ``{…}``. LaTeX accents and escapes
become Unicode (math between ``$`` is left as written). Writing escapes what reading unescapes, so
a library exported and read back gives the same records.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from scholar_tui.indexes.records import AuthorRecord, PaperRecord, arxiv_id, clean_space, doi, fold, strip_controls

MONTHS = {name: str(number) for number, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1)}
ACCENTS = {  # LaTeX accent command -> Unicode combining character
    '"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
    "r": "\u030a", "d": "\u0323", "b": "\u0331",
}
SYMBOLS = {
    "ss": "ß", "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
    "aa": "å", "AA": "Å", "i": "ı", "j": "ȷ",
}
ESCAPED = {"&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_"}
PARTICLES = {"de", "van", "von", "der", "den", "da", "di", "du", "del", "della", "dos", "das", "le", "la", "ter", "zu"}


class BibtexError(ValueError):
    """A malformed .bib file; ``line`` is where the problem is (1-based)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class BibEntry:
    type: str
    key: str
    fields: dict[str, str] = field(default_factory=dict)
    line: int = 1


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.macros: dict[str, str] = dict(MONTHS)

    def line_at(self, pos: int | None = None) -> int:
        return self.text.count("\n", 0, self.pos if pos is None else pos) + 1

    def error(self, message: str, pos: int | None = None) -> BibtexError:
        return BibtexError(message, self.line_at(pos))

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        # '%' starts a comment line inside entries for most tools (biber, bibtex-tidy)
        if self.pos < len(self.text) and self.text[self.pos] == "%":
            end = self.text.find("\n", self.pos)
            self.pos = len(self.text) if end < 0 else end
            self.skip_space()

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def identifier(self) -> str:
        match = re.compile(r"[^\s\"#%'(),={}]+").match(self.text, self.pos)
        if not match:
            return ""
        self.pos = match.end()
        return match.group(0)

    def braced(self, start: int) -> str:
        """From just after '{' to the matching '}'; returns the inside."""
        depth, begin = 1, self.pos
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "\\":
                self.pos += 2
                continue
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    self.pos += 1
                    return self.text[begin:self.pos - 1]
            self.pos += 1
        raise self.error("a '{' is never closed (end of file inside the value)", start)

    def quoted(self, start: int) -> str:
        depth, begin = 0, self.pos
        while self.pos < len(self.text):
            char = self.text[self.pos]
            if char == "\\":
                self.pos += 2
                continue
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            elif char == '"' and depth == 0:
                self.pos += 1
                return self.text[begin:self.pos - 1]
            self.pos += 1
        raise self.error('a \'"\' is never closed (end of file inside the value)', start)

    def value(self) -> str:
        parts = []
        while True:
            self.skip_space()
            start, char = self.pos, self.peek()
            if char == "{":
                self.pos += 1
                parts.append(self.braced(start))
            elif char == '"':
                self.pos += 1
                parts.append(self.quoted(start))
            elif char.isdigit():
                parts.append(self.identifier())
            elif char and char not in ",})=#":
                name = self.identifier()
                # BibTeX warns and substitutes nothing for an unknown macro; keeping its name
                # loses less.
                parts.append(self.macros.get(name.lower(), name))
            else:
                raise self.error(f"expected a value, found {char!r}" if char else "expected a value, found the end of the file")
            self.skip_space()
            if self.peek() == "#":
                self.pos += 1
                continue
            return "".join(parts)


def parse_entries(text: str) -> list[BibEntry]:
    """Every entry of a .bib text, in order; BibtexError names the line of the first problem."""
    scanner = _Scanner(text)
    entries: list[BibEntry] = []
    while True:
        at = text.find("@", scanner.pos)
        if at < 0:
            return entries
        scanner.pos = at + 1
        if at > 0 and not text[at - 1].isspace():
            continue  # an '@' inside comment text (an e-mail address), not an entry
        entry_type = scanner.identifier().lower()
        if not entry_type:
            continue
        scanner.skip_space()
        opener = scanner.peek()
        if opener not in "{(" or not opener:
            if entry_type == "comment":
                continue
            raise scanner.error(f"@{entry_type} must be followed by '{{' or '('")
        closer = "}" if opener == "{" else ")"
        scanner.pos += 1
        if entry_type in ("comment", "preamble"):
            scanner.braced(at) if opener == "{" else scanner.value()
            if opener == "(":
                scanner.skip_space()
                scanner.pos += 1
            continue
        if entry_type == "string":
            scanner.skip_space()
            name = scanner.identifier()
            scanner.skip_space()
            if scanner.peek() != "=":
                raise scanner.error(f"@string {name!r}: expected '='")
            scanner.pos += 1
            scanner.macros[name.lower()] = scanner.value()
            scanner.skip_space()
            if scanner.peek() != closer:
                raise scanner.error(f"@string {name!r} is not closed with {closer!r}")
            scanner.pos += 1
            continue
        entries.append(_entry(scanner, entry_type, closer, at))


def _entry(scanner: _Scanner, entry_type: str, closer: str, start: int) -> BibEntry:
    scanner.skip_space()
    key_start = scanner.pos
    key = scanner.identifier()
    scanner.skip_space()
    if scanner.peek() != ",":
        if scanner.peek() == closer and key:
            scanner.pos += 1
            return BibEntry(entry_type, key, {}, scanner.line_at(start))
        found = scanner.peek() or "the end of the file"
        raise scanner.error(f"@{entry_type}{{{key}: expected ',' after the key, found {found!r}", key_start)
    scanner.pos += 1
    entry = BibEntry(entry_type, key, {}, scanner.line_at(start))
    while True:
        scanner.skip_space()
        char = scanner.peek()
        if char == closer:
            scanner.pos += 1
            return entry
        if not char:
            raise BibtexError(
                f"entry @{entry_type}{{{key} (line {entry.line}) is not closed: the file ends inside it", entry.line
            )
        field_start = scanner.pos
        name = scanner.identifier().lower()
        if not name:
            raise scanner.error(f"@{entry_type}{{{key}: expected a field name, found {char!r}")
        scanner.skip_space()
        if scanner.peek() != "=":
            found = scanner.peek() or "the end of the file"
            # The usual cause: the previous entry lost its closing brace and this is a new '@'.
            hint = " (is the entry above missing its closing brace?)" if name.startswith("@") else ""
            raise scanner.error(f"@{entry_type}{{{key}: field {name!r} needs '=', found {found!r}{hint}", field_start)
        scanner.pos += 1
        entry.fields[name] = scanner.value()
        scanner.skip_space()
        if scanner.peek() == ",":
            scanner.pos += 1
        elif scanner.peek() == "@":
            # The value swallowed the entry's end: a '{' or '"' inside it is never closed.
            raise BibtexError(
                f"@{entry_type}{{{key}: the value of {name!r} runs on into the next entry (line "
                f"{scanner.line_at()}): a '{{' or '\"' in it is not closed",
                scanner.line_at(field_start),
            )
        elif not scanner.peek():
            raise BibtexError(
                f"entry @{entry_type}{{{key} (line {entry.line}) is not closed: the file ends inside it", entry.line
            )
        elif scanner.peek() != closer:
            raise scanner.error(
                f"@{entry_type}{{{key}: expected ',' or {closer!r} after field {name!r}, found {scanner.peek()!r}"
            )


# -- LaTeX <-> Unicode ---------------------------------------------------------------------------
_ACCENT = re.compile(r"\\([\"'`^~=.uvHckrdb])\s*(?:\{\s*(\\?[A-Za-z])\s*\}|(\\?[A-Za-z]))")
_SYMBOL = re.compile(r"\\(ss|ae|AE|oe|OE|aa|AA|o|O|l|L|i|j)(?![A-Za-z])\s?")


def _accent(match: re.Match) -> str:
    letter = (match.group(2) or match.group(3)).lstrip("\\")
    letter = {"i": "i", "j": "j"}.get(letter, letter)
    return unicodedata.normalize("NFC", letter + ACCENTS[match.group(1)])


def latex_to_text(value: str) -> str:
    """'Preu{\\ss}, J. and G{\\"o}del' -> 'Preuß, J. and Gödel'; math between $ stays as written."""
    pieces = re.split(r"(\$[^$]*\$)", value)
    out = []
    for index, piece in enumerate(pieces):
        if index % 2 == 1:
            out.append(piece)
            continue
        piece = _ACCENT.sub(_accent, piece)
        piece = _SYMBOL.sub(lambda m: SYMBOLS[m.group(1)], piece)
        piece = re.sub(r"\\([&%#_${}])", r"\1", piece)
        piece = piece.replace("---", "—").replace("--", "–").replace("~", " ")
        piece = re.sub(r"\\textendash\b\s?", "–", piece)
        piece = re.sub(r"\\emph\{|\\textit\{|\\textbf\{|\\textsc\{|\\mathrm\{", "{", piece)
        piece = piece.replace("{", "").replace("}", "")
        out.append(piece)
    return " ".join(strip_controls("".join(out)).split())


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def text_to_latex(value: str) -> str:
    """The inverse of latex_to_text for what it unescapes: & % # _ outside math, balanced braces."""
    pieces = re.split(r"(\$[^$]*\$)", value)
    out = []
    for index, piece in enumerate(pieces):
        if index % 2 == 0:
            if not _balanced(piece):  # an unbalanced brace would swallow the rest of the file
                piece = piece.replace("{", "").replace("}", "")
            piece = re.sub(r"(?<!\\)[&%#_]", lambda m: ESCAPED[m.group(0)], piece)
        out.append(piece)
    return "".join(out)


# -- names -----------------------------------------------------------------------------------------
def split_authors(value: str) -> list[str]:
    """'A and {B and C} and D' -> ['A', '{B and C}', 'D'] (only top-level 'and' separates)."""
    names, depth, start = [], 0, 0
    for match in re.finditer(r"[{}]|\s+and\s+", value, flags=re.I):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth == 0:
            names.append(value[start:match.start()])
            start = match.end()
    names.append(value[start:])
    return [name.strip() for name in names if name.strip()]


def natural_name(name: str) -> str:
    """'Michelen, Marcus' -> 'Marcus Michelen'; 'Doe, Jr., John' -> 'John Doe Jr.'."""
    parts = [part.strip() for part in latex_to_text(name).split(",")]
    if len(parts) == 2:
        return clean_space(f"{parts[1]} {parts[0]}") or ""
    if len(parts) >= 3:
        return clean_space(f"{parts[2]} {parts[0]} {parts[1]}") or ""
    return clean_space(parts[0]) or ""


def bibtex_name(name: str) -> str:
    """'Marcus Michelen' -> 'Michelen, Marcus'; particles stay with the last name ('van der Waals')."""
    words = name.split()
    if len(words) < 2:
        return name
    last_start = len(words) - 1
    while last_start > 1 and words[last_start - 1].lower() in PARTICLES:
        last_start -= 1
    return f"{' '.join(words[last_start:])}, {' '.join(words[:last_start])}"


# -- entries <-> records -----------------------------------------------------------------------------
def entry_to_record(entry: BibEntry) -> PaperRecord:
    fields = {name: latex_to_text(value) for name, value in entry.fields.items()}
    title = fields.get("title")
    if not title:
        raise BibtexError(f"@{entry.type}{{{entry.key}: no title", entry.line)
    year_text = re.search(r"\d{4}", fields.get("year") or fields.get("date") or "")
    date = fields.get("date") if re.fullmatch(r"\d{4}(-\d{2}(-\d{2})?)?", fields.get("date") or "") else None
    if not date and year_text:
        month = fields.get("month", "").strip().lower()[:3]
        month_number = MONTHS.get(month) or (fields.get("month") if (fields.get("month") or "").isdigit() else None)
        date = f"{year_text.group(0)}-{int(month_number):02d}" if month_number else year_text.group(0)
    is_arxiv = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower() == "arxiv"
    found_arxiv = arxiv_id(fields.get("eprint")) if is_arxiv or arxiv_id(fields.get("eprint")) else None
    for candidate in ("url", "journal", "note", "howpublished"):
        if found_arxiv:
            break
        match = re.search(r"arxiv[:/ ]\s*(?:abs/)?([\w.\-/]+\d)", fields.get(candidate, ""), flags=re.I)
        if match:
            found_arxiv = arxiv_id(match.group(1))
    venue = fields.get("journal") or fields.get("booktitle") or fields.get("journaltitle")
    if venue and re.match(r"arxiv", venue, flags=re.I):
        venue = "arXiv"
    keywords = [word.strip() for word in re.split(r"[;,]", fields.get("keywords", "")) if word.strip()]
    return PaperRecord(
        title=title,
        source="bibtex",
        arxiv_id=found_arxiv,
        doi=doi(fields.get("doi")),
        abstract=fields.get("abstract") or None,
        date=date,
        year=int(year_text.group(0)) if year_text else None,
        venue=venue or ("arXiv" if found_arxiv else None),
        categories=[fields["primaryclass"]] + keywords if fields.get("primaryclass") else keywords,
        url=fields.get("url") or None,
        authors=[AuthorRecord(name=natural_name(name)) for name in split_authors(entry.fields.get("author", ""))
                 if natural_name(name)],
    )


def parse_bibtex(text: str) -> list[tuple[int, PaperRecord]]:
    """(line, record) for every entry with a title; BibtexError otherwise."""
    return [(entry.line, entry_to_record(entry)) for entry in parse_entries(text)]


def _key(paper: dict, authors: list[str], taken: set[str]) -> str:
    surname = fold(authors[0].split()[-1]).replace(" ", "") if authors else "anon"
    words = [w for w in fold(paper["title"]).split() if w not in {"a", "an", "the", "on", "of"}]
    base = f"{surname}{paper.get('year') or ''}{words[0] if words else ''}"
    key, suffix = base, 0
    while key in taken:
        suffix += 1
        key = f"{base}{chr(ord('a') + suffix - 1)}" if suffix <= 26 else f"{base}{suffix}"
    taken.add(key)
    return key


def _field(name: str, value: str | int | None) -> str | None:
    if value is None or value == "":
        return None
    text = strip_controls(str(value))  # rows stored before import stripped them may still hold some
    return f"  {name} = {{{text_to_latex(text) if name not in ('url', 'doi', 'eprint') else text}}}"


def write_bibtex(papers: list[tuple[dict, list[str]]]) -> str:
    """BibTeX for (paper row, author names) pairs: @article when a journal is known, else @misc."""
    taken: set[str] = set()
    blocks = []
    for paper, authors in papers:
        venue = paper.get("venue")
        kind = "article" if venue and venue != "arXiv" else "misc"
        categories = paper.get("categories") or []
        lines = [
            _field("author", " and ".join(bibtex_name(name) for name in authors)),
            _field("title", paper["title"]),
            _field("journal", venue if kind == "article" else None),
            _field("year", paper.get("year")),
            _field("date", paper.get("date") if paper.get("date") and len(paper["date"]) > 4 else None),
            _field("eprint", paper.get("arxiv_id")),
            _field("archiveprefix", "arXiv" if paper.get("arxiv_id") else None),
            _field("primaryclass", categories[0] if paper.get("arxiv_id") and categories else None),
            _field("doi", paper.get("doi")),
            _field("url", paper.get("url")),
            _field("abstract", paper.get("abstract")),
        ]
        body = ",\n".join(line for line in lines if line)
        blocks.append(f"@{kind}{{{_key(paper, authors, taken)},\n{body}\n}}\n")
    return "\n".join(blocks)
