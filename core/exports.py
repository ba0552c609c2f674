"""Exports a person pastes into a paper or their notes: BibTeX, RIS, CSL-JSON and Markdown.

One module for every front end: F1 (a search's selected papers), F2 (a question with its answer,
evidence and program), F5 (the library) and the CLI (``library export``, ``library export-bibtex``)
all go through ``export_papers`` / ``export_markdown``. The count a caller prints is the number of
entries this module put in the file, never a count of characters in it.

BibTeX is written by bibtexparser v2 (``bibtexparser.write_string``): we build its ``Entry`` and
``Field`` objects and it lays out and encloses the values. What goes into a value is ours: LaTeX
math (``$…$``, ``$$…$$``, ``\\(…\\)``, ``\\[…\\]``) is left exactly as written, and only outside math
are ``& % # _`` escaped. CSL-JSON is plain ``json`` (the format is a list of flat objects); RIS is
a few tagged lines per record, written by hand (there is no maintained RIS writer worth a dependency).
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scholar_tui.config.locations import Locations
from scholar_tui.core.pasa.works import SOURCE as CITED_WORK_SOURCE
from scholar_tui.indexes.library import Library

FORMATS = {"bib": "BibTeX", "ris": "RIS", "json": "CSL-JSON", "md": "Markdown"}
PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "la", "le", "ten", "ter", "dos"}
KEY_STOP_WORDS = {"a", "an", "the", "on", "of", "in", "for", "to", "and", "with", "from", "at", "by", "is", "are"}
MATH = re.compile(r"(\$\$.+?\$\$|(?<!\\)\$(?:\\.|[^$\\])+?\$|\\\(.+?\\\)|\\\[.+?\\\])", flags=re.S)
PAPER_REF = re.compile(r"^paper:(\d+)$")


class ExportError(Exception):
    """An export that cannot be written (a bad path, a full disk): one line for the person."""


@dataclass
class Reference:
    """One paper as every export format needs it (authors in order, categories as a list)."""

    paper_id: int
    title: str
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    date: str | None = None
    venue: str | None = None
    arxiv_id: str | None = None
    doi: str | None = None
    url: str | None = None
    abstract: str | None = None
    categories: list[str] = field(default_factory=list)
    key: str = ""

    @property
    def preprint(self) -> bool:
        return not self.venue or self.venue.lower() == "arxiv"


@dataclass
class ExportWritten:
    path: Path
    fmt: str
    count: int

    def summary(self) -> str:
        return f"wrote {self.count} {'entry' if self.count == 1 else 'entries'} ({FORMATS[self.fmt]}) to {self.path}"


# -- gathering -------------------------------------------------------------------------------------
def _categories(value: Any) -> list[str]:
    """A paper row's categories: a list, or the JSON text ``all_papers`` returns as stored."""
    if isinstance(value, list):
        return [str(item) for item in value]
    if isinstance(value, str) and value.strip():
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            return [value]
        return [str(item) for item in parsed] if isinstance(parsed, list) else [str(parsed)]
    return []


def reference_from_row(row: dict, authors: list[str]) -> Reference:
    return Reference(
        paper_id=row["id"],
        title=row["title"] or "",
        authors=list(authors),
        year=row.get("year"),
        date=row.get("date"),
        venue=row.get("venue"),
        arxiv_id=row.get("arxiv_id"),
        doi=row.get("doi"),
        url=row.get("url"),
        abstract=row.get("abstract"),
        categories=_categories(row.get("categories")),
    )


def gather(library: Library, paper_ids: list[int] | None = None) -> list[Reference]:
    """The papers ``paper_ids`` (in that order; unknown ids skipped), or the whole library; keys assigned.
    The whole library leaves out the cited works PaSa made of bibliography entries (a title and a year
    each, ``core.pasa.works``): they are what the papers cite, not papers of the library's own."""
    if paper_ids is None:
        rows = [row for row in library.all_papers() if row["source"] != CITED_WORK_SOURCE]
    else:
        found = library.papers(list(dict.fromkeys(paper_ids)))
        rows = [found[paper_id] for paper_id in dict.fromkeys(paper_ids) if paper_id in found]
    references = [reference_from_row(row, library.paper_author_names(row["id"])) for row in rows]
    assign_keys(references)
    return references


def cited_paper_ids(value: Any) -> list[int]:
    """Every ``paper:N`` a program's value or result names (the academic APIs' ``pub_id``), in order."""
    found: list[int] = []

    def walk(item: Any) -> None:
        if isinstance(item, dict):
            for child in item.values():
                walk(child)
        elif isinstance(item, list | tuple):
            for child in item:
                walk(child)
        elif isinstance(item, str):
            match = PAPER_REF.match(item.strip())
            if match and int(match.group(1)) not in found:
                found.append(int(match.group(1)))

    walk(value)
    return found


# -- keys and names --------------------------------------------------------------------------------
def _ascii_letters(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def _surname(name: str) -> str:
    return split_name(name)[0]


def _title_word(title: str, skip: int = 0) -> str:
    words = [_ascii_letters(word) for word in MATH.sub(" ", title).split()]
    words = [word for word in words if word and word not in KEY_STOP_WORDS]
    return words[skip] if len(words) > skip else ""


def assign_keys(references: list[Reference]) -> None:
    """Keys as people write them: first author's surname, year, first title word (``hassen2022mind``);
    without authors the title's first two words; a, b, c… where two papers would share one."""
    taken: set[str] = set()
    for reference in references:
        year = str(reference.year or (reference.date or "")[:4] or "")
        surname = _ascii_letters(_surname(reference.authors[0])) if reference.authors else ""
        base = (
            f"{surname}{year}{_title_word(reference.title)}"
            if surname
            else f"{_title_word(reference.title)}{year}{_title_word(reference.title, 1)}"
        )
        base = base or f"paper{reference.paper_id}"
        key, suffix = base, 0
        while key in taken:
            suffix += 1
            key = f"{base}{chr(ord('a') + suffix - 1)}" if suffix <= 26 else f"{base}_{suffix}"
        taken.add(key)
        reference.key = key


def split_name(name: str) -> tuple[str, str]:
    """'Marcus Michelen' -> ('Michelen', 'Marcus'); particles stay with the surname ('van der Waals')."""
    words = name.split()
    if len(words) < 2:
        return name.strip(), ""
    start = len(words) - 1
    while start > 1 and words[start - 1].lower() in PARTICLES:
        start -= 1
    return " ".join(words[start:]), " ".join(words[:start])


# -- BibTeX ----------------------------------------------------------------------------------------
def _balanced(text: str) -> bool:
    depth = 0
    for char in re.sub(r"\\[{}]", "", text):
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def latex_value(text: str) -> str:
    """A field value for BibTeX: math left alone; outside it ``& % # _ $`` escaped, braces kept only
    when balanced (an open brace would swallow the rest of the file), line breaks as spaces."""
    text = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", "", text).replace("\n", " ").replace("\r", " ").replace("\t", " ")
    out = []
    for index, piece in enumerate(MATH.split(text)):
        if index % 2 == 1:
            out.append(piece)
            continue
        piece = re.sub(r"(?<!\\)([&%#_$])", r"\\\1", piece)
        out.append(piece)
    value = "".join(out)
    if not _balanced(value):
        value = re.sub(r"(?<!\\)[{}]", "", value)
    return value


def bibtex_author(name: str) -> str:
    surname, given = split_name(name)
    surname, given = latex_value(surname), latex_value(given)
    if "," in surname or " and " in f" {surname} ".lower():
        surname = "{" + surname + "}"
    return f"{surname}, {given}" if given else surname


def to_bibtex(references: list[Reference]) -> tuple[str, int]:
    """The references as BibTeX (bibtexparser's writer) and how many entries that text holds."""
    import bibtexparser
    from bibtexparser.model import Entry, Field

    bib = bibtexparser.Library()
    for reference in references:
        values = {
            "author": " and ".join(bibtex_author(name) for name in reference.authors if name.strip()),
            "title": latex_value(reference.title),
            "journal": None if reference.preprint else latex_value(reference.venue or ""),
            "year": str(reference.year) if reference.year else (reference.date or "")[:4],
            "date": reference.date if reference.date and len(reference.date) > 4 else None,
            "eprint": reference.arxiv_id,
            "archiveprefix": "arXiv" if reference.arxiv_id else None,
            # arXiv's own category only (math.PR), never a piece of a stored list
            "primaryclass": next(
                (c for c in reference.categories if re.fullmatch(r"[a-z\-]+(\.[A-Za-z\-]+)?", c)), None
            )
            if reference.arxiv_id
            else None,
            "doi": reference.doi,
            "url": reference.url,
            "abstract": latex_value(reference.abstract) if reference.abstract else None,
        }
        fields = [Field(name, value) for name, value in values.items() if value]
        bib.add(Entry("misc" if reference.preprint else "article", reference.key, fields))
    return bibtexparser.write_string(bib), len(bib.entries)


# -- RIS and CSL-JSON -------------------------------------------------------------------------------
def _one_line(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def to_ris(references: list[Reference]) -> tuple[str, int]:
    """RIS, the tagged format reference managers (Zotero, EndNote, Mendeley) import."""
    blocks = []
    for reference in references:
        lines = [("TY", "UNPB" if reference.preprint else "JOUR"), ("ID", reference.key)]
        lines += [
            ("AU", f"{surname}, {given}" if given else surname)
            for surname, given in (split_name(name) for name in reference.authors if name.strip())
        ]
        lines += [
            ("TI", _one_line(reference.title)),
            ("PY", str(reference.year or (reference.date or "")[:4] or "")),
            ("DA", (reference.date or "").replace("-", "/")),
            ("JO", "" if reference.preprint else _one_line(reference.venue)),
            ("DO", reference.doi or ""),
            ("UR", reference.url or (f"https://arxiv.org/abs/{reference.arxiv_id}" if reference.arxiv_id else "")),
            ("N1", f"arXiv:{reference.arxiv_id}" if reference.arxiv_id else ""),
            ("AB", _one_line(reference.abstract)),
        ]
        body = "\n".join(f"{tag}  - {value}" for tag, value in lines if value)
        blocks.append(f"{body}\nER  - \n")
    return "\n".join(blocks), len(blocks)


def csl_item(reference: Reference) -> dict:
    parts = [int(part) for part in (reference.date or str(reference.year or "")).split("-") if part.isdigit()]
    item: dict[str, Any] = {
        "id": reference.key,
        "type": "article" if reference.preprint else "article-journal",
        "title": reference.title,
        "author": [
            {"family": surname, "given": given} if given else {"literal": surname}
            for surname, given in (split_name(name) for name in reference.authors if name.strip())
        ],
    }
    if parts:
        item["issued"] = {"date-parts": [parts[:3]]}
    optional = {
        "container-title": None if reference.preprint else reference.venue,
        "DOI": reference.doi,
        "URL": reference.url,
        "abstract": reference.abstract,
        "publisher": "arXiv" if reference.preprint and reference.arxiv_id else None,
        "number": reference.arxiv_id if reference.preprint else None,
    }
    item.update({name: value for name, value in optional.items() if value})
    return item


def to_csl_json(references: list[Reference]) -> tuple[str, int]:
    """CSL-JSON, what Pandoc, Zotero and citeproc read."""
    items = [csl_item(reference) for reference in references]
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n", len(items)


WRITERS = {"bib": to_bibtex, "ris": to_ris, "json": to_csl_json}


# -- Markdown: a search or a question, with its bibliography ---------------------------------------
def _md(text: Any) -> str:
    """Outside text inside Markdown: one line, with the characters Markdown would act on escaped."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", _one_line(str(text)))


def bibliography_markdown(references: list[Reference]) -> list[str]:
    lines = ["## References", ""]
    for reference in references:
        authors = ", ".join(reference.authors[:6]) + (" et al." if len(reference.authors) > 6 else "")
        where = (
            reference.venue if not reference.preprint else (f"arXiv:{reference.arxiv_id}" if reference.arxiv_id else "")
        )
        tail = " ".join(
            part
            for part in (
                f"({reference.year})" if reference.year else "",
                f"*{_md(where)}*." if where else "",
                f"doi:{reference.doi}" if reference.doi else "",
            )
            if part
        )
        lines.append(
            f"- [@{reference.key}] {_md(authors) + '. ' if authors else ''}{_md(reference.title)}. {tail}".rstrip()
        )
    return lines if references else []


def search_markdown(query: str, date: str | None, ranked: list, references: list[Reference]) -> str:
    """A PaSa search: the query, the selected papers with their scores and rationale, the references."""
    keys = {reference.paper_id: reference.key for reference in references}
    lines = [f"# Paper search: {_md(query)}", "", f"Cut-off date: {date or 'none'} · {len(ranked)} papers", ""]
    for rank, paper in enumerate(ranked, start=1):
        cite = f" [@{keys[paper.paper_id]}]" if paper.paper_id in keys else ""
        lines.append(
            f"{rank}. **{_md(paper.title)}**{cite} — score {paper.score:.2f}{' (selected)' if paper.selected else ''}  "
        )
        lines.append(f"   {_md(paper.rationale)}")
    return "\n".join(lines + [""] + bibliography_markdown(references)) + "\n"


def question_markdown(answer: dict, references: list[Reference]) -> str:
    """A Scholar Q&A answer: the question, the answer, the evidence (solution, result) and the program."""
    lines = [
        f"# {_md(answer.get('question', ''))}",
        "",
        f"**Answer:** {_md(answer.get('answer') or answer.get('error') or '(none)')}",
        "",
    ]
    if answer.get("solution"):
        lines += [f"**Solution:** {_md(' → '.join(answer['solution']))}", ""]
    if answer.get("value") is not None:
        value = json.dumps(answer["value"], indent=2, ensure_ascii=False, default=str)
        lines += ["**Evidence** (the program's value):", "", "```json", value.replace("```", "ʼʼʼ"), "```", ""]
    if answer.get("program"):
        lines += ["**Program:**", "", "```python", answer["program"].replace("```", "ʼʼʼ"), "```", ""]
    return "\n".join(lines + bibliography_markdown(references)) + "\n"


# -- writing ---------------------------------------------------------------------------------------
def exports_folder(where: Locations) -> Path:
    return where.data_dir / "exports"


def export_path(where: Locations, chosen: str | None, stem: str, fmt: str) -> Path:
    """Where an export goes: the path the person chose (its extension added when missing), or, with
    none, ``exports/<stem>-<time>.<fmt>`` in the data folder; a relative path is taken inside that
    folder (never the directory the app happened to start in), an absolute or ``~`` path as written."""
    chosen = (chosen or "").strip()
    if not chosen:
        return exports_folder(where) / f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}.{fmt}"
    path = Path(chosen).expanduser()
    if not path.is_absolute():
        path = exports_folder(where) / path
    return path if path.suffix == f".{fmt}" else path.with_name(f"{path.name}.{fmt}")


def write_text(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise ExportError(f"cannot write {path}: {error.strerror or error}") from error


def export_papers(path: Path, fmt: str, references: list[Reference]) -> ExportWritten:
    """Write ``references`` as ``fmt`` (bib, ris, json) to ``path``; the count is the entries written."""
    if fmt not in WRITERS:
        raise ExportError(f"export format must be one of {', '.join(WRITERS)}, not {fmt!r}")
    text, count = WRITERS[fmt](references)
    write_text(path, text)
    return ExportWritten(path, fmt, count)


def export_markdown(path: Path, text: str, references: list[Reference]) -> ExportWritten:
    write_text(path, text)
    return ExportWritten(path, "md", len(references))


# -- a kept run (core/history.py) as Markdown or as its papers --------------------------------------
def search_papers(results: list) -> list:
    """What a search exports: its selected papers, or every ranked paper when none was selected."""
    return [paper for paper in results if paper.selected] or list(results)


def run_export(library: Library, entry: dict) -> tuple[str, list[Reference]]:
    """A kept run (``core.history.entry``) as Markdown with its bibliography, and that bibliography."""
    from scholar_tui.core.history import paper_search_replay

    result = entry.get("result") or {}
    if entry["tab"] == "paper-search":
        ranked = search_papers(paper_search_replay(result).results)
        references = gather(library, [paper.paper_id for paper in ranked])
        return search_markdown(entry["text"], entry["context"].get("date"), ranked, references), references
    if entry["tab"] == "scholar-qa":
        answer = result.get("answer") or {}
        references = gather(library, cited_paper_ids([answer.get("value"), answer.get("result")]))
        return question_markdown(answer, references), references
    raise ExportError(f"a {entry['tab']} run has no export yet")
