"""Yes/no answers: the verdict and the sentence that decides it.

A bare "Yes" would be confident without support, so a verdict is always given with the cited sentence that
decides it ("No, authors are encouraged to submit code …"), or the plain sentence when no cited sentence says
anything about what is asked. The verdict reads negation (NegEx's window), obligation, permission and
restriction in the sentence against the question.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference import checks, deciding, support
from scholar_tui.core.conference.computed import PREFIX_CHARS, Computed, leaf_of, section_leaves
from scholar_tui.core.conference.events import EvidencePath
from scholar_tui.core.conference.lexical import WORD, expanded_query, words
from scholar_tui.core.conference.paths import node_path_text, path_headings_text
from scholar_tui.core.conference.plain_sentence import abstain, question_topic
from scholar_tui.core.conference.span_answers import record_field
from scholar_tui.core.conference.tree import PATH_SEPARATOR, Tree
from scholar_tui.core.conference.values import find_amounts, find_dates, sentences

NEGATIONS = re.compile(
    r"\b(not|no|never|cannot|can.t|won.t|isn.t|aren.t|doesn.t|don.t|none|neither|nor)\b", re.IGNORECASE
)


SAME = re.compile(r"\b(the same|identical|equal|fixed)\b", re.IGNORECASE)


def _differing_values(evidence: Sequence[EvidencePath], tree: Tree) -> list[EvidencePath]:
    """The paths among the evidence and the best path's section whose amounts (or dates) differ."""
    found: dict[str, EvidencePath] = {}
    leaf = leaf_of(tree, evidence[0])
    parent = tree.parent(leaf) if leaf is not None else None
    if parent is not None and parent.kind == "item":  # a record's field: its section is the list of records
        leaf = parent
    section = (
        []
        if leaf is None
        else [
            EvidencePath(0, node.id, node_path_text(tree, node), node.text or "", "", 0.0)
            for node in section_leaves(tree, leaf)
            if node.id not in {item.node_id for item in evidence}
        ]
    )
    for item in [*evidence, *section]:
        amounts = find_amounts(item.value) or []
        key = amounts[0].text if amounts else None
        if key is None:
            dates = find_dates(item.value)
            key = dates[0].day.isoformat() if dates else None
        if key is not None:
            found.setdefault(key, item)
    return list(found.values())


RESTRICTION = re.compile(
    r"\b(only|solely|exclusively|need|needs|needed|required|require|requires|mandatory|must|fixed)\b", re.IGNORECASE
)
"""Words by which a yes/no question asks whether something is restricted or obliged ("Do I need
to …?", "Is only … allowed?", "Is the number … fixed?")."""


def _support_sentence(question: str, value: str) -> str:
    """The sentence of ``value`` that shares most (expanded) words with the question; of equals the
    first, a page's lead sentence (the shorter-sentence tie-break of ``closest_sentence`` measured
    one ICML yes/no question worse here)."""
    parts = sentences(value) or [value]
    asked: dict[str, float] = {}
    for word, weight in expanded_query(question).items():  # by prefix: "transfer" / "cannot be transferred"
        asked[word[:PREFIX_CHARS]] = max(weight, asked.get(word[:PREFIX_CHARS], 0.0))
    return max(
        parts, key=lambda part: sum(asked.get(prefix, 0.0) for prefix in {w[:PREFIX_CHARS] for w in words(part)})
    )


SUPPORT_SHARED_WORDS = 2
"""The supporting sentence is written beside the verdict when it shares this many content words
with the question (below that it is more likely the wrong sentence than the reason). Chosen on
ICML's yes/no questions (1 / 2 / 3 shared words: RA F1 32.8 / 40.0 / 37.4); ISWC has five."""


STATED_VERDICT = re.compile(r"\s*(yes|no)\b[.,!:;]", re.IGNORECASE)


NEGATION_SCOPE = 5
"""A negation bears on the words after it up to this many (NegEx's window, Chapman et al. 2001)."""


def _negates_the_question(question: str, support: str) -> bool:
    """Whether ``support`` negates something the question asks about: a negation cue followed,
    within ``NEGATION_SCOPE`` words, by one of the question's words. "… who would otherwise not be
    able to attend" does not negate "Can costs be reimbursed?"; "authors are not required to
    submit code" does negate "Do I need to submit code?"."""
    asked = {word[:PREFIX_CHARS] for word in words(question)}  # "transfer" / "not Transferable"
    tokens = WORD.findall(support.lower().replace("’", "'"))
    for position, token in enumerate(tokens):
        scope = words(" ".join(tokens[position + 1 : position + 1 + NEGATION_SCOPE]))
        if NEGATIONS.fullmatch(token) and asked & {word[:PREFIX_CHARS] for word in scope}:
            return True
    return False


OBLIGATION = re.compile(r"\b(?:have to|has to|need to|needs to|must|required|mandatory|obliged)\b", re.IGNORECASE)


NOT_REQUIRED = re.compile(
    r"\b(?:not|no longer|never)\s+(?:be\s+)?(?:required|mandatory|necessary|needed|obligatory)\b", re.IGNORECASE
)


PERMISSION = re.compile(
    r"^\s*(?:can|may|could)\s+(?:i|we|you|one|they|attendees|authors)\b|\b(?:allowed|permitted)\b", re.I
)


NOT_ALLOWED = re.compile(
    r"\b(?:(?:is|are|be)\s+not\s+(?:allowed|permitted)|not\s+allowed|not\s+permitted|prohibited|forbidden)\b", re.I
)
"""A permission asked ("Can I …?", "Is … allowed?") is refused by a sentence that forbids it, wherever its
negation sits ("Overnight parking is not allowed" negates no word of "Can I park my car overnight?")."""


def yes_no_verdict(question: str, support: str) -> str:
    """Yes or No for ``question`` from its supporting sentence.

    No when the sentence negates what the question asks (one of them negated, not both), or when
    the question asks about a restriction or an obligation that the sentence does not state: a
    page saying authors "are encouraged to" submit code does not say they "need to".
    """
    asked_negated = bool(NEGATIONS.search(question))
    negated = _negates_the_question(question, support)
    if negated != asked_negated:
        return "No"
    if OBLIGATION.search(question) and NOT_REQUIRED.search(support):  # "Masks are not required at this time."
        return "No"
    if PERMISSION.search(question) and not asked_negated and NOT_ALLOWED.search(support):
        return "No"  # "Can I park overnight?" — "Overnight parking is not allowed."
    if not asked_negated and deciding.denies(question, support):
        return "No"  # "Did anyone win …?" — "Not assigned"; "Will they pay for …?" — "ICML does not provide …"
    restrictions = {word.lower() for word in RESTRICTION.findall(question)}
    if (
        restrictions
        and not asked_negated
        and not restrictions & {word.lower() for word in RESTRICTION.findall(support)}
    ):
        return "No"
    return "Yes"


WHOLE_SUBJECT = 0.9


ONE_OF = re.compile(r"\b(?:one|any|each) of (?:the |its |their )?", re.IGNORECASE)


def support_share(question: str, tree: Tree, text: str) -> float:
    """The share of the question's subject ``text`` holds ("one of the exhibitors" asks about exhibitors)."""
    return support.support(ONE_OF.sub("", question), tree, Kind.TEXT, [text])


def yes_no_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """Yes or no with the sentence that decides it ("No, authors are encouraged to submit code …"), citing its
    path; the plain sentence when no cited sentence decides it, never a bare verdict.

    The deciding sentence is the best path's sentence closest to the question, unless another cited sentence
    states the asked predicate (an obligation, a permission, an award given, a cost covered) about the subject
    and it does not (``deciding``). "Is X the same for …?" is a comparison: the evidence's amounts or dates
    differ, or they do not.
    """
    if SAME.search(question):
        differing = _differing_values(evidence, tree)
        if len(differing) >= 2:
            shown = "; ".join(f"{_last_heading(item)}: {item.value}" for item in differing[:3])
            return verdict_answer("No", shown, sorted({item.rank for item in differing[:3] if item.rank} or {1}))
    field_answer = record_field(question, evidence, tree)
    if field_answer is not None:  # "Is anyone affiliated with X?" found X: yes, and who
        verdict = "No" if deciding.denies(question, field_answer.text) else "Yes"  # "Did anyone win?" "Not assigned"
        return verdict_answer(verdict, field_answer.text, field_answer.cited)
    subject = support.subject(ONE_OF.sub("", question), tree, Kind.TEXT)
    best = deciding.Deciding(evidence[0], _support_sentence(question, evidence[0].value))
    echo = checks.echoes_question(question, best.sentence) or deciding.names_its_record(best)
    chosen = deciding.Deciding(evidence[0], "") if echo else best  # the subject's own name decides nothing …
    decided = bool(chosen.sentence) and _negates_the_question(question, chosen.sentence)  # "… are not anonymous"
    if (
        not subject <= {word[:PREFIX_CHARS] for word in words(chosen.sentence)}
        and (whole := _negating_whole_subject(question, subject, evidence)) is not None
    ):  # a sentence naming part of what is asked yields to one naming all of it and denying it
        chosen, decided = whole, True
    chosen = deciding.deciding_sentence(question, subject, evidence, chosen, decided) or chosen
    thing = checks.existence_thing(question)
    if thing and chosen.sentence and not deciding.names_thing(thing, chosen):
        # "Is there an online submission process?" is not decided by a sentence on workshop contents online
        chosen = deciding.naming_thing(thing, subject, evidence) or deciding.Deciding(chosen.item, "")
        if not chosen.sentence:
            return abstain(tree, f"mention of {question_topic(question, tree) or 'it'}")
    if not chosen.sentence:  # a field naming its record: the record's own field stating the predicate decides
        chosen = _record_statement(question, chosen.item, tree) or chosen
    labelled = not chosen.sentence  # … unless no sentence says more: "Apple" listed under "Exhibitors"
    item = chosen.item
    sentence = f"{_last_heading(item)}: {best.sentence}" if labelled else chosen.sentence
    if sentence.count("(") > sentence.count(")"):  # a sentence cut out of a parenthesis: "(For the final …"
        sentence = sentence.replace("(", "", 1)
    verdict = yes_no_verdict(question, sentence)
    stated = STATED_VERDICT.match(item.value)
    if stated and item is evidence[0]:  # a FAQ's answer that starts "No." or "Yes," says it
        verdict = stated.group(1).capitalize()
    if sentence.strip().lower() in ("yes", "no"):  # a field that holds only the verdict: its label says of what
        sentence = f"{_last_heading(item)}: {sentence.strip()}"
    shared = deciding.shared_subject(subject, item, sentence)
    if not deciding.names_enough(subject, shared) or (
        len(_shared_prefixes(question, sentence)) < SUPPORT_SHARED_WORDS
        and not stated
        and not states(best.sentence if labelled else sentence)
        and support_share(question, tree, f"{item.path} {item.value}") < WHOLE_SUBJECT
    ):
        # "Lunch Break" in a workshop's schedule says nothing of lunch being "included in the registration"
        return abstain(tree, f"mention of {question_topic(question, tree) or 'it'}")
    if (labelled or _asks_award(question)) and not stated and not _states_asked_predicate(question, item, sentence):
        # "did Phillip Isola win an award?" is not decided by "author: Phillip Isola" of a workshop he organises
        return abstain(tree, f"mention of {question_topic(question, tree) or 'it'}")
    own = STATED_VERDICT.match(sentence)
    if own:  # the sentence says its own verdict: "No, fully virtual workshops …"
        return verdict_answer(own.group(1).capitalize(), sentence[own.end() :].strip(), [item.rank], text=sentence)
    return verdict_answer(verdict, sentence if labelled else _lower_first(sentence), [item.rank])


AWARD_SAID = re.compile(r"\b(?:awards?|awarded|prizes?|winners?|won|honou?rable mentions?|best \w+)\b", re.IGNORECASE)
"""How a site says a prize was given: its name ("Best Paper", "Test of Time Award", "Honorable Mentions") or "won"."""


def _asks_award(question: str) -> bool:
    """Whether a yes/no asks whether an award was won. Sites say so with few words (``AWARD_SAID``), unlike a
    permission ("Authors are encouraged to …" permits), so any sentence that says none of them cannot decide it:
    "Elected 2018 & 2021 General Chair" says nothing of a test of time award."""
    predicate = deciding.asked_class(question)
    return predicate is not None and predicate.name == "award"


def _states_asked_predicate(question: str, item: EvidencePath, sentence: str) -> bool:
    """Whether the deciding sentence, with its path's headings, states or denies the predicate the question asks
    (``deciding.asked_class``: an award won, an obligation, a permission, a thing granted, a cost covered); true
    for a question asking none. Asked of a field that only names its record (no sentence says more): a sentence
    may state a predicate in other words ("Authors are encouraged to submit code" permits it), a label cannot. A
    field that only names the subject ("author: Phillip Isola") says who is
    there, not whether they won, must or may anything: its Yes would rest on nothing."""
    predicate = deciding.asked_class(question)
    if predicate is None:
        return True
    headings = path_headings_text(item.path)
    said = f"{headings} {sentence}"
    award = predicate.name == "award" and bool(AWARD_SAID.search(said))
    return award or deciding.states(predicate, said) or bool(predicate.denied.search(said))


def verdict_answer(verdict: str, sentence: str, cited: list[int], text: str | None = None) -> Computed:
    """A yes/no answer in its parts: the verdict asked ("Yes"), the sentence that decides it, and the text a person
    reads, "Yes, <sentence>" (or the sentence itself when it opens with its own verdict)."""
    return Computed(text or f"{verdict}, {sentence}", "yes_no", cited, value=verdict, support=sentence)


WHOLE_SUBJECT_WORDS = 2
"""A subject of at least two words named whole by one sentence: one word ("remotely") names too little."""


def _negating_whole_subject(
    question: str, subject: set[str], evidence: Sequence[EvidencePath]
) -> deciding.Deciding | None:
    """The first sentence, in rank order, that itself names every word of the question's subject and negates what
    the question asks ("ISWC 2022 submissions for the resources track are not anonymous" for "do I need to
    anonymize my resources track submission?"): it decides over a better-ranked sentence that names only part of
    the subject (an exception on the same page: "… authors must provide anonymous access to the resource"). None when the subject is too small to be named whole or no sentence does."""
    if len(subject) < WHOLE_SUBJECT_WORDS:
        return None
    for item in evidence:
        for sentence in sentences(item.value) or [item.value]:
            named = {word[:PREFIX_CHARS] for word in words(sentence)}
            if subject <= named and _negates_the_question(question, sentence):
                return deciding.Deciding(item, sentence)
    return None


RECORD_LIST_NAMES = 6
"""How many names of a record's list field ("winners") are written out beside a verdict."""


def _record_statement(question: str, item: EvidencePath, tree: Tree) -> deciding.Deciding | None:
    """For a path that only names its record (a challenge track's "description" under "Winners"), the record's
    own field that states or denies the asked predicate: "information: Not assigned (…)" says no one won the
    track, "winners: Jiomekong, V. Tsague" that someone did. The record decides, not its neighbours; None when
    the question asks no such predicate or no field of the record states it."""
    predicate = deciding.asked_class(question)
    leaf = leaf_of(tree, item)
    record = tree.parent(leaf) if leaf is not None else None
    if predicate is None or leaf is None or record is None or record.kind != "item":
        return None
    for field in tree.children(record):
        if field.id == leaf.id:
            continue
        if field.is_leaf:
            said = field.text or ""
        else:
            names = [node.text for node in tree.subtree_leaves(field) if node.text][:RECORD_LIST_NAMES]
            said = f"{field.label}: {', '.join(names)}" if names else ""
        if said and (deciding.states(predicate, said) or deciding.states(predicate, field.label)):
            path = EvidencePath(item.rank, field.id, node_path_text(tree, field), said, "", 0.0)
            return deciding.Deciding(path, said)
    return None


def _lower_first(sentence: str) -> str:
    """ "No, the conference …", not "No, The conference …" (a name or an acronym keeps its capitals)."""
    if len(sentence) > 1 and sentence[0].isupper() and sentence[1].islower():
        return sentence[0].lower() + sentence[1:]
    return sentence


def _last_heading(item: EvidencePath) -> str:
    parts = item.path.split(PATH_SEPARATOR)
    return parts[-2] if len(parts) >= 2 else parts[-1]


def _shared_prefixes(question: str, sentence: str) -> set[str]:
    return {word[:PREFIX_CHARS] for word in words(sentence)} & {word[:PREFIX_CHARS] for word in words(question)}


STATEMENT_WORDS = 3


def states(value: str) -> bool:
    """Whether a value says something (a sentence), not only names it (a title, a label)."""
    return len(value.split()) >= STATEMENT_WORDS or value.rstrip().endswith(".")


def names_thing(thing: list[str], question: str, item: EvidencePath) -> bool:
    """Whether a path's headings and its value name the thing asked about."""
    headings = path_headings_text(item.path)
    return checks.names_thing(thing, headings, item.value, question)


def said_for_yes_no(question: str, item: EvidencePath, sentence: str | None = None) -> str:
    """What a yes or no rests on: the path's headings and the one sentence of its value the verdict reads
    (``sentence``, else its closest to the question: a page that says "care" in one sentence and "children" in
    another says nothing of child care)."""
    headings = path_headings_text(item.path)
    said = sentence if sentence and sentence.lower() in item.value.lower() else None  # not "John Roe" of a record
    return f"{headings} {said or _support_sentence(question, item.value)}"
