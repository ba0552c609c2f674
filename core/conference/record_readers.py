"""Values read from a record's field or a labelled node rather than from the best path's text.

A FAQ's answer field, a measure ("15 pages"), a place in a person's record, the holder of a role under the
heading so labelled, a title or a prize's winner, a link for "where can I find …": each reader returns None
when its case does not apply, so ``answer`` tries them before the general operators.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference import (
    affiliations,
    asked_collections,
    asking,
    kinds,
    site_topics,
    support,
    titles_and_people,
    value_answers,
)
from scholar_tui.core.conference.affiliations import PERSON_RECORD_FIELDS, ROLE_WORDS
from scholar_tui.core.conference.computed import MAX_LIST_ITEMS, Computed, join_values, leaf_of
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import expanded_query, stem, words
from scholar_tui.core.conference.plain_sentence import abstain, found_answer, question_topic
from scholar_tui.core.conference.records import label_fit, names_the_value
from scholar_tui.core.conference.span_answers import best_sentences, record_field
from scholar_tui.core.conference.tree import TITLE_FIELDS, Tree
from scholar_tui.core.conference.values import EMAIL, URL

FAQ_QUESTION_LABELS = frozenset({"q", "question"})


FAQ_ANSWER_LABELS = frozenset({"a", "answer"})


def faq_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """When the best path is a FAQ's question ("Which journal(s) are eligible?") and no value of the asked kind was
    found, the FAQ's own answer field ("Only JMLR. …"), its sentence closest to the question; it is then checked
    like any answer (the cited question must hold what is asked). None when the top path is no FAQ question."""
    leaf = leaf_of(tree, evidence[0])
    record = tree.parent(leaf) if leaf is not None else None
    if leaf is None or record is None or leaf.label.strip().lower() not in FAQ_QUESTION_LABELS:
        return None
    answer = next(
        (
            child
            for child in tree.children(record)
            if child.is_leaf and child.text and child.label.strip().lower() in FAQ_ANSWER_LABELS
        ),
        None,
    )
    if answer is None:
        return None
    return Computed(best_sentences(question, answer.text or ""), "span", [evidence[0].rank], [answer])


def value_asked(form: str, question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The value itself when the question asks a measure ("what's the page limit?" → "15 pages", the plain
    sentence when no sentence states one) or the entries of a list that have a property ("which workshops run
    for a full day?" → their titles); None when it asks neither."""
    if form in ("span", "count") and value_answers.asked_units(question):
        stated = value_answers.measure_value(question, evidence, tree)
        if stated is None:
            units = value_answers.asked_units(question)
            return abstain(tree, f"number of {units[0]}", question_topic(question, tree))
        text = stated.measure.bound(value_answers.asked_bound(question))
        return Computed(text, "value", [stated.item.rank], said=value_answers.measure_words(stated.measure.unit))
    if form == "span" and value_answers.asks_named(question):
        named = value_answers.named_things(question, evidence, tree)
        if named is not None:  # else the span operators, which may read a record's field ("sponsor: …")
            return Computed(named[0], "value", [named[1].rank])
    if form in ("span", "list"):
        filtered = value_answers.filtered_entries(question, tree)
        if filtered is not None:  # each entry by its title, cited by the field that holds the property
            texts = [asked_collections.item_text(Kind.TEXT, record, tree) for record, _ in filtered[:MAX_LIST_ITEMS]]
            return Computed(join_values(texts), "list", [], [field for _, field in filtered[:MAX_LIST_ITEMS]])
    return None


def place_of_named(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The place field of the first record, in rank order, that names the thing the question names and holds a
    place there: a board's "affiliation: Elected 2019 & 2018 Program Chair" names a role, not where Andreas
    Krause works, and his committee record's "affiliation: ETH Zurich" does."""
    for start in range(len(evidence)):
        if not _names_its_record(evidence[start], tree):
            continue  # "affiliation: metaphacts" is Peter Haase's record: where he is, not where metaphacts is
        # the field a place or an affiliation is labelled by, else the fullest; and when that is no place (a
        # photo's link beside "institution: Siemens"), the field of the small record the question asks for
        for named in (
            record_field(question, evidence[start:], tree, PLACE_FIELDS),
            _small_record_field(question, evidence[start], tree),
        ):
            place = _as_place(question, named)
            if place is not None:
                return place
    return _based_in(evidence, tree)


CAPITALISED = r"[A-Z][\w’'.]+(?:[ -][A-Z][\w’'.]+)*"
BASED = re.compile(rf"\b({CAPITALISED})-based\b|\b(?:based|located|headquartered) in (?:the )?({CAPITALISED})")
"""How English says where an organisation is in its own description: "a Walldorf-based company", "based in
Hangzhou", "headquartered in Nanjing"."""


def _as_place(question: str, named: Computed | None) -> Computed | None:
    """A record's field read as where the thing is, or None when it is no place: a link or an address to write
    to, a role held ("Program Chair"), a time slot for a "where", a description too long to be a place."""
    if named is None or URL.search(named.text) or EMAIL.search(named.text):
        return None
    based = BASED.search(named.text)
    if based is not None:  # "Globex is a Tromso-based firm …": the place it names
        return Computed(based.group(1) or based.group(2), named.operation, named.cited, named.read)
    # neither a "where" nor an organisation asked ("which unis are they from?") is answered by a time slot
    where = WHERE.search(question) is not None or affiliations.asks_affiliation(question)
    dated = where and (kinds.only_dates(named.text) or asking.says_clock_time(named.text))
    if _names_role(named.text) or dated or len(named.text.split()) > PLACE_MAX_WORDS:
        return None
    return named


def _based_in(evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The place a named record's own description says it is based in, when no field holds it."""
    for item in evidence:
        leaf = leaf_of(tree, item)
        record = tree.parent(leaf) if leaf is not None else None
        if leaf is None or record is None or not _names_its_record(item, tree):
            continue
        for field in tree.children(record):
            found = BASED.search(field.text or "") if field.is_leaf else None
            if found is not None:
                return Computed(found.group(1) or found.group(2), "span", [item.rank], [field])
    return None


def _names_its_record(item: EvidencePath, tree: Tree) -> bool:
    """Whether the path is its record's name (its title field, or the text the record is labelled by): the
    record is then the named thing's own ("name: Jane Doe"), whose place field says where that thing is."""
    leaf = leaf_of(tree, item)
    record = tree.parent(leaf) if leaf is not None else None
    if leaf is None or record is None:
        return False
    return leaf.label.strip().lower() in TITLE_FIELDS or (leaf.text or "").strip() == record.label.strip()


WHERE = re.compile(r"\bwhere\b", re.IGNORECASE)
PLACE_MAX_WORDS = 20
"""A place is named in a few words, an address at most a line ("Hawaii Convention Center, 1801 Kalakaua Ave,
Honolulu"); a record's longer field is its description (a workshop's abstract), never where it is."""


PERSON_PLACE = PERSON_RECORD_FIELDS
"""How a person's record says where they are: "where is the general chair from?" is asked of "General Chair »
affiliation"."""
PLACE_FIELDS = kinds.LABEL_WORDS[Kind.PLACE] | frozenset(stem(word) for word in PERSON_PLACE)
"""The labels of a named record's field that say where it is: a venue's "location", a person's "institution"
(a speaker's record holds a photo and a link beside it, neither of which is where they are)."""
SMALL_RECORD = 4
"""A heading over this few fields, all values ("General Chair » name, affiliation"), is one person's record."""


def _small_record_field(question: str, item: EvidencePath, tree: Tree) -> Computed | None:
    """The field the question asks for ("affiliation") beside the value it names ("name: Andreas Krause") under a
    heading that is one small record, not a list of them."""
    leaf = leaf_of(tree, item)
    parent = tree.parent(leaf) if leaf is not None else None
    if leaf is None or parent is None or not leaf.text:
        return None
    if not names_the_value(question, leaf.text) and not _names_heading(question, parent.label):
        return None  # neither the person ("Andreas Krause") nor the record's heading ("the general chair") is asked
    fields = tree.children(parent)
    if len(fields) > SMALL_RECORD or any(not field.is_leaf for field in fields):
        return None
    asked = expanded_query(question)
    if WHERE.search(question):  # where a person is: the organisation they are with
        asked = {**asked, **{word: 0.5 for word in PERSON_PLACE if word not in asked}}
    fitting = [field for field in fields if field.id != leaf.id and field.text and label_fit(asked, field.label) > 0]
    best = max(fitting, key=lambda field: label_fit(asked, field.label), default=None)
    return None if best is None else Computed(best.text or "", "span", [item.rank], [best])


def _names_heading(question: str, label: str) -> bool:
    """Whether the question names a record by its whole heading ("where is the general chair from?" of "General
    Chair » name, affiliation"): a one-person record is asked about by the role it is headed with. A heading of
    one word ("Keynote", "Chair") names a kind of record more often than one record, and is not enough."""
    heading = set(words(label))
    return len(heading) >= 2 and heading <= set(words(question))


def _names_role(text: str) -> bool:
    """Whether a text names a role ("Program Chair", "President"): a role is held, not a place one is at."""
    return bool(set(words(text)) & ROLE_WORDS)


def without_identity(question: str, tree: Tree) -> str:
    """The question less the words that name the conference itself (``support.identity``): on a workshop's site,
    "Where is the workshop held?" names nothing but the event, and the "Workshop dinner" is not it."""
    own = support.identity(tree)
    kept = [
        raw for raw in question.split() if not (words(raw) and {word[: kinds.PREFIX] for word in words(raw)} <= own)
    ]
    return " ".join(kept)


ONE_PERSON = re.compile(r"^\s*who\s+(?:is|was)\s+the\b", re.IGNORECASE)
""""Who is the general chair?" asks for the one person a heading names by that role."""


def role_labelled(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The person in the node the site labels with the role asked ("Organizing Committee » General Chair »
    name: …" for "Who is the general chair?"), preferring the evidence's."""
    node = support.labelled(Kind.PEOPLE, question, tree, [item.node_id for item in evidence])
    if node is None:
        return None
    rank = next((item.rank for item in evidence if item.node_id == node.id), None)
    return found_answer(kinds.Found(node, node.text or "", rank))


def from_labelled(
    kind: Kind, question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed:
    """A date or an amount read from a node not named by what the question asks about ("What day are the
    tutorials?" answered from the tutorial *proposals'* paragraph) gives way to the node so labelled."""
    nodes = [leaf_of(tree, item) for item in evidence if item.rank in answer.cited] + list(answer.read)
    if any(node is not None and support.names_subject(question, tree, kind, node) for node in nodes):
        return answer
    node = support.labelled(kind, question, tree, [item.node_id for item in evidence])
    if node is None:
        return answer
    rank = next((item.rank for item in evidence if item.node_id == node.id), None)
    return found_answer(kinds.Found(node, node.text or "", rank))


def named_value(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A title ("What is the title of X?") or a prize's winner ("Who won the best paper award?"): read
    from the node labelled so or the record the question names, else the abstain sentence — never a
    description that mentions the thing, a role, or another prize's winner."""
    if titles_and_people.asks_title(question):
        found = titles_and_people.titled(question, evidence, tree)
        thing = titles_and_people.title_thing(question) or question  # asks_title matched it: the fallback is never used
        return found_answer(found) if found else abstain(tree, "title", question_topic(thing, tree))
    if titles_and_people.asked_prize(question):
        winner = titles_and_people.award_winner(question, evidence, tree)
        return found_answer(winner) if winner else abstain(tree, "winner", question_topic(question, tree))
    return None


POINTER_WORDS = 30
"""A pointer said in a sentence short enough to read is answered with the sentence, else the link alone."""


def link_pointer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """ "Where can I find the proceedings?": the best ranked link whose path names the thing asked."""
    for item in evidence:
        found = URL.search(item.value)
        if found and site_topics.names_topic(question, tree, item.path):
            text = item.value if len(item.value.split()) <= POINTER_WORDS else found.group(0)
            return Computed(text, "value", [item.rank])
    node = support.labelled(Kind.TEXT, question, tree, [item.node_id for item in evidence], holds=URL.search)
    if node is not None:  # a link the site labels with the thing ("Register url"), beyond the evidence
        found = URL.search(node.text or "")
        return found_answer(kinds.Found(node, found.group(0) if found else node.text or "", None))
    return None
