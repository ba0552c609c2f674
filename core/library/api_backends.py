"""The two backends of the academic API library: the local SQLite library and OpenAlex.

Both implement the seven APIs of ``apis.SPECS`` with arguments already validated by
``apis.AcademicAPI``, and raise ``apis.APIError`` with the documented codes.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from scholar_tui.core.library.apis import APIError, Backend

if TYPE_CHECKING:
    from scholar_tui.core.library.person_topics import TopicField


def _person_score(
    candidate: dict,
    name: str | None,
    organization: str | None,
    interest: str | None,
    interests_of: Callable[[dict], list[str]] = lambda candidate: candidate["interests"],
) -> float | None:
    """How well a candidate {names, organizations, interests, ...} answers the search; None when
    implausible. ``interests_of`` is asked only when an interest is searched for (the local library
    reads a person's interests from all their papers' categories)."""
    from scholar_tui.indexes.fuzzy import name_score, overlap_score

    org = overlap_score(organization, " ; ".join(candidate["organizations"])) if organization else 0.0
    topic = overlap_score(interest, " ; ".join(interests_of(candidate))) if interest else 0.0
    if name:
        score = max(name_score(name, variant) for variant in candidate["names"])
        if score < 0.6:
            return None
        return score + 0.2 * org + 0.2 * topic  # with a name, organization and interest only rank
    if (organization and org < 0.5) or (interest and topic < 0.5):
        return None
    return org + topic


def _rank_people(
    candidates: list[dict],
    name: str | None,
    organization: str | None,
    interest: str | None,
    interests_of: Callable[[dict], list[str]] = lambda candidate: candidate["interests"],
) -> list[dict]:
    """Score candidates {names, organizations, interests, num_citation, ...}; keep the plausible
    ones, best first (then most cited, then by name)."""
    ranked = []
    for candidate in candidates:
        score = _person_score(candidate, name, organization, interest, interests_of)
        if score is not None:
            ranked.append((score, candidate))
    ranked.sort(key=lambda item: (-item[0], -(item[1].get("num_citation") or 0), item[1]["name"]))
    return [candidate for _, candidate in ranked]


SEARCH_LIMIT = 10
FEW_HOLDERS = 2000  # below this many people holding a matching word, all are ordered by bound (a few ms)
TITLE_MATCH = 0.45  # searchPublication keeps titles scoring at least this (fuzzy.title_score)


class LocalBackend(Backend):
    """The SQLite library. Ids: person:N, paper:N (papers also by arXiv id, DOI or OpenAlex id)."""

    name = "local"

    def __init__(self, library) -> None:
        self.library = library

    # ids
    def _person(self, api: str, person_id: str) -> int:
        if not re.fullmatch(r"person:\d+|\d+|(https://openalex\.org/)?A\d+", person_id):
            raise APIError(
                "E_BAD_ARGUMENT",
                f"{person_id!r} is not a person id of the local library "
                "(they look like person:12; get one from searchPerson)",
                api=api,
                parameter="person_id",
            )
        found = self.library.resolve_person(person_id)
        if found is None:
            raise APIError("E_NOT_FOUND", f"no person {person_id} in the local library", api=api, parameter="person_id")
        return found

    def _paper(self, api: str, pub_id: str) -> int:
        from scholar_tui.indexes.records import arxiv_id, doi, openalex_id

        text = pub_id.strip()
        if not (re.fullmatch(r"paper:\d+|\d+", text) or arxiv_id(text) or doi(text) or openalex_id(text)):
            raise APIError(
                "E_BAD_ARGUMENT",
                f"{pub_id!r} is not a publication id of the local library "
                "(they look like paper:34, an arXiv id or a DOI; get one from searchPublication)",
                api=api,
                parameter="pub_id",
            )
        found = self.library.resolve_paper(text)
        if found is None:
            raise APIError("E_NOT_FOUND", f"no publication {pub_id} in the local library", api=api, parameter="pub_id")
        return found

    def _interests(self, person: dict, categories: list[tuple[str, int]] | None = None) -> list[str]:
        """The source's interests, else the names of the categories of the person's papers, most
        frequent first (``categories``: those counts when the caller read them already)."""
        if person["interests"]:
            return person["interests"]
        from scholar_tui.core.library.taxonomy import category_name

        if categories is None:
            categories = self.library.person_categories(person["id"])
        names = []
        for code, _ in categories:
            name = category_name(code)
            if name not in names:
                names.append(name)
        return names

    def _topic_fields(self, organization: str | None, interest: str | None) -> list[TopicField]:
        """The fields asked with the words a person can hold for them, found through the indexes of
        migration m014: the organisation and stated interests in ``person_topic_index``, and the
        categories whose names match, for the interests the library derives (``_interests``)."""
        from scholar_tui.core.library.person_topics import TopicField
        from scholar_tui.core.library.taxonomy import category_name
        from scholar_tui.indexes.fuzzy import content_tokens, token_similarity

        fields = []
        if organization:
            terms = self.library.topic_terms(organization)
            fields.append(TopicField(content_tokens(organization), terms, "organization organizations", {}))
        if interest:
            words = content_tokens(interest)
            names = {code: content_tokens(category_name(code)) for code in self.library.categories()}
            matching = {
                code: held
                for code, held in names.items()
                if any(token_similarity(word, term) > 0 for word in words for term in held)
            }
            fields.append(TopicField(words, self.library.topic_terms(interest), "interests", matching))
        return fields

    def _topic_bounds(self, fields: list[TopicField]) -> dict[int, float]:
        """Every person who can pass ``_rank_people`` without a name (an overlap of 0.5 or more with
        each field asked), with the best score they can reach (``person_topics.field_bounds``)."""
        from scholar_tui.core.library.person_topics import field_bounds, passing_bounds
        from scholar_tui.indexes.records import fold

        bounds = []
        for field in fields:
            sources = [(fold(t).split(), p) for t, p in self.library.topic_term_people(field.terms, field.columns)]
            people = self.library.category_people(field.categories)
            sources += [(words, people[code]) for code, words in field.categories.items()]
            bounds.append(field_bounds(field.words, sources))
        return passing_bounds(bounds)

    def _entries(self, names: dict[int, list[str]], interest: str | None) -> list[dict]:
        """Every candidate's row, counts and (when an interest is asked) categories, a batch at a
        time: ``names`` gives the name variants each was found by."""
        people = self.library.people(list(names))
        counts = self.library.people_paper_counts(list(names))
        categories = self.library.people_categories(list(names)) if interest else {}
        entries = []
        for person_id, found_by in names.items():
            person = people[person_id]
            papers, citations = counts.get(person_id, (0, None))
            interests = functools.partial(self._interests, person, categories.get(person_id, []) if interest else None)
            entries.append(
                {
                    "id": person_id,
                    "names": found_by,
                    "name": person["name"],
                    "organizations": [o for o in [person["organization"], *person["organizations"]] if o],
                    "interests": functools.cache(interests),
                    "person": person,
                    "num_citation": person["cited_by_count"] if person["cited_by_count"] is not None else citations,
                    "num_pubs": max(person["works_count"] or 0, papers),
                }
            )
        return entries

    def _by_name(self, name: str, organization: str | None, interest: str | None) -> list[dict]:
        """Only the people an indexed word of the name finds, every one of them scored."""
        from scholar_tui.indexes.fuzzy import name_score

        names: dict[int, list[str]] = {}
        for row in self.library.name_candidates(name):
            if name_score(name, row["name"]) >= 0.6:
                names.setdefault(row["person_id"], []).append(row["name"])
        ranked = _rank_people(self._entries(names, interest), name, organization, interest, lambda e: e["interests"]())
        return ranked[:SEARCH_LIMIT]

    def _by_topic(self, organization: str | None, interest: str | None) -> list[dict]:
        """The best people by organisation and interest: the most cited scored first, else only those
        whose best possible score can still enter the top (``person_topics``)."""
        from scholar_tui.core.library.person_topics import best_total, top_in_rank_order, top_people

        fields = self._topic_fields(organization, interest)
        best = best_total(fields)
        if not best:
            return []  # no word anybody holds can give a passing score

        # each person's score, or None: the ranking by bound after a walk in rank order that gave up
        # is given people the walk already scored (their rows are not read again)
        scores: dict[int, tuple[float, dict] | None] = {}

        def score_batch(people: list[int]) -> list[tuple[float, dict]]:
            fresh = [person_id for person_id in people if person_id not in scores]
            for entry in self._entries({person_id: [] for person_id in fresh}, interest):
                score = _person_score(entry, None, organization, interest, lambda e: e["interests"]())
                scores[entry["id"]] = None if score is None else (score, entry)
            return [scored for person_id in people if (scored := scores.get(person_id)) is not None]

        held = [(field.columns, field.terms, list(field.categories)) for field in fields]
        if self.library.holders_over(held, FEW_HOLDERS):  # else rank order would walk past many others
            found = top_in_rank_order(self.library.people_in_rank_order(held), best, score_batch, SEARCH_LIMIT)
            if found is not None:
                return found
        bounds = self._topic_bounds(fields)
        return top_people(bounds, self.library.people_rank_keys(bounds), score_batch, SEARCH_LIMIT)

    # the APIs
    def searchPerson(
        self, name: str | None = None, organization: str | None = None, interest: str | None = None
    ) -> list[dict]:
        ranked = self._by_name(name, organization, interest) if name else self._by_topic(organization, interest)
        return [
            {
                "person_id": f"person:{entry['id']}",
                "name": entry["name"],
                "num_citation": entry["num_citation"],
                "interest": entry["interests"](),
                "num_pubs": entry["num_pubs"],
                "organization": entry["person"]["organization"],
                "aliases": [variant for variant in entry["person"]["names"] if variant != entry["name"]],
            }
            for entry in ranked
        ]

    def searchPublication(self, publication_info: str) -> list[dict]:
        from scholar_tui.indexes.fuzzy import title_score

        exact = self.library.resolve_paper(publication_info) if len(publication_info) < 80 else None
        candidates = self.library.title_candidates(publication_info)  # titles sharing a word, not all
        if exact is not None and all(paper["id"] != exact for paper in candidates):
            candidates.append(self.library.paper(exact))
        scored = []
        for paper in candidates:
            score = 2.0 if paper["id"] == exact else title_score(publication_info, paper["title"], floor=TITLE_MATCH)
            if score >= TITLE_MATCH:
                scored.append((score, paper))
        scored.sort(key=lambda item: (-item[0], -(item[1]["cited_by_count"] or 0), item[1]["id"]))
        return [
            {"pub_id": f"paper:{paper['id']}", "title": paper["title"], "year": paper["year"]}
            for _, paper in scored[:SEARCH_LIMIT]
        ]

    def getCoauthors(self, person_id: str) -> list[dict]:
        person = self._person("getCoauthors", person_id)
        return [
            {
                "person_id": f"person:{row['person_id']}",
                "name": row["name"],
                "relation": "coauthor",
                "num_joint_pubs": row["joint_papers"],
            }
            for row in self.library.coauthors(person)
        ]

    def getPersonInterest(self, person_id: str) -> list[str]:
        return self._interests(self.library.person(self._person("getPersonInterest", person_id)))

    def getPublication(self, pub_id: str) -> dict:
        paper = self.library.paper(self._paper("getPublication", pub_id))
        return {
            "pub_id": f"paper:{paper['id']}",
            "title": paper["title"],
            "abstract": paper["abstract"],
            "authors": [
                {"person_id": f"person:{a['person_id']}", "name": a["name"], "organization": a["organization"]}
                for a in self.library.paper_authors(paper["id"])
            ],
            "year": paper["year"],
            "venue": paper["venue"],
            "num_citation": paper["cited_by_count"],
            "url": paper["url"],
            # the identifiers the record holds beside its link (an arXiv paper's journal DOI): read only
            # when a question asks for one (SoAy's identifier answers), no field of the API's spec
            "doi": paper["doi"],
            "arxiv_id": paper["arxiv_id"],
        }

    def getPersonBasicInfo(self, person_id: str) -> dict:
        person = self.library.person(self._person("getPersonBasicInfo", person_id))
        return {
            "person_id": f"person:{person['id']}",
            "name": person["name"],
            "gender": person["gender"],
            "organization": person["organization"],
            "position": person["position"],
            "bio": person["bio"],
            "education_experience": person["education"],
            "email": person["email"],
        }

    def getPersonPubs(self, person_id: str) -> list[dict]:
        person = self._person("getPersonPubs", person_id)
        return [
            {
                "pub_id": f"paper:{paper['id']}",
                "title": paper["title"],
                "num_citation": paper["cited_by_count"],
                "year": paper["year"],
                "authors_name_list": self.library.paper_author_names(paper["id"]),
            }
            for paper in self.library.person_papers(person)
        ]


class OpenAlexBackend(Backend):
    """OpenAlex over HTTP (A… and W… ids); answers are also cached into the library when given one."""

    name = "openalex"

    def __init__(self, client, library=None) -> None:
        self.client = client  # an online.OpenAlexClient
        self.library = library

    def _run(self, api: str, make: Callable) -> Any:
        from scholar_tui.core.library.online import NotFound, OfflineError, SourceError

        try:
            return make()
        except OfflineError as error:
            raise APIError("E_OFFLINE", str(error), api=api) from error
        except NotFound as error:
            raise APIError("E_NOT_FOUND", str(error), api=api) from error
        except SourceError as error:
            raise APIError("E_UPSTREAM", str(error), api=api) from error

    def _cache(self, works: Sequence[dict] = (), authors: Sequence[dict] = ()) -> None:
        if self.library is None:
            return
        from scholar_tui.core.library.importer import store_records
        from scholar_tui.core.library.openalex import parse_author, parse_work

        records = []
        for parse, items in ((parse_work, works), (parse_author, authors)):
            for item in items:
                try:
                    records.append(parse(item))
                except ValueError:
                    continue
        try:
            with self.library.transaction():
                store_records(self.library, records)
        except sqlite3.Error:
            pass  # the cache is a convenience; the answer stands without it

    @staticmethod
    def _id(api: str, value: str, letter: str, parameter: str) -> str:
        from scholar_tui.indexes.records import openalex_id

        found = openalex_id(value)
        if not found or found[0] != letter:
            what = "person" if letter == "A" else "publication"
            raise APIError(
                "E_BAD_ARGUMENT",
                f"{value!r} is not an OpenAlex {what} id (they look like "
                f"{letter}5023888391); local ids work with the local backend only",
                api=api,
                parameter=parameter,
            )
        return found

    @staticmethod
    def _person_row(author: dict) -> dict:
        from scholar_tui.core.library.openalex import parse_author

        record = parse_author(author)
        return {
            "person_id": record.openalex_id,
            "name": record.name,
            "names": [record.name, *record.alternative_names],
            "organizations": record.organizations,
            "interests": record.interests,
            "num_citation": record.cited_by_count,
            "num_pubs": record.works_count,
            "organization": record.organization,
        }

    def searchPerson(
        self, name: str | None = None, organization: str | None = None, interest: str | None = None
    ) -> list[dict]:
        def fetch() -> list[dict]:
            if name:
                return self.client.search_authors(name)
            if organization:
                institutions = self.client.search_institutions(organization)
                if not institutions:
                    return []
                return self.client.authors_at(self._id("searchPerson", institutions[0]["id"], "I", "organization"))
            raise APIError(
                "E_UNSUPPORTED",
                "the OpenAlex backend needs a name or an organization to search people "
                "(the local backend also searches by interest alone)",
                api="searchPerson",
            )

        authors = self._run("searchPerson", fetch)
        self._cache(authors=authors)
        rows = [self._person_row(author) for author in authors if author.get("display_name")]
        ranked = _rank_people(rows, name, organization, interest)[:SEARCH_LIMIT]
        keys = ("person_id", "name", "num_citation", "interest", "num_pubs", "organization")
        return [
            {
                **{key: row["interests"] if key == "interest" else row[key] for key in keys},
                "aliases": [variant for variant in row["names"] if variant != row["name"]],
            }
            for row in ranked
        ]

    def searchPublication(self, publication_info: str) -> list[dict]:
        works = self._run(
            "searchPublication", lambda: self.client.search_works(publication_info, per_page=SEARCH_LIMIT)
        )
        self._cache(works=works)
        from scholar_tui.indexes.records import openalex_id

        return [
            {
                "pub_id": openalex_id(work["id"]),
                "title": work.get("title") or work.get("display_name"),
                "year": work.get("publication_year"),
            }
            for work in works
        ]

    def _works_of(self, api: str, person_id: str) -> list[dict]:
        author = self._id(api, person_id, "A", "person_id")
        works = self._run(api, lambda: self.client.works_of(author))
        if not works:
            # An author with no works is rare; an unknown id answers 404 on /authors.
            self._run(api, lambda: self.client.author(author))
        self._cache(works=works)
        return works

    def getCoauthors(self, person_id: str) -> list[dict]:
        from scholar_tui.indexes.records import openalex_id

        me = self._id("getCoauthors", person_id, "A", "person_id")
        counts: dict[str, dict] = {}
        for work in self._works_of("getCoauthors", person_id):
            for authorship in work.get("authorships") or []:
                author = authorship.get("author") or {}
                other = openalex_id(author.get("id"))
                if other and other != me:
                    entry = counts.setdefault(
                        other,
                        {
                            "person_id": other,
                            "name": author.get("display_name"),
                            "relation": "coauthor",
                            "num_joint_pubs": 0,
                        },
                    )
                    entry["num_joint_pubs"] += 1
        return sorted(counts.values(), key=lambda row: (-row["num_joint_pubs"], row["name"] or ""))

    def _author(self, api: str, person_id: str) -> dict:
        author_id = self._id(api, person_id, "A", "person_id")
        author = self._run(api, lambda: self.client.author(author_id))
        self._cache(authors=[author])
        return author

    def getPersonInterest(self, person_id: str) -> list[str]:
        return self._person_row(self._author("getPersonInterest", person_id))["interests"]

    def getPublication(self, pub_id: str) -> dict:
        from scholar_tui.core.library.openalex import parse_work

        work_id = self._id("getPublication", pub_id, "W", "pub_id")
        work = self._run("getPublication", lambda: self.client.work(work_id))
        self._cache(works=[work])
        record = parse_work(work)
        return {
            "pub_id": record.openalex_id,
            "title": record.title,
            "abstract": record.abstract,
            "authors": [
                {"person_id": a.openalex_id, "name": a.name, "organization": a.affiliation} for a in record.authors
            ],
            "year": record.year,
            "venue": record.venue,
            "num_citation": record.cited_by_count,
            "url": record.url,
            "doi": record.doi,
            "arxiv_id": record.arxiv_id,
        }

    def getPersonBasicInfo(self, person_id: str) -> dict:
        row = self._person_row(self._author("getPersonBasicInfo", person_id))
        return {
            "person_id": row["person_id"],
            "name": row["name"],
            "gender": None,
            "organization": row["organization"],
            "position": None,
            "bio": None,
            "education_experience": None,
            "email": None,
        }

    def getPersonPubs(self, person_id: str) -> list[dict]:
        from scholar_tui.indexes.records import openalex_id

        return [
            {
                "pub_id": openalex_id(work["id"]),
                "title": work.get("title") or work.get("display_name"),
                "num_citation": work.get("cited_by_count"),
                "year": work.get("publication_year"),
                "authors_name_list": [
                    (a.get("author") or {}).get("display_name") for a in work.get("authorships") or []
                ],
            }
            for work in self._works_of("getPersonPubs", person_id)
        ]
