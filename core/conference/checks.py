"""Checks an answer must pass before it is given: general rules about question kinds and evidence.

Each rule names a way a conference answer was confidently wrong on questions written by someone else
(#24), and says what the evidence must hold instead; none names a site's wording.

* **A count needs a list of the asked kind.** "How many papers were accepted?" is answered by a list named
  by the papers *and* by what was done to them (the question's participle, "accepted"), or by a number
  the site writes before the noun; a FAQ heading "Papers" with two questions under it is not a count of
  accepted papers (``count_qualifier``).
* **A yes needs evidence that names the thing.** "Is there a conference app?" is not answered by a tutorial
  abstract that lists "Copernicus App Lab": a word the question writes in lower case, found only inside a
  capitalised name of something else, names that other thing (``existence_thing``, ``names_thing``).
* **A superlative needs evidence that states it.** "Which hotel is closest?" is not answered by the hotel
  page unless it says what is closest (``unstated_superlative``).
* **An answer is not an echo.** Words of the question itself ("What is X's keynote called?" → "X") or a
  heading's role label ("Consortium Sponsor" for "Who sponsors the consortium?") answer nothing
  (``echoes_question``).
* **Alternatives are siblings.** When the cited path went down one branch ("Dates › Tutorials") and a
  sibling branch names what the question names ("Dates › Workshops"), the answer is about the wrong
  thing: the value is taken from that branch, or not given (``named_sibling``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference.asking import FILLERS
from scholar_tui.core.conference.kinds import GENERIC, LABEL_WORDS, PREFIX, heading_fit, holds_kind, label_kinds
from scholar_tui.core.conference.lexical import STOPWORDS, WORD, expanded_query, stem, words
from scholar_tui.core.conference.support import subject as support_subject
from scholar_tui.core.conference.support import synonyms
from scholar_tui.core.conference.tree import PATH_SEPARATOR, Node, Tree

# -- counts ------------------------------------------------------------------------------------------
QUALIFIED_COUNT = re.compile(
    r"\bhow many\s+[a-z][\w\s-]*?\s+(?:(?:are|is|were|was|will be|have been|has been|got|get)\s+(?:being\s+)?)?"
    r"([a-z]+(?:ed|en))\b",
    re.IGNORECASE,
)
""""How many papers were accepted / are expected / have been registered?", "How many people attended?": the
participle or past verb says which of the things are counted; a list of the things that does not say so counts
others (all papers, past ones)."""


def count_qualifier(question: str) -> str | None:
    """The participle that qualifies what a "how many" question counts ("accepted"), or None."""
    match = QUALIFIED_COUNT.search(question)
    return match.group(1).lower() if match else None


COUNT_ATTRIBUTE = re.compile(
    r"\bhow many\s+[a-z][\w\s-]*?\s+(?:are|is|were|was|will be)\s+([a-z][\w-]*)\s*(?:[?.!]|$)", re.IGNORECASE
)
""""How many tutorials are half-day?", "How many workshops are virtual?": a predicate word after the verb, ending the
question, says which of the things are counted ("there", "in the …" are no attribute)."""


def count_attribute(question: str) -> list[str] | None:
    """The words of the attribute a "how many ‹things› are ‹attribute›?" question counts by ("half-day" →
    ["half", "day"]), or None (a participle is ``count_qualifier``'s; "are there" asks all of them)."""
    match = COUNT_ATTRIBUTE.search(question)
    if match is None or count_qualifier(question) is not None:
        return None
    said = words(match.group(1))
    return said if said and match.group(1).lower() not in STOPWORDS | {"there"} else None


def names_all(said: Sequence[str], text: str) -> bool:
    """Whether ``text`` names every word of ``said``, by prefix ("Half Day" names "half-day")."""
    present = {word[:PREFIX] for word in words(text)}
    return all(word[:PREFIX] in present for word in said)


def names_qualifier(qualifier: str, texts: Iterable[str]) -> bool:
    """Whether one of ``texts`` (a list's label with its parents, its records) says the qualifier, by prefix
    ("accepted" / "Accepted Papers" / "acceptance")."""
    wanted = stem(qualifier)[:PREFIX]
    return any(word[:PREFIX] == wanted for text in texts for word in words(text))


# -- yes / no ----------------------------------------------------------------------------------------
EXISTENCE = re.compile(
    r"^\s*(?:is|are)\s+there\s+(?:(?:a|an|any|some)\s+)?(.+?)\s*\??$"
    r"|^\s*(?:does|do|will|is)\s+(?:the\s+)?(?:conference|event|venue|it|they|you)\s+"
    r"(?:have|has|offer|offers|provide|provides|run|organi[sz]e|hold|include|come with)\s+(?:(?:a|an|any)\s+)?(.+?)\s*\??$",
    re.IGNORECASE,
)
""""Is there a conference app?", "Does the venue offer a cloakroom?": the question asks whether a thing exists."""
CLAUSE = re.compile(
    r"\s+(?:for|at|in|on|during|near|with|to|of|from|by|that|who|which|where)\s+.*$|\s+[a-z]+ed\b.*$", re.IGNORECASE
)
"""What follows the thing: its place, time or holder ("at the venue", "for students"), or a participle
("affiliated with …")."""
FRAMING = frozenset(
    stem(word)
    for word in "opportunity opportunities possibility chance way ways option options process procedure "
    "kind kinds type types form".split()
)
""""Is there an opportunity to …", "an online submission process": words that frame what is asked, not a
thing that must be named."""
PROPERTY = frozenset(
    stem(word)
    for word in "free paid official dedicated special separate extra additional public private optional".split()
)
""""Is there free Wi-Fi?", "Does it provide free travel?": a property the verdict reads from the sentence
("does not provide travel funding"), not part of what must be named."""


def existence_thing(question: str) -> list[str]:
    """The stems of the thing an existence question asks about ("conference app" → app), its trailing
    place or time ("at the venue") left out; [] when the question does not ask whether something exists."""
    match = EXISTENCE.match(question)
    if not match:
        return []
    phrase = CLAUSE.sub("", next(group for group in match.groups() if group))
    return [word for word in words(phrase) if word not in GENERIC | FRAMING | PROPERTY]


PROPER_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][\w&-]*(?:\s+(?:of|for|and|de|the)?\s*[A-Z][\w&-]*){1,}")
"""A run of capitalised words inside a sentence: the name of one thing ("Copernicus App Lab")."""


def without_other_names(question: str, text: str) -> str:
    """``text`` less the capitalised names inside its sentences that the question does not write capitalised:
    a lower-case "app" in the question is not the "App" of "Copernicus App Lab"."""
    capitalised = {word.lower() for word in re.findall(r"\b[A-Z][\w-]*", question[1:])}

    def keep(match: re.Match) -> str:
        named = {word.lower() for word in WORD.findall(match.group(0))}
        return match.group(0) if named & capitalised else " "

    return PROPER_NAME.sub(keep, text)


TITLE_WORDS = 5
"""A heading of this many words is a record's title ("Computational Approaches for App-to-App Retrieval …",
a paper in a workshop's list), not a section: it names that thing, as a sentence's capitalised run does."""


def names_thing(thing: Sequence[str], headings: str, value: str, question: str) -> bool:
    """Whether the path's headings and its value name every word of the thing asked about."""
    sections = [
        without_other_names(question, f"The {heading}") if len(heading.split()) >= TITLE_WORDS else heading
        for heading in headings.split(PATH_SEPARATOR)
    ]
    said = {word[:PREFIX] for word in words(f"{' '.join(sections)} {without_other_names(question, value)}")}
    return all(word[:PREFIX] in said or synonyms(word[:PREFIX]) & said for word in thing)


PARTICIPLE = re.compile(r"\b[a-z]{4,}ed\b", re.IGNORECASE)
MANNER = re.compile(r"\b[a-z]{4,}ly\b", re.IGNORECASE)
"""An adverb of manner ("Can I attend remotely?"): how the thing is done is what a yes or a no must say."""


def asked_predicate(question: str) -> list[str]:
    """The participles and adverbs of manner a yes/no question asks about ("Are talks streamed online?" → streamed,
    "Can I attend remotely?" → remotely): what must be said
    of the thing for a yes or a no, beyond the thing itself. Words of how any question asks ("allowed",
    "included", "required") are left to the verdict's own reading."""
    manner = [raw for raw in MANNER.findall(question) if raw.lower() not in FILLERS]
    return [
        word
        for raw in [*PARTICIPLE.findall(question), *manner]
        for word in words(raw)
        if word not in GENERIC and raw.lower() not in GENERIC and stem(raw.lower()) not in GENERIC
    ]


# -- superlatives ------------------------------------------------------------------------------------
SUPERLATIVE = re.compile(
    r"\b(?:(closest|nearest|cheapest|biggest|largest|smallest|fastest|quickest|shortest|longest|"
    r"oldest|newest|highest|lowest|most popular|most expensive|least expensive|best rated)|(most|least)\s+([a-z]+))\b",
    re.IGNORECASE,
)
"""A superlative the answer operators do not compute (earliest / latest / first / last are ordered by
``date_order_answer``; "best" names awards, as in "best paper")."""
SAME_COMPARISON = {
    "close": "near distance walk walking minute minutes km meter meters mile miles",
    "near": "close distance walk walking minute minutes km meter meters mile miles",
    "cheap": "price prices cost costs rate rates fee fees",
    "expensive": "price prices cost costs rate rates fee fees",
}
"""A comparison is stated by its own word or by the measure it compares (a distance for "closest")."""


def unstated_superlative(question: str, texts: Iterable[str]) -> str | None:
    """The superlative the question asks for when none of ``texts`` states it or the measure it compares
    (a distance for "closest"), else None."""
    match = SUPERLATIVE.search(question)
    if not match:
        return None
    word = (match.group(1) or match.group(3) or "").lower().split()[-1]
    base = re.sub(r"(?:est|iest)$", "", word) if match.group(1) else word
    base = {"clos": "close", "cheap": "cheap", "larg": "large", "big": "big"}.get(base, base)
    cues = {base[:4], *(cue[:PREFIX] for cue in SAME_COMPARISON.get(base, "").split())}
    said = {token.lower()[: max(4, min(PREFIX, len(token)))] for text in texts for token in WORD.findall(text)}
    said |= {token.lower()[:4] for text in texts for token in WORD.findall(text)}
    if cues & said:
        return None
    return match.group(0).lower()


# -- echoes ------------------------------------------------------------------------------------------
ECHO_EXEMPT = re.compile(r"\bor\b|\bhow many\b|\bwhich (?:one|city|country|day)\b", re.IGNORECASE)
""""Is it in person or virtual?" is answered by one of its own words; a count or a named choice may be too."""


POSSESSIVE = re.compile(r"['’]s\b")


def echoes_question(question: str, answer: str) -> bool:
    """Whether the answer says nothing beyond the question's own words: every content word of it is one the
    question wrote (by prefix) or a word naming the kind of answer ("Sponsor", "Chair", "Date")."""
    if ECHO_EXEMPT.search(question) or any(char.isdigit() for char in answer):
        return False
    said = [word for word in words(POSSESSIVE.sub("", answer)) if word not in STOPWORDS]
    if not said:
        return False
    asked = {word[:PREFIX] for word in words(POSSESSIVE.sub("", question))}
    role = {word[:PREFIX] for cue in LABEL_WORDS.values() for word in cue} | {stem("sponsor")[:PREFIX]}
    return all(word[:PREFIX] in asked | role for word in said) and bool({word[:PREFIX] for word in said} & asked)


# -- alternatives ------------------------------------------------------------------------------------
def _subject_prefixes(question: str, tree: Tree, kind: Kind) -> set[str]:
    own = LABEL_WORDS.get(kind, frozenset())
    root = {word[:PREFIX] for word in words(tree.root.label)}
    return (
        {word[:PREFIX] for word in words(question) if word not in GENERIC and word not in own}
        - root
        - {word[:PREFIX] for word in GENERIC}
    )


AFTER_WHO = re.compile(r"^\s*who(?:\s*['’]s|\s+(?:is|are|was|were)(?=\s+[a-z]+ing\b))?\s+([a-z]+)", re.IGNORECASE)
""""Who organizes …", and "who is organizing …" / "who's running …": the verb after "who" (past a form of "be"
before an -ing verb; "who is the chair" has none)."""


def _predicate(question: str) -> set[str]:
    """The prefix of the verb right after "who" ("Who organizes the X workshop?"): what the person does, read by the
    role checks, not a branch the question names (the site's "Organization" menu beside "Calls", where the X
    workshop's organizers are listed)."""
    return {stem(raw.lower())[:PREFIX] for raw in AFTER_WHO.findall(question)}


def _parallel(branch: str, sibling: str, about: set[str], missing: set[str]) -> bool:
    """Whether two headings are alternatives of one kind that differ in the thing the question names:
    the same words but one, the sibling's one a word the question names and the path lacks, the
    branch's one a word the question does not name ("Tutorials" / "Workshops", "Call For Tutorials" /
    "Call For Workshops", "Best Paper -- Resource Track" / "Best Paper -- Research Track")."""
    own, other = [word[:PREFIX] for word in words(branch)], [word[:PREFIX] for word in words(sibling)]
    if len(own) != len(other) or not own:
        return False
    only_own, only_other = set(own) - set(other), set(other) - set(own)
    return len(only_own) == 1 and len(only_other) == 1 and only_other <= missing and not only_own & about


def named_sibling(question: str, tree: Tree, kind: Kind, leaf: Node) -> tuple[Node | None, bool]:
    """Whether ``leaf`` sits in the wrong one of several sibling branches, and the value the question asks for
    in the right one.

    A branch on ``leaf``'s path is wrong when it names none of the question's subject words that one of
    its siblings names, and the path itself lacks them ("Tutorials" beside "Workshops" for "When are
    workshop proposals due?"). Returns (the value of ``kind`` in the sibling branch that fits the question's
    other words best, or None when none fits, True) — or (None, False) when ``leaf`` is on the right branch.
    """
    about = _subject_prefixes(question, tree, kind)
    path_words = {word[:PREFIX] for node in [*tree.ancestors(leaf), leaf] for word in words(node.label)}
    path_words |= {word[:PREFIX] for word in words(leaf.text or "")}
    missing = about - path_words - _predicate(question)
    if not missing:
        return None, False
    for branch in tree.ancestors(leaf)[1:]:
        parent = tree.parent(branch)
        if parent is None:
            continue
        for sibling in tree.children(parent):
            if (
                sibling.id != branch.id
                and not sibling.is_leaf
                and _parallel(branch.label, sibling.label, about, missing)
            ):
                values = [node for node in tree.subtree_leaves(sibling) if holds_kind(kind, node, tree)]
                asked = expanded_query(question)
                best = max(
                    values,
                    key=lambda node: (sum(asked.get(word, 0.0) for word in set(words(node.label))), -node.id),
                    default=None,
                )
                return (best if best is not None and heading_fit(question, tree, best) else None), True
    return None, False


# -- after an early phase -----------------------------------------------------------------------------
ASKS_LATE = re.compile(
    r"\b(?:after|past|missed|miss|beyond|later than|once)\s+(?:the\s+)?early\b|\b(?:register|registering|registration)\s+late\b"
    r"|\blate\s+(?:registration|fee|rate|price)\b",
    re.IGNORECASE,
)
"""A question about what holds after an early phase ("after the early deadline", "if I register late")."""
EARLY_WORD = re.compile(r"\bearly(?:[- ]bird)?\b", re.IGNORECASE)
LATE_WORD = re.compile(r"\b(?:late|regular|standard|normal|on[- ]site)\b", re.IGNORECASE)
BRANCH_DEPTH = 4


def _without_phase(label: str) -> str:
    return " ".join(LATE_WORD.sub(" ", EARLY_WORD.sub(" ", label)).lower().split())


def after_early(question: str, tree: Tree, kind: Kind, leaf: Node) -> tuple[Node | None, bool]:
    """For a question about what holds after an early phase, whether ``leaf`` was read from the early branch
    ("Early Student Workshops Registration: $200", "Early Registration » … » $25"), and the value in its
    other branch: the sibling called the same less the phase ("Student Workshops Registration", "Late
    Registration"), followed down by the same labels. (None, True) when the site has no other branch."""
    if not ASKS_LATE.search(question):
        return None, False
    chain = [leaf, *reversed(tree.ancestors(leaf)[1:])][:BRANCH_DEPTH]
    for depth, branch in enumerate(chain):
        if not EARLY_WORD.search(branch.label):
            continue
        below = [node.label for node in reversed(chain[:depth])]  # the labels from the branch down to the leaf
        for sibling in tree.siblings(branch):
            if EARLY_WORD.search(sibling.label) or _without_phase(sibling.label) != _without_phase(branch.label):
                continue
            found = _follow(tree, sibling, below)
            if found is not None and holds_kind(kind, found, tree):
                return found, True
        return None, True
    return None, False


def _follow(tree: Tree, node: Node, labels: Sequence[str]) -> Node | None:
    """The node reached from ``node`` by children with these labels, in order (None when a step is missing)."""
    for label in labels:
        found = next((child for child in tree.children(node) if child.label == label), None)
        if found is None:
            return None
        node = found
    return node


# -- who sponsors / organises / hosts a thing ---------------------------------------------------------
WHO_DOES = re.compile(
    r"^\s*(?:who|which\s+(?:company|companies|organi[sz]ations?|institutions?|firms?))\s+"
    r"(?:is\s+|are\s+|was\s+|were\s+)?"
    r"(sponsor(?:s|ed|ing)?|fund(?:s|ed|ing)?|support(?:s|ed|ing)?|host(?:s|ed|ing)?|organi[sz](?:e|es|ed|ing))\s+"
    r"(?:by\s+)?(?:the\s+)?(.+?)\s*\??$",
    re.IGNORECASE,
)
""""Who sponsors the doctoral consortium?", "Which company sponsored the best student paper prize?": the
holders of a role (sponsor, funder, host, organiser) of a thing the question names."""
WHO_IS_ROLE = re.compile(
    r"^\s*(?:who|which\s+(?:company|companies|organi[sz]ations?|firms?))\s+(?:is|are|was|were)\s+(?:the\s+|our\s+)?"
    r"(.+?)\s+(sponsors?|exhibitors?|partners?|supporters?|funders?|hosts?)\s*\??$",
    re.IGNORECASE,
)
""""Who is the gold level exhibitor?", "Who are the platinum sponsors?": the role said by its noun after the thing."""
LEVEL_WORDS = frozenset(stem(word) for word in "level levels tier tiers class package packages".split())
"""Words by which a question names a sponsorship's rank ("the gold level"), where a site heads it "Gold"."""
ROLE_NAMES = {
    "sponsor": "sponsor sponsors sponsored sponsorship partner partners supporter supporters funded funder",
    "fund": "funded funder funders funding sponsor sponsors sponsored",
    "support": "support supported supporter supporters sponsor sponsors partner partners",
    "host": "host hosts hosted",
    "exhibit": "exhibitor exhibitors exhibiting",
    "partner": "partner partners sponsor sponsors",
    "organi": "organizer organizers organiser organisers organized organised organizing organising",
}
"""The words a site labels a role with: a sponsor is also listed as a partner or a supporter, or said to
have "funded" a prize (general English, not one site's wording)."""
LABEL_SPELLING = 0.8
"""A label that agrees with a role word to this ratio (difflib) is that word misspelt ("spnsor")."""


def _role_words(verb: str) -> set[str]:
    for root, names in ROLE_NAMES.items():
        if verb.lower().startswith(root):
            return {stem(word) for word in names.split()}
    return set()


def _names_role(label: str, roles: set[str]) -> bool:
    from difflib import SequenceMatcher

    return any(
        word in roles or any(SequenceMatcher(None, word, role).ratio() >= LABEL_SPELLING for role in roles)
        for word in words(label)
    )


def role_holders(question: str, tree: Tree) -> tuple[list[Node], list[str]] | None:
    """Who holds the role the question asks of a thing: (the nodes holding the names, their texts), or None.

    Either a list labelled by the thing and the role ("Doctoral Consortium Sponsor: [Journal of Web
    Engineering]", "Partners » Doctoral consortium: [Nansen Foundation]"), its entries' names; or a record
    whose short category field names the thing ("type: Best Student Paper -- Research Track") and whose
    field is labelled by the role ("sponsor: …", "Funded by: …"). Of several, the one naming fewest other
    words; a tie is no answer (the question names too little to choose)."""
    match = WHO_DOES.match(question)
    if match:
        verb, named = match.group(1), match.group(2)
    elif (match := WHO_IS_ROLE.match(question)) is not None:
        verb, named = match.group(2), match.group(1)
    else:
        return None
    roles = _role_words(verb)
    thing = {word for word in words(named) if word not in GENERIC and word not in LEVEL_WORDS} - {
        stem(word) for word in ("award", "prize")
    }
    thing_prefixes = {word[:PREFIX] for word in thing}
    if not roles or not thing:
        return None
    found: list[tuple[int, list[Node]]] = []
    for node in tree.nodes:
        chain = [node, *tree.ancestors(node)[-2:][::-1]]
        labels = " ".join(item.label for item in chain)
        said = {word[:PREFIX] for word in words(labels)}
        if node.is_leaf:  # a level holding one name: "Exhibitors » 2023 Exhibitors » GOLD: Lambda", named by the
            # thing under a heading of the role (a field labelled by the role is a record's: ``_categorised``)
            own = {word[:PREFIX] for word in words(node.label)}
            if (
                own & thing_prefixes
                and thing_prefixes <= said
                and _names_role(labels, roles)
                and _entry_name(node, tree)
            ):
                found.append((len(said - thing_prefixes), [node]))
            continue
        if thing_prefixes <= said and _names_role(labels, roles) and node.kind != "item":
            entries = [_entry_name(child, tree) for child in tree.children(node)]
            if entries and all(entries):
                found.append((len(said - thing_prefixes), [child for child in tree.children(node)]))
    for extra, fields in _categorised(thing_prefixes, tree):
        holder = [field for field in fields if _names_role(field.label, roles)]
        if holder:
            found.append((extra, holder[:1]))
    nodes = _fewest_extra(found)
    return None if nodes is None else (nodes, [_entry_name(node, tree) or "" for node in nodes])


CATEGORY_WORDS = 12
"""A record's category field is short ("Best Student Paper -- Research Track"), not a paragraph."""


def _categorised(thing: set[str], tree: Tree) -> list[tuple[int, list[Node]]]:
    """The records with a short field naming every word of ``thing``: (how many other words that field has,
    the record's fields)."""
    found = []
    for node in tree.nodes:
        if node.kind != "item" or node.is_leaf:
            continue
        fields = [child for child in tree.children(node) if child.is_leaf and child.text]
        for field in fields:
            said = {word[:PREFIX] for word in words(field.text or "")}
            if thing <= said and len((field.text or "").split()) <= CATEGORY_WORDS:
                found.append((len(said - thing), fields))
                break
    return found


def _fewest_extra(found: list[tuple[int, list[Node]]]) -> list[Node] | None:
    """The entry naming fewest other words; None when there is none or two tie (the question names too little)."""
    if not found:
        return None
    found = sorted(found, key=lambda entry: entry[0])
    if len(found) > 1 and found[0][0] == found[1][0]:
        return None
    return found[0][1]


def record_value(question: str, kind: Kind, tree: Tree) -> Node | None:
    """The field of ``kind`` ("prize: 300 USD") of the record whose category names the question's whole subject
    ("How much is the prize for the best poster?" → the record "type: Best Poster"), anywhere in the site."""
    thing = support_subject(question, tree, kind)
    if not thing:
        return None
    found = []
    for extra, fields in _categorised(thing, tree):
        valued = [field for field in fields if kind in label_kinds(field.label) and holds_kind(kind, field, tree)]
        if valued:
            found.append((extra, valued[:1]))
    nodes = _fewest_extra(found)
    return nodes[0] if nodes else None


def _entry_name(node: Node, tree: Tree) -> str | None:
    """What a list entry is called: its text, or its "name" field; None for a paragraph or a package."""
    if node.is_leaf:
        text = (node.text or "").strip()
        return text if text and len(text.split()) <= 8 else None
    for child in tree.children(node):
        if child.is_leaf and child.text and stem(child.label.lower()) in {"name", "organization", "company"}:
            return child.text.strip()
    return None
