"""The checks an answer passes after its operator: is it of the asked kind, from the branch
the question names, in the form asked?

Operators read the best path; these checks refuse what a person would call a wrong answer (a date for a
"where", a role label for a "who", the early price for "after the early deadline", no address for "what's the
email") and read the right value instead, or give the plain sentence. ``answer_paths`` lists what an answer
rests on, for the confidence check in ``answer``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from scholar_tui.core.answer_kind import Kind, fits
from scholar_tui.core.conference import (
    asked_collections,
    asking,
    checks,
    coverage,
    kinds,
    records,
    support,
    titles_and_people,
)
from scholar_tui.core.conference.computed import MAX_LIST_ITEMS, Computed, join_values, leaf_of
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kinds import PREFIX
from scholar_tui.core.conference.lexical import STOPWORDS, expanded_query, stem, words
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.plain_sentence import abstain, found_answer, not_held, question_topic
from scholar_tui.core.conference.span_answers import best_sentences
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import EMAIL, URL, find_amounts, find_dates

CHECKED = (Kind.PLACE, Kind.DATE, Kind.MONEY, Kind.PEOPLE, Kind.COUNT)


DATED_STATEMENT_WORDS = 50
"""The longest text a "when" takes whole: a sentence or two that states its date; beyond it the date found is
as likely another event's."""


def of_kind(kind: Kind, text: str) -> bool:
    """Whether an answer's text is of the asked kind (a "where" is not a date, a "when" holds one)."""
    if kind is Kind.DATE:  # a paragraph holding some date ("(revised 21 April 2021)") does not say when
        return (bool(find_dates(text)) and len(text.split()) <= DATED_STATEMENT_WORDS) or fits(Kind.DATE, text)
    if kind is Kind.MONEY:
        return bool(find_amounts(text)) or fits(Kind.MONEY, text)
    if kind is Kind.COUNT:
        return bool(re.match(r"\s*(\d[\d,]*|" + "|".join(kinds.NUMBER_WORDS) + r")\b", text, re.IGNORECASE))
    if kind is Kind.PLACE:
        return fits(Kind.PLACE, text) and not kinds.only_dates(text)
    if kind is Kind.PEOPLE:  # "Panel Chairs" names a role, not who holds it; a sentence names nobody
        names = text.split()
        capitalised = sum(word[:1].isupper() for word in names)
        return (
            fits(kind, text)
            and not set(words(text)) & (kinds.LABEL_WORDS[Kind.PEOPLE] | GROUP_WORDS)
            and capitalised * 2 >= len(names)
        )
    if kind is Kind.PAPER:  # a title, not a paragraph that mentions papers ("… one of the best paper awards …")
        return (
            fits(kind, text)
            and len(text.split()) <= PAPER_TITLE_WORDS
            and not text.rstrip().endswith(".")
            and not kinds.only_dates(text)  # "Apr 24 '23 (Anywhere on Earth)" is a deadline, not a title
        )
    return fits(kind, text)


PAPER_TITLE_WORDS = 30


GROUP_WORDS = frozenset(stem(word) for word in "committee board team council office department track".split())
"""Nouns that name a body of people, not its members: "Oversight Committee NeurIPS/ICLR/ICML Journal to Conference
Track" answers no "who"."""


def answer_nodes(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> list[Node]:
    """The tree nodes an answer was read from: its cited leaves and the nodes read beyond them."""
    cited = [node for item in evidence if item.rank in answer.cited and (node := leaf_of(tree, item)) is not None]
    return [*cited, *answer.read]


def like_answer(question: str, kind: Kind, text: str, tree: Tree) -> Callable[[Node], bool]:
    """Whether a node holds a value like ``text``, an answer of ``kind`` to ``question``: of the kind (a date of the
    event asked, not of the other one: a deadline's for "when will I hear back"), or for free text of the same
    form (an e-mail address, a link, words that are neither)."""
    if kind is Kind.DATE:
        return lambda node: (
            kinds.holds_kind(kind, node, tree) and not support.other_event(question, [node_path_text(tree, node)])
        )
    if kind in (Kind.PLACE, Kind.MONEY, Kind.PEOPLE):
        return lambda node: kinds.holds_kind(kind, node, tree)
    form = next((pattern for pattern in (EMAIL, URL) if pattern.search(text)), None)
    if form is not None:
        return lambda node: bool(form.search(node.text or ""))
    return lambda node: bool(node.text) and not URL.search(node.text or "") and not EMAIL.search(node.text or "")


ASKS_ADDRESS = re.compile(r"\be-?mail\b", re.IGNORECASE)
"""A question that writes "e-mail" asks for an address ("What is the email for the doctoral consortium?")."""


def of_asked_form(
    question: str, kind: Kind, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed:
    """An e-mail address asked is answered by one: the best ranked evidence whose value holds an address and whose
    path holds what the question is about, else the plain sentence; never a time or a sentence without one."""
    if kind is not Kind.TEXT or answer.operation == "yes_no" or not ASKS_ADDRESS.search(question):
        return answer
    if EMAIL.search(answer.text):
        return answer
    for item in evidence:
        found = EMAIL.search(item.value)
        if found and support.supported(question, tree, kind, [f"{item.path}"]):
            return Computed(found.group(0), "value", [item.rank])
    return abstain(tree, "e-mail address", question_topic(question, tree))


def of_asked_time(
    question: str, kind: Kind, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed:
    """A time of day asked ("What time does the reception start?") is answered by a value that writes one: the
    answer when it does, else the best ranked evidence that writes one and holds what the question is about, else
    the plain sentence; never a heading or a date alone ("Submission Deadline for Challenge Proposals")."""
    if not asking.asks_clock_time(question) or answer.operation == "yes_no" or asking.says_clock_time(answer.text):
        return answer
    for item in evidence:
        if asking.says_clock_time(item.value) and support.supported(question, tree, kind, [item.path]):
            return Computed(best_sentences(question, item.value), "value", [item.rank])
    return abstain(tree, "time of day", question_topic(question, tree))


ASKS_NUMBER = re.compile(r"\b(?:what|which)\b[^?]*?\bnumbers?\b", re.IGNORECASE)
"""A number asked for by name: "What LNCS volume number are the proceedings?", "what's the room number of …"."""


def of_asked_number(question: str, answer: Computed, tree: Tree) -> Computed:
    """A number asked by name is answered by a value that writes one (digits or a number word), else the plain
    sentence: a heading that names the thing numbered ("Information for authors … LNCS proceedings") is no
    volume number."""
    if answer.operation in ("yes_no", "abstain") or not ASKS_NUMBER.search(question):
        return answer
    if re.search(r"\d", answer.text) or set(words(answer.text)) & set(kinds.NUMBER_WORDS):
        return answer
    return abstain(tree, "number", question_topic(question, tree))


def value_nodes(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> list[Node]:
    """The nodes an answer's value was read from first (a record's field beyond the cited path), then its cited
    leaves."""
    return [*answer.read, *(node for node in answer_nodes(answer, evidence, tree) if node not in answer.read)]


def of_asked_role(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """A person read under another role than the one asked ("Moderator" for "Who sits on the panel?") gives way
    to the people of the sibling heading the question names ("Panelists"), else to the plain sentence."""
    for node in value_nodes(answer, evidence, tree)[:1]:
        sibling, other = coverage.other_role(question, tree, node)
        if not other:
            return answer
        if sibling is None:
            return not_held(Kind.PEOPLE, question, tree)
        records = [child for child in tree.children(sibling) if child.text or not child.is_leaf]
        names = [asked_collections.item_text(Kind.PEOPLE, record, tree) for record in records[:MAX_LIST_ITEMS]]
        return Computed(join_values(names), "list", answer.cited, [sibling])
    return answer


SINGLE_VALUE_OPERATIONS = ("span", "value")


GENERIC_STEMS = frozenset(stem(word) for word in kinds.GENERIC) | kinds.GENERIC


def checked(question: str, kind: Kind, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The general checks of ``checks`` on an answer: a superlative the evidence states, an answer that is
    more than the question's own words, a value from the branch the question names (else the plain sentence)."""
    cited = [item for item in evidence if item.rank in answer.cited]
    texts = [f"{item.path} {item.value}" for item in cited] + [node_path_text(tree, node) for node in answer.read]
    superlative = checks.unstated_superlative(question, texts)
    if superlative is not None:  # "Which hotel is closest?" over a page that compares nothing
        return abstain(tree, f"statement of what is {superlative}")
    if answer.operation in SINGLE_VALUE_OPERATIONS and checks.echoes_question(question, answer.text):
        return not_held(kind, question, tree)  # "Who sponsors X?" → "X Sponsor" says nobody
    if (
        kind is Kind.PEOPLE
        and answer.operation in SINGLE_VALUE_OPERATIONS
        and set(words(answer.text)) & set(words(question)) - GENERIC_STEMS
        and not titles_and_people.PERSON_IN.search(answer.text)
    ):
        return not_held(kind, question, tree)  # "Who publishes the proceedings?" → "Proceedings & Metadata": the
        # thing acted on named again and nobody named (a label, "Technical Help: Brad Brockmeyer", names someone)
    if kind in (Kind.TEXT, Kind.PAPER) and answer.operation in SINGLE_VALUE_OPERATIONS:
        listed = _list_of_the_named(question, answer, evidence, tree)
        if listed is not None:  # "what's Anne Toulet presenting?" → her co-authors: the paper they are listed on
            return listed
    if answer.operation in SINGLE_VALUE_OPERATIONS and _names_only_the_topic_asked(question, answer.text):
        return not_held(kind, question, tree)  # "What's X's talk about?" → "Invited Talk 1: X": no topic said
    if (
        kind is Kind.PAPER
        and answer.operation in SINGLE_VALUE_OPERATIONS
        and _unasked_field_of_named(question, answer, evidence, tree)
    ):
        return not_held(kind, question, tree)  # "What paper is X presenting?" → X's affiliation in a PC list
    if answer.operation == "list" and kind is Kind.PEOPLE:  # a section's fields listed: its role label holds no role
        items = [item for item in re.split(r", | and ", answer.text) if item]
        kept = [item for item in items if not checks.echoes_question(question, item)]
        if len(kept) < len(items):
            if not kept or (kind is Kind.PEOPLE and sum(of_kind(Kind.PEOPLE, item) for item in kept) * 2 < len(kept)):
                return not_held(kind, question, tree)
            answer.text = join_values(kept)
    if answer.operation in SINGLE_VALUE_OPERATIONS and kind in CHECKED:
        nodes = [node for item in cited if (node := leaf_of(tree, item)) is not None] + list(answer.read)
        for node in nodes[:1]:
            # "workshop proposals due" answered under "Tutorials" beside "Workshops"; "after the early deadline"
            # answered with the early price: the value of the other branch, which the cited path named
            for other, wrong_branch in (
                checks.named_sibling(question, tree, kind, node),
                checks.after_early(question, tree, kind, node),
            ):
                if wrong_branch:
                    return _from_other_branch(other, question, kind, cited, evidence, tree)
    return answer


ASKS_TOPIC = re.compile(r"^\s*what(?!\s+about\b)\b[^?]*\babout\b", re.IGNORECASE)
""""What's Samy Bengio's talk about?", "what is the EMAI poster about?": what a thing treats, its topic ("What about
the fee?" asks something else)."""

TOPIC_NEW_WORDS = 2
"""A topic is said in words of its own: an answer adding fewer than this many content words to the question's (a
number and "Invited" in "Invited Talk 1: Samy Bengio") only names the thing asked about again."""


def _names_only_the_topic_asked(question: str, text: str) -> bool:
    """Whether ``text`` answers a question asking what a thing is about with little more than the thing's own name:
    the title of a slot ("Invited Talk 1: Samy Bengio") says who talks, not on what."""
    if not ASKS_TOPIC.search(question):
        return False
    asked = {word[:PREFIX] for word in words(question)}
    new = {word[:PREFIX] for word in words(text) if not word.isdigit() and word not in STOPWORDS} - asked
    return len(new) < TOPIC_NEW_WORDS


def _list_of_the_named(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """For a "what" answered by the list that holds the entry the question names (the authors a person is listed
    among, for "what's Anne Toulet presenting?"), the record that list belongs to, by its name ("ISSA: Generic
    Pipeline …"): what is asked of someone listed is the thing they are listed on, not the others listed with them.
    The plain sentence when the list belongs to no record; None when the answer is not such a list."""
    for item in evidence:
        leaf = leaf_of(tree, item)
        if item.rank not in answer.cited or leaf is None or not leaf.text:
            continue
        listing = tree.parent(leaf)
        if (
            listing is None
            or not records.names_the_value(question, leaf.text)
            or leaf.text not in answer.text
            or answer.text.strip() == leaf.text.strip()
            or len([child for child in tree.children(listing) if child.is_leaf and child.text]) < 2
        ):
            continue
        record = next((node for node in reversed(tree.ancestors(listing)) if node.kind == "item"), None)
        record = listing if listing.kind == "item" else record
        if record is None or records.names_the_value(question, record.label):
            return not_held(Kind.TEXT, question, tree)
        return Computed(record.label, "span", answer.cited, [record])
    return None


def _unasked_field_of_named(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> bool:
    """Whether the answer is a field of the record the question names (a person's "name: Jane Roe") that no word of
    the question asks for: that record's other field is an attribute of what is named (her affiliation), not a
    title, which a record holding the person among its authors would give."""
    asked = expanded_query(question)
    for node in answer_nodes(answer, evidence, tree):
        if node.text != answer.text or records.label_fit(asked, node.label) > 0:
            continue
        record = tree.parent(node)
        if record is not None and record.kind == "item":
            siblings = [field for field in tree.children(record) if field.id != node.id and field.text]
            if any(records.names_the_value(question, field.text or "") for field in siblings):
                return True
    return False


def _from_other_branch(
    node: Node | None,
    question: str,
    kind: Kind,
    cited: Sequence[EvidencePath],
    evidence: Sequence[EvidencePath],
    tree: Tree,
) -> Computed:
    """The value read from the branch the question names in place of the cited one (else the plain sentence);
    it stands when the cited paths held what the question is about."""
    if node is None or (kind in CHECKED and not of_kind(kind, node.text or "")):
        return not_held(kind, question, tree)  # (a menu's "Authors" page beside "Dates" holds no date)
    rank = next((item.rank for item in evidence if item.node_id == node.id), None)
    switched = found_answer(kinds.Found(node, node.text or "", rank))
    switched.branch_checked = support.supported(question, tree, kind, [item.path for item in cited])
    return switched


def answer_paths(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> list[str]:
    """The paths an answer rests on: the evidence it cites and the tree nodes it was read from, with the
    other fields of a record it was read from (a prize winner's title is supported by its category)."""
    nodes = [leaf_of(tree, item) for item in evidence if item.rank in answer.cited] + list(answer.read)
    paths = [item.path for item in evidence if item.rank in answer.cited]
    paths += [node_path_text(tree, node) for node in answer.read]
    for node in nodes:
        record = node if node is not None and node.kind == "item" else (tree.parent(node) if node is not None else None)
        if record is not None and record.kind == "item":
            paths += [
                f"{child.label} {child.text}"
                for child in tree.children(record)
                if child.is_leaf and child.text and len(child.text.split()) <= asked_collections.CATEGORY_MAX_WORDS
            ]  # a record's short fields (its category, its role), not a page's paragraphs
    return paths
