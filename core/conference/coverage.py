"""Subject coverage: is the answer about what the question names, or about a thing beside it?

``support`` weighs how much of the question's subject the cited paths hold; a majority passes. That lets
through an answer about a *neighbour* of the asked thing whenever the two share most words: "How much does
a guest ticket for the workshops cost?" answered by the opening reception's guest ticket ("workshops" is
on every other ICML page, so it weighs little), "Who chairs the session on bats?" answered by a keynote's
title about bats. What tells them apart is not the weight of the missing word but that the site itself
**draws the line there**: beside the answer's branch sits a branch named by the missing word ("Affinity
Workshops" beside "Opening Reception Guest Ticket", "Session A" beside "Keynote"). A question word the
answer's paths lack and a nearby heading names is the thing the question asks about, and the answer is
another one (``contrasted_term``).

Words the answer's paths lack and no nearby heading names are left to ``support``'s share: a person's own
words ("my car", "my kids", "a colleague") rarely name a site's heading, and refusing on them refused
right answers.

A person named in an answer holds a role by the heading it is read under ("Moderator", "Panelists",
"Chair"). When that role is not the one asked ("Who sits on the panel?" read under "Moderator") and a
sibling heading is, the answer is the sibling's people (``other_role``): a role is named by the question's
own word for it or by the verb that says it (a small general vocabulary, ``ROLE_VERBS``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from itertools import islice

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference.asking import asker_verb
from scholar_tui.core.conference.kinds import GENERIC, LABEL_WORDS, PREFIX
from scholar_tui.core.conference.lexical import WORD, stem, words
from scholar_tui.core.conference.support import CALENDAR, FORM_WORDS, asking_words, subject, synonyms, weight
from scholar_tui.core.conference.support import prefixes as path_prefixes
from scholar_tui.core.conference.tree import Node, Tree

FORM_PREFIXES = frozenset(word[:PREFIX] for word in FORM_WORDS)
ALL_KIND_WORDS = frozenset(word for cue in LABEL_WORDS.values() for word in cue)
KIND_WORDS = frozenset(word[:PREFIX] for cue in LABEL_WORDS.values() for word in cue)
"""Words that name the form of a value ("date", "fee", "name", "location"): a heading "Time" beside the
answer says what else the site records of the thing, not that the question named another thing."""


PARTICIPLE = re.compile(r"[a-z]{3,}(?:ing|en|ed)")
""""registering", "chosen", "submitted": what is done, not a thing a heading would name."""


AFTER_WHO = re.compile(r"^\s*who\s+([a-z]+)")
""""Who represents X?", "Who sits on …?": the verb after "who" says what the person does, read by the role checks."""
SEVERAL_THINGS = re.compile(r"\b(?:and|or|between|both|versus|vs)\b", re.IGNORECASE)
""""academic and full-time students", "between A and B": a question about several things, each on its own path."""


def missing_terms(question: str, tree: Tree, kind: Kind, texts: Iterable[str]) -> list[str]:
    """The prefixes of the question's subject (``support.subject``) that none of ``texts`` holds, itself or by
    a word of its synonym group; words naming a value's form or a day are left out."""
    said: set[str] = set()
    for text in texts:
        said |= path_prefixes(text)
    form = {word[:PREFIX] for word in words(question) if word in ALL_KIND_WORDS}  # "panel" is not "panelist"
    form |= {stem(raw)[:PREFIX] for raw in WORD.findall(question.lower()) if PARTICIPLE.fullmatch(raw)}
    form |= {stem(raw)[:PREFIX] for raw in AFTER_WHO.findall(question.lower())}  # "Who represents …": the predicate
    return sorted(
        prefix
        for prefix in subject(question, tree, kind, asking=True)  # a heading beside may name the asker's verb too
        if prefix not in form and not CALENDAR.fullmatch(prefix) and prefix not in said and not synonyms(prefix) & said
    )


def contrasted_term(
    question: str,
    tree: Tree,
    kind: Kind,
    nodes: Sequence[Node],
    texts: Iterable[str],
    holds: Callable[[Node], bool] = lambda node: True,
) -> str | None:
    """The question's word (as written) that the answer's paths lack and a heading beside them names: a
    sibling of the answer's node or of one of its ancestors, that holds a value like the answer (``holds``:
    an amount for an amount; the other branch is where the asked value would be). None when every such word
    is covered or no nearby heading names it."""
    missing = set(missing_terms(question, tree, kind, texts))
    if not missing or SEVERAL_THINGS.search(question):
        return None
    asked = {word[:PREFIX] for word in words(question)}
    for node in nodes:
        for step in [node, *reversed(tree.ancestors(node)[1:])]:
            if not _names_other(step.label, asked):
                continue  # the branch says nothing the question does not: no other thing to mistake it for
            for sibling in tree.siblings(step):
                named = _label_prefixes(sibling.label)
                hit = next((prefix for prefix in sorted(missing) if prefix in named or synonyms(prefix) & named), None)
                if hit is not None and _holds_below(sibling, tree, holds):
                    return written(question, hit)
    return None


OTHER_THING_IGNORES = frozenset(word[:PREFIX] for word in GENERIC) | KIND_WORDS | FORM_PREFIXES


def _names_other(label: str, asked: set[str]) -> bool:
    """Whether a heading names a thing the question does not ("Opening Reception Guest Ticket" for a question
    about the workshops' guest ticket; "Keynote" for one about a session), by its words beyond the question's
    own (or their synonyms), the words naming a value's form and how questions ask."""
    return any(
        prefix not in asked and not synonyms(prefix) & asked and prefix not in OTHER_THING_IGNORES
        for prefix in _label_prefixes(label)
        if not prefix.isdigit()
    )


def longer_name(
    question: str,
    tree: Tree,
    kind: Kind,
    texts: Sequence[str],
    holds: Callable[[Node], bool] = lambda node: True,
) -> str | None:
    """The question's word (as written) that the answer's paths lack while a heading elsewhere on the site names
    it together with a subject word the answer does hold, over values like the answer: "Platinum Plus" is a
    name the site uses ("Platinum Plus Sponsors"), so "Platinum (3000 USD)" is the price of another thing.
    None when no heading joins them."""
    # the asker's verb ("what system are they using …") is how the question asks, never part of a thing's name
    missing = set(missing_terms(question, tree, kind, texts)) - asking_words(question)
    if not missing or SEVERAL_THINGS.search(question):
        return None
    said: set[str] = set()
    for text in texts:
        said |= path_prefixes(text)
    held = subject(question, tree, kind) & said
    index = _heading_index(tree)
    for node_id in sorted({node_id for prefix in missing for node_id in index.get(prefix, ())}):
        node = tree.nodes[node_id]
        named = _label_prefixes(node.label)
        hit = next((prefix for prefix in sorted(missing) if prefix in named), None)
        joined = named & held
        if (
            hit is not None
            and joined
            and weight(tree, hit) >= max(weight(tree, prefix) for prefix in joined)
            and _holds_below(node, tree, holds)
        ):
            return written(question, hit)  # a rarer word narrows the name: "Platinum Plus", not "Industry Track"
    return None


BELOW_LIMIT = 400
"""How many leaves of a sibling branch are looked at for a value like the answer (a list of 30 workshops
with their papers is read in its first pages, not whole)."""


def _holds_below(node: Node, tree: Tree, holds: Callable[[Node], bool]) -> bool:
    """Whether ``node`` or a leaf below it holds a value like the answer."""
    if node.is_leaf:
        return holds(node)
    return any(holds(leaf) for leaf in islice(tree.subtree_leaves(node), BELOW_LIMIT))


def _label_prefixes(label: str) -> set[str]:
    return {word[:PREFIX] for word in words(label)}


def _heading_index(tree: Tree) -> dict[str, list[int]]:
    """Each word prefix of the site's headings → the ids of the labelled inner nodes whose label holds it, in
    tree order; built once per tree (``longer_name`` looked at every label for each refused answer)."""
    cached: dict[str, list[int]] | None = getattr(tree, "_heading_index", None)
    if cached is None:
        cached = {}
        for node in tree.nodes:
            if not node.is_leaf and node.label:
                for prefix in _label_prefixes(node.label):
                    cached.setdefault(prefix, []).append(node.id)
        tree._heading_index = cached  # type: ignore[attr-defined]
    return cached


def written(question: str, prefix: str) -> str:
    """The question's word for a prefix, as the person wrote it ("workshops", not "works")."""
    for raw in WORD.findall(question.lower()):
        if stem(raw)[:PREFIX] == prefix:
            return raw
    return prefix


# -- roles -------------------------------------------------------------------------------------------
ROLE_VERBS: dict[str, frozenset[str]] = {
    role: frozenset(stem(word)[:PREFIX] for word in cue.split())
    for role, cue in {
        "author": "author authors wrote write writes written",
        "chair": "chair chairs chaired lead leads led head heads charge",
        "moderator": "moderator moderators moderate moderates moderated",
        "panelist": "panelist panelists sits sit",
        "speaker": "speaker speakers speak speaks talk talks keynote keynotes gives give gave present presents",
        "organizer": "organizer organizers organiser organisers organize organizes organise organises run runs",
        "winner": "winner winners won win wins",
    }.items()
}
"""How a question names a role: the role's word or the verb that does it ("Who wrote …?" asks for authors,
"Who sits on the panel?" for panelists). General English, no site's wording."""
ROLE_LABEL_WORDS = frozenset(LABEL_WORDS[Kind.PEOPLE]) - {stem("name"), stem("names")}


def _roles(text: str) -> set[str]:
    """The roles a text names, by its words' prefixes."""
    said = {word[:PREFIX] for word in words(text)}
    return {role for role, cue in ROLE_VERBS.items() if said & cue}


def _role_node(node: Node, tree: Tree) -> Node | None:
    """The node whose label gives ``node``'s person a role: itself or its parent ("Moderator » name")."""
    for candidate in (node, tree.parent(node)):
        if candidate is not None and set(words(candidate.label)) & ROLE_LABEL_WORDS:
            return candidate
    return None


ORGANIZING = frozenset({"chair", "organizer"})
"""Two words for one role: "Who organizes the expo?" is answered by the "Expo Chairs" (as retrieval's synonym
groups already say, ``lexical.SYNONYM_GROUPS``)."""
HELD_ROLES = frozenset({"chair", "moderator", "organizer", "panelist", "speaker"})
"""Roles a site heads its people with; an author or a winner is said by a record's other fields."""


def _path_and_record(node: Node, tree: Tree) -> str:
    """The labels above ``node`` and its record's short fields: where a site says what role a person holds."""
    record = node if not node.is_leaf else tree.parent(node)
    fields = [f"{child.label} {child.text or ''}" for child in tree.children(record)] if record is not None else []
    return " ".join([*(ancestor.label for ancestor in tree.ancestors(node)), node.label, *fields])


ORGANIZED_EVENTS = frozenset(stem(word)[:PREFIX] for word in "workshop workshops tutorial tutorials".split())


def _authors_organize(question: str, tree: Tree, holder: Node) -> bool:
    """Whether ``holder`` heads the authors of a workshop or a tutorial and the question asks who organizes it: the
    authors of a workshop's proposal are the people who run it (a site lists a workshop's record with "author")."""
    if _roles(holder.label) != {"author"} or "organizer" not in _roles(question):
        return False
    above = " ".join(node.label for node in tree.ancestors(holder))
    return bool({word[:PREFIX] for word in words(above)} & ORGANIZED_EVENTS)


def other_role(question: str, tree: Tree, node: Node) -> tuple[Node | None, bool]:
    """Whether ``node``'s person holds a role the question does not ask, and the sibling heading holding the
    role it asks ("Panelists" beside "Moderator" for "Who sits on the panel?"): (that sibling or None, True),
    or (None, False) when the role is the one asked or the question names no role."""
    holder = _role_node(node, tree)
    asker = asker_verb(question)  # "who do I talk to about …": the asker talks, nobody is asked for as a speaker
    asked = _roles(" ".join(raw for raw in WORD.findall(question.lower()) if raw not in asker))
    if asked & ORGANIZING:  # a track's or an event's chairs are the people who organize it, and the other way round
        asked |= ORGANIZING
    if not asked:
        return None, False
    if holder is None:  # no role heading above the person: the role asked must be said on the path or its record
        wanted = asked & HELD_ROLES
        return None, bool(wanted) and not _roles(_path_and_record(node, tree)) & wanted
    if _roles(holder.label) & asked or not _roles(holder.label):
        return None, False
    if _authors_organize(question, tree, holder):
        return holder, True  # the whole heading's people, not the one name retrieved
    named = [sibling for sibling in tree.siblings(holder) if not sibling.is_leaf and _roles(sibling.label) & asked]
    return (named[0] if len(named) == 1 else None), True


# -- what is possessed ---------------------------------------------------------------------------------
POSSESSED = re.compile(r"\b([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)*)['’]s\s+([a-z][a-z-]+)")
""""Markus Krötzsch's talk", "Uli Sattler's email": a named owner and the thing of theirs asked about."""
NAME_FIELDS = frozenset({"name", "full name"})


THING_NOUNS = frozenset(
    stem(word)
    for word in "talk talks keynote keynotes presentation presentations lecture paper papers tutorial tutorials "
    "workshop workshops session sessions poster posters panel demo".split()
)
"""What a person gives or writes, a record of its own beside theirs ("X's talk"); an attribute of the person
("X's role", "X's interests", "X's affiliation") is a field of their own record."""


def possessed(question: str) -> tuple[list[str], str] | None:
    """The owner's words and the possessed thing of "X's N" in the question (a talk, a paper), or None."""
    match = POSSESSED.search(question)
    if not match or stem(match.group(2).lower()) not in THING_NOUNS:
        return None
    owner = words(match.group(1))
    return (owner, match.group(2).lower()) if owner else None


def owner_not_possessed(question: str, tree: Tree, node: Node) -> str | None:
    """The possessed noun when ``node`` is a field of the owner's own record (beside a "name" field holding the
    owner: a bio, a photo, an affiliation) that does not name that noun: "What is Markus Krötzsch's talk about?"
    is not answered by his bio's "TU Dresden". A record whose person is held in a role field ("Speaker: X",
    "Title: …") is the talk itself, and its fields are the talk's. None when the answer is of the noun."""
    asked = possessed(question)
    parent = tree.parent(node)
    if asked is None or parent is None:
        return None
    owner, noun = asked
    names_owner = any(
        child.is_leaf and child.label.strip().lower() in NAME_FIELDS and set(owner) <= set(words(child.text or ""))
        for child in tree.children(parent)
    )
    if not names_owner:
        return None
    wanted = stem(noun)[:PREFIX]
    said = _label_prefixes(node.label)
    return None if wanted in said or synonyms(wanted) & said else noun


# -- the set a count or a list ranges over -------------------------------------------------------------
SUBSET_WORDS = frozenset(
    stem(word)
    for word in "top outstanding best selected featured shortlisted honorable honourable highlighted notable "
    "exemplary distinguished".split()
)
"""Words by which a list's heading says it holds a chosen part of the things ("Outstanding Reviewers (Top
10%)"): general English, as the words of an award or a ranking."""
SHARE = re.compile(r"\d\s*%")


def narrower_set(question: str, label: str) -> str | None:
    """The word by which a list's heading narrows the things to a part the question does not ask for ("How many
    reviewers …?" counted over "Outstanding Reviewers (Top 10%)"), or None when the list is the asked set."""
    asked = set(words(question))
    narrowed = [raw for raw in WORD.findall(label.lower()) if stem(raw) in SUBSET_WORDS and stem(raw) not in asked]
    if narrowed:
        return narrowed[0]
    share = SHARE.search(label)
    return share.group(0) if share and not SHARE.search(question) else None


# -- one kind of event for another -----------------------------------------------------------------------
EVENT_GROUPS = tuple(
    frozenset(stem(word)[:PREFIX] for word in group.split())
    for group in (
        "talk talks keynote keynotes presentation presentations lecture lectures speaker speakers",
        "session sessions",
        "panel panels panelist panelists",
        "workshop workshops",
        "tutorial tutorials",
        "poster posters",
        "demo demos demonstration demonstrations",
    )
)
"""Kinds of event a programme keeps apart: a panel is not a session, a tutorial not a workshop (general
conference vocabulary)."""


def other_event_kind(question: str, texts: Iterable[str]) -> str | None:
    """The kind of event the question names (as written) when the answer's paths name none of it but name another
    kind ("Who chairs the panel on marine policy?" answered under "Session B: Marine mammals"), else None."""
    asked = {word[:PREFIX] for word in words(question)}
    said: set[str] = set()
    for text in texts:
        said |= path_prefixes(text)
    named = [group for group in EVENT_GROUPS if group & asked]
    if len(named) != 1 or SEVERAL_THINGS.search(question):
        return None
    group = named[0]
    if group & said or not any(other & said for other in EVENT_GROUPS if other is not group):
        return None
    return written(question, sorted(group & asked)[0])
