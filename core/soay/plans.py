"""SoAy's combinations generated from the API graph: every output field within three hops of a name or a title.

SoAy §5.1 binds a head input, a solution and a tail output into one combination (one question
intent). Here they are generated, not written: for every solution of ``solutions.solution_library``
and every field its tail API documents (nested item fields included: a paper's authors' names and
organizations), one ``Plan`` says what it starts from, how each hop is taken (one record, the
first author, every coauthor, every paper), which field it returns, the kind of answer that is
(``core.answer_kind``), a description made of the field's own documentation, and the program that
computes it. A list can also be counted, narrowed to the papers written with a second person (a
pair), or to the papers on a topic or of a year the question names.

The hand-written phrasings of ``intents.py`` stay as training data; a question reaches any plan
(``choose.py``) by what it asks for and what it starts from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Literal

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.soay.narrowing import RANKED, Narrow, narrowing_lines
from scholar_tui.core.soay.solutions import solution_library

Start = Literal["person", "paper", "pair"]
Pick = Literal["one", "first", "last", "each"]
AUTHOR_PICKS: tuple[Pick, ...] = ("first", "last", "each")  # how a paper's authors feed the next API

# What one result of an API is, in words (descriptions) and as a program's variable.
RECORD = {  # api -> (one, many, what it is)
    "searchPerson": ("person", "people", "the person"),
    "searchPublication": ("hit", "hits", "the paper"),
    "getCoauthors": ("coauthor", "coauthors", "coauthor"),
    "getPersonPubs": ("pub", "pubs", "paper"),
    "getPublication": ("paper", "papers", "paper"),
    "getPersonBasicInfo": ("profile", "profiles", "profile"),
    "getPersonInterest": ("interests", "interest_lists", "interests"),
}

# A person's interests: getPerson's field is 'interests', a record's item 'interest'; people say either.
INTEREST_WORDS = (
    "interest",
    "interests",
    "topic",
    "topics",
    "field",
    "fields",
    "research area",
    "areas",
    "research",
    "study",
    "work on",
    "works on",
    "subjects",
    "expertise",
    "specialty",
    "speciali",  # specialism, specialisation, specialization
)

# Fields a question names with other words than the documentation's (what people type).
FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "venue": (
        "venue",
        "journal",
        "conference",
        "proceedings",
        "appear",
        "published",
        "publish",
        "outlet",
        "presented",
        "workshop",  # a workshop, a symposium or a meeting is where a paper appeared: a venue the record names
        "symposium",
        "meeting",
    ),
    "num_citation": ("citation", "citations", "cited", "cites", "citation count"),
    "year": ("year", "when", "date"),
    "abstract": (
        "abstract",
        "about",
        "summar",
        "describe",
        "content",
        "say",
        "study",
        "studies",
        "propose",
        "contribution",
        "main idea",
        "findings",
    ),
    "authors": ("author", "authors", "wrote", "written by", "writer", "people behind", "co-wrote"),
    "authors.name": (
        "author",
        "authors",
        "wrote",
        "written by",
        "writer",
        "people behind",
        "co-wrote",
        "co-authored",
        "coauthored",
        "collaborated on",
        "name",
        "worked on",
        "published",  # "who published X?": its authors
    ),
    "authors.organization": (
        "affiliation",
        "institution",
        "institute",
        "organization",
        "organisation",
        "university",
        "employer",
        "lab",
        "laboratory",
        "where",
    ),
    "authors.person_id": ("id", "identifier"),
    "authors_name_list": ("author names", "authors"),
    "title": (
        "title",
        "titles",
        "papers",
        "publication",
        "publications",
        "articles",
        "works",
        "paper",
        "published",
        "publish",
        "written",
        "wrote",
        "write",
        "authored",
        "put out",  # "what did A put out in 2022"
    ),
    "url": ("url", "link", "where can i read", "read it", "pdf", "doi", "arxiv"),  # a DOI or arXiv id: from its link
    "organization": (
        "where",  # "where is X now?": a person's place is their organization
        "organization",
        "organisation",
        "affiliation",
        "affiliated",
        "institution",
        "institute",
        "employer",
        "university",
        "lab",  # "what lab is X with?": a laboratory is an organization an affiliation names
        "laboratory",
        "work",
        "works",
        "employ",
        "based",
    ),
    "interest": INTEREST_WORDS,
    "interests": INTEREST_WORDS,
    "num_pubs": ("papers", "publications", "articles", "works", "published", "pubs", "prolific", "productive"),
    "aliases": ("alias", "aliases", "spelling", "spellings", "other names", "also known", "variants"),
    "name": ("name", "names"),
    "relation": ("relation", "related", "relationship"),
    "num_joint_pubs": ("joint", "together"),  # "A's paper with B" names the pair, not this count
    "gender": ("gender", "male", "female"),
    "position": ("position", "title", "role", "job", "rank"),
    "bio": ("bio", "biography", "background", "about"),
    "education_experience": (
        "education",
        "educated",
        "study",
        "studied",
        "school",
        "graduate",
        "graduated",
        "alma mater",
        "degree",
        "phd",
        "attend",
    ),
    "email": ("email", "e-mail", "mail", "contact"),
    "person_id": ("id", "identifier"),
    "pub_id": ("id", "identifier"),
}

# How an answer names a field that is missing ("The library has no ‹noun› for ‹entity›.").
FIELD_NOUNS = {
    "num_citation": "citation count",
    "num_pubs": "publication count",
    "num_joint_pubs": "count of joint papers",
    "venue": "venue",
    "year": "year",
    "abstract": "abstract",
    "organization": "affiliation",
    "authors.organization": "author affiliations",
    "education_experience": "education",
    "interest": "research interests",
    "interests": "research interests",
    "email": "e-mail address",
    "bio": "biography",
    "url": "link",
    "authors": "authors",
    "authors.name": "authors",
    "authors_name_list": "author names",
    "title": "titles",
    "name": "names",
    "aliases": "other spellings",
    "position": "position",
    "gender": "gender",
}


def field_kind(field: str, type_: str) -> Kind:
    """The kind of answer a field gives, from its name and documented type."""
    name = field.rsplit(".", 1)[-1]
    if name.startswith("num_"):
        return Kind.COUNT
    if name == "year":
        return Kind.DATE
    if name == "venue":
        return Kind.VENUE
    if name in ("organization", "education_experience"):
        return Kind.PLACE
    if name in ("name", "authors", "authors_name_list", "aliases"):
        return Kind.PEOPLE
    if name == "title":
        return Kind.PAPER
    return Kind.TEXT


@dataclass(frozen=True)
class Hop:
    api: str
    pick: Pick  # which of the previous result feeds it: the one record, the first author, every item
    through: str  # the coupling attribute ("person_id", "pub_id"; "authors.person_id" through a paper's authors)


@dataclass(frozen=True)
class Plan:
    key: str
    start: Start
    hops: tuple[Hop, ...]
    field: str  # the tail API's output field ("venue", "authors.name")
    kind: Kind
    count: bool  # the answer is how many items the list holds
    narrow: Narrow
    first_item: bool  # only the first of a nested list (a paper's first author)
    description: str
    program: str  # ENTITY, OTHER (a pair's second person), TOPIC and YEAR are filled in per question
    last_item: bool = False  # only the last of a nested list (a paper's last author)

    @property
    def solution(self) -> tuple[str, ...]:
        return tuple(hop.api for hop in self.hops)

    @property
    def routes(self) -> tuple[str, ...]:
        """The relations walked after the head, as choose.py's cues name them."""
        names = []
        for hop in self.hops[1:]:
            if hop.through.startswith("authors."):
                names.append({"first": "first_author", "last": "last_author"}.get(hop.pick, "authors"))
            if hop.api == "getCoauthors":
                names.append("coauthors")
            elif hop.api == "getPersonPubs":
                names.append("pubs")
        if self.first_item:
            names.append("first_author")
        if self.last_item:
            names.append("last_author")
        if self.narrow == "pair" and "coauthors" in names:
            names.remove("coauthors")  # a pair's coauthor record is the second person's own
        return tuple(names)

    def program_for(
        self,
        entity: str,
        other: str | None = None,
        topic: str | None = None,
        year: int | None = None,
        year_to: int | None = None,
    ) -> str:
        program = self.program
        if year_to is not None and year_to != year:  # a span of years: "between 2021 and 2023", "since 2023"
            program = program.replace("p['year'] == YEAR", f"p['year'] is not None and YEAR <= p['year'] <= {year_to}")
        return (
            program.replace("OTHER", repr(other or ""))
            .replace("TOPIC", repr(topic or ""))
            .replace("YEAR", repr(year))
            .replace("ENTITY", repr(entity))
        )


# -- generating ------------------------------------------------------------------------------------
def _tail_fields(spec) -> list[tuple[str, str, str]]:
    """(field, type, documentation) of everything the tail API returns, nested item fields too."""
    fields = []
    for field in spec.returns:
        fields.append((field.name, field.type, field.description))
        for inner in field.fields:
            fields.append((f"{field.name}.{inner}", "string", f"{field.description} — their {inner}"))
    return fields


def _hops(apis: tuple[str, ...], specs: Mapping) -> list[tuple[Hop, ...]]:
    """Every way of taking a solution's hops: a paper's authors feed the next API as the first
    author or as every author; any other list feeds it item by item."""
    ways: list[tuple[Hop, ...]] = [(Hop(apis[0], "one", "name" if apis[0] == "searchPerson" else "publication_info"),)]
    for before, api in zip(apis, apis[1:], strict=False):
        params = {p.name for p in specs[api].parameters}
        nested = {f"{f.name}.{inner}" for f in specs[before].returns for inner in f.fields if inner in params}
        grown = []
        for way in ways:
            if nested:
                through = sorted(nested)[0]
                # a person asks after the first author's or the last (senior) author's record as often
                # as after every author's ("the other papers of the last author of X")
                grown += [way + (Hop(api, pick, through),) for pick in AUTHOR_PICKS]
            else:
                many = _is_many(way, specs)
                grown.append(way + (Hop(api, "each" if many else "one", sorted(params)[0]),))
        ways = grown
    return ways


def _is_many(hops: tuple[Hop, ...], specs: Mapping) -> bool:
    """Whether the value in hand after ``hops`` is a list of records (the heads keep their best hit)."""
    many = False
    for index, hop in enumerate(hops):
        if index == 0:
            continue
        returns_list = specs[hop.api].returns_type == "list[object]"
        many = many or returns_list or hop.pick == "each"
    return many


def _describe(
    hops: tuple[Hop, ...],
    field_doc: str,
    field: str,
    count: bool,
    narrow: Narrow,
    first_item: bool = False,
    last_item: bool = False,
) -> str:
    start = "a scholar" if hops[0].api == "searchPerson" else "a paper"
    path = [start + (" and a second scholar" if narrow == "pair" else "")]
    for hop in hops[1:]:
        who = {"first": "its first author", "last": "its last author", "each": "each of its authors"}.get(hop.pick, "")
        if hop.through.startswith("authors.") and who:
            path.append(who)
        what = {
            "getCoauthors": "coauthors",
            "getPersonPubs": "papers",
            "getPublication": "paper details",
            "getPersonBasicInfo": "profile",
            "getPersonInterest": "research interests",
        }[hop.api]
        path.append(f"{what} ({hop.api})")
    if narrow == "pair":
        path.append("only those written with the second scholar")
    if narrow == "topic":
        path.append("only those on the topic named")
    if narrow == "year":
        path.append("only those of the year named")
    if narrow in RANKED:
        path.append(f"only the {narrow.replace('_', ' ')} ones")
    if first_item:
        path.append("its first author only")
    if last_item:
        path.append("its last author only")
    head = f"how many: {field.replace('_', ' ')}" if count else f"{field}: {field_doc.rstrip('.')}"
    return f"{head} — of {' → '.join(path)}"


def _program(
    hops: tuple[Hop, ...],
    field: str,
    count: bool,
    narrow: Narrow,
    specs: Mapping,
    first_item: bool = False,
    last_item: bool = False,
) -> str:
    """The plan's program, readable as a person would write it."""
    head = hops[0]
    if head.api == "searchPerson":
        lines = ["person = searchPerson(name=ENTITY)[0]"]
        current, many = "person", False
    else:
        lines = ["paper = searchPublication(publication_info=ENTITY)[0]"]
        current, many = "paper", False
    narrowed = False
    flattened = False  # lists of lists were joined: the same item may come twice (a shared coauthor)
    for hop in hops[1:]:
        one, plural, _ = RECORD[hop.api]
        name = hop.through.rsplit(".", 1)[-1]
        if hop.through.startswith("authors."):
            if hop.pick in ("first", "last"):
                lines.append(f"author = {current}['authors'][{0 if hop.pick == 'first' else -1}]")
                source, many_in = "author", False
            else:
                lines.append(f"authors = {current}['authors']")
                source, many_in = "authors", True
        else:
            source, many_in = current, many
        returns_list = specs[hop.api].returns_type.startswith("list")
        if many_in:
            item = "x"
            call = f"{hop.api}({name}={item}[{name!r}])"
            lines.append(
                f"{plural} = [y for {item} in {source} for y in {call}]"
                if returns_list
                else f"{plural} = [{call} for {item} in {source}]"
            )
            current, many, flattened = plural, True, flattened or returns_list
        else:
            call = f"{hop.api}({name}={source}[{name!r}])"
            target = plural if specs[hop.api].returns_type == "list[object]" else one
            lines.append(f"{target} = {call}")
            current, many = target, returns_list
        if hop.api == "getPersonPubs" and narrow and not narrowed:
            lines += narrowing_lines(narrow, current)
            narrowed = True
        if hop.api == "getCoauthors" and narrow == "pair" and not narrowed:
            lines += [
                "other = searchPerson(name=OTHER)[0]",
                f"{current} = [c for c in {current} if c['person_id'] == other['person_id']]",
            ]
            narrowed = True
    if (first_item or last_item) and field == "authors_name_list":  # each paper's first (last) author named
        lines.append(f"result = [r[{field!r}][{0 if first_item else -1}] for r in {current} if r[{field!r}]]")
        return "\n".join(lines)
    if first_item or last_item:  # one paper's first (last) author: the nested list's first (last) item
        top, _, inner = field.partition(".")
        lines.append(f"result = {current}[{top!r}][{0 if first_item else -1}][{(inner or 'name')!r}]")
        return "\n".join(lines)
    if narrow in RANKED and hops[-1].api == "getPersonPubs" and field == RANKED[narrow][0]:
        lines.append("result = top")  # the figure the papers were ranked by: one value, ties share it
        return "\n".join(lines)
    if narrow in RANKED and hops[-1].api == "getPersonPubs" and field == "title":
        # the top papers with the figure they were ranked by: "Morphy (2019)", "… (3 citations)"
        key, _, shown = RANKED[narrow]
        figure = shown.replace("{}", f"{{r[{key!r}]}}")
        lines.append(f"result = [f\"{{r['title']}} {figure}\" for r in {current}]")
        return "\n".join(lines)
    lines.append(_extract(hops[-1].api, field, current, many, specs))
    if many and ("." in field or field == "authors" or _list_valued(hops[-1].api, field, specs)):
        flattened = True  # each item's list (every paper's authors, every coauthor's interests) joined
    if flattened:  # each distinct value once; one record's own list (two coauthors named alike) stays whole
        lines.append("result = list(dict.fromkeys(r for r in result if r is not None))")
    if count:
        lines.append("result = len(result)")
    return "\n".join(lines)


def _list_valued(api: str, field: str, specs: Mapping) -> bool:
    spec = specs[api]
    if spec.returns_type == "list[string]":
        return True
    top = field.split(".", 1)[0]
    declared = next((f.type for f in spec.returns if f.name == top), "")
    return declared.startswith("list")


def _extract(api: str, field: str, current: str, many: bool, specs: Mapping) -> str:
    if specs[api].returns_type == "list[string]":  # getPersonInterest: the list is the field
        return f"result = {current}"
    top, _, inner = field.partition(".")
    if top == "authors" and not inner:
        inner = "name"  # the authors, as people name them
    nested_list = _list_valued(api, top, specs)
    if not many:
        if inner:
            return f"result = [a[{inner!r}] for a in {current}[{top!r}]]"
        return f"result = {current}[{field!r}]"
    if inner:
        return f"result = [a[{inner!r}] for r in {current} for a in r[{top!r}]]"
    if nested_list:
        return f"result = [v for r in {current} for v in r[{field!r}]]"
    return f"result = [r[{field!r}] for r in {current}]"


def _countable(field: str, kind: Kind, listed: bool) -> bool:
    return listed and (kind in (Kind.PEOPLE, Kind.PAPER) or field in ("interest", "interests")) and field != "aliases"


def generate_plans(specs: Mapping) -> list[Plan]:
    """Every plan the API graph allows: solution × way of taking its hops × tail field (× count, × narrowing)."""
    plans: list[Plan] = []
    for solution in solution_library(specs):
        for hops in _hops(solution.apis, specs):
            narrows: list[Narrow] = [""]
            if hops[0].api == "searchPerson" and any(h.api in ("getPersonPubs", "getCoauthors") for h in hops[1:]):
                narrows.append("pair")
            if hops[0].api == "searchPerson" and any(h.api == "getPersonPubs" for h in hops[1:]):
                narrows += ["topic", "year", *RANKED.keys()]
            for narrow in narrows:
                many = _is_many(hops, specs) or narrow == "pair"
                for field, type_, doc in _tail_fields(specs[hops[-1].api]):
                    kind = field_kind(field, type_)
                    listed = many or _list_valued(hops[-1].api, field, specs)
                    ranked_figure = narrow in RANKED and field == RANKED[narrow][0] and hops[-1].api == "getPersonPubs"
                    if kind is Kind.COUNT and many and not ranked_figure:
                        kind = Kind.TEXT  # one figure per item (each paper's citations), not a count
                    countable = _countable(field, kind, listed) and narrow not in RANKED  # the top is not counted
                    variants = [(False, False, False)] + [(True, False, False)] * countable
                    if not many and "." in field and field.startswith("authors"):
                        # the first (last) author's name, organization, id
                        variants += [(False, True, False), (False, False, True)]
                    own_papers = [h.api for h in hops] == ["searchPerson", "getPersonPubs"] and narrow != "pair"
                    if own_papers and field == "authors_name_list":
                        # the first (last) author of each of a person's papers ("of X's 2022 paper")
                        variants += [(False, True, False), (False, False, True)]
                    for count, first_item, last_item in variants:
                        key = "|".join(
                            [
                                ("pair" if narrow == "pair" else hops[0].api),
                                *(f"{h.api}:{h.pick}" for h in hops[1:]),
                                ("first:" if first_item else "last:" if last_item else "") + field,
                                "count" if count else "value",
                                narrow or "all",
                            ]
                        )
                        plans.append(
                            Plan(
                                key=key,
                                start="pair"
                                if narrow == "pair"
                                else ("person" if hops[0].api == "searchPerson" else "paper"),
                                hops=hops,
                                field=field,
                                kind=Kind.COUNT if count else kind,
                                count=count,
                                narrow=narrow,
                                first_item=first_item,
                                description=_describe(hops, doc, field, count, narrow, first_item, last_item),
                                program=_program(hops, field, count, narrow, specs, first_item, last_item),
                                last_item=last_item,
                            )
                        )
    return plans


@cache
def default_plans() -> tuple[Plan, ...]:
    from scholar_tui.core.library.apis import SPECS

    return tuple(generate_plans(SPECS))
