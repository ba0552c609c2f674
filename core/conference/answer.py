"""Answers from the evidence paths, by what the question asks — never a copied leaf when it asks more.

``question_form`` reads the question's shape (general English, no site's wording):

* ``yes_no`` ("Can I attend remotely?"): yes or no, citing the supporting path;
* ``count`` ("How many keynotes are there?"): the children of the node the question names;
* ``sum`` ("How much do a diamond and a platinum sponsor pay together?"): the amounts of the
  paths that name each thing, added;
* ``earliest`` / ``latest`` ("What is the first deadline?"): dates over the evidence and its
  section, ordered;
* ``compare`` ("Which is cheaper, …?"): the amounts or dates of the things named, compared;
* ``list`` ("Who are the workshop chairs?"): the values of the section the best path sits in;
* ``span``: the best path's value, cut to what the question word asks for (a date for "when",
  an amount for "how much", an address for "email", a link for "link"), or a record's other field
  when the path matched the thing the question names ("Where is Jane Doe based?").

This module is the flow: the question read (``question_shape``), the value readers tried
(``record_readers``), the operator of its form run (``span_answers``, ``list_answers``, ``comparisons``,
``yes_no``), the kind checks applied (``kind_checks``) and the confidence check (``support``) last; what the
data lacks is said by ``plain_sentence``. Every answer cites the evidence ranks it rests on. The operators are
deterministic and offline; with a capable model (``answer_mode="generate"``) the model writes the answer from
the same evidence and the computed answer, and the tiny default model only picks a path (``choose``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from scholar_tui.core.answer_kind import Kind
from scholar_tui.core.conference import (
    affiliations,
    asked_collections,
    asking,
    checks,
    contacts,
    coverage,
    entries,
    kinds,
    parts,
    publication,
    site_topics,
    stated_value,
    support,
    titles_and_people,
    verifier,
)
from scholar_tui.core.conference.answer_prompts import CITATION, choice_prompt, generate_prompt
from scholar_tui.core.conference.comparisons import compare_answer, date_order_answer, sum_answer
from scholar_tui.core.conference.computed import Computed, join_values
from scholar_tui.core.conference.events import Answered, EvidencePath
from scholar_tui.core.conference.kind_checks import (
    CHECKED,
    SINGLE_VALUE_OPERATIONS,
    answer_nodes,
    answer_paths,
    checked,
    like_answer,
    of_asked_form,
    of_asked_number,
    of_asked_role,
    of_asked_time,
    of_kind,
    value_nodes,
)
from scholar_tui.core.conference.list_answers import count_answer, counted_records, list_answer, listed_records
from scholar_tui.core.conference.plain_sentence import abstain, found_answer, not_held, other_edition, question_topic
from scholar_tui.core.conference.question_shape import (
    CONTRACTION,
    FIND_ACTION,
    HEAD_NOUN,
    ONLINE_ACTION,
    TIME_WORDS,
    conference_kind,
    question_form,
)
from scholar_tui.core.conference.record_readers import (
    ONE_PERSON,
    faq_answer,
    from_labelled,
    link_pointer,
    named_value,
    place_of_named,
    role_labelled,
    value_asked,
    without_identity,
)
from scholar_tui.core.conference.span_answers import span_answer
from scholar_tui.core.conference.tree import Tree
from scholar_tui.core.conference.values import ASKS_LINK, URL
from scholar_tui.core.conference.yes_no import (
    SAME,
    names_thing,
    said_for_yes_no,
    states,
    yes_no_answer,
)

ANSWER_MODES = ("computed", "choose", "generate")


def answer_mode_for(model_setting: str) -> str:
    """ "generate" when a capable model is configured (a bigger GGUF or an endpoint), else "computed".

    The bundled 135 M model copies or rambles when it writes; the computed answer is better.
    """
    from scholar_tui.models.registry import DEFAULT_LLM

    return "computed" if model_setting in ("", DEFAULT_LLM) else "generate"


OPERATORS = {
    "span": span_answer,
    "list": list_answer,
    "count": count_answer,
    "sum": sum_answer,
    "compare": compare_answer,
    "yes_no": yes_no_answer,
    "earliest": lambda question, evidence, tree: date_order_answer(question, evidence, tree, latest=False),
    "latest": lambda question, evidence, tree: date_order_answer(question, evidence, tree, latest=True),
}


def compute_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The answer of the kind the question asks for, or one plain sentence saying what the data lacks.

    The confidence check (``support``) comes last: an answer whose cited paths do not hold what the
    question is about is refused, whatever operator produced it."""
    question = CONTRACTION.sub(r"\1 is", question)  # "What's the email …?" asks as "What is …?" does
    question = asking.plain_question(question)  # "When does it kick off?" asks as "When does it start?" does
    question = verifier.asked_directly(question)  # "can you list the chairs?" asks for them, not whether one can
    joined = parts.split_parts(question)
    if joined is not None:  # "When and where is X?": each part of its own kind, or which part the data lacks
        answers = [verifier.verified(part, _one_answer(part, evidence, tree), evidence, tree) for part in joined]
        return _both(question, verifier.verified_parts(joined, answers, evidence, tree), tree)
    return verifier.verified(question, _one_answer(question, evidence, tree), evidence, tree)


def _both(question: str, answers: Sequence[Computed], tree: Tree) -> Computed:
    """The answers to the parts of a joined question together: both said, an abstaining part's sentence kept
    in its place (never one part answered and the other dropped)."""
    texts = list(dict.fromkeys(answer.text.rstrip(".") for answer in answers))  # one sentence saying both: once
    text = "; ".join(texts) + "."
    answered = [answer for answer in answers if answer.operation != "abstain"]
    if not answered:
        return abstain(tree, "answer to either part", f"“{question.strip()}”")
    cited = sorted({rank for answer in answers for rank in answer.cited})
    read = [node for answer in answers for node in answer.read]
    said = " ".join(answer.said for answer in answered if answer.said)
    branch_checked = all(answer.branch_checked for answer in answered)
    # the values asked, joined as the texts are ("Yes; 9 June 2022."), when a part's text says more than its value
    value = "; ".join(dict.fromkeys(answer.asked_value.rstrip(".") for answer in answers)) + "."
    structured = any(answer.value for answer in answers)
    support = " ".join(answer.support for answer in answered if answer.support)
    return Computed(
        text,
        answered[0].operation,
        cited,
        read,
        said=said,
        branch_checked=branch_checked,
        value=value if structured else "",
        support=support,
    )


def _one_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    # read from the entry the question names, not a neighbour of its list ("IBM Research's slot", not Elsevier's)
    evidence = entries.of_named_entries(question, evidence, tree)
    if not evidence:  # every path was another entry's: the named one has no such field
        return abstain(tree, conference_kind(question).noun, question_topic(question, tree))
    answer = _computed(question, evidence, tree)
    if answer.operation == "abstain":
        answer = faq_answer(question, evidence, tree) or answer
    answer = _confident(question, answer, evidence, tree)
    if answer.operation == "abstain" and question_form(question) != "yes_no":  # a yes or no is no stated value
        stated = stated_value.stated_value(question, conference_kind(question), evidence, tree)
        if stated is not None:  # a cited sentence stating a value of the asked form, checked like any answer
            checked_stated = _confident(question, Computed(stated.sentence, "span", [stated.rank]), evidence, tree)
            return checked_stated if checked_stated.operation != "abstain" else answer
    return answer


def _confident(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The answer through the kind checks and the confidence check (``support``), else the plain sentence."""
    if answer.operation == "abstain":
        return answer
    kind = conference_kind(question)
    answer = checked(question, kind, answer, evidence, tree)
    if answer.operation == "abstain":
        return answer
    answer = of_asked_role(question, answer, evidence, tree) if kind is Kind.PEOPLE else answer
    answer = of_asked_form(question, kind, answer, evidence, tree)
    answer = of_asked_time(question, kind, answer, evidence, tree)
    answer = of_asked_number(question, answer, tree)
    if answer.operation == "abstain":
        return answer
    paths = (
        [said_for_yes_no(question, item, answer.support) for item in evidence if item.rank in answer.cited]
        if answer.operation == "yes_no"
        else answer_paths(answer, evidence, tree)
    )
    for node in value_nodes(answer, evidence, tree)[:1]:
        noun = coverage.owner_not_possessed(question, tree, node)
        if noun is not None:  # "Krötzsch's talk" answered by his bio: the owner's field, not the thing of his asked
            return abstain(tree, noun, question_topic(question, tree))
    term = (
        None
        if answer.branch_checked  # read from the branch the question names ("after the early deadline")
        or answer.operation not in (*SINGLE_VALUE_OPERATIONS, "yes_no")  # a sum or a list rests on several paths
        else coverage.contrasted_term(
            question,
            tree,
            kind,
            answer_nodes(answer, evidence, tree),
            paths,
            like_answer(question, kind, answer.text, tree),
        )
    )
    if term is None and not answer.branch_checked and answer.operation in SINGLE_VALUE_OPERATIONS:
        term = coverage.longer_name(question, tree, kind, paths) or coverage.other_event_kind(question, paths)
    if term is not None:  # the site keeps the thing asked apart from the one answered: "workshops" beside it
        return not_held(kind, question, tree, missing=term)
    if support.misses_asked_edition(question, tree, paths):
        return other_edition(kind, question, tree)
    if answer.branch_checked or support.supported(
        question, tree, kind, [*paths, answer.said, named_as(question, answer)]
    ):
        return answer
    if answer.operation == "yes_no":
        return abstain(tree, f"mention of {question_topic(question, tree) or 'it'}")
    return not_held(kind, question, tree)


WHICH_NOUN = re.compile(
    r"^\s*(?:which|what)\s+([a-z]+[^s\W])\s+(?:is|are|was|were|do|does|did|should|can|will|would|must)\b",
    re.IGNORECASE,
)
"""A singular noun after "which": one name of that kind is asked ("which platform …"); "which services can help
…" asks several, and one name alone is not the answer."""
NAME = re.compile(r"^[A-Z][\w.&'’-]*(?:\s[A-Z0-9][\w.&'’-]*){0,2}$")


def named_as(question: str, answer: Computed) -> str:
    """The category a "which <noun> …?" asks a name of ("which platform are papers submitted on?"), when the
    answer is such a name ("OpenReview"): a name given as the answer is one of that category, which the site
    writes by the name alone; else ""."""
    head = WHICH_NOUN.match(question)
    return head.group(1) if head and answer.operation in SINGLE_VALUE_OPERATIONS and NAME.match(answer.text) else ""


UNKNOWN_TOGETHER = 2
"""One word a small site does not use may be its synonym ("street" for an "Address"); two together that it
never uses name a topic it does not cover."""


def _all_unknown(question: str, tree: Tree) -> str | None:
    """What the question is about, when the site uses none of its words (on a small site too, where one unknown
    word alone says little: "What is the Wi-Fi password?" on a workshop's one page), nor any of the words of the
    thing it asks for ("the dress code" of "What is the dress code for the dinner?": the dinner's page says
    nothing of one), else None."""
    kind = conference_kind(question)
    head = HEAD_NOUN.match(question)  # "What is the dress code for the dinner?": the dress code is what is asked
    for asked in [question, *([head.group(1)] if head else [])]:
        about = support.subject(asked, tree, kind, known_only=False)
        if len(about) >= UNKNOWN_TOGETHER and not support.subject(asked, tree, kind):
            return question_topic(question, tree)
    return None


def _computed(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    if not evidence:
        return abstain(tree, "evidence", f"“{question.strip()}”")
    form = question_form(question)
    valued = value_asked(form, question, evidence, tree)
    if valued is not None:  # "what's the page limit?" is answered by "15 pages", not a sentence naming the limit
        return valued
    unknown = site_topics.unknown_topic(question, tree) or _all_unknown(question, tree)
    if unknown:  # a word the site never uses: answering a neighbour would be a confident wrong answer
        return abstain(tree, f"mention of “{unknown}”")
    kind = conference_kind(question)
    if form == "list" and kind in (Kind.DATE, Kind.MONEY):  # "On which days …?" asks one value
        form = "span"
    named = named_value(question, evidence, tree)
    if named is not None:
        return named
    at = affiliations.whether_at(question, evidence, tree) if form == "yes_no" else None
    if at is not None:  # "is X at Siemens?": X's record's affiliation says, whatever record names Siemens
        return at
    if form == "yes_no":  # a yes or no rests on the path that says most of what is asked, not merely the first,
        # and on a statement rather than a heading's title ("Transfer Policy" says neither yes nor no)
        shares = {
            item.rank: support.support(question, tree, kind, [said_for_yes_no(question, item)]) for item in evidence
        }
        evidence = sorted(
            evidence,
            key=lambda item: (
                -(shares[item.rank] >= support.SUPPORT_SHARE and states(item.value)),
                -shares[item.rank],
            ),
        )
    predicate = checks.asked_predicate(question) if form == "yes_no" else []
    if predicate:  # "Are talks streamed online?": a verdict rests on a path that says whether they are streamed
        saying = [item for item in evidence if names_thing(predicate, question, item)]
        if not saying:
            return abstain(tree, f"mention of {question_topic(question, tree) or 'it'}")
        evidence = [*saying, *(item for item in evidence if item not in saying)]
    thing = checks.existence_thing(question) if form == "yes_no" else []
    if thing:  # "Is there a conference app?": a yes rests on a path that names the app, not on any mention
        naming = [item for item in evidence if names_thing(thing, question, item)]
        if not naming:
            return abstain(tree, f"mention of {question_topic(question, tree) or 'it'}")
        evidence = [*naming, *(item for item in evidence if item not in naming)]
    if (
        form == "yes_no"
        and not SAME.search(question)
        and not site_topics.names_topic(question, tree, f"{evidence[0].path} {evidence[0].value}")
    ):
        # "Is there child care?" over a registration fee: a Yes would rest on nothing about child care
        return abstain(tree, f"mention of {question_topic(question, tree) or 'it'}")
    sponsors = checks.role_holders(question, tree)
    if sponsors is not None:  # "Who sponsors the doctoral consortium?": the names listed for that role
        nodes, names = sponsors
        ranks = {item.node_id: item.rank for item in evidence}
        return Computed(
            join_values(names), "list", sorted({ranks[node.id] for node in nodes if node.id in ranks}), nodes
        )
    if (
        kind is not Kind.PEOPLE  # "who do I contact?" is answered by a name, which the people readers find
        and contacts.asks_contact(question)
        and (address := contacts.contact_address(question, evidence, tree))
    ):
        return address  # "what email should I write to about X?": the address to write to, not a place
    if ONLINE_ACTION.search(question) or FIND_ACTION.search(question):  # "how can I find …" asks where, too
        pointer = link_pointer(question, evidence, tree)
        if pointer is not None:
            return pointer
    if (
        form in ("span", "list")
        and kind is Kind.PLACE
        and affiliations.asks_affiliation(question)
        and (organisation := _affiliation(question, kind, evidence, tree))
    ):
        return organisation
    if (
        form in ("span", "list")
        and kind is Kind.PEOPLE
        and (holders := asked_collections.role_holders(question, evidence, tree, headed=form == "span"))
    ):
        # a role several records hold: every holder, cited by its record
        return Computed(
            join_values([asked_collections.item_text(Kind.PEOPLE, record, tree) for record in holders]),
            "list",
            [],
            holders,
        )
    elif form == "count":
        answer = counted_records(question, evidence, tree) or (
            count_answer(question, evidence, tree)
            if checks.count_qualifier(question) is None
            else abstain(tree, "count", question_topic(question, tree))
        )
        if answer.operation == "abstain":  # the sentence says why: "only a list of “outstanding” ones"
            return answer
    elif (
        form == "span"
        and kind is Kind.PEOPLE
        and ONE_PERSON.search(question)
        and (labelled := role_labelled(question, evidence, tree))
    ):
        return labelled  # "Who is the general chair?": the name under the heading "General Chair"
    elif form == "list" or (kind is Kind.PEOPLE and form == "span" and asked_collections.asked_noun(question)):
        answer = listed_records(kind, question, evidence, tree) or OPERATORS[form](question, evidence, tree)
        items = [item for item in re.split(r", | and ", answer.text) if item]
        people = sum(of_kind(Kind.PEOPLE, item) or bool(titles_and_people.PERSON_IN.search(item)) for item in items)
        if kind is Kind.PEOPLE and people * 2 < len(items):  # a list of people, most of it at least
            person = titles_and_people.person_in_sentences(question, evidence)
            return person or abstain(tree, "person", question_topic(question, tree))
    elif form == "span" and kind is Kind.PLACE and publication.asks_publication(question):
        # "where do the papers get published?": the proceedings, which no "location" label names
        venue = publication.publication_venue(question, evidence, tree)
        return venue or abstain(tree, "venue", question_topic(question, tree))
    elif form == "span" and kind is Kind.PLACE:
        named = place_of_named(question, evidence, tree)  # "Where is Jane Doe based?": her record's field
        if named is not None:
            return named
        asked = question if kinds.asked_editions(question, tree) else without_identity(question, tree)
        found = kinds.typed_value(Kind.PLACE, asked, evidence, tree)
        return found_answer(found) if found else abstain(tree, "location", question_topic(question, tree))
    elif form == "span" and kind is Kind.DATE and kinds.asks_itself(question, tree):
        found = kinds.typed_value(Kind.DATE, question, evidence, tree)  # the conference's own dates
        return found_answer(found) if found else abstain(tree, "date", question_topic(question, tree))
    else:
        answer = OPERATORS[form](question, evidence, tree)
    if (
        form == "span"
        and URL.fullmatch(answer.text.strip())
        and not any(pattern.search(question) for pattern in (ASKS_LINK, ONLINE_ACTION, FIND_ACTION))
    ):
        # a bare link answers "which time zone …?" with a converter's address: the next value instead
        rest = [item for item in evidence if not URL.fullmatch(item.value.strip())]
        answer = span_answer(question, rest, tree) if rest else abstain(tree, kind.noun, question_topic(question, tree))
    if form == "span" and kind in (Kind.DATE, Kind.MONEY) and answer.operation != "abstain":
        answer = from_labelled(kind, question, answer, evidence, tree)
    # A value of another kind, or of the kind but about another thing ("How much is the gala dinner?"
    # answered with a student fee), is refused: the node of the asked kind the question names, or the sentence.
    about = site_topics.about_the_question(question, tree, answer, evidence) if form == "span" else True
    if form == "span" and kind is Kind.TEXT and kinds.only_dates(answer.text) and not TIME_WORDS.search(question):
        # "What is the submission system?" is not answered by a bare date
        return abstain(tree, f"information on {question_topic(question, tree) or 'it'}")
    if form in ("span", "count") and kind in (*CHECKED, Kind.PAPER) and (not about or not of_kind(kind, answer.text)):
        found = kinds.typed_value(kind, question, evidence, tree) if kind is not Kind.COUNT else None
        if found and site_topics.about_the_question(question, tree, found_answer(found), evidence):
            return found_answer(found)
        field = checks.record_value(question, kind, tree)  # "the prize for the best poster": its record's "prize"
        if field is not None:
            return found_answer(kinds.Found(field, field.text or "", None))
        person = titles_and_people.person_in_sentences(question, evidence) if kind is Kind.PEOPLE else None
        return person or abstain(tree, kind.noun, question_topic(question, tree))
    return answer


def _affiliation(question: str, kind: Kind, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """ "What university are they at?": the holders' of a role asked, the named person's, or the records' under a
    heading the question names, "affiliation" (which no "location" label says): of those found, the first whose
    cited paths hold most of what the question names ("In-Use Track PC » Chairs", not the committee page's
    "In-Use Applications Track Chairs"), for the confidence check to judge."""
    found = [
        answer
        for answer in (
            affiliations.of_role_holders(question, evidence, tree),
            place_of_named(question, evidence, tree),
            affiliations.of_named_records(question, evidence, tree),
        )
        if answer is not None
    ]
    if not found:
        return None
    shares = [support.support(question, tree, kind, answer_paths(answer, evidence, tree)) for answer in found]
    return found[shares.index(max(shares))]


def answer_question(
    question: str, evidence: Sequence[EvidencePath], tree: Tree, llm=None, mode: str = "computed"
) -> Answered:
    """The answer event for ``question`` over ``evidence`` (conference, method and time filled by the engine)."""
    if mode not in ANSWER_MODES:
        raise ValueError(f"answer mode must be one of {', '.join(ANSWER_MODES)}")
    computed = compute_answer(question, evidence, tree)
    shown = list(evidence)
    for node in computed.read:  # the node the value was read from, cited by its own path
        known = next((item for item in shown if item.node_id == node.id), None)
        if known is None:
            known = kinds.node_evidence(tree, node, len(shown) + 1)
            shown.append(known)
        computed.cited = sorted({*computed.cited, known.rank})
    answered = Answered(
        question=question,
        conference="",
        method="",
        evidence=shown,
        answer=computed.text,
        operation=computed.operation,
        cited=computed.cited,
        computed=computed.text,
        value=computed.asked_value,
        support=computed.support,
    )
    if llm is None or mode == "computed" or not evidence or computed.operation == "abstain":
        return answered
    if mode == "choose":
        # The tiny model's one decision: which path answers; the operator then runs on that path first.
        choices = [str(item.rank) for item in evidence]
        probabilities = llm.choose(
            None, choices, messages=[{"role": "user", "content": choice_prompt(question, evidence)}]
        )
        best = max(choices, key=lambda choice: probabilities.get(choice, 0.0))
        chosen = evidence[choices.index(best)]
        reordered = [chosen, *(item for item in evidence if item is not chosen)]
        picked = compute_answer(question, reordered, tree)
        answered.answer, answered.operation, answered.cited = picked.text, picked.operation, picked.cited
        answered.value, answered.support = picked.asked_value, picked.support
        answered.model_detail = f"{llm.model_name} chose path {best} (p={probabilities.get(best, 0.0):.2f})"
    else:
        completion = llm.complete(
            messages=[{"role": "user", "content": generate_prompt(question, evidence, computed)}],
            max_tokens=120,
            temperature=0.0,
        )
        text = " ".join(completion.text.split())
        cited = sorted({int(number) for number in CITATION.findall(text) if 0 < int(number) <= len(evidence)})
        answered.answer = CITATION.sub("", text).strip() or computed.text
        answered.value, answered.support = answered.answer, ""  # the model's text is scored whole
        answered.operation = "model"
        answered.cited = cited or computed.cited
        answered.model_detail = (
            f"{llm.model_name}, {completion.completion_tokens} tokens in {completion.duration_s:.1f} s"
        )
    answered.answer_mode = mode
    return answered
