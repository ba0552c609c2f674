"""BibTeX in and out: reading with bibtexparser v2 and pylatexenc, writing by hand.

Reading: bibtexparser splits a file into blocks and keeps going past a broken one (it becomes a
``ParsingFailedBlock`` with its line); we resolve ``@string`` macros and ``#`` joins ourselves
(bibtexparser leaves joined values as written), follow ``crossref`` (the child takes the parent's
year, venue, publisher… and its title as ``booktitle``), and turn LaTeX into Unicode with
pylatexenc (math between ``$`` is left as written; a command pylatexenc does not know leaves its
argument, never its name). Entries that are not works — ``@set``, ``@xdata``, IEEEtran's control
entry, ``@string``/``@preamble``/``@comment`` — are skipped by kind. An entry without a title or a
block that cannot be parsed is named in one line (``parse_bibtex_file``) and the rest imports.
Writing escapes what reading unescapes, so a library exported and read back gives the same records.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from functools import lru_cache

from scholar_tui.indexes.records import AuthorRecord, PaperRecord, arxiv_id, clean_space, doi, fold, strip_controls

MONTHS = {
    name: str(number)
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), start=1
    )
}
ESCAPED = {"&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_"}
PARTICLES = {"de", "van", "von", "der", "den", "da", "di", "du", "del", "della", "dos", "das", "le", "la", "ter", "zu"}
NOT_WORKS = {"set", "xdata", "ieeetranbstctl", "comment", "preamble", "string", "control"}
NOT_PEOPLE = {"others", "et al", "et al.", "and others"}
# Commands whose argument is the text (pylatexenc drops some of them, or prints '<cit.>' for others).
KEEP_ARGUMENT = (
    "texttt",
    "mkbibquote",
    "mkbibemph",
    "mkbibitalic",
    "mkbibbold",
    "enquote",
    "url",
    "path",
    "nolinkurl",
    "textsc",
    "textsf",
    "textrm",
    "textup",
    "textmd",
    "textnormal",
    "ensuremath",
    "mbox",
    "hbox",
    "text",
    "MakeUppercase",
    "MakeLowercase",
    "uppercase",
    "lowercase",
    "NoCaseChange",
)
DROP = ("cite", "citep", "citet", "footnote", "label", "ref", "noop", "index", "hspace", "vspace")


class BibtexError(ValueError):
    """A malformed .bib entry or file; ``line`` is where the problem is (1-based)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class BibEntry:
    type: str
    key: str
    fields: dict[str, str] = field(default_factory=dict)
    line: int = 1


@dataclass
class BibFile:
    """What a .bib text holds: the works, and one line for each block left out."""

    entries: list[BibEntry]
    problems: list[BibtexError]  # unparseable blocks (entries without a title come later, per entry)
    not_works: int  # @set, IEEEtran control entries and the like, skipped by kind


# -- values: braces, quotes, macros and '#' ----------------------------------------------------------
def _split_top_level(text: str, separator: str) -> list[str]:
    """``text`` split on ``separator`` outside braces and quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == separator and depth == 0 and not quoted:
            parts.append(text[start:index])
            start = index + 1
        index += 1
    parts.append(text[start:])
    return parts


MACRO_NAME = re.compile(r"[^\s\"#%'(),={}]+$")


def resolve_value(raw: str, macros: dict[str, str]) -> str:
    """'pre # "Amer. Math. Soc."' -> 'Proc. Amer. Math. Soc.'; '{x}' -> 'x'; 'feb' -> '2'.
    ValueError when a piece is none of those ('{a} year = 1': a comma is missing)."""
    out = []
    for part in _split_top_level(raw.strip(), "#"):
        part = part.strip()
        if len(part) >= 2 and part[0] == "{" and part[-1] == "}" and _balanced(part[1:-1]):
            out.append(part[1:-1])
        elif len(part) >= 2 and part[0] == '"' and part[-1] == '"':
            out.append(part[1:-1])
        elif part.isdigit():
            out.append(part)
        elif not MACRO_NAME.match(part):
            shown = " ".join(part.split())[:30]
            raise ValueError(f"{shown!r} is not a BibTeX value (is a ',' missing after it?)")
        else:  # a macro; BibTeX substitutes nothing for an unknown one, keeping its name loses less
            out.append(
                macros.get(
                    part.lower(),
                    MONTHS.get(part.lower()[:3], part) if part.lower()[:3] in MONTHS and len(part) <= 9 else part,
                )
            )
    return "".join(out)


def read_bib(text: str) -> BibFile:
    """Every work of a .bib text, in order, with macros resolved and crossrefs followed."""
    import bibtexparser

    # bibtexparser logs each block it gives up on as a warning; we name those blocks ourselves
    logging.getLogger("bibtexparser").setLevel(logging.ERROR)
    parsed = bibtexparser.parse_string(text, parse_stack=[])
    macros: dict[str, str] = {}
    for string in parsed.strings:
        try:
            macros[string.key.lower()] = resolve_value(string.value, macros)
        except ValueError:
            macros[string.key.lower()] = string.value  # kept as written, as BibTeX would warn and go on
    problems = [BibtexError(_failure(block), (block.start_line or 0) + 1) for block in parsed.failed_blocks]
    entries, not_works = [], 0
    for entry in parsed.entries:
        kind = entry.entry_type.lower()
        if kind in NOT_WORKS or kind.startswith("ieeetran"):
            not_works += 1
            continue
        fields: dict[str, str] = {}
        try:
            for item in entry.fields:
                fields.setdefault(item.key.lower(), resolve_value(item.value, macros))
        except ValueError as error:
            problems.append(
                BibtexError(f"@{kind}{{{entry.key}: field {item.key!r}: {error}", (entry.start_line or 0) + 1)
            )
            continue
        entries.append(BibEntry(kind, entry.key, fields, (entry.start_line or 0) + 1))
    _follow_crossrefs(entries)
    return BibFile(entries, problems, not_works)


def _failure(block) -> str:
    """One line for a block bibtexparser gave up on: its opening, and why."""
    error = getattr(block, "error", None)
    reason = getattr(error, "abort_reason", None) or str(error or "") or "cannot be parsed"
    reason = " ".join(reason.replace("`", "'").split()).rstrip(". ")
    head = " ".join(block.raw.split())[:40]
    return f"{head}…: {reason[:1].lower()}{reason[1:]}" if head else reason


def _follow_crossrefs(entries: list[BibEntry]) -> None:
    """The child of a crossref takes what it lacks from its parent; the parent's title is its booktitle."""
    by_key = {entry.key.lower(): entry for entry in entries}
    for entry in entries:
        parent = by_key.get(entry.fields.get("crossref", "").strip().lower())
        if parent is None or parent is entry:
            continue
        for name, value in parent.fields.items():
            if name == "title":
                entry.fields.setdefault("booktitle", value)
            elif name not in ("crossref", "key", "ids", "abstract"):
                entry.fields.setdefault(name, value)


def parse_entries(text: str) -> list[BibEntry]:
    """Every work of a .bib text; BibtexError names the line of the first block that cannot be parsed."""
    bib = read_bib(text)
    if bib.problems:
        raise bib.problems[0]
    return bib.entries


# -- LaTeX -> Unicode -----------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _decoder():
    """pylatexenc's converter, told that the commands above take one argument and what to make of it."""
    from pylatexenc import latex2text, latexwalker, macrospec

    walker = latexwalker.get_default_latex_context_db()
    walker.add_context_category(
        "scholar-tui",
        prepend=True,
        macros=[
            *[macrospec.MacroSpec(name, "[{") for name in (*KEEP_ARGUMENT, *DROP)],
            macrospec.MacroSpec("textcolor", "[{{"),
        ],
    )
    text = latex2text.get_default_latex_context_db()
    text.add_context_category(
        "scholar-tui",
        prepend=True,
        macros=[
            *[latex2text.MacroTextSpec(name, simplify_repl="%(2)s") for name in KEEP_ARGUMENT],
            *[latex2text.MacroTextSpec(name, discard=True) for name in DROP],
            latex2text.MacroTextSpec("textcolor", simplify_repl="%(3)s"),
        ],
    )
    converter = latex2text.LatexNodes2Text(latex_context=text, math_mode="verbatim", strict_latex_spaces=True)
    return walker, converter


def _decode(value: str) -> str:
    from pylatexenc import latexwalker

    context, converter = _decoder()
    nodes, _, _ = latexwalker.LatexWalker(value, latex_context=context, tolerant_parsing=True).get_latex_nodes()
    return converter.nodelist_to_text(nodes)


def latex_to_text(value: str) -> str:
    """'Preu{\\ss}, J. and G{\\"o}del' -> 'Preuß, J. and Gödel'; math between $ stays as written;
    a command left over is dropped, never kept as letters ('\\mkbibquote{Intention}' -> 'Intention')."""
    try:
        text = _decode(value)
    except Exception:  # pylatexenc is tolerant, but a value it cannot walk must not stop an import
        text = value.replace("{", "").replace("}", "")
    pieces = re.split(r"(\$[^$]*\$)", text)
    pieces = [piece if index % 2 else re.sub(r"\\[A-Za-z]+\*?\s*", "", piece) for index, piece in enumerate(pieces)]
    return " ".join(strip_controls("".join(pieces)).split())


def _balanced(text: str) -> bool:
    """Whether every brace in ``text`` closes, and none closes before it opens."""
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
    """'A and {B and C} and D' -> ['A', '{B and C}', 'D'] (only top-level 'and' separates);
    BibTeX's 'and others' (et al.) names no one and is left out."""
    names, depth, start = [], 0, 0
    for match in re.finditer(r"[{}]|\s+and\s+", value, flags=re.I):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth == 0:
            names.append(value[start : match.start()])
            start = match.end()
    names.append(value[start:])
    return [name.strip() for name in names if name.strip() and name.strip().lower() not in NOT_PEOPLE]


def natural_name(name: str) -> str:
    """'Michelen, Marcus' -> 'Marcus Michelen'; 'Doe, Jr., John' -> 'John Doe Jr.'; a comma inside
    braces ('{Ministry of Health, Ghana}') is part of the name."""
    parts = [latex_to_text(part).strip() for part in _split_top_level(name, ",")]
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
        authors=[
            AuthorRecord(name=natural_name(name))
            for name in split_authors(entry.fields.get("author", ""))
            if natural_name(name)
        ],
    )


def parse_bibtex(text: str) -> list[tuple[int, PaperRecord]]:
    """(line, record) for every work; BibtexError for a block that cannot be parsed or an entry
    without a title (the importer names those and goes on: ``read_bib``)."""
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
