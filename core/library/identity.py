"""Author identity: which name variants in the library are one person.

Sources write one name many ways ("A. Del Maestro", "Adrian Del Maestro", "Kühn, J.-P.",
"J.-P. K{\\"u}hn"); the library first stores one person per written name. ``merge_people`` then
joins people that are the same person:

- the same ORCID (OpenAlex ids that differ are two people, whatever the names say);
- otherwise only when the names are *compatible* (same surname after folding accents, LaTeX
  escapes and hyphens; given names equal or an initial of each other; middle names may be
  missing) **and** there is evidence: a shared coauthor, a shared affiliation, or one source
  query that asked for this author (an arXiv ``au:`` feed). A surname from ``COMMON_SURNAMES``
  needs a coauthor or an affiliation: a query for "Wang" proves nothing.
- a short form that fits two different full names ("A. Smith" vs "Adam Smith" and "Anna Smith")
  is left alone unless the evidence points at one of them.

Every variant stays an alias (``person_names``). Each merge is journalled, so
``split_person`` can undo it and remembers the pair as two people for later imports.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote

from scholar_tui.indexes.records import fold

PARTICLES = {
    "van",
    "von",
    "de",
    "der",
    "den",
    "del",
    "della",
    "da",
    "di",
    "du",
    "dos",
    "das",
    "le",
    "la",
    "ter",
    "ten",
    "bin",
    "al",
    "el",
    "st",
    "mac",
}
WHOLE_READ_SHARE = 4  # read every person when an import's authors are a quarter of the library's or more
# The most frequent surnames of the authors of arXiv and OpenAlex (Chinese, Korean, Vietnamese,
# Indian, Japanese, Western); a shared surname among these says nothing about identity.
COMMON_SURNAMES = set(
    """
wang li zhang liu chen yang huang zhao wu zhou xu sun ma zhu hu guo he lin gao luo zheng liang xie song tang
han feng deng cao peng zeng xiao tian dong pan yuan cai jiang yu du ye cheng wei su lu ding ren shen yao
kim lee park choi jung kang cho yoon jang lim nguyen tran le pham hoang phan vu dang bui do ngo
singh kumar sharma patel gupta shah khan ali ahmed rao reddy das
sato suzuki takahashi tanaka watanabe ito yamamoto nakamura kobayashi kato
smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson
anderson thomas taylor moore jackson martin white harris clark lewis walker young allen king wright scott
muller mueller schmidt schneider fischer weber meyer wagner becker schulz hoffmann
rossi russo ferrari silva santos oliveira souza pereira costa ivanov smirnov kuznetsov popov
cohen levy dubois bernard durand moreau
""".split()
)
LATEX_ACCENTS = {
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
}
LATEX_LETTERS = {
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "l": "ł",
    "L": "Ł",
    "aa": "å",
    "AA": "Å",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "i": "i",
    "j": "j",
}
_ACCENT = re.compile(r"\\([\'`^\"~=.]|[uvHck](?=[\s{]))\s*\{?\s*(\\?[A-Za-z])\}?")
_LETTER = re.compile(r"\\(ss|aa|AA|ae|AE|oe|OE|[oOlLij])(?![A-Za-z])\s*")


def delatex(text: str) -> str:
    """'K{\\"u}hn' -> 'Kühn', 'Erd\\H{o}s' -> 'Erdős', '{\\o}ksendal' -> 'øksendal'; braces dropped."""
    text = _ACCENT.sub(lambda m: m.group(2).lstrip("\\") + LATEX_ACCENTS[m.group(1)], text)
    text = _LETTER.sub(lambda m: LATEX_LETTERS[m.group(1)], text)
    return unicodedata.normalize("NFC", text.replace("{", "").replace("}", ""))


@dataclass(frozen=True)
class ParsedName:
    surname: str  # folded, without spaces: 'delmaestro'
    given: tuple[str, ...]  # folded given-name parts in order: ('adrian',), ('c', 'm'), ('jean', 'pierre')

    @property
    def full_given(self) -> tuple[str, ...]:
        return tuple(part for part in self.given if len(part) > 1)

    @property
    def specificity(self) -> tuple[int, int]:
        """Full given names first, then more parts: the name a merged person is shown under."""
        return len(self.full_given), len(self.given)


def parse_name(name: str) -> ParsedName | None:
    """Surname and given names of a written name ('Last, First' or 'First Last'); None if unusable."""
    text = " ".join(delatex(name).split())
    if "," in text:  # 'Del Maestro, Adrian' (BibTeX and library catalogues)
        last, _, first = text.partition(",")
        text = f"{first.strip()} {last.strip()}"
    words = [word for word in text.split() if fold(word)]
    if not words:
        return None
    surname_words = [words.pop()]
    # 'Del Maestro', 'van der Waals': particles before the last word belong to the surname
    while words and fold(words[-1]) in PARTICLES and len(words) > 1:
        surname_words.insert(0, words.pop())
    given = tuple(part for word in words for part in fold(word).split())
    surname = fold(" ".join(surname_words)).replace(" ", "")
    return ParsedName(surname, given) if surname else None


def _part_fits(a: str, b: str) -> bool:
    if a == b:
        return True
    return (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def compatible(first: str | ParsedName, second: str | ParsedName) -> bool:
    """Could these two written names be one person? Same surname; the first given names fit (equal,
    or an initial of the other); the shorter list of given names fits the longer one in order."""
    a = parse_name(first) if isinstance(first, str) else first
    b = parse_name(second) if isinstance(second, str) else second
    if a is None or b is None or a.surname != b.surname or not a.given or not b.given:
        return False
    if not _part_fits(a.given[0], b.given[0]):
        return False
    short, long = (a.given[1:], b.given[1:]) if len(a.given) <= len(b.given) else (b.given[1:], a.given[1:])
    position = 0
    for part in short:  # every middle name of the shorter form appears, in order, in the longer one
        while position < len(long) and not _part_fits(part, long[position]):
            position += 1
        if position == len(long):
            return False
        position += 1
    return True


def author_queries(kind: str, path: str | Path) -> set[str]:
    """Surnames (folded, no spaces) that a source file was a query *for*: arXiv ``au:`` terms.

    An arXiv feed names its query in its title: 'ArXiv Query: search_query=au:del_maestro&…'.
    """
    if kind != "arxiv":
        return set()
    try:
        head = Path(path).read_bytes()[:4096].decode("utf-8", "replace")
    except OSError:
        return set()
    found = re.search(r"<title[^>]*>\s*ArXiv Query:\s*([^<]*)</title>", head)
    return queried_surnames(found.group(1)) if found else set()


def queried_surnames(query: str) -> set[str]:
    """'search_query=au:del_maestro AND ti:x' or 'au:"Del Maestro"' -> {'delmaestro'}."""
    text = query.replace("&amp;", "&")
    if "search_query=" in text:
        text = (parse_qs(text.split("?")[-1]).get("search_query") or [""])[0]
    text = unquote(text)
    surnames = set()
    for match in re.finditer(r"\bau:\s*(\"[^\"]+\"|[^\s()]+)", text):
        words = match.group(1).strip('"').replace("_", " ").split()
        parsed = parse_name(" ".join(["x", *words]))  # a dummy given name: the words are the surname
        if parsed is not None:
            surnames.add(fold(" ".join(words)).replace(" ", ""))
    return surnames


@dataclass
class Candidate:
    """One person of the library as the identity rules see it."""

    person_id: int
    name: str
    names: list[str]
    parsed: ParsedName
    openalex_id: str | None
    orcid: str | None
    coauthors: set[int] = field(default_factory=set)
    affiliations: set[str] = field(default_factory=set)


@dataclass
class Merge:
    """One person joined into another, and why."""

    kept_id: int
    merged_id: int
    kept_name: str
    merged_name: str
    evidence: str

    def summary(self) -> str:
        return f"“{self.merged_name}” is “{self.kept_name}” (person:{self.kept_id}; {self.evidence})"


def evidence_for(a: Candidate, b: Candidate, queried: set[str]) -> str | None:
    """Why two compatible people are one, or None when nothing says so."""
    shared = (a.coauthors & b.coauthors) - {a.person_id, b.person_id}
    if shared:
        return f"{len(shared)} shared coauthor{'s' if len(shared) > 1 else ''}"
    places = a.affiliations & b.affiliations
    if places:
        return f"same affiliation ({sorted(places)[0]})"
    if a.parsed.surname in queried and a.parsed.surname not in COMMON_SURNAMES:
        return "same author query"
    return None


def plan_merges(candidates: list[Candidate], queried: set[str], apart: set[frozenset[int]]) -> list[Merge]:
    """The merges the rules allow among people of one surname, most specific name kept."""
    merges: list[Merge] = []
    by_orcid: dict[str, Candidate] = {}
    for person in sorted(candidates, key=lambda c: (not c.openalex_id, c.person_id)):
        if not person.orcid:
            continue
        other = by_orcid.setdefault(person.orcid, person)
        if (
            other is not person
            and not (other.openalex_id and person.openalex_id)
            and frozenset((other.person_id, person.person_id)) not in apart
        ):
            merges.append(Merge(other.person_id, person.person_id, other.name, person.name, "same ORCID"))
    taken = {merge.merged_id for merge in merges}
    groups: list[list[Candidate]] = []  # each group: one person, the most specific name first
    for person in sorted(candidates, key=lambda c: (-c.parsed.specificity[0], -c.parsed.specificity[1], c.person_id)):
        if person.person_id in taken:
            continue
        fits = [group for group in groups if _fits_group(person, group, apart)]
        with_evidence = [(group, why) for group in fits if (why := _group_evidence(person, group, queried))]
        # a short form that fits two different people is ambiguous unless the evidence picks one
        if len(with_evidence) == 1 and (len(fits) == 1 or with_evidence[0][1] != "same author query"):
            group, why = with_evidence[0]
            head = group[0]
            merges.append(Merge(head.person_id, person.person_id, head.name, person.name, why))
            group.append(person)
            continue
        groups.append([person])
    return merges


def _fits_group(person: Candidate, group: list[Candidate], apart: set[frozenset[int]]) -> bool:
    for member in group:
        if frozenset((member.person_id, person.person_id)) in apart:
            return False
        if member.openalex_id and person.openalex_id and member.openalex_id != person.openalex_id:
            return False
        if not compatible(member.parsed, person.parsed):
            return False
    return True


def _group_evidence(person: Candidate, group: list[Candidate], queried: set[str]) -> str | None:
    for member in group:
        why = evidence_for(member, person, queried)
        if why:
            return why
    return None


def merge_people(
    library, *, person_ids: list[int] | None = None, queried: set[str] | frozenset[str] = frozenset()
) -> list[Merge]:
    """Find and apply the merges among the people sharing a surname with ``person_ids`` (all when None).

    Runs inside the caller's transaction when there is one; returns what was merged.
    """
    merges: list[Merge] = []
    for _ in range(3):  # a merge can create the shared coauthor that proves the next one
        found = _one_pass(library, person_ids, set(queried))
        if not found:
            break
        merges += found
    return merges


def _one_pass(library, person_ids: list[int] | None, queried: set[str]) -> list[Merge]:
    by_surname = _surname_groups(library, person_ids)
    apart = library.people_kept_apart()
    merges: list[Merge] = []
    for surname in sorted(by_surname):
        group = by_surname[surname]
        if len(group) < 2:
            continue
        ids = [row["id"] for row in group]
        context = library.identity_context(ids)
        candidates = [
            Candidate(
                row["id"],
                row["name"],
                context["names"].get(row["id"], [row["name"]]),
                row["parsed"],
                row["openalex_id"],
                row["orcid"],
                context["coauthors"].get(row["id"], set()),
                {fold(a) for a in context["affiliations"].get(row["id"], set()) if fold(a)},
            )
            for row in group
        ]
        for merge in plan_merges(candidates, queried, apart):
            library.merge_people(merge.kept_id, merge.merged_id, merge.evidence)
            merges.append(merge)
    for kept in {merge.kept_id for merge in merges}:
        library.rename_person(kept, best_name(library.person(kept)["names"]))
    return merges


def _surname_groups(library, person_ids: list[int] | None) -> dict[str, list[dict]]:
    """The library's people by surname: all of them, or (``person_ids``) those sharing a surname with
    these people, found through the name index by the surname's words when they are a few of the
    library's people (an import's authors), read whole when they are many (the first import)."""
    if person_ids is None:
        return _by_surname(library.identity_rows())
    surnames: set[str] = set()
    words: set[str] = set()
    for row in library.identity_rows(ids=person_ids):
        parsed = parse_name(row["name"])
        if parsed is not None:
            surnames.add(parsed.surname)
            # 'Del Maestro' is indexed as 'del maestro', 'DelMaestro' as 'delmaestro': ask for both
            words.update({parsed.surname, surname_word(row["name"])} - {""})
    if len(person_ids) * WHOLE_READ_SHARE >= library.person_count():
        groups = _by_surname(library.identity_rows())
    else:
        groups = _by_surname(library.identity_rows(name_words=words))
    return {surname: group for surname, group in groups.items() if surname in surnames}


def _by_surname(rows: list[dict]) -> dict[str, list[dict]]:
    by_surname: dict[str, list[dict]] = {}
    for row in rows:
        parsed = parse_name(row["name"])
        if parsed is not None:
            by_surname.setdefault(parsed.surname, []).append({**row, "parsed": parsed})
    return by_surname


def surname_word(name: str) -> str:
    """The last folded word of a written name's surname ('Del Maestro, Adrian' -> 'maestro',
    "O'Brien" -> 'brien'), as the name index holds it; '' when there is none."""
    text = " ".join(delatex(name).split())
    if "," in text:
        text = text.partition(",")[0]
    words = fold(text).split()
    return words[-1] if words else ""


def merges_note(merged: list[str]) -> str:
    """An import's line on its merges (their summaries): a single one said in full, so a person sees who
    became whom; several counted, with where to read them."""
    if not merged:
        return ""
    if len(merged) == 1:
        return f"; name variant merged: {merged[0]}"
    return f"; {len(merged)} name variants merged (`scholar-tui library person merges`)"


def best_name(names: list[str]) -> str:
    """The variant a merged person is shown under: the most complete given names."""
    parsed = [(parse_name(name), name) for name in names]
    usable = [(p.specificity, len(name), name) for p, name in parsed if p is not None]
    return max(usable)[2] if usable else names[0]


def after_import(library, kind: str, path: str | Path, paper_ids: list[int]) -> list[Merge]:
    """What the importer calls once a file is stored: merge the new papers' authors' variants."""
    person_ids = library.authors_of(paper_ids)
    return merge_people(library, person_ids=person_ids, queried=author_queries(kind, path))


def split_person(library, person: int, merge_id: int | None = None) -> list[dict]:
    """Undo the merges into ``person`` (one when ``merge_id`` is given, else all of them, newest first)."""
    merges = library.person_merges(person)
    if merge_id is not None:
        merges = [merge for merge in merges if merge["id"] == merge_id]
    if not merges:
        raise ValueError(f"person:{person} has no merge{' ' + str(merge_id) if merge_id else ''} to undo")
    restored = [library.split_merge(merge["id"]) for merge in reversed(merges)]
    library.rename_person(person, best_name(library.person(person)["names"]))
    return restored
