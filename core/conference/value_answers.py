"""Answers that ARE the value asked, read out of the evidence's sentences, not the sentence near it.

A "what/which X" question asks for a value of a kind its words name; the span operator returns the text
of a node, and the first node that mentions the words is often one that only talks about the thing
("Papers that exceed the page limit … are rejected" for "what's the page limit?"). Two kinds are read here:

* a measure: a number of the unit the question asks ("page limit" → N pages, "how big can the upload be"
  → N MB, "how long is the talk" → N minutes), from the sentence that STATES one, preferring the path that
  holds most of what the question is about; none written anywhere in the evidence → the plain sentence;
* the entries of a list that have a property: "which workshops run for a full day?" → the records of the
  list the question names whose short field holds the property's words ("duration: Full Day").
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference import support
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import stem, words
from scholar_tui.core.conference.paths import path_headings_text
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import URL, Measure, find_measures, sentences

# -- which unit a question asks for ------------------------------------------------------------------------------
MEASURE_CUE = re.compile(
    r"\b(?:how\s+(?:many|long|big|large)|limits?|max(?:imum)?|min(?:imum)?|size|length|long|cap|at\s+most|"
    r"at\s+least|up\s+to|allowed)\b",
    re.IGNORECASE,
)
"""A question that asks how much of something is allowed or given; without one, "Which page lists the papers?"
names a page without asking for a number of them."""
NAMED_UNITS = (
    (re.compile(r"\bpages?\b", re.IGNORECASE), ("pages",)),
    (re.compile(r"\bwords?\b", re.IGNORECASE), ("words",)),
    (re.compile(r"\bcharacters?\b", re.IGNORECASE), ("characters",)),
    (re.compile(r"\b(?:seconds?|secs?)\b", re.IGNORECASE), ("seconds",)),
    (re.compile(r"\b(?:minutes?|mins?|hours?)\b", re.IGNORECASE), ("minutes", "hours")),  # "30 sec" is no minutes
    (re.compile(r"\b(?:mb|gb|kb|megabytes?|gigabytes?)\b", re.IGNORECASE), ("MB", "GB", "KB")),
)
"""A unit the question writes itself ("page limit", "how many words")."""
HOW_MANY = re.compile(r"\bhow\s+many\s+(\w+)", re.IGNORECASE)
"""The noun a "how many" counts: a unit ("how many pages") asks a measure, any other noun a count."""
TIMED = re.compile(r"\b(?:talks?|videos?|presentations?|orals?|breaks?|slots?|speech|pitch|recordings?)\b", re.I)
DOCUMENT = re.compile(r"\b(?:papers?|proposals?|submissions?|abstracts?|articles?|manuscripts?|rebuttals?)\b", re.I)
FILE = re.compile(r"\b(?:files?|uploads?|uploaded|attachments?|zip|pdf|materials?|supplement\w*)\b", re.I)
SIZE = re.compile(r"\b(?:size|big|large|cap|limit)\b", re.IGNORECASE)
"""How much a file may hold: "max file size", "how big can the upload be", "the upload cap for the files"."""
LENGTH = re.compile(r"\b(?:how\s+long|length|long)\b", re.IGNORECASE)
LOWEST = re.compile(r"\b(?:min(?:imum)?|at\s+least|shortest|fewest)\b", re.IGNORECASE)
HIGHEST = re.compile(r"\b(?:max(?:imum)?|at\s+most|up\s+to|limits?|longest|most|cap)\b", re.IGNORECASE)


def asked_units(question: str) -> tuple[str, ...]:
    """The units a question asks a number of: one it names ("page limit"), else the unit of what it measures
    ("how long is the talk" → minutes; "how long can a paper be" → pages; "max file size" → MB). Empty when it
    asks no measure."""
    if not MEASURE_CUE.search(question):
        return ()
    counted = HOW_MANY.search(question)
    if counted and not any(pattern.fullmatch(counted.group(1)) for pattern, _ in NAMED_UNITS):
        return ()  # "how many companies … on the job fair page?" counts companies, whatever noun follows
    for pattern, units in NAMED_UNITS:
        if pattern.search(question):
            return units
    if SIZE.search(question) and FILE.search(question):
        return ("MB", "GB", "KB")
    if LENGTH.search(question):
        if TIMED.search(question):  # "the paper video": the video is timed, whatever it belongs to
            return ("seconds", "minutes", "hours")
        if DOCUMENT.search(question):
            return ("pages", "words")
        if LOWEST.search(question) or HIGHEST.search(question):
            return ("characters", "words")  # "the minimum password length": a bound on a text, in its letters
    return ()


MEASURE_WORDS = "max maximum min minimum limit limits size length long total cap big large upload"
"""The words that ask for a measure: a sentence stating one holds them, written or not."""


FILE_WORDS = "file files upload uploads"
"""What a number of megabytes is the size of."""


def measure_words(unit: str) -> str:
    """The words a stated measure answers for itself: "15 pages" is the page limit, "100MB" the upload's cap."""
    return f"{MEASURE_WORDS} {FILE_WORDS}" if unit in ("MB", "GB", "KB") else MEASURE_WORDS


def asked_bound(question: str) -> str | None:
    """Which end of a written range is asked: "min" for "minimum length", "max" for "page limit"/"max"."""
    lowest, highest = LOWEST.search(question), HIGHEST.search(question)
    if lowest and highest:
        return None  # "min and max page count?": the whole range as written ("8 and 15 pages")
    if lowest:
        return "min"
    return "max" if highest else None


# -- a measure from the sentence that states it -------------------------------------------------------------------
@dataclass(frozen=True)
class Stated:
    """A measure, the evidence it was read from, and how much of the question that evidence holds."""

    measure: Measure
    item: EvidencePath
    share: float
    headed: float
    """How much of the question its headings alone hold: of two calls that state "15 pages", the one headed
    "Research Track" answers for the research track, not the one whose sentence says "research submissions"."""


MEASURE_SHARE = 0.5
"""The least share of the question's subject a stating sentence's path must hold: "what's the word limit for a
research paper's abstract?" is not answered by a workshop proposal's "200 word summary"."""


def stated_measures(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> list[Stated]:
    """Every measure of the asked unit the evidence's sentences state, best supported first, then best headed,
    then by rank."""
    units = asked_units(question)
    found = []
    for item in evidence:
        headings = path_headings_text(item.path)
        for sentence in sentences(item.value):
            for measure in find_measures(sentence, units):
                said = [f"{headings} {sentence}", measure_words(measure.unit)]  # it says the "limit" asked
                share = support.support(question, tree, Kind.TEXT, said)
                headed = support.support(question, tree, Kind.TEXT, [headings, measure_words(measure.unit)])
                found.append(Stated(measure, item, share, headed))
    return sorted(found, key=lambda stated: (-stated.share, -stated.headed, stated.item.rank))


def measure_value(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Stated | None:
    """The measure the question asks for, read from the best supported sentence stating one (the range's end
    asked: "minimum length" → its low end), else None."""
    found = stated_measures(question, evidence, tree)
    if not found or found[0].share < MEASURE_SHARE:
        return None
    return found[0]


# -- the entries of a list that have a property --------------------------------------------------------------------
PROPERTY_WORDS = 4
"""The longest field read as a property ("Full Day", "Ballroom A"): a longer one is a description."""
WHICH_ENTRIES = re.compile(r"^\s*(?:which|what)\s+([a-z][\w-]*s)\b(?P<rest>.*)$", re.IGNORECASE)
""""Which workshops run for a full day?": a plural thing, then what is said of them."""
FILLER = frozenset(
    stem(word)
    for word in "a an the are is were be held run runs only for in on at of there that which take place".split()
)
"""The words around a property in a question ("run for a full day", "held in Ballroom A")."""
PLACEHOLDER = frozenset({"none", "null", "n/a", "tbd", "tba"})
"""A scraped field's filler for a missing value ("Ballroom A None"): no word of the property."""


def _property_words(text: str) -> set[str]:
    """The words of a short text, each stemmed, hyphenated ones apart ("full-day" → full, day); a single letter
    counts here ("Ballroom A" is not "Ballroom B")."""
    return {stem(token) for token in re.findall(r"\w+", text.lower()) if token not in PLACEHOLDER}


def filtered_entries(question: str, tree: Tree) -> list[tuple[Node, Node]] | None:
    """The records of the list the question names (a node labelled by its plural thing, "Workshops") whose short
    field holds every word of a property the question states ("duration: Full Day" for "which workshops run for
    a full day?"), each with that field, when some records have it and some do not; else None. The list is
    looked for in the whole tree: the evidence's best paths are often a call that names the property."""
    match = WHICH_ENTRIES.match(question)
    if match is None:
        return None
    said = _property_words(match.group("rest")) - FILLER
    thing = stem(match.group(1))
    if not said:
        return None
    for node in tree.nodes:
        if node.is_leaf or set(words(node.label)) != {thing}:
            continue
        records = [record for record in tree.children(node) if not record.is_leaf]
        kept = [(record, field) for record in records if (field := _property_field(record, tree, said)) is not None]
        if kept and len(kept) < len(records):  # some have it: the question's words are a property of entries
            return kept
    return None


def _property_field(record: Node, tree: Tree, said: set[str]) -> Node | None:
    """The record's short field whose every word the question says ("Full Day" in "run for a full day")."""
    for child in tree.children(record):
        if not child.is_leaf or not child.text or len(child.text.split()) > PROPERTY_WORDS:
            continue
        value = _property_words(child.text)
        if value - FILLER and value <= said | FILLER:
            return child
    return None


# -- a named thing: the platform, system, format … a sentence names ------------------------------------------------
THING_TYPES = (
    "platform platforms system systems tool tools software service services app apps application format formats "
    "template templates style styles company companies provider providers vendor publisher site website portal "
    "chat"
)
NAMED_ASK = re.compile(
    rf"\b(?:what|which)\s+(?:[a-z]+\s+)?(?P<type>{'|'.join(THING_TYPES.split())})\b"
    r"|\b(?:besides|apart\s+from|other\s+than|except(?:\s+for)?)\b.*\bwhat\s+else\b",
    re.IGNORECASE,
)
""""Which platform …", "what file formats …", "Besides Zoom, what else …": the answer is a name (a product, a
company, a format), which sentences write as a proper noun, whatever the asked type's word."""
PRODUCT = re.compile(
    r"\b[A-Z][a-z]+\.[a-z]{2,}\b"  # Gather.town
    r"|\b[A-Z]?[a-z]+[A-Z]\w*"  # OpenReview, EasyChair, iPhone
    r"|\b[A-Z]{2,}[a-z]?\b"  # CMT, PDF, LNCS
)
"""A name written as no English word is: a product's or a format's, wherever it stands."""
UNIT_CODE = re.compile(
    r"(?:USD|EUR|GBP|CNY|RMB|JPY|CHF|CAD|AUD|KRW|INR|MB|GB|KB|TB|AM|PM|AOE|UTC|GMT|CET|CEST|EST|EDT|PST|PDT|HST)",
    re.IGNORECASE,
)
"""Capitals that write a unit, a currency or a time zone ("1000 USD", "23:59 AoE"): what a value is measured in,
never the name of a thing a "which company / platform" asks for."""
CAPITALISED = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
"""Capitalised words (Rocket Chat, Springer Nature): a name when rare on the site; a site capitalises its own
headings too ("Conference Sessions", "Tutorials"), which it writes everywhere."""
RARE_WEIGHT = math.log(100)
"""A capitalised name's rarest word is on at most about 1 in 100 of the site's paths (its inverse frequency,
``support.weight``), else it reads as one of the site's own words."""
NAMED_SHARE = 0.5
DATE_NAME = re.compile(
    r"(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day|January|February|March|April|May|June|July|August|September|"
    r"October|November|December)s?"
)
"""A capitalised day or month is a date, not a name."""
MAX_NAMES = 4
SAID_ONLY_WORDS = 10
"""A sentence this short that names the thing says it and no more ("Workshop submissions will be made through
CMT."): it is the answer as the site states it; a longer one is cut to its names. Not when the question sets
a named thing aside ("Besides Zoom, …"): the sentence would name that one too."""


def asks_named(question: str) -> bool:
    return bool(NAMED_ASK.search(question))


ASKING_WORDS = "besides apart from other than except else"
"""The words that set a named thing apart from one the question names: said by any sentence naming another."""
INTRODUCED = re.compile(r"\b(?:via|through|using|use|on|with|by|in|of)\s+(?:the\s+)?$", re.IGNORECASE)
"""How a sentence names the means of doing something: "submitted via EasyChair", "run via Zoom", "use OpenReview"."""


def named_things(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> tuple[str, EvidencePath] | None:
    """The names the best sentence of the evidence writes (a product's, a company's, a format's), less those the
    question names itself ("Besides Zoom, …") and the conference's own; None when no sentence whose path holds
    what the question is about names anything. Best: the sentence itself holds most of the question, then it
    names the thing as a means ("via …"), then its path holds most, then the better rank."""
    asked = NAMED_ASK.search(question)
    covered = f"{(asked.group('type') or '') if asked else ''} {ASKING_WORDS}"
    own = {word.lower() for word in re.findall(r"\w+", question)}
    candidates = []
    for item in evidence:
        headings = path_headings_text(item.path)
        for sentence in sentences(URL.sub(" ", item.value)):
            names = _names(sentence, own, tree)
            share = support.support(question, tree, Kind.TEXT, [f"{headings} {sentence}", covered])
            if not names or share < NAMED_SHARE:
                continue
            said = support.support(question, tree, Kind.TEXT, [sentence, covered])
            introduced = any(INTRODUCED.search(sentence[: sentence.index(name)]) for name in names)
            candidates.append(((said, introduced, share, -item.rank), names, item, sentence))
    if not candidates:
        return None
    _, names, item, sentence = max(candidates, key=lambda candidate: candidate[0])
    if len(sentence.split()) <= SAID_ONLY_WORDS and not (asked and asked.group("type") is None):
        return sentence, item  # "The conference will be run via Zoom and Gather.town." says the names and no more
    return " and ".join(names[:MAX_NAMES]) if len(names) <= 2 else ", ".join(names[:MAX_NAMES]), item


def _rare(name: str, tree: Tree) -> bool:
    return max((support.weight(tree, prefix) for prefix in support.prefixes(name)), default=0.0) >= RARE_WEIGHT


def _names(sentence: str, own: set[str], tree: Tree) -> list[str]:
    """The proper names a sentence writes past its first word, none of the question's nor the site's own."""
    identity = support.identity(tree)
    found: list[str] = []
    matches = sorted(
        [*PRODUCT.finditer(sentence), *CAPITALISED.finditer(sentence)], key=lambda match: (match.start(), -match.end())
    )
    read_to = 0
    for match in matches:
        name = match.group(0)
        if match.start() < read_to:
            continue  # "Gather" inside "Gather.town", read whole
        read_to = match.end()
        if match.start() == 0 or sentence[: match.start()].rstrip().endswith((":", ".", "•")):
            continue  # a sentence's or a label's first word is capitalised whatever it is
        if {word.lower() for word in re.findall(r"\w+", name)} & own:
            continue  # "Besides Zoom": the thing the question already names is not its answer
        if (
            support.prefixes(name) <= identity
            or name in found
            or DATE_NAME.fullmatch(name)
            or UNIT_CODE.fullmatch(name)
        ):
            continue
        if not PRODUCT.fullmatch(name) and not _rare(name, tree):
            continue
        found.append(name)
    return found
