"""What every importer produces: plain records, independent of the source's format.

Parsers (unarXive, OpenAlex, arXiv Atom, BibTeX) turn their input into these; the library writer
(``indexes.library``) stores them. Identifiers are normalised here, once, so that the same paper
from two sources meets under the same key.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(v\d+)?$")
ARXIV_OLD = re.compile(r"([a-z\-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?$")


def arxiv_id(value: str | None) -> str | None:
    """'arXiv:2212.11867v2', 'https://arxiv.org/abs/2212.11867' -> '2212.11867'; else None."""
    if not value:
        return None
    text = value.strip().rstrip(".").rstrip("/")
    text = re.sub(r"^(https?://)?(www\.|export\.)?arxiv\.org/(abs|pdf)/", "", text, flags=re.I)
    text = re.sub(r"\.pdf$", "", text, flags=re.I)
    text = re.sub(r"^arxiv:", "", text, flags=re.I)
    match = ARXIV_NEW.match(text) or ARXIV_OLD.match(text)
    return match.group(1) if match else None


def doi(value: str | None) -> str | None:
    """DOIs compare case-insensitively: stored lower-case, without the resolver prefix."""
    if not value:
        return None
    text = value.strip()
    text = re.sub(r"^(https?://)?(dx\.)?doi\.org/", "", text, flags=re.I)
    text = re.sub(r"^doi:\s*", "", text, flags=re.I)
    return text.lower() if text.startswith("10.") else None


def arxiv_id_from_doi(value: str | None) -> str | None:
    """arXiv's own DOIs (10.48550/arXiv.2212.11867) name the arXiv id."""
    normal = doi(value)
    if normal and normal.startswith("10.48550/arxiv."):
        return arxiv_id(normal[len("10.48550/arxiv.") :])
    return None


def openalex_id(value: str | None) -> str | None:
    """'https://openalex.org/W2741809807' -> 'W2741809807'."""
    if not value:
        return None
    text = value.strip().rsplit("/", 1)[-1]
    return text.upper() if re.fullmatch(r"[WAISCTFPwaisctfp]\d+", text) else None


_NOT_ALPHANUMERIC = re.compile(r"[^0-9a-zA-Z]+")


def fold(text: str) -> str:
    """Lower-case ASCII letters and digits separated by single spaces: 'Kühn, J.-P.' -> 'kuhn j p'."""
    if text.isascii():  # most text: nothing to decompose or replace (checked in C, 10x faster)
        return " ".join(_NOT_ALPHANUMERIC.sub(" ", text.lower()).split())
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char))
    text = text.replace("ß", "ss").replace("ø", "o").replace("Ø", "o").replace("ł", "l").replace("Ł", "l")
    text = re.sub(r"[^0-9a-zA-Z]+", " ", text.lower())
    return " ".join(text.split())


def title_key(title: str) -> str:
    return fold(re.sub(r"\$[^$]*\$", " ", title)) or fold(title)


def name_key(name: str) -> str:
    return fold(name)


# C0/C1 control characters (ESC, BEL, NUL…) and the bidi overrides: in imported text they can
# only be noise or an attack on the terminal that shows it (a title that retitles the window).
# Import strips them; the front ends show any left as escapes (app/terminal_safety.py).
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# Whole terminal escape sequences go, not only their ESC: OSC (ESC ] … BEL or ESC \), CSI (ESC [ …
# final byte) and two-byte ones, so that '\033]0;PWNED\007' leaves no ']0;PWNED' behind.
ESCAPE_SEQUENCES = re.compile(
    r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b[ -~]"
)


def strip_controls(text: str) -> str:
    """``text`` without control characters; tabs and newlines stay (section text has paragraphs)."""
    if text.isprintable():  # the common case, checked in C: no control character can be in it
        return text
    return CONTROLS.sub("", ESCAPE_SEQUENCES.sub("", text))


def clean_space(text: str | None) -> str | None:
    if text is None:
        return None
    cleaned = " ".join(strip_controls(text).split())
    return cleaned or None


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _scrub(record: DataclassInstance) -> None:
    """Strip control characters from every text field of a record: every source passes here."""
    kind = type(record)
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = tuple(item.name for item in fields(record))
    for name in _FIELD_NAMES[kind]:
        value = getattr(record, name)
        if isinstance(value, str):
            setattr(record, name, strip_controls(value))
        elif isinstance(value, list) and value and isinstance(value[0], str):
            setattr(record, name, [strip_controls(e) if isinstance(e, str) else e for e in value])


@dataclass
class AuthorRecord:
    name: str
    openalex_id: str | None = None
    orcid: str | None = None
    affiliation: str | None = None  # as printed on this paper

    def __post_init__(self) -> None:
        _scrub(self)


@dataclass
class SectionRecord:
    ordinal: int
    number: str | None
    title: str | None
    level: int | None
    text: str
    reference_keys: dict[str, int] = field(default_factory=dict)  # ref_key -> mentions
    page: int | None = None  # the printed page it starts on (PDFs; None where the source has no pages)
    # [[character offset in text, page], …]: where each page of the section begins, so a paragraph or
    # a citing sentence can be cited as "p. 7" (see page_at).
    pages: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        _scrub(self)


@dataclass
class ReferenceRecord:
    ref_key: str
    ordinal: int | None = None
    raw: str | None = None
    title: str | None = None
    year: int | None = None
    arxiv_id: str | None = None
    doi: str | None = None
    openalex_id: str | None = None
    ids: dict[str, str] = field(default_factory=dict)
    authors: list[str] = field(default_factory=list)  # as printed in the entry (PDF reference lists)
    venue: str | None = None

    def __post_init__(self) -> None:
        _scrub(self)


def page_at(pages: list[list[int]], offset: int) -> int | None:
    """The page on which the character at ``offset`` of a section's text was printed."""
    found = None
    for start, page in pages:
        if start > offset:
            break
        found = page
    return found


@dataclass
class PaperRecord:
    title: str
    source: str
    arxiv_id: str | None = None
    doi: str | None = None
    openalex_id: str | None = None
    abstract: str | None = None
    date: str | None = None  # ISO yyyy-mm-dd (or yyyy when that is all the source says)
    year: int | None = None
    venue: str | None = None
    categories: list[str] = field(default_factory=list)
    cited_by_count: int | None = None
    url: str | None = None
    license: str | None = None
    discipline: str | None = None
    authors: list[AuthorRecord] = field(default_factory=list)
    sections: list[SectionRecord] = field(default_factory=list)
    references: list[ReferenceRecord] = field(default_factory=list)
    # OpenAlex "cited-by" results: this paper cites the work with this OpenAlex id.
    cites_openalex: list[str] = field(default_factory=list)
    pdf_path: str | None = None  # the local PDF it was read from, opened by `o` in the TUI
    # What a reader could not read but did not stop for ("page 7: unreadable (…)"); not stored.
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        _scrub(self)
        if self.date and not re.match(r"\d{4}", self.date):
            self.date = None  # a date that does not start with a year is no date
        if self.year is None and self.date:
            self.year = int(self.date[:4])


@dataclass
class PersonRecord:
    name: str
    source: str
    openalex_id: str | None = None
    orcid: str | None = None
    alternative_names: list[str] = field(default_factory=list)
    organization: str | None = None
    organizations: list[str] = field(default_factory=list)
    interests: list[str] = field(default_factory=list)
    cited_by_count: int | None = None
    works_count: int | None = None
    homepage: str | None = None

    def __post_init__(self) -> None:
        _scrub(self)
