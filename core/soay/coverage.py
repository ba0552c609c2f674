"""A paper named by what it is about: every word the question describes it with accounted for by one record.

People name a paper by a loose paraphrase of its title ("that thing about screening masses of mesons at
high temperature" for "Mesonic “screening masses” in high temperature QCD", "the paper fusing unaligned
text and audio sequences" for "… Fusion … for Unaligned Text-Audio Sequences"), by its subtitle ("No Time
to Rest Yet") or by its short name typed in lower case ("codehacks"). No span of such a question reads
like the title, so the span-likeness ways of ``titles.py`` find nothing — or find a neighbour whose
short name reads alike ("metamorphic testing" → "Datamorphic Testing") while the words around it
("for an ocean modelling application") are another paper's.

The check here is the other way round: the question's describing words (what is left once the words
that frame a question are set aside) are each explained by a paper's title — as the same word, a word
grown from the same stem ("fusing"/"fusion", "mesons"/"Mesonic"), a misspelling or an initialism —
or, for a few, by its abstract ("situational graphs" for S-Graphs+). A paper is named only where every
describing word is explained, most of them by its title, and no other work's title explains as many.
A word no record explains (a place, a method, "quantum programs") means the library lacks the paper
asked about: nothing is returned, and the question is answered as naming no paper.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from typing import Any

from scholar_tui.core.library.apis import APIError
from scholar_tui.core.soay.entities import FRAME_WORDS, Mention, paper_record
from scholar_tui.core.soay.plans import FIELD_WORDS
from scholar_tui.core.soay.titles import (
    ABOUT,
    NUMBER_INITIALS,
    PAPER_NOUN,
    QUESTION_WORDS,
    QUOTED,
    TITLE_GLUE,
    contracts,
    initialisms,
    short_name,
    spelled_out,
    work_key,
)
from scholar_tui.indexes.fuzzy import STOPWORDS
from scholar_tui.indexes.records import fold

# Words that frame a question, never what a paper is about: who is asked for (an author and its rank), the
# casual nouns a paper goes by ("that thing about …"), and function words beyond the title glue.
ROLE_WORDS = {"first", "last", "second", "third", "senior", "lead", "main", "author", "authors", "coauthor"}
ROLE_WORDS |= {"coauthors", "writer", "writers", "wrote", "who", "whom"}
CASUAL_NOUNS = {"thing", "stuff", "way", "one", "ones", "ppl", "people", "guy", "guys", "folks", "someone", "work"}
FUNCTION_WORDS = {"it", "its", "that", "this", "those", "these", "there", "my", "me", "i", "you", "we", "our"}
FUNCTION_WORDS |= {"be", "been", "being", "can", "could", "would", "should", "will", "put", "know"}
FUNCTION_WORDS |= {"get", "gets", "getting", "got", "make", "makes", "making", "made"}  # "getting ChatGPT to fix …"
FUNCTION_WORDS |= {"tell", "please", "any", "some", "all", "no", "not", "yet", "also", "just", "so", "s", "t", "ll"}
# the nouns a paper goes by ("the AI beyond chess piece") name no part of it
PAPER_NOUNS = {"paper", "article", "preprint", "publication", "study", "report", "chapter", "thesis", "piece", "talk"}
FUNCTION_WORDS |= PAPER_NOUNS | {"dissertation", "manuscript", "pub", "writeup", "present", "presents"}
# what compares two papers ("which is older: A or B"), never what either is about
FUNCTION_WORDS |= {"older", "newer", "earlier", "later", "oldest", "newest", "latest", "earliest", "recent", "higher"}
FUNCTION_WORDS |= {"lower", "bigger", "larger", "smaller", "longer", "shorter", "first", "last", "before", "after"}
FUNCTION_WORDS |= {"most", "least", "more", "fewer", "less", "many", "much", "other", "else", "besides"}
FUNCTION_WORDS |= {"library", "here", "again", "then", "than", "up", "down", "out", "into", "over", "named", "called"}

MOST_IN_TITLE = 0.6  # of the describing words, at least this share the title's own words
LEAST_OF_TITLE = 0.15  # of a title's own content words, a description names at least this share
FEWEST_IN_TITLE = 3  # and at least this many (fewer: only where they are the paper's short name, whole)
SHARED_STEM = 4  # two words grown from one stem share this many first letters ("fusing", "fusion")
STEM_SHARE = 0.6  # … and this share of the shorter word ("data" is not "database"'s stem)
CLIPPED_FROM = 3  # a typed word this long may be a title word's beginning
GROWN_FROM, GROWN_BY = 3, 2  # a short word with an ending added is that word ("gan", "gans")
MISSPELT = 0.84  # a typed word this alike a title word is that word misspelt ("modles", "autonomus")
CONTRACTED_FROM = 4  # a title word this long may shorten the word typed
CANDIDATES = 8  # records scored per search
SEARCHED_ALONE, ALONE = 5, 6  # words this long are searched for one by one, the longest six


@cache
def frame_words() -> frozenset[str]:
    """Every word that frames a question: the question words, the fields' own words (what it asks for),
    the roles of an author, paper nouns and function words."""
    field_words = {word for words in FIELD_WORDS.values() for word in words if " " not in word}
    words = QUESTION_WORDS | FRAME_WORDS | set(STOPWORDS) | TITLE_GLUE | field_words | ROLE_WORDS
    return frozenset(fold(" ".join(words | CASUAL_NOUNS | FUNCTION_WORDS | ABOUT)).split())


# endings before which a word's last "e" is dropped: "lose" → "losing", "formalize" → "formalizing"
E_DROPPING_ENDINGS = ("ing", "ed", "er", "ers", "es", "ation", "ations")


def grown_word(typed: str, held: str) -> bool:
    """The same word, or one with an ending added ("see" and "seen", "GAN" and "GANs", "lose" and "losing")."""
    if typed == held:
        return True
    short, long = sorted((typed, held), key=len)
    if len(short) >= GROWN_FROM and long.startswith(short) and len(long) - len(short) <= GROWN_BY:
        return True
    stem = short[:-1]
    return (
        short.endswith("e")
        and len(stem) >= GROWN_FROM
        and long.startswith(stem)
        and long[len(stem) :] in E_DROPPING_ENDINGS
    )


def same_word(typed: str, held: str) -> bool:
    """Whether a typed word is a word of the record: the same, grown from the same stem, or misspelt."""
    if grown_word(typed, held):
        return True
    if len(typed) >= CLIPPED_FROM and held.startswith(typed):
        return True  # a word cut short as people type it: "res" for "resolution", "legit", "demo"
    shared = _common_prefix(typed, held)
    if shared >= SHARED_STEM and shared >= STEM_SHARE * min(len(typed), len(held)):
        return True
    # a misspelling keeps the word's first letter: "aligned" is no misspelling of "unaligned"
    long_enough = min(len(typed), len(held)) >= 5 and typed[0] == held[0]
    if long_enough and SequenceMatcher(None, typed, held).ratio() >= MISSPELT:
        return True
    # a title's shortened word, its letters in order in the typed one ("$\\infty$" is "infinity")
    return len(held) >= CONTRACTED_FROM and len(typed) <= 2 * len(held) and contracts(held, typed)


def _common_prefix(left: str, right: str) -> int:
    """How many first letters two words share."""
    size = 0
    for a, b in zip(left, right, strict=False):
        if a != b:
            break
        size += 1
    return size


# the words that lead into a description ("the paper with a simple way to …", "that thing about …"): the
# description's, not the question's ("with" there is no coauthor asked for)
LEADS_IN = ABOUT | CASUAL_NOUNS | {"a", "an", "with", "that", "which"}


@dataclass(frozen=True)
class Described:
    """The words a question describes a paper with (folded), and where they lie in the question."""

    words: tuple[str, ...]
    start: int
    end: int
    initialisms: frozenset[str]
    typed: tuple[str, ...] = ()  # each word as typed ("US", "3D": an initialism is read from its capitals)


INITIALISM_LIKE = re.compile(r"(?=.*[A-Z0-9])[A-Z0-9]{2,}s?")  # "US", "ML", "3D", "LLMs": capitals and digits
TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
YEAR = re.compile(r"(?:1[5-9]|20)\d\d")


def described(question: str) -> Described | None:
    """The question's describing words, its frame set aside; the span runs from the first to the last
    of them, taking in a paper noun and "about"/"on" right before ("the paper fusing …")."""
    frame = frame_words()
    found = []
    for match in TOKEN.finditer(question):
        word = re.sub(r"['’]s$", "", match.group())
        for part in fold(word).split():
            # a year narrows, it does not describe; a lone letter ("w/", "hepatitis C") says too little, a
            # lone digit says much ("N=4" is not "N=2")
            if part not in frame and not YEAR.fullmatch(part) and (len(part) > 1 or part.isdigit()):
                found.append((part, match.start(), match.end(), word))
    if not found:
        return None
    start, end = found[0][1], found[-1][2]
    before = [m for m in TOKEN.finditer(question[:start])]
    while before and (PAPER_NOUN.fullmatch(before[-1].group()) or before[-1].group().lower() in LEADS_IN):
        start = before.pop().start()
    for quoted in QUOTED.finditer(question):  # "'No Time to Rest Yet'": the quoted words name it, all of them
        if quoted.start(1) <= start < quoted.end(1) or quoted.start(1) < end <= quoted.end(1):
            start, end = min(start, quoted.start(1)), max(end, quoted.end(1))
    return Described(
        tuple(item[0] for item in found),
        start,
        end,
        frozenset(initialisms(question)),
        tuple(item[3] for item in found),
    )


@dataclass(frozen=True)
class Coverage:
    """How one record accounts for the describing words."""

    title: str
    in_title: int
    in_abstract: int
    missing: int
    title_share: float  # of the title's own content words, the share the question names

    def names_it(self, words: Described) -> bool:
        """Every word explained, most by the title: enough of them, or the paper's short name or subtitle
        whole. A word no record explains, added to the title's words or standing in place of one of
        them, is a particular of another paper ("real faults" is not "synthetic faults"; a synonym the
        record never uses, "neighbouring" for "nearby", is lost with it: a false abstention is the
        lesser harm)."""
        total = len(words.words)
        whole_part = self.in_title == total and list(words.words) in title_parts(self.title)
        if self.title_share < LEAST_OF_TITLE and not whole_part:
            return False  # a few words of a long title, the rest the question's own: it names another thing
        if self.missing or self.in_title < math.ceil(MOST_IN_TITLE * total):
            return False
        if self.in_title >= FEWEST_IN_TITLE:
            return True
        return whole_part


def initialism_of(typed: str, title_words: list[str]) -> bool:
    """Whether capitals (and digits) typed stand for words of the title: the initials of consecutive
    words ("US", "ML"; "3D": three-dimensional) or one word's letters in order ("TB": tuberculosis).
    A letter more or less is another thing: "MSSM" is not the title's "NMSSM"."""
    letters = fold(typed).replace(" ", "")
    spelled = "".join(NUMBER_INITIALS.get(char, char) for char in letters)
    if letters in title_words or (len(spelled) >= 2 and spelled_out(spelled, title_words)):
        return True
    return any(contracts(letters.removesuffix("s"), word) for word in title_words)


def title_parts(title: str) -> list[list[str]]:
    """The describing words of a title's head and of its subtitle ("No Time to Rest Yet": time, rest),
    each of which a person may name the paper by."""
    head, colon, tail = title.partition(":")
    parts = [head, tail] if colon else []
    named = short_name(title)
    if named:
        parts.append(named)
    return [[word for word in fold(part).split() if word not in frame_words()] for part in parts]


def covered(words: Described, record: dict) -> Coverage:
    title = record.get("title") or ""
    held = fold(f"{title} {record.get('venue') or ''}").split()
    title_words = fold(title).split()
    abstract = set(fold(record.get("abstract") or "").split())
    byline = set(fold(" ".join(author.get("name") or "" for author in record.get("authors") or [])).split())
    in_title = in_abstract = missing = 0
    # two typed words the title writes as one ("big data" for its "BigData")
    pairs = list(itertools.pairwise(words.words))
    joined = {at + step for at, (a, b) in enumerate(pairs) if a + b in title_words for step in (0, 1)}
    for at, (word, typed) in enumerate(zip(words.words, words.typed or words.words, strict=True)):
        # the title's (or the venue's) word, or an initialism of the title's words ("US", "ML", "3D")
        if at in joined or any(same_word(word, other) for other in held):
            in_title += 1
        elif (word in words.initialisms and spelled_out(word, title_words)) or (
            INITIALISM_LIKE.fullmatch(typed) and initialism_of(typed, title_words)
        ):
            in_title += 1
        elif (not word.isdigit() and any(grown_word(word, other) for other in abstract)) or word in byline:
            # the abstract's own word (not a stem of it: "aligned" is not its "alignment"; a number is the
            # title's particular, "N=4" is no "4" of the abstract), or an author's name
            in_abstract += 1
        else:
            missing += 1
    content = [word for word in title_words if word not in frame_words()]
    named = sum(any(same_word(word, typed) for typed in words.words) for word in content)
    share = named / len(content) if content else 0.0
    return Coverage(title, in_title, in_abstract, missing, share)


def _candidates(words: Described, api: Any) -> list[dict]:
    """The records the search finds for the describing words, and for them less one each (a word the
    title lacks: one the abstract holds, or a paraphrase)."""
    queries = [" ".join(words.words)]
    if len(words.words) >= FEWEST_IN_TITLE:
        queries += [" ".join(words.words[:at] + words.words[at + 1 :]) for at in range(len(words.words))]
    # and each long word alone: a query of many words ranks a long title under the search's floor when
    # some of them are said otherwise ("AI" for its "Artificial Intelligence")
    queries += sorted({word for word in words.words if len(word) >= SEARCHED_ALONE}, key=len, reverse=True)[:ALONE]
    seen: dict[str, dict] = {}
    for query in queries:
        try:
            hits = api.searchPublication(publication_info=query)[:CANDIDATES]
        except Exception:
            continue
        for hit in hits:
            if hit["pub_id"] not in seen:
                try:
                    seen[hit["pub_id"]] = api.getPublication(pub_id=hit["pub_id"]) or {"title": hit["title"]}
                except Exception:
                    seen[hit["pub_id"]] = {"title": hit["title"]}
    return list(seen.values())


def best_covering(question: str, api: Any) -> tuple[Mention, Coverage] | None:
    """The one paper whose record explains every describing word of the question, most by its title;
    None where none does, or two works do equally well."""
    words = described(question)
    if words is None:
        return None
    scored = [(covered(words, record), record) for record in _candidates(words, api)]
    naming = [item for item in scored if item[0].names_it(words)]
    if not naming:
        return None
    naming.sort(key=lambda item: (-item[0].in_title, -item[0].title_share))
    best, _record = naming[0]
    rivals = [c for c, _ in naming[1:] if (c.in_title, c.title_share) == (best.in_title, best.title_share)]
    if any(work_key(rival.title) != work_key(best.title) for rival in rivals):
        return None  # two works answer the description as well: it names neither for sure
    text = question[words.start : words.end]
    return Mention("paper", text, words.start, words.end, best.title, PARAPHRASE_SCORE), best


PARAPHRASE_SCORE = 0.8  # found by what it is about, not by a span reading like its title


def coverage_of(question: str, title: str, api: Any) -> Coverage | None:
    """How one library paper (by its title) accounts for the question's describing words."""
    words = described(question)
    if words is None:
        return None
    try:
        record, _call = paper_record(api, title)
    except APIError:  # the title alone still says what it covers
        record = {}
    return covered(words, record or {"title": title})


# "his big data + ML for public health work", "her talk on …": a scholar's one work, named as such
OWN_WORK = re.compile(r"\b(?:his|her|their|the|that)\s+(?:[\w+&-]+\s+){0,8}?(?:work|talk)\b", re.I)


def their_paper_described(question: str, person: Mention, api: Any) -> Mention | None:
    """The one paper of a scholar the question describes ("Shin Hwei Tan's coauthors on the paper about
    getting ChatGPT to fix web UI tests"): a singular paper noun names one paper, and every describing
    word but the scholar's name is explained by it, as ``best_covering`` reads any paper."""
    if not any(PAPER_NOUN.fullmatch(word) for word in re.findall(r"[\w-]+", question)) and not OWN_WORK.search(
        question
    ):
        return None
    unnamed = question[: person.start] + " " * (person.end - person.start) + question[person.end :]
    words = described(unnamed)
    if words is None:
        return None
    try:
        found = api.searchPerson(name=person.matched)
        pubs = api.getPersonPubs(person_id=found[0]["person_id"]) if found else []
        records = [api.getPublication(pub_id=pub["pub_id"]) or {"title": pub["title"]} for pub in pubs]
    except Exception:
        return None
    naming = [(coverage, record) for record in records if (coverage := covered(words, record)).names_it(words)]
    if len({work_key(coverage.title) for coverage, _ in naming}) != 1:
        return None
    title = naming[0][0].title
    return Mention("paper", unnamed[words.start : words.end], words.start, words.end, title, PARAPHRASE_SCORE)


def better_described(question: str, found: Mention, api: Any) -> Mention | None:
    """Another paper the question describes fully, where the one found by likeness leaves describing
    words unexplained that it explains by its title ("that metamorphic testing paper for an ocean
    modelling application" is the ocean-modelling paper, not "Datamorphic Testing")."""
    best = best_covering(question, api)
    if best is None or work_key(best[0].matched) == work_key(found.matched):
        return None
    mention, coverage = best
    held = coverage_of(question, found.matched, api)
    if held is not None and held.missing and coverage.in_title > held.in_title:
        return mention
    return None


# "… paper for high schools", "… one about …": a preposition right after the paper's noun goes on describing it
DESCRIPTION_GOES_ON = re.compile(
    rf"^\s*(?:{PAPER_NOUN.pattern}|one)?\s*(?:for|on|about|in|regarding|concerning|with)\s+(.*)$", re.I | re.S
)
# where the words describing a paper end: a clause's end, or the word that brings in another paper
CLAUSE_END = re.compile(r"[,;?!]|\s(?:or|vs\.?|versus|than)\s", re.I)


def describes_another(question: str, found: Mention, api: Any) -> bool:
    """Whether the words describing a paper found by likeness hold what its record does not explain: its
    span, what goes on after its paper noun ("… paper for high schools"), the title read on ("… based on
    synthetic faults"), or else the names and numbers of the clause after it. "The spatial machine
    learning study of development vulnerabilities in Victorian children" is not the Queensland
    children's paper, nor "screening masses in low temperature QCD" the high temperature one, nor
    "solitons in open N=4 string theory" the N=2 one, however alike the strings read."""
    end = CLAUSE_END.search(question, found.end)
    after = question[found.end : end.start() if end else len(question)]
    going_on = DESCRIPTION_GOES_ON.match(after)
    tokens = TOKEN.findall(after)
    title_words = fold(found.matched).split()
    if going_on:  # "the ChatGPT and software testing education paper for high schools": all of it describes
        named = TOKEN.findall(going_on.group(1))
    elif tokens and any(same_word(fold(tokens[0]) or tokens[0], word) for word in title_words):
        # "… deep reinforcement learning based on synthetic faults": the title read on, up to a paper noun
        ends = [at for at, token in enumerate(tokens) if PAPER_NOUN.fullmatch(token) or token.lower() == "one"]
        named = tokens[: ends[0] if ends else len(tokens)]
    else:  # only names and numbers ("Victorian", "GJ 486b"): its other words may be the question's own
        named = [word for word in TOKEN.findall(after) if word[:1].isupper() or any(char.isdigit() for char in word)]
    held = coverage_of(" ".join([question[found.start : found.end], *named]), found.matched, api)
    if held is None:
        return False
    return held.missing > 0
