"""OpenAlex works and authors -> records (API result pages, single objects, snapshot JSONL).

Field names follow the OpenAlex schema (https://docs.openalex.org): a work's ``authorships``,
``abstract_inverted_index``, ``referenced_works``, ``primary_location.source``, ``topics`` (and
the older ``concepts``); an author's ``display_name_alternatives``, ``last_known_institutions``
(older records: ``last_known_institution``), ``affiliations``, ``topics`` / ``x_concepts``.
"""

from __future__ import annotations

from typing import Any

from scholar_tui.core.library.schemas import OpenAlexAuthor, OpenAlexWork, check, json_type
from scholar_tui.indexes.records import (
    AuthorRecord,
    PaperRecord,
    PersonRecord,
    ReferenceRecord,
    arxiv_id,
    arxiv_id_from_doi,
    clean_space,
    doi,
    openalex_id,
)


class OpenAlexFormatError(ValueError):
    """JSON that is neither an OpenAlex work, an author, nor a page of them."""


def kind_of(obj: Any) -> str | None:
    """'work', 'author' or None, from the OpenAlex id's letter (or the fields when it has none)."""
    if not isinstance(obj, dict):
        return None
    identifier = openalex_id(obj.get("id")) if isinstance(obj.get("id"), str) else None
    if identifier:
        return {"W": "work", "A": "author"}.get(identifier[0])
    if "authorships" in obj:
        return "work"
    if "display_name_alternatives" in obj or "last_known_institutions" in obj:
        return "author"
    return None


def abstract_text(inverted: dict[str, list[int]] | None) -> str | None:
    """OpenAlex ships abstracts as word -> positions; put the words back in order."""
    if not inverted:
        return None
    positions: dict[int, str] = {}
    for word, places in inverted.items():
        for place in places:
            positions[place] = word
    return clean_space(" ".join(positions[index] for index in sorted(positions)))


def _venue(work: dict) -> str | None:
    source = (work.get("primary_location") or {}).get("source") or {}
    name = clean_space(source.get("display_name"))
    if name and name.lower().startswith("arxiv"):
        return "arXiv"  # 'arXiv (Cornell University)'
    return name


def _arxiv(work: dict) -> str | None:
    found = arxiv_id_from_doi(work.get("doi"))
    if found:
        return found
    for location in [work.get("primary_location") or {}, *(work.get("locations") or [])]:
        for key in ("landing_page_url", "pdf_url"):
            url = (location or {}).get(key) or ""
            if "arxiv.org/" in url:
                found = arxiv_id(url)
                if found:
                    return found
    return None


def _labels(items: list[dict] | None, limit: int = 8) -> list[str]:
    labels = []
    for item in items or []:
        name = clean_space((item or {}).get("display_name"))
        if name and name not in labels:
            labels.append(name)
    return labels[:limit]


def parse_work(work: dict) -> PaperRecord:
    check(OpenAlexWork, work, OpenAlexFormatError)
    identifier = openalex_id(work.get("id"))
    if not identifier or not identifier.startswith("W"):
        raise OpenAlexFormatError(f"not an OpenAlex work id: {work.get('id')!r}")
    title = clean_space(work.get("title") or work.get("display_name"))
    if not title:
        raise OpenAlexFormatError(f"work {identifier} has no title")
    authors = []
    for authorship in work.get("authorships") or []:
        author = authorship.get("author") or {}
        name = clean_space(author.get("display_name") or authorship.get("raw_author_name"))
        if not name:
            continue
        institutions = _labels(authorship.get("institutions"))
        raw_affiliations = authorship.get("raw_affiliation_strings") or []
        authors.append(
            AuthorRecord(
                name=name,
                openalex_id=openalex_id(author.get("id")),
                orcid=(author.get("orcid") or "").rsplit("/", 1)[-1] or None,
                affiliation=institutions[0]
                if institutions
                else clean_space(raw_affiliations[0])
                if raw_affiliations
                else None,
            )
        )
    references = []
    for _ordinal, cited in enumerate(work.get("referenced_works") or [], start=1):
        cited_id = openalex_id(cited)
        if cited_id:
            references.append(ReferenceRecord(ref_key=f"openalex:{cited_id}", ordinal=None, openalex_id=cited_id))
    date = work.get("publication_date")
    year = work.get("publication_year")
    work_doi = doi(work.get("doi") or (work.get("ids") or {}).get("doi"))
    found_arxiv = _arxiv(work)
    landing = (work.get("primary_location") or {}).get("landing_page_url")
    return PaperRecord(
        title=title,
        source="openalex",
        arxiv_id=found_arxiv,
        # arXiv's DOIs are the arXiv id again; keep the publisher DOI column for publisher DOIs.
        doi=None if work_doi and work_doi.startswith("10.48550/") else work_doi,
        openalex_id=identifier,
        abstract=abstract_text(work.get("abstract_inverted_index")),
        date=date if isinstance(date, str) and len(date) >= 4 else None,
        year=int(year) if isinstance(year, int) else None,
        venue=_venue(work),
        categories=_labels(work.get("topics"), 3) or _labels(work.get("concepts"), 3),
        cited_by_count=work.get("cited_by_count"),
        url=landing or (f"https://arxiv.org/abs/{found_arxiv}" if found_arxiv else None),
        authors=authors,
        references=references,
    )


def parse_author(author: dict) -> PersonRecord:
    check(OpenAlexAuthor, author, OpenAlexFormatError)
    identifier = openalex_id(author.get("id"))
    if not identifier or not identifier.startswith("A"):
        raise OpenAlexFormatError(f"not an OpenAlex author id: {author.get('id')!r}")
    name = clean_space(author.get("display_name"))
    if not name:
        raise OpenAlexFormatError(f"author {identifier} has no display_name")
    last_known = author.get("last_known_institutions")
    if last_known is None and author.get("last_known_institution"):
        last_known = [author["last_known_institution"]]
    latest = _labels(last_known)
    affiliations = sorted(author.get("affiliations") or [], key=lambda item: -max(item.get("years") or [0]))
    history = _labels([item.get("institution") or {} for item in affiliations], limit=20)
    organizations = list(dict.fromkeys(latest + history))
    interests = _labels(author.get("topics"), 10) or _labels(author.get("x_concepts"), 10)
    alternatives = [cleaned for n in author.get("display_name_alternatives") or [] if (cleaned := clean_space(n))]
    return PersonRecord(
        name=name,
        source="openalex",
        openalex_id=identifier,
        orcid=(author.get("orcid") or "").rsplit("/", 1)[-1] or None,
        alternative_names=[n for n in alternatives if n != name],
        organization=organizations[0] if organizations else None,
        organizations=organizations,
        interests=interests,
        cited_by_count=author.get("cited_by_count"),
        works_count=author.get("works_count"),
    )


def parse_object(obj: Any) -> PaperRecord | PersonRecord:
    if isinstance(obj, dict) and obj.get("id") is not None and not isinstance(obj["id"], str):
        raise OpenAlexFormatError(f"field id: expected a string, found {json_type(obj['id'])}")
    kind = kind_of(obj)
    if kind == "work":
        return parse_work(obj)
    if kind == "author":
        return parse_author(obj)
    raise OpenAlexFormatError("neither an OpenAlex work nor an author (no W… or A… id)")
