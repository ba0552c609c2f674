"""The answer verifier's checks of a yes or no (``verifier``): a verdict rests on a sentence or a record that
decides it for the asked subject, and a polite request asks for the things, not whether one can list them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.conference import affiliations
from scholar_tui.core.conference.checks import existence_thing
from scholar_tui.core.conference.computed import Computed
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import words
from scholar_tui.core.conference.plain_sentence import abstain, question_topic
from scholar_tui.core.conference.tree import PATH_SEPARATOR, Tree
from scholar_tui.core.conference.values import URL
from scholar_tui.core.conference.verifier_evidence import ASKED_PREFIX, asked_in

HAS_THING = re.compile(r"^\s*(?:does|do|did)\s+.+?\s+have\s+(?:an?|any|their|his|her)\b", re.IGNORECASE)
""""Does Aidan Hogan have a homepage?" asks whether a thing exists, as "is there …" does."""


REQUEST = re.compile(
    r"^\s*(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?(?:list|name|enumerate|show|give|tell|share)\b"
    r"(?!\s+(?:me\s+)?(?:if|whether)\b)",
    re.IGNORECASE,
)
""""Can you list the chairs?" asks for the chairs; "can you tell me whether …" still asks yes or no."""


RECORD_LINE = re.compile(r"^\s*([^:]{1,40}):\s*(\S+(?:\s+\S+){0,7})\s*\.?\s*$")
"""A record's field written "label: value" (a short value, not a sentence after a colon): its label says which
role or property the value holds."""


PARENTHESIS = re.compile(r"\([^)]*\)")


LABEL_DECIDES_WORDS = 2
"""Headings that share two of the question's words name its subject and what is asked of it."""


PERSON_NAME = re.compile(r"\b([A-Z][a-zà-ÿ'’-]+(?:\s+[A-Z][a-zà-ÿ'’-]+)+)\b")


def undecided_verdict(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
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
    if label and asked_in(words(label.group(1)), question) and _unasked(words(label.group(1)), question):
        return refused  # "President Elect: Kilian Weinberger": the asked role with a word more is another role
    if label and not asked_in(words(label.group(1)), question) and not _names_entry(label.group(2), question):
        return refused  # "essay: An ML approach …" for "is the TAG-ML workshop on sunday?": another entry
    subject = {word for name in named for word in words(name)}
    if affiliations.decides_at(question, cited, tree):  # "is X at Siemens?": X's own affiliation field says
        return None
    if existence:  # "are there members from X?": the operator found a path naming the thing; an instance is the yes
        return None
    if not asked_in(words(support), question, subject) and not _label_decides(question, named, cited):
        return refused  # "University of Oxford, UK" for "did X win the award": the field asked is not this one
    if named and not _says_enough(question, subject, support, cited):
        return refused  # "Panel (…, Pascal Hitzler, …)" for "is Pascal Hitzler moderating the physical world panel?"
    return None


SAID_OF_SUBJECT = 1 / 3
"""Of what a yes/no asks of a named person (all but the name), the deciding sentence and its headings say this
share at least: a mention of the person beside one shared word ("panel") is about something else."""


def _says_enough(question: str, subject: set[str], support: str, cited: Sequence[EvidencePath]) -> bool:
    asked = {word for word in words(question) if len(word) >= ASKED_PREFIX and word not in subject}
    said = words(" ".join([support, *(item.path for item in cited)]))
    return not asked or len(asked_in(said, " ".join(asked))) / len(asked) >= SAID_OF_SUBJECT


ENTRY_SHARE = 0.5
"""A record's value names the thing asked when at least half its words are the question's."""


def _names_entry(value: str, question: str) -> bool:
    said = set(words(value))
    return bool(said) and len(asked_in(list(said), question)) / len(said) >= ENTRY_SHARE


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
        site = _site_words(item.path.split(PATH_SEPARATOR)[0], question)
        # the site's own name heads every path ("ICML2023"): it says nothing of what is asked
        headings = [PARENTHESIS.sub("", heading) for heading in item.path.split(PATH_SEPARATOR)[1:]]
        shares = [(len(asked_in(words(heading), question, subject | site)), heading) for heading in headings]
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


def _is_person_in(name: str, tree: Tree) -> bool:
    lowered = name.lower()
    return any(node.label.lower() == lowered or (node.text or "").lower() == lowered for node in tree.nodes)
