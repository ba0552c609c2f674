"""What each source's records must look like, checked before a parser reads them.

One schema per source: an unarXive line, an OpenAlex work, an OpenAlex author. They declare only
the fields the parsers read, with the JSON types the parsers expect (strict: a number is not a
string, a dict is not a list); anything else in a record is ignored. ``check`` turns the first
mismatch into one line that names the field: ``field metadata.title: expected a string, found
int``. arXiv entries are XML (every value is text) and BibTeX fields are strings by construction;
their parsers check the one field whose form matters (a date) themselves.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

EXPECTED = {
    "string_type": "a string",
    "int_type": "an integer",
    "list_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "none_required": "null",
}


class _Schema(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", populate_by_name=True)


def json_type(value: Any) -> str:
    return {
        dict: "object",
        list: "list",
        str: "string",
        bool: "boolean",
        int: "integer",
        float: "number",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _field_path(location: tuple) -> str:
    path = ""
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part in ("str", "int", "list", "dict", "none") or part[:1].isupper():
            continue  # pydantic names the union member it tried; the reader wants the field
        else:
            path += f".{part}" if path else str(part)
    return path or "(the record)"


def check(schema: type[BaseModel], data: Any, error: type[ValueError]) -> None:
    """Raise ``error`` with one line naming the first field of ``data`` that breaks ``schema``."""
    try:
        schema.model_validate(data)
    except ValidationError as caught:
        first = caught.errors(include_url=False)[0]
        wanted = EXPECTED.get(first["type"])
        found = json_type(first.get("input"))
        what = f"expected {wanted}, found {found}" if wanted else first["msg"]
        raise error(f"field {_field_path(first['loc'])}: {what}") from None
    except RecursionError:
        raise error("nested too deeply to be a record") from None


# -- unarXive -------------------------------------------------------------------------------------
class _Version(_Schema):
    created: str | None = None


class _UnarxiveMetadata(_Schema):
    id: str | None = None
    title: str | None = None
    abstract: str | None = None
    authors: str | None = None
    authors_parsed: list[list[str]] | None = None
    versions: list[_Version] | None = None
    categories: str | None = None
    journal_ref: str | None = Field(None, alias="journal-ref")
    doi: str | None = None
    license: str | None = None


class _Paragraph(_Schema):
    section: str | None = None
    sec_number: str | int | None = None
    sec_type: str | None = None
    text: str | None = None


class _ContainedId(_Schema):
    id: str | None = None


class _Link(_Schema):
    url: str | None = None


class _BibEntry(_Schema):
    bib_entry_raw: str | None = None
    ids: dict[str, str | None] | None = None
    contained_arXiv_ids: list[_ContainedId] | None = None
    contained_links: list[_Link | str | None] | None = None


class _RefEntry(_Schema):
    latex: str | None = None


class _Abstract(_Schema):
    text: str | None = None


class UnarxiveLine(_Schema):
    paper_id: str | None = None
    metadata: _UnarxiveMetadata
    body_text: list[_Paragraph] | None = None
    bib_entries: dict[str, _BibEntry | None] | None = None
    ref_entries: dict[str, _RefEntry | None] | None = None
    abstract: _Abstract | None = None
    discipline: str | None = None


# -- OpenAlex ---------------------------------------------------------------------------------------
class _Labelled(_Schema):
    """Institutions, topics, concepts, sources: what the parsers read is the display name."""

    display_name: str | None = None


class _AuthorRef(_Schema):
    id: str | None = None
    display_name: str | None = None
    orcid: str | None = None


class _Authorship(_Schema):
    author: _AuthorRef | None = None
    raw_author_name: str | None = None
    institutions: list[_Labelled | None] | None = None
    raw_affiliation_strings: list[str] | None = None


class _Location(_Schema):
    source: _Labelled | None = None
    landing_page_url: str | None = None
    pdf_url: str | None = None


class _WorkIds(_Schema):
    doi: str | None = None


class OpenAlexWork(_Schema):
    id: str | None = None
    title: str | None = None
    display_name: str | None = None
    doi: str | None = None
    ids: _WorkIds | None = None
    authorships: list[_Authorship] | None = None
    referenced_works: list[str] | None = None
    publication_date: str | None = None
    publication_year: int | None = None
    primary_location: _Location | None = None
    locations: list[_Location | None] | None = None
    abstract_inverted_index: dict[str, list[int]] | None = None
    topics: list[_Labelled | None] | None = None
    concepts: list[_Labelled | None] | None = None
    cited_by_count: int | None = None


class _Affiliation(_Schema):
    institution: _Labelled | None = None
    years: list[int] | None = None


class OpenAlexAuthor(_Schema):
    id: str | None = None
    display_name: str | None = None
    orcid: str | None = None
    display_name_alternatives: list[str] | None = None
    last_known_institutions: list[_Labelled | None] | None = None
    last_known_institution: _Labelled | None = None
    affiliations: list[_Affiliation] | None = None
    topics: list[_Labelled | None] | None = None
    x_concepts: list[_Labelled | None] | None = None
    cited_by_count: int | None = None
    works_count: int | None = None
