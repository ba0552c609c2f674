"""The last line of defence: every computed answer is checked against its cited evidence before it is shown.

The operators (``answer``) find a value; this module asks, of the value and the nodes it rests on, whether they
show that it answers THIS question, and refuses (the plain sentence) when they do not. Each check is argued from
how people ask or how sites are built, never from one site's labels:

* a verdict (yes/no) needs a sentence or a record that decides it (``verifier_verdicts``): a bare link decides
  nothing (unless the question asks whether the linked thing exists), nor does the FAQ's question restated, a
  record field the question does not ask about (a panelist's institution for "did X win the award"), another
  person's record, or a role label that is the asked role with a word more ("President Elect" for "president");
* a polite request ("can you list …") asks for the things, not whether one can list them;
* a value (``verifier_values``) that names another event ("NeurIPS 2022: September 8th") answers for that
  event; where someone studied is told by a sentence about studying, not by their current affiliation; what a
  talk is "about" is not the category many records are filed under ("Plenary Speaker"); a list is not one
  paragraph; a count is not the number of deadlines named for the things, nor of the paragraphs beside a sentence;
  what a named owner's thing is ("ChinaScope's talk") is read from that owner's record;
* a "who" (``verifier_people``) is answered by people, not the heading asked about read back; one person of a
  heading that holds several is the one the question's words pick, or all of them when they pick none;
* a value (``verifier_form``) has the form of the thing asked: an amount for "how much", a date or time for
  "when", a number for a count; a bare time or place answers no question that asks something else ("what's on the
  menu?" → "12:30-13:00"); a sentence answering "which <thing>" says that thing;
* two parts of a joined question asking different things are not answered by one value read twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference.computed import Computed
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.plain_sentence import abstain, question_topic
from scholar_tui.core.conference.tree import Tree
from scholar_tui.core.conference.verifier_evidence import list_items, read_nodes
from scholar_tui.core.conference.verifier_form import other_form
from scholar_tui.core.conference.verifier_people import echo, one_of_several
from scholar_tui.core.conference.verifier_values import (
    affiliation_as_study,
    calendar_count,
    category_as_topic,
    other_event,
    other_named_thing,
    paragraph_as_list,
    paragraphs_counted,
)
from scholar_tui.core.conference.verifier_verdicts import REQUEST, undecided_verdict


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
    """``answer`` (or its mended form) when its evidence shows it answers ``question``, else the plain sentence of
    what is missing."""
    if answer.operation == "abstain":
        return answer
    checks = (
        undecided_verdict,
        other_event,
        affiliation_as_study,
        category_as_topic,
        paragraph_as_list,
        one_of_several,
        echo,
        calendar_count,
        paragraphs_counted,
        other_named_thing,
        other_form,
    )
    for check in checks:
        # a check gives None (the answer stands), the plain sentence, or a mended answer (``one_of_several``: all
        # the heading's people, or the one the question picks), which the checks after it look at in turn
        checked = check(question, answer, evidence, tree)
        if checked is None:
            continue
        if checked.operation == "abstain":
            return checked
        answer = checked
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
        nodes = {node.id for node in read_nodes(answer, evidence, tree)}
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
    items = list_items(answer.asked_value.rstrip("."))
    said = (dict.fromkeys([*re.findall(r"\b\d+\b", item), *words(item)]) for item in items)  # "2" kept
    return frozenset(" ".join(word for word in item if word not in asked) for item in said) - {""}
