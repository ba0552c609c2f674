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
* ``collection``: the node a "how many …"/"which …" question is about — labelled with the noun the
  question asks for ("keynotes" → "Keynote Speakers") and holding records — or, when no node is
  so labelled, the records of the evidence's list that name it ("Keynote 1: Andrew Ng …");
* ``unknown_topic``: a question word the whole site never uses ("Wi-Fi", "banquet"): the data
  cannot answer it, and the engine says so instead of answering a neighbour.

Every value found here is a tree node, returned with its path so the answer cites it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.answer_kind import fits as kind_fits
from scholar_tui.core.conference.asking import FILLERS, predicate_words
from scholar_tui.core.conference.computed import Computed
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import STOPWORDS, WORD, stem, words
from scholar_tui.core.conference.paths import node_path_text
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
        "secretary treasurer winner winners presenter presenters".split()
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
UNKNOWN_MIN_LETTERS = 5
"""A question word shorter than this ("kids", "visa") may be a variant the site spells otherwise; a
longer one the site never uses names a topic it does not cover."""
GENERIC = frozenset(
    stem(word)
    for word in """conference conferences event events attend attendee attendees
available there provide provided offer offered anyone someone something anything going people person question
questions information please tell know need want would could should which where when what whom whose
take takes taking took held hold holds happen happens happening begin begins start starts end ends finish
come comes coming get gets getting give given find found bring wear allowed allow required require include
included includes cost costs pay paid open opens close closes there here download downloads access visit
upload belong belongs""".split()
)
"""Words of a question that say how it asks, not what about (verbs of happening, having, asking)."""


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
        return (labelled and address and not _only_dates(text)) or bool(PLACE_STATEMENT.search(text))
    if kind is Kind.DATE:  # a date written as one ("23:59 AoE" is a time of day, not the deadline's date)
        return bool(find_dates(text)) or kind_fits(Kind.DATE, text)
    if kind is Kind.MONEY:
        return bool(find_amounts(text)) or (labelled and any(char.isdigit() for char in text))
    if kind is Kind.PEOPLE:
        role = labelled or (parent is not None and Kind.PEOPLE in label_kinds(parent.label) and not node.label)
        return role and kind_fits(Kind.PEOPLE, text)
    return False


def _only_dates(text: str) -> bool:
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


# -- counts and lists over the right node -----------------------------------------------------------
def asked_phrase(question: str) -> str:
    """The words of the thing asked about as the question writes them ("keynote speakers")."""
    match = NOUN_PATTERN.search(question.lower())
    return next((group for group in match.groups() if group), "").strip() if match else ""


def asked_noun(question: str) -> list[str]:
    """The stems of the thing a "how many"/"which"/"who are" question asks about ("keynote speakers" → keynote, speaker)."""
    match = NOUN_PATTERN.search(question.lower())
    if not match:
        return []
    phrase = next(group for group in match.groups() if group)
    return [word for word in words(phrase) if word not in GENERIC]


NOUN_PATTERN = re.compile(
    r"\bhow many\s+([a-z][\w\s-]*?)(?:\s+(?:are|is|were|was|will|do|does|did|can|have|has|had|got|get|gets|in|on|at|of|for|"
    r"there|does)\b|\?|$)"
    r"|\b(?:which|what)\s+([a-z][\w\s-]*?)\s+(?:are|is|were|will|do|does)\b"
    r"|\bwho\s+(?:are|were|is)\s+(?:the\s+)?([a-z][\w\s-]*?)(?:\s+(?:at|of|for|in|on|this|these|next)\b|\?|$)"
    r"|\b(?:list|name)\s+(?:all\s+)?(?:the\s+)?([a-z][\w\s-]*?)(?:\s+(?:at|of|for|in|on)\b|\?|$)"
)


def _names(label: str, noun: list[str]) -> bool:
    stems = set(words(label))
    return bool(noun) and set(noun) <= stems | {stem(word) + "s" for word in stems}


def _records(node: Node, tree: Tree) -> list[Node]:
    return [child for child in tree.children(node) if not child.is_leaf or child.text]


@dataclass
class Collection:
    node: Node | None  # the node whose records are the things asked about (None: records found by name)
    items: list[Node]
    ranks: list[int]  # the evidence paths inside it


COMPLEMENT = re.compile(
    r"^\s*(?:which|what)\s+[a-z][\w\s-]*?\s+(?:are|is|were)\s+(?:the\s+)?([a-z][\w\s-]*?)\s*\??$", re.IGNORECASE
)
""""Which companies are Gold sponsors?": the list is named by what they are ("Gold Sponsors")."""


HAVING = re.compile(
    r"^\s*how many\s+[a-z][\w\s-]*?\s+(?:have|has|had|offer|offers|offered|post|posts|posted)\s+"
    r"(?:a\s+|an\s+|the\s+|any\s+)?([a-z][\w\s-]*?)(?:\s+(?:on|in|at|for|of|during|this|at)\b.*)?\s*\??$",
    re.IGNORECASE,
)
""""How many companies have job postings on the job fair page?": the things counted are the entries of the list
named by what they have ("Job Posting": one record per company), when no list is named by the things."""


HOW_MANY_PEOPLE = re.compile(r"\bhow many\s+(?:people|persons|members|of them)\b", re.IGNORECASE)
CONTAINER = re.compile(r"\b(?:on|in|of)\s+the\s+([a-z][\w\s-]*?)\s*\??$", re.IGNORECASE)
""""How many people are on the X?": when the thing counted is only people, the list counted is the X."""


def collection(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Collection | None:
    """The records a "how many …"/"which …" question asks about (see the module doc)."""
    found = _collection(question, asked_noun(question), evidence, tree)
    container = CONTAINER.search(question)
    if found is None and container and HOW_MANY_PEOPLE.search(question):
        # "How many people are on the research track program committee?": the list the question names
        found = _collection(
            question,
            [word for word in words(container.group(1)) if word not in GENERIC],
            evidence,
            tree,
            labelled_only=True,
        )
    having = HAVING.match(question)
    if found is None and having:
        found = _collection(
            question,
            [word for word in words(having.group(1)) if word not in GENERIC],
            evidence,
            tree,
            labelled_only=True,
        )
    complement = COMPLEMENT.match(question)
    if found is None and complement:
        found = _collection(
            question,
            [word for word in words(complement.group(1)) if word not in GENERIC],
            evidence,
            tree,
            labelled_only=True,
        )
    return found


def _collection(
    question: str, noun: list[str], evidence: Sequence[EvidencePath], tree: Tree, labelled_only: bool = False
) -> Collection | None:
    if not noun:
        return None
    near = {
        ancestor.id
        for item in evidence
        if 0 <= item.node_id < len(tree.nodes)
        for ancestor in tree.ancestors(tree.nodes[item.node_id])
    }
    labelled = [
        node
        for node in tree.nodes
        if not node.is_leaf
        and _names(with_parents(node, tree), noun)
        and len(_records(node, tree)) >= 2
        and (any(not child.is_leaf for child in tree.children(node)) or _string_list(node, tree))
    ]
    if labelled:  # a list of records (its entries, not a page's sections) first, the one named most fully, the longest
        best = max(
            labelled,
            key=lambda node: (
                _is_list(node, tree),
                _names(node.label, noun),
                _names_listed(node, tree, noun),
                heading_fit(question, tree, node),
                len(_records(node, tree)),
                node.id in near,
                -node.depth,
            ),
        )
        inside = [
            item.rank
            for item in evidence
            if 0 <= item.node_id < len(tree.nodes) and best in tree.ancestors(tree.nodes[item.node_id])
        ]
        return Collection(best, _records(best, tree), inside)
    if labelled_only:
        return None
    # a record names the thing by its specific word: "keynote" of "keynote speakers"
    specific = [word for word in noun if word not in LABEL_WORDS[Kind.PEOPLE]] or noun
    for item in evidence:  # records of the evidence's list whose own text names the thing ("Keynote 2: …")
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        record = _record_of(tree, tree.nodes[item.node_id])
        above = tree.parent(record) if record is not None else None
        if above is None:
            continue
        named = _named_records(above, tree, specific, question)
        if len(named) >= 2:
            return Collection(None, named, [item.rank])
    # anywhere in the site: the list with most records naming it (ICML's keynotes sit in one workshop's program)
    lists = [
        (len(named), node.id, named)
        for node in tree.nodes
        if not node.is_leaf and _is_list(node, tree)
        for named in [_named_records(node, tree, specific, question)]
        if len(named) >= 2
    ]
    if lists:
        return Collection(None, max(lists)[2], [])
    return None


def with_parents(node: Node, tree: Tree) -> str:
    """A node's label with its parent's and grandparent's ("Doctoral Consortium PC » Chairs")."""
    chain = [node, *tree.ancestors(node)[-2:][::-1]] if tree.ancestors(node) else [node]
    return " ".join(item.label for item in chain)


def _names_listed(node: Node, tree: Tree, noun: list[str]) -> bool:
    """A plain list of names that are the things asked: people only when people are asked ("Workshop Chairs"
    lists chairs, not workshops)."""
    people = Kind.PEOPLE in label_kinds(node.label)
    return _string_list(node, tree) and (not people or Kind.PEOPLE in label_kinds(" ".join(noun)))


def _string_list(node: Node, tree: Tree) -> bool:
    """A list of names written as plain entries ("DIAMOND: [Google Research, CITADEL Securities]")."""
    children = tree.children(node)
    return len(children) >= 2 and all(
        child.is_leaf and not child.label and child.text and len(child.text.split()) <= 8 for child in children
    )


def _is_list(node: Node, tree: Tree) -> bool:
    """A list of records: most of its children are list entries (``item`` nodes)."""
    children = tree.children(node)
    return bool(children) and sum(child.kind == "item" for child in children) * 2 >= len(children)


def _named_records(parent: Node, tree: Tree, specific: list[str], question: str = "") -> list[Node]:
    """The records of ``parent`` whose own fields (not their sub-lists) name the thing, in this edition (a field
    "2020 General chair" names another year's chair)."""
    return [
        entry
        for entry in tree.children(parent)
        if entry.kind == "item"
        and any(
            _names(leaf.text or "", specific) and not other_years(leaf.text or "", tree, question)
            for leaf in tree.children(entry)
            if leaf.is_leaf and leaf.label
        )
    ]


def other_years(text: str, tree: Tree, question: str) -> bool:
    """Whether ``text`` names a year that is neither the conference's (in its name) nor one the question names."""
    return bool(set(YEAR.findall(text)) - set(YEAR.findall(split_digits(f"{tree.root.label} {question}"))))


def _record_of(tree: Tree, leaf: Node) -> Node | None:
    for node in reversed([*tree.ancestors(leaf)]):
        if node.kind == "item":
            return node
    return None


def role_holders(question: str, evidence: Sequence[EvidencePath], tree: Tree, headed: bool = False) -> list[Node]:
    """ "Who chairs the industry track?" matched a record's role ("type: Industry Track Chairs"): every
    record of that list holding the same role, when there are several (a role is often shared). The
    role is the evidence leaf, a record's short field, that names most of what the question names and
    least else (a role word aside), of equals the best ranked. ``headed``: else the records under a heading
    named by the role (for a one-value question; a list question gathers its records itself)."""
    asked = set(words(question)) - GENERIC
    roles = []
    for item in evidence:
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        leaf = tree.nodes[item.node_id]
        record = tree.parent(leaf)
        if record is None or record.kind != "item" or Kind.PEOPLE in label_kinds(leaf.label) or not leaf.text:
            continue
        if other_years(leaf.text, tree, question):  # "2020 General chair": another edition's holder
            continue
        said = set(words(leaf.text))
        if len(leaf.text.split()) <= CATEGORY_MAX_WORDS and len(said & asked) >= min(2, len(said)):
            extra = said - asked - LABEL_WORDS[Kind.PEOPLE]
            roles.append((len(said & asked), -len(extra), -item.rank, leaf, record))
    if not roles:  # no field the question names ("Industry Track Chairs"): a heading over the records may
        return _headed_holders(question, evidence, tree, asked) if headed else []
    *_, leaf, record = max(roles, key=lambda role: role[:3])
    holders = [
        entry
        for entry in tree.siblings(record) + [record]
        if entry.kind == "item"
        and any(
            child.is_leaf and child.label == leaf.label and child.text == leaf.text for child in tree.children(entry)
        )
    ]
    holders.sort(key=lambda entry: entry.id)
    # one holder answers "who is …" when the role names all the question names ("Best Reviewer -- Research Track")
    one = bool(re.search(r"\bwho\s+(?:is|was)\b", question, re.IGNORECASE)) and asked <= set(words(leaf.text or ""))
    if len(holders) >= 2 or one:
        return holders
    return _headed_holders(question, evidence, tree, asked) if headed else []


def _headed_holders(question: str, evidence: Sequence[EvidencePath], tree: Tree, asked: set[str]) -> list[Node]:
    """ "Who chairs the workshops and tutorials?" found one record under a heading that names the role
    ("Workshop and Tutorial Chairs » Marta Sabou"): every record under that heading, when there are several
    and the question does not ask for one ("who is the …")."""
    if re.search(r"\bwho\s+(?:is|was)\b", question, re.IGNORECASE):
        return []
    for item in evidence[:TOP_HEADED]:
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        record = next(
            (node for node in reversed(tree.ancestors(tree.nodes[item.node_id])) if node.kind == "item"), None
        )
        heading = tree.parent(record) if record is not None else None
        if heading is None or Kind.PEOPLE not in label_kinds(heading.label):
            continue
        named = {word[:PREFIX] for word in set(words(heading.label)) - LABEL_WORDS[Kind.PEOPLE]}
        wanted = {word[:PREFIX] for word in asked - LABEL_WORDS[Kind.PEOPLE]}
        holders = [entry for entry in tree.children(heading) if entry.kind == "item"]
        if named and len(named & wanted) * 2 >= len(named) and len(holders) >= 2:
            return holders
    return []


TOP_HEADED = 3


def stated_count(question: str, evidence: Sequence[EvidencePath]) -> tuple[str, int] | None:
    """A number the site writes before the thing asked about ("hosting nine tutorials", "690 parking stalls")."""
    noun = asked_noun(question)
    if not noun:
        return None
    for item in evidence:
        tokens = WORD.findall(item.value.lower())
        labels = enumeration_labels(item.value)
        for position, token in enumerate(tokens[:-1]):
            if not (token.isdigit() or token in NUMBER_WORDS) or re.fullmatch(r"(?:19|20)\d\d", token):
                continue  # a year ("ISWC 2022 keynote") is not how many
            if token in labels:
                continue  # "(1) financial need, … (3) willingness to volunteer": an item's label, not a count
            after = [
                stem(word) for word in tokens[position + 1 : position + 1 + len(noun) + 1] if word not in STOPWORDS
            ]
            if after and noun[-1] in after[: len(noun)] or _after_modifier(tokens[position + 1 :], noun):
                return token, item.rank
        hyphened = hyphened_count(noun[-1]).search(item.value)  # "(8) full-access registrations"
        if hyphened:
            return hyphened.group(1).lower(), item.rank
    return None


def _after_modifier(tokens: Sequence[str], noun: list[str]) -> bool:
    """The thing asked right after one word the question leaves out: "(15) exhibitor booth badges" for "booth
    badges"; not a bound ("three or more reviewers") nor a comparison ("two more days")."""
    if len(tokens) < len(noun) + 1:
        return False
    modifier, *rest = tokens[: len(noun) + 1]
    return modifier not in STOPWORDS and modifier not in ASKING and [stem(word) for word in rest] == noun


ENUMERATION = re.compile(r"\((\d{1,2})\)")


def enumeration_labels(text: str) -> set[str]:
    """The numbers that label a text's items "(1) … (2) … (3) …": a run of them from 1, each one more."""
    found = [int(number) for number in ENUMERATION.findall(text)]
    run: set[int] = set()
    for number in found:
        if number == len(run) + 1:
            run.add(number)
    return {str(number) for number in run} if len(run) >= 2 else set()


def hyphened_count(noun_stem: str) -> re.Pattern:
    """A number before the thing with one hyphenated modifier between: "(8) full-access registrations"."""
    numbers = "|".join(NUMBER_WORDS)
    return re.compile(
        rf"\(?\b(\d[\d,]*|{numbers})\b\)?\s+[a-z]+-[a-z]+\s+{re.escape(noun_stem)}[a-z]*\b", re.IGNORECASE
    )


def item_text(kind: Kind, record: Node, tree: Tree) -> str:
    """What a record is called in a list: a person's name for a "who" question, else its label or text."""
    if record.is_leaf:
        return record.text or ""
    if kind is Kind.PEOPLE:
        for leaf in tree.subtree_leaves(record):
            if Kind.PEOPLE in label_kinds(leaf.label) and kind_fits(Kind.PEOPLE, leaf.text or ""):
                return leaf.text or ""
    return full_title(record, tree)


def full_title(record: Node, tree: Tree) -> str:
    """A record's label is its title field ("Keynote 1: Andrew Ng (Landing AI)") cut to a path's 80
    characters; a list names the record by the whole title, from the field the label was cut from."""
    for child in tree.children(record):
        text = child.text or ""
        if child.is_leaf and len(text) > len(record.label) and text.startswith(record.label):
            return text
    return record.label


# -- what the data cannot say -----------------------------------------------------------------------
def tree_vocabulary(tree: Tree) -> set[str]:
    """Every stemmed word of the tree's labels and values (cached on the tree object)."""
    cached = getattr(tree, "_vocabulary", None)
    if cached is None:
        cached = set()
        for node in tree.nodes:
            cached.update(words(f"{node.label} {node.text or ''}".replace("-", "")))
            cached.update(words(f"{node.label} {node.text or ''}"))
        tree._vocabulary = cached  # type: ignore[attr-defined]
    return cached


PREFIX = 5
"""Two words that agree in their first five letters are one ("remotely"/"remote", "limit"/"limited")."""
ASKING = frozenset(
    "earliest latest first last together total combined cheaper cheapest expensive higher lower more "
    "less same different".split()
)
"""Words by which an operator reads the question ("the earliest deadline"), not what it is about."""


CALENDAR_WORD = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|"
    r"october|november|december"
)
MIN_VOCABULARY = 1500
"""A word's absence says something only of a site that says a lot (ICML 2023's data uses ~9,000 words,
ISWC 2022's ~7,000); a one-page FAQ may answer "What platform is used?" with "run on Zoom"."""


def unknown_topic(question: str, tree: Tree) -> str | None:
    """A word of the question the site never uses (joined when hyphenated: "Wi-Fi" → "wifi"), or None."""
    vocabulary = tree_vocabulary(tree)
    if len(vocabulary) < MIN_VOCABULARY:
        return None
    known = vocabulary | {word[:PREFIX] for word in vocabulary}
    for raw in re.findall(r"[A-Za-z][A-Za-z-]*[A-Za-z]", question):
        word = raw.lower().replace("-", "")
        kind_word = any(stem(word) in cue for cue in LABEL_WORDS.values())  # "where"/"venue" say the kind asked
        if len(raw) < UNKNOWN_MIN_LETTERS or word in STOPWORDS or stem(word) in GENERIC or word in GENERIC or kind_word:
            continue
        if word in ASKING or word.endswith(("ed", "ing", "ly")):  # "donated", "reviewing": how, not what about
            continue
        if word in FILLERS:  # "the whole conference": how a person speaks, not a topic
            continue
        if CALENDAR_WORD.fullmatch(word):  # "Thursday" on a site that writes "Thu, July 27": a day, said otherwise
            continue
        if (
            stem(word) not in known
            and word not in known
            and word[:PREFIX] not in known
            and not any(part in known for part in raw.lower().split("-") if len(part) >= UNKNOWN_MIN_LETTERS)
        ):
            return raw
    return None


def node_evidence(tree: Tree, node: Node, rank: int) -> EvidencePath:
    """A tree node as an evidence path the answer can cite (it was read beside the retrieved ones)."""
    return EvidencePath(rank, node.id, node_path_text(tree, node), node.text or "", "", 0.0)


# -- a person named in a sentence ---------------------------------------------------------------------
PERSON_IN = re.compile(
    r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+(?:\s(?:van|von|der|den|de|da|del|di|le|la|bin))*"
    r"(?:[- ][A-Z][a-z]+){1,2})\b"
)
NOT_NAMES = frozenset(
    """january february march april may june july august september october november december
monday tuesday wednesday thursday friday saturday sunday please the this click here convention center centre
hawaii honolulu conference university""".split()
)


def person_in_sentences(question: str, evidence: Sequence[EvidencePath]) -> Computed | None:
    """A person a sentence of the evidence names, in the sentence that shares a word with the question
    ("Please contact Stephanie Willes if you have any questions."): the answer to a "who" without a
    labelled name field. None when no sentence names one."""
    asked = {word[:PREFIX] for word in words(question)} - {word[:PREFIX] for word in GENERIC}
    for item in evidence[:3]:
        for sentence in re.split(r"(?<=[.!?])\s+", item.value):
            if not asked & {word[:PREFIX] for word in words(sentence)}:
                continue
            for match in PERSON_IN.finditer(sentence):
                name = match.group(1)
                parts = {part.lower() for part in re.split(r"[- ]", name)}
                # a name the question itself says ("Deep Learning" of the workshop asked about) is not the answer
                if (
                    match.start() > 0
                    and not parts & NOT_NAMES
                    and not set(words(name)) & LABEL_WORDS[Kind.PEOPLE]  # "Program Chairs" is a role
                    and not parts
                    <= set(question.lower().split()) | {word.strip("'\"?") for word in question.lower().split()}
                ):
                    return Computed(name, "value", [item.rank])
    return None


def about_the_question(question: str, tree: Tree, answer, evidence: Sequence[EvidencePath]) -> bool:
    """Whether the paths an answer cites (or its nodes read) share a word with what the question names
    (its words beyond how it asks, the kind it asks for and the conference's name); True when it names
    nothing else ("When does the conference start?")."""
    topic = topic_words(question, tree)
    if not topic:
        return True
    texts = [item.path for item in evidence if item.rank in answer.cited]
    texts += [node_path_text(tree, node) for node in answer.read]
    said = {word[:PREFIX] for text in texts for word in words(text)}
    return bool(topic & said) or not texts


# -- the thing the question names, in the value's own node ----------------------------------------------
def topic_words(question: str, tree: Tree) -> set[str]:
    """The question's words beyond how it asks (``GENERIC`` and its forms, the asker's verb and fillers), the kind
    it asks for and the conference's name (by prefix)."""
    asker = {word for raw in predicate_words(question) for word in words(raw)}
    topic = {
        word[:PREFIX]
        for word in words(question)
        if word not in GENERIC
        and word not in ASKING
        and word not in asker
        and not generic_variant(word)
        and not any(word in cue for cue in LABEL_WORDS.values())
    }
    return topic - {word[:PREFIX] for word in words(tree.root.label)}


VARIANT_LETTERS = 4
"""A word is a form of a generic word when it shares its five-letter prefix and is at most this much longer
("attending" of "attend", "accessible" of "access"); a longer word names a thing of its own ("accessibility")."""


def generic_variant(word: str, generic: frozenset[str] = GENERIC) -> bool:
    """Whether ``word`` is a form of one of the ``generic`` words (see ``VARIANT_LETTERS``)."""
    return any(word[:PREFIX] == other[:PREFIX] and len(word) <= len(other) + VARIANT_LETTERS for other in generic)


def names_topic(question: str, tree: Tree, text: str) -> bool:
    """Whether ``text`` (a path, a value) shares a word with what the question names; True when it names nothing."""
    topic = topic_words(question, tree)
    return not topic or bool(topic & {word[:PREFIX] for word in words(text)})


TITLE_OF = re.compile(r"\b(?:the\s+)?title\s+of\s+(.+?)\s*\??$", re.IGNORECASE)
""""What is the title of the second panel?": a title, read from a node labelled so or a record's own label
("the full name of the conference" is not a title field: it is answered as before)."""


CALLED = re.compile(
    r"^\s*(?:what|how)\s+(?:is|are|was|were|will)\s+(?:the\s+)?(.+?)\s+(?:be\s+)?(?:called|named|titled|entitled)\s*\??$",
    re.IGNORECASE,
)
""""What is Jane Doe's keynote called?" asks for the talk's title as "the title of Jane Doe's keynote" does."""


def title_thing(question: str) -> str | None:
    """What a title question asks the title of ("Jane Doe's keynote"), or None when it asks no title."""
    if re.search(r"\bwho\b", question, re.IGNORECASE):
        return None
    match = TITLE_OF.search(question) or CALLED.match(question)
    return match.group(1) if match else None


def asks_title(question: str) -> bool:
    return title_thing(question) is not None


def titled(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Found | None:
    """The title a "title of …" question asks for: a leaf labelled "title" whose headings name the thing,
    else the record holding a field that the question names whole ("Francesca Rossi's keynote" → the
    keynote record holding "name: Francesca Rossi"), by its title field or its label. A description
    that merely mentions keynotes is not a title."""
    asked_title = title_thing(question)
    if asked_title is None:  # not a "title of …" question (asks_title says which are)
        return None
    thing = re.sub(r"['’]s\b", "", asked_title)  # "Rossi's keynote" names Rossi
    asked = set(words(thing))
    for item in evidence:
        if 0 <= item.node_id < len(tree.nodes):
            leaf = tree.nodes[item.node_id]
            if (
                stem(leaf.label.lower()) in TITLE_LABELS
                and leaf.text
                and names_topic(thing, tree, item.path)
                and not set(words(leaf.text)) <= asked
            ):
                return Found(leaf, leaf.text, item.rank)
    for item in evidence:
        if not 0 <= item.node_id < len(tree.nodes):
            continue
        leaf = tree.nodes[item.node_id]
        named = set(words(leaf.text or ""))
        record = _record_of(tree, leaf) or _titled_heading(tree, leaf, asked)
        if record is None or not named or not named <= asked:
            continue
        # its title field, or the field the question calls the thing by ("Tendai Moyo's talk" → "Talk: …")
        called = asked - named
        title = next(
            (
                child
                for child in tree.children(record)
                if child.is_leaf
                and child.text
                and (stem(child.label.lower()) in TITLE_LABELS or set(words(child.label)) & called)
            ),
            None,
        )
        return Found(title or record, title.text if title and title.text else record.label, item.rank)
    return None


def _titled_heading(tree: Tree, leaf: Node, asked: set[str]) -> Node | None:
    """The heading a person's field sits under when the site keys a talk by its title ("Circular Health »
    speaker » name: Ilaria Capua"): the nearest ancestor whose label is neither a field's nor a role's
    ("speaker") nor words of the question itself; None for a leaf that is not a person's field."""
    if Kind.PEOPLE not in label_kinds(leaf.label):
        return None
    for node in reversed(tree.ancestors(leaf)[1:]):
        label = set(words(node.label))
        if label and not label <= LABEL_WORDS[Kind.PEOPLE] | asked | GENERIC:
            return node
    return None


TITLE_LABELS = frozenset({stem("title")})
"""A "name" field holds a person; a "title" field what a talk, panel or paper is called."""

WON = re.compile(
    r"\bwho\s+(?:won|received|got|was awarded|were awarded)\s+(?:the\s+|a\s+|an\s+)?(.+?)\s*\??$", re.IGNORECASE
)
""""Who won the best paper award in the research track?": the record whose category names every word of the prize."""
CATEGORY_MAX_WORDS = 12
"""A category field is short ("Best Student Paper -- Research Track"); a paragraph that mentions the
prize among others ("sponsor one of the best paper awards …") does not say who won it."""


def asked_prize(question: str) -> set[str]:
    """The words of the prize a "who won …" question names ("best", "paper"; "award" aside), or none."""
    match = WON.search(question)
    return set(words(match.group(1))) - {stem("award"), stem("awards"), stem("prize")} - GENERIC if match else set()


def award_winner(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Found | None:
    """The winner of the prize a "who won …" question names: the record (in the evidence, else anywhere in
    the site) with a short field naming every word of the prize, the fewest other words first, answered
    by its title (a paper) or its label (a person)."""
    prize = asked_prize(question)
    if not prize:
        return None

    def is_category(node: Node) -> bool:
        text = set(words(node.text or ""))
        return (
            node.is_leaf and bool(node.text) and len((node.text or "").split()) <= CATEGORY_MAX_WORDS and prize <= text
        )

    ranked = [(tree.nodes[item.node_id], item.rank) for item in evidence if 0 <= item.node_id < len(tree.nodes)]
    candidates: list[tuple[Node, int | None]] = [(node, rank) for node, rank in ranked if is_category(node)]
    if not candidates:
        candidates = [(node, None) for node in tree.leaves() if is_category(node)]
    in_records = [(node, rank, record) for node, rank in candidates if (record := _record_of(tree, node)) is not None]
    if not in_records:
        return None
    node, rank, record = min(
        in_records, key=lambda entry: (len(set(words(entry[0].text or "")) - prize), entry[1] or 99)
    )
    title = next(
        (
            child
            for child in tree.children(record)
            if child.is_leaf and child.text and stem(child.label.lower()) in TITLE_LABELS
        ),
        None,
    )
    return Found(title or record, title.text if title and title.text else record.label, rank)
