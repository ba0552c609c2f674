"""Answers of the kind a question asks for, read from the labels of the conference's tree.

A conference site labels what each value is: "location", "date", "price", "name", "Keynote
Speakers", "Workshops". The answer operators (``answer``) used to take the best evidence path's
value whatever it was, so "Where is ICML 2023 taking place?" was answered with the dates that sit
beside the location, and "Which workshops are at ICML?" with registration types. Here:

* ``label_kinds``: the kinds a node holds by its label ("location" → place, "Start Date" → date,
  "price" → money, "name"/"Program Chairs" → people), general English words, no site's wording;
* ``typed_value``: the value of the asked kind among the evidence leaves, their siblings (the same
  record or section) and, for a place, every node labelled as one — the one whose headings the
  question names best, then the conference's own (shallowest), then the best ranked;
* the editions a question names (``asked_editions``, ``other_edition``): "Where will ICML 2024 be held?" is
  about another year's conference, whose place the site may name in a sentence.

What a "how many"/"which" question counts is read by ``asked_collections``, whether the site speaks of the
question's topic at all by ``site_topics``, titles, prize winners and people named in a sentence by
``titles_and_people``.

Every value found here is a tree node, returned with its path so the answer cites it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.answer_kind import fits as kind_fits
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import WORD, stem, words
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.question_words import WH_WORDS
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import EMAIL, URL, find_amounts, find_dates

LABEL_WORDS: dict[Kind, frozenset[str]] = {
    Kind.PLACE: frozenset(
        stem(word) for word in "location locations venue venues address place city country room where held site".split()
    ),
    Kind.DATE: frozenset(
        stem(word)
        for word in "date dates time times deadline deadlines due day days when start starts end ends period".split()
    ),
    Kind.MONEY: frozenset(
        stem(word) for word in "price prices fee fees cost costs money prize rate rates amount".split()
    ),
    Kind.PEOPLE: frozenset(
        stem(word)
        for word in "name names speaker speakers chair chairs author authors organizer "
        "organizers organiser organisers moderator panelist panelists president "
        "secretary treasurer winner winners presenter presenters person persons".split()
    ),
}


PLACE_STATEMENT = re.compile(
    r"\b(?:held in|held at|take place in|takes place in|taking place in|located (?:in|on|at)|"
    r"will be in|venue is)\b(?!\s+(?:a\s+)?(?:person|virtual|online|hybrid)\b)",
    re.IGNORECASE,
)


NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
}


GENERIC = frozenset(
    stem(word)
    for word in """conference conferences event events attend attendee attendees
available there provide provided offer offered anyone someone something anything going people person question
questions information please tell know need want would could should
take takes taking took held hold holds happen happens happening begin begins start starts end ends finish
come comes coming get gets getting give given find found bring wear allowed allow required require include
included includes cost costs pay paid open opens close closes there here download downloads access visit
upload belong belongs""".split()
) | {stem(word) for word in WH_WORDS}
"""Words of a question that say how it asks, not what about (verbs of happening, having, asking, and the question
words of ``question_words``)."""


@dataclass
class Found:
    """A value of the asked kind and the node that holds it (cited by its path)."""

    node: Node
    text: str
    rank: int | None  # the evidence rank it was found at or beside (None: found in the tree)


def label_kinds(label: str) -> set[Kind]:
    stems = set(words(label))
    return {kind for kind, cue in LABEL_WORDS.items() if stems & cue}


SMALL_RECORD_FIELDS = 4
"""A section labelled by a kind with this few fields is one record of it ("Venue » Building, Address"): its
fields are of the kind whatever their own labels; a longer page under "Venue" holds other things too."""


def labelled_as(kind: Kind, node: Node, tree: Tree) -> bool:
    """Whether the site labels ``node`` as a value of ``kind``: by its own label, or by its section's when it
    is a paragraph of a list ("Cost» The current self-parking rate … is 15.00") or a field of a small record
    ("Venue » Building")."""
    parent = tree.parent(node)
    return kind in label_kinds(node.label) or (
        parent is not None
        and kind in label_kinds(parent.label)
        and (not node.label or len(tree.children(parent)) <= SMALL_RECORD_FIELDS)
    )


def holds_kind(kind: Kind, node: Node, tree: Tree) -> bool:
    """Whether ``node``'s value is of ``kind``, by its label (or its record's) and its content."""
    text = node.text or ""
    if not text.strip():
        return False
    parent = tree.parent(node)
    labelled = labelled_as(kind, node, tree)
    if kind is Kind.PLACE:  # a web site's link ("Submission site: https://…") is no place to travel to
        address = not URL.fullmatch(text.strip()) and not EMAIL.fullmatch(text.strip())
        return (labelled and address and not only_dates(text)) or bool(PLACE_STATEMENT.search(text))
    if kind is Kind.DATE:  # a date written as one ("23:59 AoE" is a time of day, not the deadline's date)
        return bool(find_dates(text)) or kind_fits(Kind.DATE, text)
    if kind is Kind.MONEY:
        return bool(find_amounts(text)) or (labelled and any(char.isdigit() for char in text))
    if kind is Kind.PEOPLE:
        role = labelled or (parent is not None and Kind.PEOPLE in label_kinds(parent.label) and not node.label)
        return role and kind_fits(Kind.PEOPLE, text)
    return False


def only_dates(text: str) -> bool:
    """A value that is dates and little else ("Sun Jul 23rd through Sat the 29th")."""
    found = find_dates(text)
    return bool(found) and len(set(words(text)) - set(words(" ".join(item.text for item in found)))) <= 3


def split_digits(text: str) -> str:
    """ "icml2024" read as "icml 2024", as a heading writes it."""
    return re.sub(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])", " ", text)


def heading_fit(question: str, tree: Tree, node: Node) -> int:
    """How many of the question's words the node's headings hold (the root and the value left out)."""
    asked = set(words(split_digits(question))) - GENERIC - set(words(split_digits(tree.root.label)))
    headings = {word for ancestor in tree.ancestors(node)[1:] for word in words(ancestor.label)}
    return len(asked & (headings | set(words(node.label))))


def _local(tree: Tree, evidence: Sequence[EvidencePath]) -> Iterable[tuple[Node, int]]:
    """Each evidence leaf, then the leaves of its record or section (its siblings), with the evidence rank."""
    for item in evidence:
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        leaf = tree.nodes[item.node_id]
        yield leaf, item.rank
        for sibling in tree.siblings(leaf):
            if sibling.is_leaf:
                yield sibling, item.rank


def typed_value(kind: Kind, question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Found | None:
    """The value of ``kind`` the question asks for (see the module doc), or None when the data holds none."""
    candidates: dict[int, tuple[Node, int | None]] = {}
    for node, rank in _local(tree, evidence):
        if node.id not in candidates and holds_kind(kind, node, tree):
            candidates[node.id] = (node, rank)
    # what the question names beyond the kind it asks ("Where is the conference venue?" names nothing more)
    beyond_kind = " ".join(
        word for word in WORD.findall(question.lower()) if stem(word) not in LABEL_WORDS.get(kind, ())
    )
    names_more = any(heading_fit(beyond_kind, tree, node) for node, _ in _local(tree, evidence))
    whole_site = (kind is Kind.PLACE and not names_more) or (kind is Kind.DATE and asks_itself(question, tree))
    if whole_site:
        # the conference's own location or dates, asked of the conference itself, may sit on another page than
        # the evidence; a question naming a thing of its own ("Where do I print my poster?") is not about it
        for node in tree.leaves():
            if node.id not in candidates and kind in label_kinds(node.label) and holds_kind(kind, node, tree):
                candidates[node.id] = (node, None)
    # another year's conference ("ICML 2025 » location") answers nothing about this one
    candidates = {
        key: entry
        for key, entry in candidates.items()
        if not other_edition(question, tree, node_path_text(tree, entry[0]))
    }
    if not candidates:
        return None
    city = bool(ASKS_TOWN.search(question))
    # the conference's own dates: "dates" in a question that names nothing else does not prefer a table of
    # "Important Dates" (its deadlines) over the front page's "when"
    fitted = (
        " ".join(word for word in WORD.findall(question) if stem(word.lower()) not in ITSELF_WORDS)
        if kind is Kind.DATE and whole_site
        else question
    )
    best, best_rank = max(
        candidates.values(),
        key=lambda entry: (
            heading_fit(fitted, tree, entry[0]),
            city and _names_town(entry[0].text or ""),
            whole_site
            and kind is Kind.PLACE
            and labelled_as(kind, entry[0], tree),  # the site's own "Venue", not a reception's "held at"
            -entry[0].depth,
            entry[1] is not None,
            -(entry[1] or 99),
        ),
    )
    return Found(best, _statement(kind, best.text or "", asked_editions(question, tree)), best_rank)


ASKS_TOWN = re.compile(r"\b(?:city|cities|town|country|countries)\b", re.IGNORECASE)
""""Which city …?" asks for a town, not a building: of equal fit, a value written as an address ("Honolulu,
Hawai'i, USA", "Hangzhou, China") or said as one ("will now be held in Honolulu") over "Hawaii Convention Center"."""


def _names_town(text: str) -> bool:
    return "," in text or bool(PLACE_STATEMENT.search(text))


ITSELF_WORDS = frozenset(stem(word) for word in "date dates day days time times".split())


def asks_itself(question: str, tree: Tree) -> bool:
    """Whether a question names nothing but the conference and how it asks ("What are the dates of the
    conference?", "When does ICML start?"): its own dates answer it, not a session's or a deadline's."""
    root = set(words(split_digits(tree.root.label)))
    return not (set(words(split_digits(question))) - GENERIC - ASKING - ITSELF_WORDS - root)


YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def other_edition(question: str, tree: Tree, text: str) -> bool:
    """Whether ``text`` is about another year's conference: it names years, none of them the conference's
    own (in its name) nor one the question names ("ICML 2025 » location" for "Where is ICML 2023?")."""
    years = set(_edition_years(tree).findall(split_digits(text.replace(tree.root.label, " "))))  # paths start at it
    own = set(YEAR.findall(split_digits(tree.root.label))) | set(YEAR.findall(split_digits(question)))
    return bool(years) and not years & own


def asked_editions(question: str, tree: Tree) -> set[str]:
    """The years of other editions a question asks about ("Where is ICML 2026 held?" on ICML 2023's site):
    an answer needs a path that names one of them, or the site's own edition answers for another."""
    return {match.group(1) for match in _other_editions(question, tree)}


def asked_edition_names(question: str, tree: Tree) -> list[str]:
    """The other editions a question asks about as the person wrote them ("ISWC 2023", "HARBOR 2032")."""
    return list(dict.fromkeys(_edition_name(match) for match in _other_editions(question, tree)))


def _other_editions(question: str, tree: Tree) -> Iterator[re.Match]:
    """Where the question names an edition of another year than the site's own."""
    own = set(YEAR.findall(split_digits(tree.root.label)))
    return (match for match in _edition_years(tree).finditer(split_digits(question)) if match.group(1) not in own)


def _edition_name(match: re.Match) -> str:
    """ "ICML 2026" for "ICML gonna be in 2026": the acronym and the year, as the person wrote them."""
    first = match.group(0).split()[0]
    return (
        match.group(0) if first.lower().startswith("year") or first == match.group(0) else f"{first} {match.group(1)}"
    )


def _edition_years(tree: Tree) -> re.Pattern:
    """A year written as an edition's: after the conference's acronym ("ICML 2025") or as "Year(2025)";
    an amount ("Gold (2000 USD)") or a date's year is not an edition."""
    name = split_digits(tree.root.label).split()
    acronym = re.escape(name[0]) if name and name[0].isalpha() else r"(?!x)x"
    # the acronym a few words before the year counts ("Where's ICML gonna be in 2026?")
    return re.compile(
        rf"(?:\b{acronym}\b(?:\s+[^\W\d]+(?:'[a-z]+)?){{0,4}}?\s+(?:in\s+)?|\byear)\s*[(']?\s*((?:19|20)\d\d)\b",
        re.IGNORECASE,
    )


def _statement(kind: Kind, text: str, editions: set[str] | frozenset[str] = frozenset()) -> str:
    """A place said inside a sentence is answered with that sentence, not the paragraph; for another year's
    conference, the sentence that names that year ("… in Seoul in 2026, after Vienna in 2024")."""
    if editions and len(text.split()) > 30:
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if editions & set(YEAR.findall(split_digits(sentence))):
                return sentence.strip()
    match = PLACE_STATEMENT.search(text) if kind is Kind.PLACE else None
    if match is not None and len(text.split()) > 30:
        start = text.rfind(".", 0, match.start()) + 1
        end = text.find(".", match.end())
        return text[start : end + 1 if end >= 0 else None].strip()
    return text


PREFIX = 5
"""Two words that agree in their first five letters are one ("remotely"/"remote", "limit"/"limited")."""


ASKING = frozenset(
    "earliest latest first last together total combined cheaper cheapest expensive higher lower more "
    "less same different".split()
)
"""Words by which an operator reads the question ("the earliest deadline"), not what it is about."""


def node_evidence(tree: Tree, node: Node, rank: int) -> EvidencePath:
    """A tree node as an evidence path the answer can cite (it was read beside the retrieved ones)."""
    return EvidencePath(rank, node.id, node_path_text(tree, node), node.text or "", "", 0.0)
