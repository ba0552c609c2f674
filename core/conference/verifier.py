"""The last line of defence: every computed answer is checked against its cited evidence before it is shown.

The operators (``answer``) find a value; this module asks, of the value and the nodes it rests on, whether they
show that it answers THIS question, and refuses (the plain sentence) when they do not. Each check is argued from
how people ask or how sites are built, never from one site's labels:

* a verdict (yes/no) needs a sentence that decides it: a bare link decides nothing, a record field the question
  does not ask about (a panelist's institution for "did X win the award") decides nothing, and a record that is
  another person's decides nothing about the person asked;
* a polite request ("can you list …", "could you tell me who …") asks for the things, not whether one can;
* a value that names another event ("NeurIPS 2022: September 8th") answers for that event, not for this one;
* where someone studied is told by a sentence about studying, not by their current affiliation;
* what a talk is "about" is told by a title or a sentence, not by a category repeated over many records
  ("Plenary Speaker", "Poster");
* an answer that only repeats the question's own words tells nothing;
* a count is of the items of a list, not of the fields of one record (a date entry's type, date and deadline);
* one person read from a heading that holds several, with nothing in the question picking that one, is part of
  the answer given as all of it;
* two parts of a joined question asking different things are not answered by the same value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference.checks import existence_thing
from scholar_tui.core.conference.computed import Computed, join_values, leaf_of
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.kind_checks import ASKS_TOPIC, of_kind
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.plain_sentence import abstain, question_topic
from scholar_tui.core.conference.question_shape import conference_kind, question_form
from scholar_tui.core.conference.tree import Node, Tree
from scholar_tui.core.conference.values import URL, find_dates

HAS_THING = re.compile(r"^\s*(?:does|do|did)\s+.+?\s+have\s+(?:an?|any|their|his|her)\b", re.IGNORECASE)
""""Does Aidan Hogan have a homepage?" asks whether a thing exists, as "is there …" does."""

REQUEST = re.compile(
    r"^\s*(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?(?:list|name|enumerate|show|give|tell|share)\b"
    r"(?!\s+(?:me\s+)?(?:if|whether)\b)",
    re.IGNORECASE,
)
""""Can you list the chairs?" asks for the chairs; "can you tell me whether …" still asks yes or no."""

EDITION = re.compile(r"\b([A-Z][A-Za-z]*[A-Z][A-Za-z]*)\s?'?((?:19|20)\d\d)\b")
"""An event named with its year as people and sites write it: "NeurIPS 2022", "ICML 2023", "ISWC2022"."""

STUDY = re.compile(
    r"\b(?:ph\.?\s?d|doctorate|doctoral degree|degree|graduat\w*|stud(?:y|ied|ies)|alma mater|master'?s|"
    r"bachelor'?s|diploma|obtained|educat\w*)\b",
    re.IGNORECASE,
)
"""Words a sentence about someone's education uses: the question asks where they studied when it uses one of
them with "where"/"which university"."""

ASKS_PLACE_OF_STUDY = re.compile(r"\b(?:where|which (?:university|school|college|institution))\b", re.IGNORECASE)

CATEGORY_REPEATS = 3
"""A value written as the text of this many nodes is a category the site sorts records by ("Poster",
"Plenary Speaker"), not what one of them is about."""

RECORD_LINE = re.compile(r"^\s*([^:]{1,40}):\s*(\S+(?:\s+\S+){0,7})\s*\.?\s*$")
"""A record's field written "label: value" (a short value, not a sentence after a colon): its label says which
role or property the value holds."""

ASKED_PREFIX = 3
"""A word of the question and a word of a label agree when one begins the other ("win" / "winners")."""

PARENTHESIS = re.compile(r"\([^)]*\)")

LABEL_DECIDES_WORDS = 2
"""Headings that share two of the question's words name its subject and what is asked of it."""

PERSON_NAME = re.compile(r"\b([A-Z][a-zà-ÿ'’-]+(?:\s+[A-Z][a-zà-ÿ'’-]+)+)\b")


def asked_directly(question: str) -> str:
    """A polite request said as what it asks ("can you list the chairs?" → "list the chairs?"): it asks for the
    things, which the request's "can you" would otherwise make a yes/no question of."""
    request = REQUEST.search(question)
    if request is None:
        return question
    rest = question[request.end() :].lstrip()
    verb = request.group(0).split()[-1].lower()
    rest = re.sub(r"^me\s+", "", rest, flags=re.IGNORECASE) if verb in ("tell", "show", "give", "share") else rest
    asked = rest if verb in ("tell", "show", "give", "share") else f"{verb} {rest}"
    return asked[:1].upper() + asked[1:]


def verified(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """``answer`` when its evidence shows it answers ``question``, else the plain sentence of what is missing."""
    if answer.operation == "abstain":
        return answer
    checks = (
        _request_as_verdict,
        _undecided_verdict,
        _other_event,
        _affiliation_as_study,
        _category_as_topic,
        _paragraph_as_list,
        _one_of_several,
        _echo,
        _calendar_count,
        _paragraphs_counted,
        _other_named_thing,
    )
    for check in checks:
        refused = check(question, answer, evidence, tree)
        if refused is not None:
            return refused
    return answer


def verified_parts(
    questions: Sequence[str], answers: Sequence[Computed], evidence: Sequence[EvidencePath], tree: Tree
) -> list[Computed]:
    """Each part's answer, the later of two parts that got the same value from the same node refused: two questions
    asking different things ("how many reviewers and meta-reviewers") are not answered by one value read twice.
    Two counts read from their own nodes may well be equal (two chairs each); two parts' names or places may not."""
    seen: list[tuple[frozenset[str], set[int]]] = []
    kept = []
    for question, answer in zip(questions, answers, strict=True):
        key = _value_key(question, answer)
        nodes = {node.id for node in _read_nodes(answer, evidence, tree)}
        numeric = all(value.isdigit() for value in key)  # two counts may be equal; two parts' names may not
        if key and any(
            key == other and (not numeric or nodes & other_nodes or not nodes) for other, other_nodes in seen
        ):
            kept.append(abstain(tree, "separate answer", question_topic(question, tree)))
            continue
        seen.append((key, nodes))
        kept.append(answer)
    return kept


def _value_key(question: str, answer: Computed) -> frozenset[str]:
    """The answer's values without the words the question gives back ("281 senior meta-reviewers" → {"281"})."""
    if answer.operation == "abstain":
        return frozenset()
    asked = set(words(question))
    items = re.split(r",\s*|\s+and\s+|;\s*", answer.asked_value.rstrip("."))
    said = (dict.fromkeys([*re.findall(r"\b\d+\b", item), *words(item)]) for item in items)  # "2" kept
    return frozenset(" ".join(word for word in item if word not in asked) for item in said) - {""}


def _request_as_verdict(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    if answer.operation == "yes_no" and REQUEST.search(question):
        return abstain(tree, "list", question_topic(question, tree))
    return None


def _undecided_verdict(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """A yes or no rests on a sentence saying the asked thing of the asked subject."""
    if answer.operation != "yes_no":
        return None
    support = (answer.support or answer.text).strip()
    refused = abstain(tree, f"statement on {question_topic(question, tree) or 'it'}")
    existence = bool(existence_thing(question)) or bool(HAS_THING.match(question))
    if not existence and (URL.fullmatch(support) or (URL.search(support) and len(support.split()) <= 1)):
        return refused  # a link says neither yes nor no (but that a "time zone converter" or a homepage exists)
    if support.rstrip().endswith("?"):
        return refused  # the question asked again (an FAQ's question whose answer is elsewhere) states nothing
    cited = [item for item in evidence if item.rank in answer.cited]
    named = [name for name in PERSON_NAME.findall(question) if _is_person_in(name, tree)]
    if named and cited and not any(name.lower() in item.path.lower() for item in cited for name in named[:1]):
        return refused  # "Is Cory Henson at Siemens like …": the verdict came from another person's record
    label = None if URL.search(support) else RECORD_LINE.match(support)  # "https:" is no label
    if label and _asked_in(words(label.group(1)), question) and _unasked(words(label.group(1)), question):
        return refused  # "President Elect: Kilian Weinberger": the asked role with a word more is another role
    if label and not _asked_in(words(label.group(1)), question) and not _names_entry(label.group(2), question):
        return refused  # "essay: An ML approach …" for "is the TAG-ML workshop on sunday?": another entry
    subject = {word for name in named for word in words(name)}
    if existence:  # "are there members from X?": the operator found a path naming the thing; an instance is the yes
        return None
    if not _asked_in(words(support), question, subject) and not _label_decides(question, named, cited):
        return refused  # "University of Oxford, UK" for "did X win the award": the field asked is not this one
    return None


ENTRY_SHARE = 0.5
"""A record's value names the thing asked when at least half its words are the question's."""


def _names_entry(value: str, question: str) -> bool:
    said = set(words(value))
    return bool(said) and len(_asked_in(list(said), question)) / len(said) >= ENTRY_SHARE


def _unasked(label_words: Sequence[str], question: str) -> bool:
    """Whether a label has a word the question does not ask ("elect" of "President Elect" for "the president")."""
    asked = [word for word in words(question) if len(word) >= ASKED_PREFIX]
    return any(not any(word.startswith(other) or other.startswith(word) for other in asked) for word in label_words)


def _label_decides(question: str, named: Sequence[str], cited: Sequence[EvidencePath]) -> bool:
    """Whether a cited path's headings say what the question asks of its subject (a name under "Outstanding
    Reviewers" for "Is X one of the outstanding reviewers?"). Of a named person, the heading saying most of it must
    add no word the question does not ask ("Best SPC Reviewer" is another award than "the best reviewer award")."""
    subject = {word for name in named for word in words(name)}
    for item in cited:
        site = _site_words(item.path.split("»")[0], question)
        # the site's own name heads every path ("ICML2023"): it says nothing of what is asked
        headings = [PARENTHESIS.sub("", heading) for heading in item.path.split("»")[1:]]
        shares = [(len(_asked_in(words(heading), question, subject | site)), heading) for heading in headings]
        saying = [(count, heading) for count, heading in shares if count and not set(words(heading)) & subject]
        if sum(count for count, _ in saying) < LABEL_DECIDES_WORDS:
            continue
        best = max(saying, key=lambda pair: pair[0])[1]
        if not named or not _unasked([word for word in words(best) if not word.isdigit()], question):
            return True
    return False


def _site_words(root: str, question: str) -> set[str]:
    """The question's words that name the site itself ("icml" of "ICML2023")."""
    named = words(root)
    return {
        word for word in words(question) if any(label.startswith(word) for label in named) and len(word) >= ASKED_PREFIX
    }


def _asked_in(text_words: Sequence[str], question: str, leave_out: set[str] = frozenset()) -> set[str]:
    """The words of a text the question asks, a word agreeing with one that begins the other ("winners"/"win")."""
    asked = [word for word in words(question) if len(word) >= ASKED_PREFIX and word not in leave_out]
    return {word for word in text_words if any(word.startswith(other) or other.startswith(word) for other in asked)}


def _is_person_in(name: str, tree: Tree) -> bool:
    lowered = name.lower()
    return any(node.label.lower() == lowered or (node.text or "").lower() == lowered for node in tree.nodes)


def _other_event(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A value that names an event with its year which is neither this site's conference nor one the question
    names answers for that event."""
    own = _edition_keys(tree.root.label or tree.name)
    asked = _edition_keys(question)
    for acronym, year in EDITION.findall(answer.text):
        key = (acronym.lower(), year)
        if key not in own and key not in asked and acronym.lower() not in {name for name, _ in asked}:
            return abstain(tree, "date" if year else "information", question_topic(question, tree))
    return None


def _edition_keys(text: str) -> set[tuple[str, str]]:
    return {(acronym.lower(), year) for acronym, year in EDITION.findall(text)}


def _affiliation_as_study(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """Where someone studied is said by a sentence about their studies; their current post answers another
    question."""
    if not (ASKS_PLACE_OF_STUDY.search(question) and STUDY.search(question)):
        return None
    said = [answer.text, answer.support, *(node.text or "" for node in answer.read)]
    said += [item.value for item in evidence if item.rank in answer.cited]
    if any(STUDY.search(text) for text in said):
        return None
    return abstain(tree, "place of study", question_topic(question, tree))


def _category_as_topic(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """ "What is X talking about?" is not answered by the category X's record is filed under."""
    if answer.operation == "yes_no" or not ASKS_TOPIC.search(question):
        return None
    text = answer.text.strip().rstrip(".")
    if URL.fullmatch(text):
        return abstain(tree, f"information on {question_topic(question, tree) or 'it'}")
    repeats = sum(1 for node in tree.nodes if (node.text or "").strip() == text)
    if repeats >= CATEGORY_REPEATS:
        return abstain(tree, f"information on {question_topic(question, tree) or 'it'}")
    return None


def _echo(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A "who" answered by the name of the thing the question asks about ("who won the X challenge?" → "X in Life
    Science challenge"): mostly the question's own words read back from the thing's heading, and no person."""
    if conference_kind(question) is not Kind.PEOPLE or answer.operation not in ("span", "value", "list"):
        return None
    said = set(words(answer.text))
    if (
        said
        and len(_asked_in(list(said), question)) / len(said) >= ECHO_SHARE
        and not of_kind(Kind.PEOPLE, answer.text)
    ):
        return abstain(tree, "person", question_topic(question, tree))
    return None


DISTINCT_NAME = re.compile(r"\b([A-Za-z]*[a-z][A-Z][A-Za-z0-9]*|[A-Z][A-Z0-9]{2,}(?:-[A-Z0-9]+)*)['’]s\b")
"""A thing's owner named as no common word is written ("ChinaScope's talk", "MEPDaW's room", "GNNQ's session"):
what is asked belongs to that one."""

RARE_NAME_NODES = 30
"""A name the site writes on fewer nodes than this names one thing (a sponsor, a workshop); "PDF" or the
conference's own acronym, written all over, names none."""


def _other_named_thing(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """When the question names one thing by its own name ("ChinaScope's sponsored talk"), the answer is read from
    that thing's nodes: a sentence about sponsored talks in general answers for none of them."""
    if answer.operation in ("yes_no", "abstain"):
        return None
    names = {name.lower() for name in DISTINCT_NAME.findall(question)}
    if not names:
        return None
    texts = [item.path for item in evidence if item.rank in answer.cited]
    for node in _read_nodes(answer, evidence, tree):
        record = next((above for above in reversed(tree.ancestors(node)) if above.kind == "item"), node)
        texts.append(" ".join([*(ancestor.label for ancestor in tree.ancestors(node)), node.label, node.text or ""]))
        texts.extend(f"{leaf.label} {leaf.text or ''}" for leaf in tree.subtree_leaves(record))
    said = " ".join(texts).lower()
    for name in names:
        written = sum(1 for node in tree.nodes if name in f"{node.label} {node.text or ''}".lower())
        if 0 < written < RARE_NAME_NODES and name not in said:
            return abstain(tree, conference_kind(question).noun, question_topic(question, tree))
    return None


def _paragraphs_counted(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """A count resting on a sentence is a number that sentence writes; the number of paragraphs beside it (a call's
    seven instructions) counts no thing the question names."""
    if answer.operation != "count" or answer.read:
        return None
    number = re.match(r"\s*(\d+)\b", answer.text)
    cited = [item.value for item in evidence if item.rank in answer.cited]
    if number is None or not cited or not all(len(value.split()) > SENTENCE_WORDS for value in cited):
        return None
    if any(re.search(rf"\b{number.group(1)}\b", value) for value in cited):
        return None
    return abstain(tree, "count", question_topic(question, tree))


ASKS_DATES = re.compile(r"\b(?:deadlines?|dates?|days?|when)\b", re.IGNORECASE)


def _calendar_count(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A count of entries of the important-dates list ("Doctoral Consortium Submissions: 13 May") counts deadlines,
    not the things they are for: "how many submissions did it get?" is not answered by the deadlines named so."""
    if answer.operation != "count" or ASKS_DATES.search(question):
        return None
    for node in answer.read[:1]:
        fields = [child for child in tree.children(node) if child.is_leaf and child.text]
        if node.kind == "item" and any(find_dates(child.text or "") for child in fields):
            return abstain(tree, "count", question_topic(question, tree))
    return None


ECHO_SHARE = 0.6
"""An answer most of whose words the question already says names what was asked about."""


SENTENCE_WORDS = 12
"""A list is names joined by commas; a run of more words closed by a full stop is a sentence about them."""

LIST_ITEM_WORDS = 20
"""An item of a list of people or things is a name or a title; a run of more words without a comma or an "and" is
a paragraph's sentence."""


def _paragraph_as_list(
    question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed | None:
    """A question asking for a list is not answered by one paragraph that mentions the things (a list read from
    several entries, such as a call's instructions, may well be sentences)."""
    if question_form(question) != "list" or answer.operation == "yes_no":
        return None
    texts = [item.value for item in evidence if item.rank in answer.cited] + [node.text or "" for node in answer.read]
    if not any(answer.text.strip().rstrip(".")[:80] in text for text in texts):
        return None  # not one node's text: the items were gathered from entries of their own
    items = [item for item in re.split(r",\s*|\s+and\s+|;\s*", answer.text) if item.strip()]
    sentence = answer.text.rstrip().endswith(".") and len(answer.text.split()) > SENTENCE_WORDS
    if sentence or any(len(item.split()) > LIST_ITEM_WORDS for item in items):
        return abstain(tree, "list", question_topic(question, tree))
    return None


SEVERAL = 2
"""A heading holding this many people holds several."""

NAME_WORDS = 5
"""A person's name as a record's title: a few capitalised words."""


def _one_of_several(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """One person read from a heading that holds several: the question must pick that one (a word of it found in
    that record and not in all the others: "the past president", "the one from Apple"); when it picks another, that
    one is the answer, and when it picks none, it asked for the heading's people, who are all named."""
    single = answer.operation in ("span", "value") or (answer.operation == "list" and _one_item(answer.text))
    if conference_kind(question) is not Kind.PEOPLE or not single:
        return None
    record = _person_record(answer, evidence, tree)
    parent = tree.parent(record) if record is not None else None
    if record is None or parent is None:
        return None
    people = [node for node in tree.children(parent) if _person_of(node)]
    if len(people) < SEVERAL or record not in people:
        return None
    headings = {word for node in tree.ancestors(record) for word in words(node.label)}
    asked = set(words(question)) - headings
    picked = {node.id: _record_words(node, tree) & asked for node in people}
    if all(picked[node.id] == picked[record.id] for node in people):
        if picked[record.id]:
            return None  # every record says it alike (the question names the heading's own kind)
        names = [_person_of(node) for node in people]
        return Computed(join_values(names), "list", answer.cited, [*answer.read, *people])
    if picked[record.id] and not any(picked[node.id] > picked[record.id] for node in people):
        return None
    most = max(len(words_picked) for words_picked in picked.values())
    chosen = [node for node in people if len(picked[node.id]) == most]
    if len(chosen) == 1:  # the one record the question's words pick ("the past president" of the emeritus members)
        return Computed(_person_of(chosen[0]), "value", answer.cited, [chosen[0]])
    return abstain(tree, "person", question_topic(question, tree))


def _person_record(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Node | None:
    """The record of the person the answer names: the entry titled with the name, or the list leaf that is it."""
    name = answer.text.strip().rstrip(".")
    read = _read_nodes(answer, evidence, tree)
    for node in [*read, *(leaf for record in read for leaf in tree.subtree_leaves(record))]:
        if node.kind == "item" and node.label.strip() == name:
            return node
        if (node.text or "").strip() == name:
            parent = tree.parent(node)
            return parent if parent is not None and parent.kind == "item" and parent.label.strip() == name else node
    return None


def _one_item(text: str) -> bool:
    return len([item for item in re.split(r",\s*|\s+and\s+|;\s*", text) if item.strip()]) == 1


def _person_of(node: Node) -> str:
    """The person a list entry names ("Joelle Pineau" of her record, "Tom Dietterich" of a bare list leaf), else ""."""
    if not node.key.isdigit():  # a field of one record ("name", "affiliation"), not an entry of a list
        return ""
    name = (node.label if node.kind == "item" else node.text or "").strip()
    return name if name and len(name.split()) <= NAME_WORDS and of_kind(Kind.PEOPLE, name) else ""


def _record_words(node: Node, tree: Tree) -> set[str]:
    texts = [node.label, node.text or "", *(f"{leaf.label} {leaf.text or ''}" for leaf in tree.subtree_leaves(node))]
    return {word for text in texts for word in words(text)}


def _read_nodes(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> list[Node]:
    cited = [leaf_of(tree, item) for item in evidence if item.rank in answer.cited]
    return [node for node in [*answer.read, *cited] if node is not None]
