"""Narrowing a person's papers inside a program: the lines that keep the papers written with a second
person, of a year or a span of years, of a venue, on a topic, written alone, or the top of them by a
figure (the latest, the most cited); added to a plan's program for the question's other conditions
(``add_narrowings``), or turned round for a condition the question negates (``leaving_out``).
"""

from __future__ import annotations

import re
from typing import Literal

Narrow = Literal["", "pair", "topic", "year", "venue", "alone", "latest", "earliest", "most_cited"]
# Narrowings that keep the top of a person's papers by one of their fields (ties all kept):
# narrow -> (the field ranked, max or min, how an answer shows the figure after each title)
RANKED: dict[Narrow, tuple[str, str, str]] = {
    "latest": ("year", "max", "({})"),
    "earliest": ("year", "min", "({})"),
    "most_cited": ("num_citation", "max", "({} citations)"),
}


def narrowing_lines(narrow: Narrow, current: str) -> list[str]:
    """The program lines that narrow the papers held in ``current`` (a person's papers) by one narrowing."""
    if narrow == "pair":  # the second person's own papers, matched by id (names vary between records)
        return [
            "other = searchPerson(name=OTHER)[0]",
            "theirs = {p['pub_id'] for p in getPersonPubs(person_id=other['person_id'])}",
            f"{current} = [p for p in {current} if p['pub_id'] in theirs]",
        ]
    if narrow == "year":
        return [f"{current} = [p for p in {current} if p['year'] == YEAR]"]
    if narrow == "venue":  # getPersonPubs holds no venue: each paper's own record does
        return _venue_lines(current)
    if narrow == "alone":  # the papers with one author: the person alone
        return [f"{current} = [p for p in {current} if len(p['authors_name_list'] or []) == 1]"]
    if narrow in RANKED:  # papers without the figure cannot be ranked: none left says the figure is missing
        key, pick, _ = RANKED[narrow]
        return [
            f"known = [p for p in {current} if p[{key!r}] is not None]",
            f"top = {pick}([p[{key!r}] for p in known], default=None)",
            f"{current} = [p for p in known if p[{key!r}] == top]",
        ]
    # a topic: papers whose title holds every word of the topic, each by its stem (the word less its last
    # three letters, four at least: "testing" is "test", "contracts" "contra"), so "ADAS testing" is not
    # every paper with "testing" in its title. A hyphen joins words as a space does: "entanglement-assisted"
    # is the title's "entanglement assisted", and "big data" the title's "BigData" (each stem is looked for
    # inside the title's words). A word with a digit is a particular, never a stem: "helium-3" is not the
    # title's "helium-4", so it must be a whole word of the title
    # An initialism ("LLMs") is the title's own word or the initials of consecutive title words ("Large
    # Language Models"), never a stem of its letters
    return [
        "initialisms = [w.removesuffix('s').lower() for w in TOPIC.replace('-', ' ').split() "
        "if len(w.removesuffix('s')) >= 3 and w.removesuffix('s').isupper()]",
        f"stems = [w[: max(4, len(w) - 3)] for w in TOPIC.lower().replace('-', ' ').split() "
        f"if len(w) > 2 and w not in {TOPIC_GLUE!r} and not any(c.isdigit() for c in w) "
        "and w.removesuffix('s') not in initialisms]",
        "numbers = [w for w in TOPIC.lower().replace('-', ' ').split() if any(c.isdigit() for c in w)]",
        f"{current} = [p for p in {current} if all(s in p['title'].lower().replace('-', ' ') for s in stems) "
        "and all(n in p['title'].lower().replace('-', ' ').replace(':', ' ').split() for n in numbers) "
        "and all(i in p['title'].lower().replace('-', ' ').replace(':', ' ').split() or i in ''.join(t[0] for t in "
        "p['title'].lower().replace('-', ' ').split()) for i in initialisms)]",
    ]


TOPIC_GLUE = ("the", "and", "for", "with", "from", "via", "using")


# Words a venue's name shares with every other (left out when matching "the Journal of Physics A").
VENUE_STOP_WORDS = ("the", "of", "on", "and", "in", "for", "journal", "proceedings", "conference")


INITIALS_GLUE = ("the", "of", "on", "and", "in", "for")  # words an initialism leaves out ("JMIR", "PRB")


def _venue_lines(current: str) -> list[str]:
    """Papers whose venue holds every word of the venue named, a word matching its abbreviation
    ("Physical Review B" matches "Phys. Rev. B 91, 184507 (2015)" and "Phys.Lett.B573:94-100,2003": the
    venue's words are its runs of letters and of digits), or whose words' initials are (or, three letters at least,
    begin with) the one word named ("PRB" for "Physical Review B 82, 060515(R)", "STVR", "JMIR": how
    people name a journal)."""
    return [
        f"words = [w.strip('.,').lower() for w in VENUE.split() if w.lower() not in {VENUE_STOP_WORDS!r}]",
        f"venues = {{p['pub_id']: getPublication(pub_id=p['pub_id'])['venue'] or '' for p in {current}}}",
        "letters = {k: ''.join(c if c.isalpha() else ' ' for c in v.lower()).split() for k, v in venues.items()}",
        "said = {k: v + ''.join(c if c.isdigit() else ' ' for c in venues[k]).split() for k, v in letters.items()}",
        f"initials = {{k: ''.join(t[0] for t in v if t not in {INITIALS_GLUE!r}) for k, v in letters.items()}}",
        f"{current} = [p for p in {current} if all(any(t == w or (min(len(t), len(w)) > 2 and "
        "(t.startswith(w) or w.startswith(t))) for t in said[p['pub_id']]) for w in words) "
        "or (len(words) == 1 and (words[0] == initials[p['pub_id']] or "
        "(len(words[0]) > 2 and initials[p['pub_id']].startswith(words[0]))))]",
    ]


def add_narrowings(program: str, own: Narrow, extra: tuple[tuple[Narrow, str], ...]) -> str | None:
    """The program with more narrowings of the person's papers (a venue, a topic, a year, a third
    person's papers) than the plan's own: each runs right after the papers are fetched, before the
    plan's own, except a ranking, which runs last (the latest of the 2022 papers). ``extra``: (narrowing,
    its value in Python source). None: the program walks no person's papers, so nothing can narrow them."""
    lines = program.split("\n")
    at = next((i for i, line in enumerate(lines) if "getPersonPubs(" in line), None)
    if at is None:
        return None
    current = lines[at].split(" = ", 1)[0]
    own_lines = len(narrowing_lines(own, current)) if own else 0
    before: list[str] = []
    after: list[str] = []
    for narrow, value in extra:
        placeholder = {"pair": "OTHER", "topic": "TOPIC", "year": "YEAR", "venue": "VENUE"}.get(narrow, "")
        block = [line.replace(placeholder, value) if placeholder else line for line in narrowing_lines(narrow, current)]
        low, _, high = value.partition(":")
        if narrow == "year" and high and high != low:  # a span: "between 2021 and 2023", "since 2021"
            block = [f"{current} = [p for p in {current} if p['year'] is not None and {low} <= p['year'] <= {high}]"]
        (after if narrow in RANKED else before).extend(block)
    end = at + 1 + own_lines
    return "\n".join(lines[: at + 1] + before + lines[at + 1 : end] + after + lines[end:])


# What each narrowing's filter line holds (the last line of its block in ``narrowing_lines``).
FILTER_MARKS: dict[str, str] = {
    "pair": "in theirs",
    "year": "p['year']",
    "venue": "said[p['pub_id']]",
    "topic": "all(s in p['title'].lower()",
    "alone": "len(p['authors_name_list']",
}
_FILTER_LINE = re.compile(r"^(\w+) = \[p for p in \1 if (.+)\]$")


def leaving_out(program: str, narrow: str) -> str | None:
    """The program with a narrowing turned round: the papers it would drop are kept and those it keeps
    dropped ("A's papers not written with B", "not about X"). None: the program holds no such narrowing
    (it walks no person's papers), so the condition cannot be left out and the answer must say so."""
    mark = FILTER_MARKS.get(narrow)
    lines = program.split("\n")
    for at in range(len(lines) - 1, -1, -1):
        match = _FILTER_LINE.match(lines[at])
        if mark and match and mark in match.group(2):
            lines[at] = f"{match.group(1)} = [p for p in {match.group(1)} if not ({match.group(2)})]"
            return "\n".join(lines)
    return None
