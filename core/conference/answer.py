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

Every answer cites the evidence ranks it rests on. The operators are deterministic and offline;
with a capable model (``answer_mode="generate"``) the model writes the answer from the same
evidence and the computed answer, and the tiny default model only picks a path (``choose``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from scholar_tui.core.answer_kind import Kind, abstain_sentence, asked_kind, fits
from scholar_tui.core.conference import asking, checks, coverage, deciding, kinds, parts, support, value_answers
from scholar_tui.core.conference.events import Answered, EvidencePath
from scholar_tui.core.conference.lexical import EXPANSION_WEIGHT, WORD, expanded_query, stem, words
from scholar_tui.core.conference.paths import node_path_text
from scholar_tui.core.conference.records import asked_field, label_fit, names_the_value
from scholar_tui.core.conference.tree import PATH_SEPARATOR, Node, Tree
from scholar_tui.core.conference.values import (
    ASKS_EMAIL,
    ASKS_LINK,
    EMAIL,
    HOW_MUCH,
    NUMBER,
    URL,
    WHEN,
    Amount,
    find_amounts,
    find_dates,
    format_amount,
    sentences,
)

ANSWER_MODES = ("computed", "choose", "generate")


def answer_mode_for(model_setting: str) -> str:
    """ "generate" when a capable model is configured (a bigger GGUF or an endpoint), else "computed".

    The bundled 135 M model copies or rambles when it writes; the computed answer is better.
    """
    from scholar_tui.models.registry import DEFAULT_LLM

    return "computed" if model_setting in ("", DEFAULT_LLM) else "generate"


MAX_CANDIDATE_CHARS = 220
MAX_LIST_ITEMS = 40
LONG_VALUE_WORDS = 40
"""A value longer than this is cut to its sentences that match the question (a general reading
limit: a paragraph is not an answer); chosen on ICML, reported on ISWC."""

YES_NO_OPENERS = frozenset(
    "is are am was were can could do does did will would should shall may might must has have had".split()
)
NEGATIONS = re.compile(
    r"\b(not|no|never|cannot|can.t|won.t|isn.t|aren.t|doesn.t|don.t|none|neither|nor)\b", re.IGNORECASE
)
LIST_CUES = re.compile(r"\b(who are|what are|which are|which \w+ are|list|name the|names of)\b", re.IGNORECASE)
SUM_CUES = re.compile(r"\b(together|in total|total|combined|altogether|sum)\b", re.IGNORECASE)
EARLIEST_CUES = re.compile(r"\b(earliest|first|soonest|next|begin|begins|start|starts|opening)\b", re.IGNORECASE)
LATEST_CUES = re.compile(r"\b(latest|last|final|end|ends|closing)\b", re.IGNORECASE)
COMPARE_CUES = re.compile(
    r"\b(cheaper|more expensive|less expensive|higher|lower|more|less|earlier|later|bigger|smaller)\b"
    r".*\bthan\b|\bwhich (?:one )?is (?:cheaper|more|less|earlier|later|higher|lower)\b",
    re.IGNORECASE,
)


@dataclass
class Computed:
    text: str
    operation: str
    cited: list[int] = field(default_factory=list)
    read: list[Node] = field(default_factory=list)
    """Tree nodes the answer was read from beyond the retrieved paths (a sibling, the list counted):
    cited as evidence paths of their own after the retrieved ones."""
    said: str = ""
    """What the value itself says beyond its paths: a number of megabytes answering "what's the upload cap?" is
    the cap (``value_answers.measure_words``); the confidence check reads it with the cited paths."""
    branch_checked: bool = False
    """Read from the sibling branch the question names (``checks.named_sibling``) in place of a cited path the
    confidence check accepted: the branch names what the question is about, its value is of the asked kind."""


IDENTIFIER_NUMBER = re.compile(
    r"\b(?:phone|telephone|fax|mobile|contact|room|booth|reference|registration|order|invoice|paper|submission|"
    r"account|id|identification)\s+number",
    re.IGNORECASE,
)
""""The phone number of the organisers" names a number to read, not a count of things."""


def question_form(question: str) -> str:
    lowered = question.strip().lower()
    first = WORD.findall(lowered)[:1]
    if re.search(r"\bhow many\b", lowered):
        return "count"
    if SUM_CUES.search(lowered) and HOW_MUCH.search(lowered):
        return "sum"
    if first and first[0] in YES_NO_OPENERS and not re.search(r"\bor\b", lowered):
        return "yes_no"  # "Is it in person or virtual?" asks which, not whether
    if COMPARE_CUES.search(lowered):
        return "compare"
    if re.search(r"\bnumber of\b", lowered) and not IDENTIFIER_NUMBER.search(lowered):
        return "count"
    if (WHEN.search(lowered) or "date" in lowered) and re.search(r"\b(earliest|first|soonest|latest|last)\b", lowered):
        return (
            "earliest" if EARLIEST_CUES.search(lowered) and not re.search(r"\b(latest|last)\b", lowered) else "latest"
        )
    if LIST_CUES.search(lowered):
        return "list"
    return "span"


# -- helpers over the tree --------------------------------------------------------------------
def _overlap(question_words: dict[str, float], text: str) -> float:
    return sum(question_words.get(word, 0.0) for word in set(words(text)))


def _leaf(tree: Tree, item: EvidencePath) -> Node | None:
    return tree.nodes[item.node_id] if 0 <= item.node_id < len(tree.nodes) else None


def _leaf_text(node: Node) -> str:
    return f"{node.label}: {node.text}" if node.label and node.text else (node.text or "")


def _best_sentences(question: str, value: str) -> str:
    """A long value cut to its sentence that best matches the question."""
    if len(value.split()) <= LONG_VALUE_WORDS:
        return value
    asked = expanded_query(question)
    parts = sentences(value)
    if len(parts) <= 1:
        return value
    return _closest_sentence(asked, parts)


def _closest_sentence(asked: dict[str, float], parts: Sequence[str]) -> str:
    """The sentence sharing most (expanded) question words; of equals, the shorter says it more
    directly ("The conference will be run via Zoom." over a long one with the same words)."""
    return max(parts, key=lambda part: (_overlap(asked, part), -len(part.split())))


def _named_node(tree: Tree, leaf: Node, question: str) -> Node:
    """The ancestor of ``leaf`` the question names best (its label shares the most question words)."""
    asked = {word: 1.0 for word in words(question)}
    best, best_score = tree.parent(leaf) or leaf, 0.0
    for node in tree.ancestors(leaf)[1:]:
        score = _overlap(asked, node.label)
        if score >= best_score and score > 0:
            best, best_score = node, score
    return best


# -- the operators ----------------------------------------------------------------------------
def record_field(
    question: str, evidence: Sequence[EvidencePath], tree: Tree, labels: frozenset[str] = frozenset()
) -> Computed | None:
    """When the best path is the thing the question names ("Where is Jane Doe based?" finds "name:
    Jane Doe"), the answer is that record's field the question asks for (``records.asked_field``), a field
    labelled by one of ``labels`` (the asked kind's: "location" for "Which room …?") fitting as a synonym does."""
    top = evidence[0]
    leaf = _leaf(tree, top)
    if leaf is None or not top.value:
        return None
    asked = {label: EXPANSION_WEIGHT for label in labels} | expanded_query(question)
    best = asked_field(question, asked, leaf, tree, fallback="fullest")
    if best is None:
        return None
    ranks = {item.node_id: item.rank for item in evidence}
    read = [] if best.id in ranks else [best]  # the field itself, cited by its own path when not retrieved
    return Computed(best.text or "", "span", sorted({top.rank, ranks.get(best.id, top.rank)}), read)


TYPE_MATCH_DEPTH = 3
"""How far down the evidence a span answer looks for a value of the asked type (a date for
"when", an amount for "how much"): the top three of five, a general prior, not tuned."""


DATE_SENTENCE_WORDS = 30
"""A date cut from a long value is answered with its sentence when that is at most this long
("Registered participants will receive the link on October 21."), else alone. 15, 20 and 30
were alike on ICML; 30 was better on ISWC (RA F1 31.4 vs 29.6)."""


def _typed_value(question: str, item: EvidencePath) -> str | None:
    """The value of the type the question asks for in ``item`` (whole when short, cut when long)."""
    value = item.value
    if WHEN.search(question):
        dates = find_dates(value)
        if not dates:
            return None
        if len(value.split()) <= 8:
            return value
        # the sentence that says it (of several dated ones, the one sharing most of the question's words:
        # "The deadline to register is July 5" for "By when do I register …?"), when short enough to read
        dated = [part for part in sentences(value) if find_dates(part)] or [value]
        asked = _beyond_headings(expanded_query(question), item.path)
        said = max(dated, key=lambda part: _overlap(asked, part))
        first = find_dates(said) or dates
        return said if len(said.split()) <= DATE_SENTENCE_WORDS else first[0].text
    if HOW_MUCH.search(question):
        amounts = find_amounts(value)
        return None if not amounts else (amounts[0].text if len(value.split()) > 4 else value)
    if ASKS_EMAIL.search(question):
        found = EMAIL.search(value)
        return found.group(0) if found else None
    if ASKS_LINK.search(question):
        found = URL.search(value)
        return found.group(0) if found else None
    return None


def asks_for_type(question: str) -> bool:
    return any(pattern.search(question) for pattern in (WHEN, HOW_MUCH, ASKS_EMAIL, ASKS_LINK))


def _typed_per_thing(question: str, evidence: Sequence[EvidencePath]) -> Computed | None:
    """ "Where will X and Y be held?": each thing's value of the asked type, in the question's order."""
    things = _things_named(question)
    if len(things) < 2 or not re.search(r"\band\b", question, re.IGNORECASE):
        return None
    typed = [(item, value) for item in evidence if (value := _typed_value(question, item)) is not None]
    chosen: list[tuple[EvidencePath, str]] = []
    for thing in things:
        thing_words = {word: 1.0 for word in words(thing)}
        scored = [
            (_overlap(thing_words, item.path), -item.rank, index)
            for index, (item, _) in enumerate(typed)
            if all(item is not other for other, _ in chosen)
        ]
        scored = [entry for entry in scored if entry[0] > 0]
        if scored:
            chosen.append(typed[max(scored)[2]])
    if len(chosen) < 2:
        return None
    return Computed(_join([value for _, value in chosen]), "value", sorted(item.rank for item, _ in chosen))


PREFIX_CHARS = 5
"""Words that agree in their first five letters are one word when typed values compete
("notified" / "Notification date"): truncation stemming, a general IR technique, not tuned."""


HEAR_BACK = re.compile(
    r"\b(?:will|do|can|would)\s+(?:i|we|you|authors?|applicants?)\s+(?:know|hear|learn|find out|be told|be informed)\b"
    r"|\bhear back\b",
    re.IGNORECASE,
)
""""When will I know / hear back …?" asks for the notification, which a site labels so."""


def _heading_fit(question: str, path: str) -> int:
    """How many of the question's words (by prefix) the path's headings hold (its value left out)."""
    headings = {word[:PREFIX_CHARS] for word in words(" ".join(path.split("»")[:-1]))}
    asked = {word[:PREFIX_CHARS] for word in words(question)}
    if HEAR_BACK.search(question):
        asked.add("notif")
    return len(asked & headings)


def _beyond_headings(asked: dict[str, float], path: str) -> dict[str, float]:
    """The question's words a path's headings do not hold: what its value must say itself (of two
    paragraphs under "Child Care", the one that says "register" for "By when do I register …?")."""
    headings = set(words(" ".join(path.split("»")[:-1])))
    return {word: weight for word, weight in asked.items() if word not in headings}


def span_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The best path's value; a record's other field when the path is the thing named; the value
    of the asked type (date, amount, address, link) among the top paths whose headings the
    question names best (of equals the higher ranked)."""
    top = evidence[0]
    field_answer = record_field(question, evidence, tree)
    if field_answer is not None:
        return field_answer
    if asks_for_type(question):
        each = _typed_per_thing(question, evidence)
        if each is not None:
            return each
        typed = [
            (item, value)
            for item in evidence[:TYPE_MATCH_DEPTH]
            for value in [_typed_value(question, item)]
            if value is not None
        ]
        if typed:
            asked = expanded_query(question)
            item, value = max(
                typed,
                key=lambda entry: (
                    not support.other_event(question, [entry[0].path]),  # "hear back" is not the deadline
                    _heading_fit(question, entry[0].path),
                    _overlap(_beyond_headings(asked, entry[0].path), entry[1]),
                    -entry[0].rank,
                ),
            )
            return Computed(value, "value" if value != item.value else "span", [item.rank])
    paragraphs = _paragraph_list(tree, top)
    if paragraphs is not None:
        kept = _on_the_day_asked(question, paragraphs)
        if len(kept) == len(paragraphs):
            return Computed(" ".join(node.text or "" for node in kept), "span", [top.rank])
        # the entries of the day asked rest on their own paths ("July 24th 9:00 am …"), not on the top one's day
        ranks = {item.node_id: item.rank for item in evidence}
        cited = sorted({ranks[node.id] for node in kept if node.id in ranks}) or [top.rank]
        read = [node for node in kept if node.id not in ranks]
        return Computed(" ".join(node.text or "" for node in kept), "span", cited, read)
    return Computed(_best_sentences(question, top.value), "span", [top.rank])


MAX_PARAGRAPHS = 8


def _paragraph_list(tree: Tree, item: EvidencePath) -> list[Node] | None:
    """When the best path is one unlabelled paragraph of a short run of them (steps, rules, notes
    under one heading), the run is the answer: a heading's text is read as a whole."""
    leaf = _leaf(tree, item)
    parent = tree.parent(leaf) if leaf is not None else None
    if leaf is None or leaf.label or parent is None:
        return None
    children = tree.children(parent)
    if not 2 <= len(children) <= MAX_PARAGRAPHS or any(not child.is_leaf or child.label for child in children):
        return None
    return children


def _weekdays(text: str) -> set[str]:
    return {match.group(1).lower() for match in support.CALENDAR.finditer(text) if match.group(1)}


MONTH_DAY = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b"
    r"|\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)
"""A day of a month, "July 24th" or "24 July": the month by its three letters and the day's number."""


def _month_days(text: str) -> set[str]:
    return {
        f"{(match.group(1) or match.group(4)).lower()} {int(match.group(2) or match.group(3))}"
        for match in MONTH_DAY.finditer(text)
    }


def _on_the_day_asked(question: str, paragraphs: list[Node]) -> list[Node]:
    """Of a run of entries by day ("Sun, July 23 2:00pm-6:00pm", "Mon, …"), those of the day the question
    names ("on Sunday", "on July 24"); all of them when it names none or none is of that day."""
    for days in (_month_days, _weekdays):
        asked = days(question)
        kept = [node for node in paragraphs if asked & days(node.text or "")] if asked else []
        if kept:
            return kept
    return paragraphs


def _section_leaves(tree: Tree, leaf: Node) -> list[Node]:
    parent = tree.parent(leaf)
    if parent is None:
        return [leaf]
    return [node for node in tree.subtree_leaves(parent) if node.text]


def list_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The values of the section the best path sits in, when its siblings are the list asked for."""
    leaf = _leaf(tree, evidence[0])
    if leaf is None:
        return span_answer(question, evidence, tree)
    parent = tree.parent(leaf)
    items = _section_leaves(tree, leaf)
    above = tree.parent(parent) if parent is not None else None
    if parent is not None and parent.kind == "item" and above is not None:
        # a record's field matched: list the same field of every record in the list (and the
        # list's bare entries, which are records of one field)
        same_field: list[Node] = []
        for entry in tree.children(above):
            if entry.is_leaf:
                same_field += [entry] if entry.text else []
            else:
                same_field += [
                    child
                    for child in tree.children(entry)
                    if child.is_leaf and child.label == leaf.label and child.text
                ]
        if len(same_field) > 1:
            items = same_field
    if len(items) <= 1:
        return span_answer(question, evidence, tree)
    ranks = {item.node_id: item.rank for item in evidence}
    texts = [node.text or "" for node in items[:MAX_LIST_ITEMS]]
    cited = sorted({ranks[node.id] for node in items if node.id in ranks}) or [evidence[0].rank]
    return Computed(_join(texts), "list", cited)


def _join(texts: Sequence[str]) -> str:
    texts = [text for text in texts if text]
    if len(texts) <= 1:
        return "".join(texts)
    return ", ".join(texts[:-1]) + " and " + texts[-1]


def count_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """How many: the children of the node the question names (above the best path)."""
    leaf = _leaf(tree, evidence[0])
    noun = re.search(
        r"how many\s+([a-z][\w\s-]*?)(?:\s+(?:are|is|were|will|do|does|did|can|have|has|in|on|at|of|for)\b|\?|$)",
        question,
        re.IGNORECASE,
    )
    noun_text = noun.group(1).strip() if noun else ""
    if leaf is None:
        return span_answer(question, evidence, tree)
    # A number written in the value answers directly ("31 members").
    written = NUMBER.findall(evidence[0].value)
    named = _named_node(tree, leaf, question)
    counted = [child for child in tree.children(named) if child.is_leaf and child.text or not child.is_leaf]
    if len(counted) <= 1 and written and len(evidence[0].value.split()) <= 6:
        return Computed(f"{written[0]} {noun_text}".strip(), "count", [evidence[0].rank])
    count = len(counted)
    return Computed(f"{count} {noun_text}".strip(), "count", [evidence[0].rank])


def _amount_paths(evidence: Sequence[EvidencePath]) -> list[tuple[EvidencePath, float, Amount]]:
    found = []
    for item in evidence:
        amounts = find_amounts(item.value)
        if amounts:
            found.append((item, amounts[0].value, amounts[0]))
    return found


def _things_named(question: str) -> list[str]:
    """The things a comparison or a sum names: the parts around 'and'/'or'/'than'/','."""
    body = re.sub(r"^(how much|which|what)\b[^,]*?\b(do|does|is|are|would|will)\b", "", question, flags=re.IGNORECASE)
    parts = re.split(r"\band\b|\bor\b|\bthan\b|,|\bvs\.?\b", body, flags=re.IGNORECASE)
    return [part for part in parts if words(part)]


def _one_per_thing(
    question: str, candidates: list[tuple[EvidencePath, float, Amount]]
) -> list[tuple[EvidencePath, float, Amount]]:
    """For each thing the question names, the best-matching path among ``candidates`` (in rank order)."""
    chosen: list[tuple[EvidencePath, float, Amount]] = []
    for thing in _things_named(question):
        thing_words = {word: 1.0 for word in words(thing)}
        scored = [
            (_overlap(thing_words, item.path), -item.rank, (item, value, currency))
            for item, value, currency in candidates
            if all(item is not other[0] for other in chosen)
        ]
        scored = [entry for entry in scored if entry[0] > 0]
        if scored:
            chosen.append(max(scored)[2])
    return chosen


def sum_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    candidates = _amount_paths(evidence)
    chosen = _one_per_thing(question, candidates)
    if len(chosen) < 2:
        chosen = candidates[:2]
    if not chosen:
        return span_answer(question, evidence, tree)
    total = sum(value for _, value, _ in chosen)
    return Computed(format_amount(total, chosen[0][2]), "sum", sorted(item.rank for item, _, _ in chosen))


def compare_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """Which of the things named is cheaper/more/earlier…: their amounts (or dates) compared."""
    lowered = question.lower()
    wants_low = bool(re.search(r"\b(cheaper|less|lower|smaller|earlier|fewer)\b", lowered))
    chosen = _one_per_thing(question, _amount_paths(evidence))
    if len(chosen) >= 2:
        pick = (min if wants_low else max)(chosen, key=lambda entry: entry[1])
        item = pick[0]
        return Computed(
            f"{item.path.split('»')[-2] if '»' in item.path else item.value} ({item.value})",
            "compare",
            sorted(entry[0].rank for entry in chosen),
        )
    dated = [(item, found[0].day) for item in evidence if (found := find_dates(item.value))]
    if len(dated) >= 2:
        item = (min if wants_low else max)(dated[:3], key=lambda entry: entry[1])[0]
        return Computed(item.value, "compare", sorted(entry[0].rank for entry in dated[:3]))
    return span_answer(question, evidence, tree)


def date_order_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree, latest: bool) -> Computed:
    """The earliest or latest date among the best path's section (a node's children) and the evidence."""
    leaf = _leaf(tree, evidence[0])
    pool: list[tuple[str, int | None]] = [(item.value, item.rank) for item in evidence]
    if leaf is not None:
        pool += [(node.text or "", None) for node in _section_leaves(tree, leaf) if node.id != leaf.id]
    dated = [(found[0], text, rank) for text, rank in pool for found in [find_dates(text)] if found]
    if not dated:
        return span_answer(question, evidence, tree)
    best = (max if latest else min)(dated, key=lambda entry: entry[0].day)
    return Computed(best[1], "latest" if latest else "earliest", [best[2] or evidence[0].rank])


SAME = re.compile(r"\b(the same|identical|equal|fixed)\b", re.IGNORECASE)


def _differing_values(evidence: Sequence[EvidencePath], tree: Tree) -> list[EvidencePath]:
    """The paths among the evidence and the best path's section whose amounts (or dates) differ."""
    found: dict[str, EvidencePath] = {}
    leaf = _leaf(tree, evidence[0])
    parent = tree.parent(leaf) if leaf is not None else None
    if parent is not None and parent.kind == "item":  # a record's field: its section is the list of records
        leaf = parent
    section = (
        []
        if leaf is None
        else [
            EvidencePath(0, node.id, node_path_text(tree, node), node.text or "", "", 0.0)
            for node in _section_leaves(tree, leaf)
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
    first, a page's lead sentence (the shorter-sentence tie-break of ``_closest_sentence`` measured
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
            return Computed(f"No, {shown}", "yes_no", sorted({item.rank for item in differing[:3] if item.rank} or {1}))
    field_answer = record_field(question, evidence, tree)
    if field_answer is not None:  # "Is anyone affiliated with X?" found X: yes, and who
        verdict = "No" if deciding.denies(question, field_answer.text) else "Yes"  # "Did anyone win?" "Not assigned"
        return Computed(f"{verdict}, {field_answer.text}", "yes_no", field_answer.cited)
    subject = support.subject(ONE_OF.sub("", question), tree, Kind.TEXT)
    best = deciding.Deciding(evidence[0], _support_sentence(question, evidence[0].value))
    echo = checks.echoes_question(question, best.sentence) or deciding.names_its_record(best)
    chosen = deciding.Deciding(evidence[0], "") if echo else best  # the subject's own name decides nothing …
    decided = bool(chosen.sentence) and _negates_the_question(question, chosen.sentence)  # "… are not anonymous"
    chosen = deciding.deciding_sentence(question, subject, evidence, chosen, decided) or chosen
    thing = checks.existence_thing(question)
    if thing and chosen.sentence and not deciding.names_thing(thing, chosen):
        # "Is there an online submission process?" is not decided by a sentence on workshop contents online
        chosen = deciding.naming_thing(thing, subject, evidence) or deciding.Deciding(chosen.item, "")
        if not chosen.sentence:
            return _abstain(tree, f"mention of {_topic(question, tree) or 'it'}")
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
        and not _states(best.sentence if labelled else sentence)
        and support_share(question, tree, f"{item.path} {item.value}") < WHOLE_SUBJECT
    ):
        # "Lunch Break" in a workshop's schedule says nothing of lunch being "included in the registration"
        return _abstain(tree, f"mention of {_topic(question, tree) or 'it'}")
    if STATED_VERDICT.match(sentence):  # the sentence says its own verdict: "No, fully virtual workshops …"
        return Computed(sentence, "yes_no", [item.rank])
    return Computed(f"{verdict}, {sentence if labelled else _lower_first(sentence)}", "yes_no", [item.rank])


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


def site_data(tree: Tree) -> str:
    """How the abstain sentence names the source: "ICML2023's site data"."""
    return f"{tree.root.label or tree.name}'s site data"


ONLINE_ACTION = re.compile(
    r"\bwhere\s+(?:can|do|should|could|may)\s+(?:i|we|you|one)\s+(?:find|get|download|access|"
    r"see|read|register|apply|submit|sign up|upload|buy)\b",
    re.IGNORECASE,
)
""""Where can I find the slides?" asks for a pointer (a link, a page), not for a place."""
FIND_ACTION = re.compile(
    r"\bhow\s+(?:can|do|should|could|may)\s+(?:i|we|you|one)\s+(?:find|get|download|access|see|"
    r"reach|visit)\b",
    re.IGNORECASE,
)
""""How can I find the accepted workshops?" asks for a pointer too: a bare link may answer it."""


HEAD_NOUN = re.compile(
    r"^\s*(?:what|which)\s+(?:(?:is|are|was|were)\s+)?(?:the\s+|a\s+|an\s+)?"
    r"(?!(?:does|do|did|can|could|will|would|should|must|has|have)\b)([a-z][\w\s-]*?)\s+"
    r"(?:of|on|for|about|in|at|to|regarding|should|would|will|can|could|do|does|did|is|are|must)\b",
    re.IGNORECASE,
)
""""What <thing> of/should …": the thing names what is asked ("What review aspects should be considered
when reviewing …?" asks for aspects, whatever its "when" clause says)."""


HEAD_ALONE = re.compile(
    r"^\s*(?:what|which)\s+(?:is|are|was|were)\s+(?:the\s+|a\s+|an\s+)?([a-z][\w\s-]*?)\s*\??$", re.IGNORECASE
)
""""What is the hotel room rate?": the thing asked, with nothing after it."""
AMOUNT_NOUNS = frozenset(stem(word) for word in "prize prizes rate rates fee fees price prices cost costs".split())
"""A head noun that names an amount: "What was the prize …?" asks for money as "How much …?" does (general
English; a rate may be a share, "acceptance rate", which the site then has no amount for)."""


TIME_WORDS = re.compile(r"\b(?:days?|dates?|deadlines?|due|when|time|long|years?|months?|weeks?)\b", re.IGNORECASE)
"""A question that says one of these may be answered by a date, whatever kind its head reads as."""
WHAT_DO = re.compile(r"^\s*(?:what|which)\s+(?:do|does|did|should|must|can|could|will|would)\b", re.IGNORECASE)
SUBORDINATE = re.compile(r"\b(?:when|where|if|while|before|after|once)\b.*$", re.IGNORECASE)
""""What does X cost?" asks for what its verb or object says; a clause opened by "when"/"where"/"if" after
it only sets the scene."""


def conference_kind(question: str) -> Kind:
    """The asked kind (``core.answer_kind``), read for a conference site: a venue is a place here, and
    "where can I find/register …" asks for a pointer, which the span operators answer."""
    head = HEAD_NOUN.match(question) or HEAD_ALONE.match(question)
    if head and set(words(head.group(1))[-1:]) & AMOUNT_NOUNS:
        return Kind.MONEY  # "What was the prize for …?", "What is the hotel room rate?": an amount
    if head:
        kind = asked_kind(f"what {head.group(1)}?")
    elif WHAT_DO.match(question):  # "What do I need to bring when I register?": the "when" clause asks nothing
        kind = asked_kind(SUBORDINATE.sub("", question))
    else:
        kind = asked_kind(question)
    if kind is Kind.VENUE:
        kind = Kind.PLACE
    if kind is Kind.PLACE and ONLINE_ACTION.search(question):
        return Kind.TEXT
    return kind


def _abstain(tree: Tree, missing: str, about: str | None = None) -> Computed:
    return Computed(abstain_sentence(missing, about, source=site_data(tree)), "abstain", [])


def _found(found: kinds.Found, operation: str = "value") -> Computed:
    return Computed(found.text, operation, [found.rank] if found.rank is not None else [], [found.node])


def _counted(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """How many: a number the site writes before the thing, else the records of the node the question names."""
    stated = kinds.stated_count(question, evidence)
    noun = kinds.asked_phrase(question)
    qualifier = checks.count_qualifier(question)  # "were accepted": only a list of accepted ones counts them
    values = {item.rank: item.value for item in evidence}
    if stated is not None and (qualifier is None or checks.names_qualifier(qualifier, [values[stated[1]]])):
        return Computed(f"{stated[0]} {noun}".strip(), "count", [stated[1]])  # "2 days", as the site writes it
    found = kinds.collection(question, evidence, tree)
    if found is None:
        return None
    narrowed = coverage.narrower_set(question, found.node.label) if found.node is not None else None
    if narrowed is not None:  # "How many reviewers?" over "Outstanding Reviewers (Top 10%)" counts a part of them
        return _abstain(tree, "count", f"{_topic(question, tree) or 'them'} (only a list of “{narrowed}” ones)")
    if qualifier is not None and not checks.names_qualifier(
        qualifier, [kinds.with_parents(found.node, tree)] if found.node is not None else [_leaf_text(found.items[0])]
    ):
        return None
    return Computed(
        f"{len(found.items)} {noun}".strip(),
        "count",
        found.ranks,
        [found.node] if found.node is not None else found.items[:1],
    )


def _listed(kind: Kind, question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """Which/who are: the records of the node the question names, each by its title (a person by name)."""
    found = kinds.collection(question, evidence, tree)
    if found is None:
        return None
    narrowed = coverage.narrower_set(question, found.node.label) if found.node is not None else None
    if narrowed is not None:  # "Who are the reviewers?" is not answered by the outstanding ones
        return _abstain(tree, "list", f"{_topic(question, tree) or 'them'} (only a list of “{narrowed}” ones)")
    texts = [kinds.item_text(kind, record, tree) for record in found.items[:MAX_LIST_ITEMS]]
    return Computed(
        _join(texts), "list", found.ranks, [found.node] if found.node is not None else found.items[:MAX_LIST_ITEMS]
    )


CHECKED = (Kind.PLACE, Kind.DATE, Kind.MONEY, Kind.PEOPLE, Kind.COUNT)


DATED_STATEMENT_WORDS = 50
"""The longest text a "when" takes whole: a sentence or two that states its date; beyond it the date found is
as likely another event's."""


def _of_kind(kind: Kind, text: str) -> bool:
    """Whether an answer's text is of the asked kind (a "where" is not a date, a "when" holds one)."""
    if kind is Kind.DATE:  # a paragraph holding some date ("(revised 21 April 2021)") does not say when
        return (bool(find_dates(text)) and len(text.split()) <= DATED_STATEMENT_WORDS) or fits(Kind.DATE, text)
    if kind is Kind.MONEY:
        return bool(find_amounts(text)) or fits(Kind.MONEY, text)
    if kind is Kind.COUNT:
        return bool(re.match(r"\s*(\d[\d,]*|" + "|".join(kinds.NUMBER_WORDS) + r")\b", text, re.IGNORECASE))
    if kind is Kind.PLACE:
        return fits(Kind.PLACE, text) and not kinds._only_dates(text)
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
            and not kinds._only_dates(text)  # "Apr 24 '23 (Anywhere on Earth)" is a deadline, not a title
        )
    return fits(kind, text)


PAPER_TITLE_WORDS = 30
GROUP_WORDS = frozenset(stem(word) for word in "committee board team council office department track".split())
"""Nouns that name a body of people, not its members: "Oversight Committee NeurIPS/ICLR/ICML Journal to Conference
Track" answers no "who"."""


CONTRACTION = re.compile(r"\b(what|who|where|when|how|which|that|there|it)['’]s\b", re.IGNORECASE)
""""What's", "Who's": a question word with "is" written short (not a possessive: no question word owns)."""


def compute_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The answer of the kind the question asks for, or one plain sentence saying what the data lacks.

    The confidence check (``support``) comes last: an answer whose cited paths do not hold what the
    question is about is refused, whatever operator produced it."""
    question = CONTRACTION.sub(r"\1 is", question)  # "What's the email …?" asks as "What is …?" does
    question = asking.plain_question(question)  # "When does it kick off?" asks as "When does it start?" does
    joined = parts.split_parts(question)
    if joined is not None:  # "When and where is X?": each part of its own kind, or which part the data lacks
        return _both(question, [_one_answer(part, evidence, tree) for part in joined], tree)
    return _one_answer(question, evidence, tree)


def _both(question: str, answers: Sequence[Computed], tree: Tree) -> Computed:
    """The answers to the parts of a joined question together: both said, an abstaining part's sentence kept
    in its place (never one part answered and the other dropped)."""
    texts = list(dict.fromkeys(answer.text.rstrip(".") for answer in answers))  # one sentence saying both: once
    text = "; ".join(texts) + "."
    answered = [answer for answer in answers if answer.operation != "abstain"]
    if not answered:
        return _abstain(tree, "answer to either part", f"“{question.strip()}”")
    cited = sorted({rank for answer in answers for rank in answer.cited})
    read = [node for answer in answers for node in answer.read]
    said = " ".join(answer.said for answer in answered if answer.said)
    branch_checked = all(answer.branch_checked for answer in answered)
    return Computed(text, answered[0].operation, cited, read, said=said, branch_checked=branch_checked)


def _one_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    answer = _computed(question, evidence, tree)
    if answer.operation == "abstain":
        answer = _faq_answer(question, evidence, tree) or answer
    if answer.operation == "abstain":
        return answer
    kind = conference_kind(question)
    answer = _checked(question, kind, answer, evidence, tree)
    if answer.operation == "abstain":
        return answer
    answer = _of_asked_role(question, answer, evidence, tree) if kind is Kind.PEOPLE else answer
    answer = _of_asked_form(question, kind, answer, evidence, tree)
    answer = _of_asked_time(question, kind, answer, evidence, tree)
    answer = _of_asked_number(question, answer, tree)
    if answer.operation == "abstain":
        return answer
    paths = (
        [
            _said_for_yes_no(question, item, _verdict_sentence(answer.text))
            for item in evidence
            if item.rank in answer.cited
        ]
        if answer.operation == "yes_no"
        else answer_paths(answer, evidence, tree)
    )
    for node in _value_nodes(answer, evidence, tree)[:1]:
        noun = coverage.owner_not_possessed(question, tree, node)
        if noun is not None:  # "Krötzsch's talk" answered by his bio: the owner's field, not the thing of his asked
            return _abstain(tree, noun, _topic(question, tree))
    term = (
        None
        if answer.branch_checked  # read from the branch the question names ("after the early deadline")
        or answer.operation not in (*SINGLE_VALUE_OPERATIONS, "yes_no")  # a sum or a list rests on several paths
        else coverage.contrasted_term(
            question,
            tree,
            kind,
            _answer_nodes(answer, evidence, tree),
            paths,
            _like_answer(question, kind, answer.text, tree),
        )
    )
    if term is None and not answer.branch_checked and answer.operation in SINGLE_VALUE_OPERATIONS:
        term = coverage.longer_name(question, tree, kind, paths) or coverage.other_event_kind(question, paths)
    if term is not None:  # the site keeps the thing asked apart from the one answered: "workshops" beside it
        return _not_held(kind, question, tree, missing=term)
    if support.misses_asked_edition(question, tree, paths):
        return _other_edition(kind, question, tree)
    if answer.branch_checked or support.supported(question, tree, kind, [*paths, answer.said]):
        return answer
    if answer.operation == "yes_no":
        return _abstain(tree, f"mention of {_topic(question, tree) or 'it'}")
    return _not_held(kind, question, tree)


FAQ_QUESTION_LABELS = frozenset({"q", "question"})
FAQ_ANSWER_LABELS = frozenset({"a", "answer"})


def _faq_answer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """When the best path is a FAQ's question ("Which journal(s) are eligible?") and no value of the asked kind was
    found, the FAQ's own answer field ("Only JMLR. …"), its sentence closest to the question; it is then checked
    like any answer (the cited question must hold what is asked). None when the top path is no FAQ question."""
    leaf = _leaf(tree, evidence[0])
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
    return Computed(_best_sentences(question, answer.text or ""), "span", [evidence[0].rank], [answer])


def _answer_nodes(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> list[Node]:
    """The tree nodes an answer was read from: its cited leaves and the nodes read beyond them."""
    cited = [node for item in evidence if item.rank in answer.cited and (node := _leaf(tree, item)) is not None]
    return [*cited, *answer.read]


def _like_answer(question: str, kind: Kind, text: str, tree: Tree) -> Callable[[Node], bool]:
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


def _of_asked_form(
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
    return _abstain(tree, "e-mail address", _topic(question, tree))


def _of_asked_time(
    question: str, kind: Kind, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed:
    """A time of day asked ("What time does the reception start?") is answered by a value that writes one: the
    answer when it does, else the best ranked evidence that writes one and holds what the question is about, else
    the plain sentence; never a heading or a date alone ("Submission Deadline for Challenge Proposals")."""
    if not asking.asks_clock_time(question) or answer.operation == "yes_no" or asking.says_clock_time(answer.text):
        return answer
    for item in evidence:
        if asking.says_clock_time(item.value) and support.supported(question, tree, kind, [item.path]):
            return Computed(_best_sentences(question, item.value), "value", [item.rank])
    return _abstain(tree, "time of day", _topic(question, tree))


ASKS_NUMBER = re.compile(r"\b(?:what|which)\b[^?]*?\bnumbers?\b", re.IGNORECASE)
"""A number asked for by name: "What LNCS volume number are the proceedings?", "what's the room number of …"."""


def _of_asked_number(question: str, answer: Computed, tree: Tree) -> Computed:
    """A number asked by name is answered by a value that writes one (digits or a number word), else the plain
    sentence: a heading that names the thing numbered ("Information for authors … LNCS proceedings") is no
    volume number."""
    if answer.operation in ("yes_no", "abstain") or not ASKS_NUMBER.search(question):
        return answer
    if re.search(r"\d", answer.text) or set(words(answer.text)) & set(kinds.NUMBER_WORDS):
        return answer
    return _abstain(tree, "number", _topic(question, tree))


def _value_nodes(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> list[Node]:
    """The nodes an answer's value was read from first (a record's field beyond the cited path), then its cited
    leaves."""
    return [*answer.read, *(node for node in _answer_nodes(answer, evidence, tree) if node not in answer.read)]


def _of_asked_role(question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """A person read under another role than the one asked ("Moderator" for "Who sits on the panel?") gives way
    to the people of the sibling heading the question names ("Panelists"), else to the plain sentence."""
    for node in _value_nodes(answer, evidence, tree)[:1]:
        sibling, other = coverage.other_role(question, tree, node)
        if not other:
            return answer
        if sibling is None:
            return _not_held(Kind.PEOPLE, question, tree)
        records = [child for child in tree.children(sibling) if child.text or not child.is_leaf]
        names = [kinds.item_text(Kind.PEOPLE, record, tree) for record in records[:MAX_LIST_ITEMS]]
        return Computed(_join(names), "list", answer.cited, [sibling])
    return answer


def _not_held(kind: Kind, question: str, tree: Tree, missing: str | None = None) -> Computed:
    """The plain sentence for a value of ``kind`` the site data does not hold ("ICML2023's site data has no
    date for acceptance rate."), with the word nothing answered names quoted ("… for guest ticket
    “workshops”.")."""
    topic = _topic(question, tree)
    if missing is not None:
        quoted = re.sub(rf"\b{re.escape(missing)}\b", f"“{missing}”", topic or "", count=1, flags=re.IGNORECASE)
        topic = quoted if "“" in quoted else f"{topic or ''} “{missing}”".strip()
    if kind is Kind.TEXT:
        return _abstain(tree, f"information on {topic or 'it'}")
    return _abstain(tree, kind.noun, topic)


def _other_edition(kind: Kind, question: str, tree: Tree) -> Computed:
    """The plain sentence for a question about another year's conference: "ISWC2022's site data has no place
    for ISWC 2023." (the topic read from the question said "… for ISWC 2023 place")."""
    editions = " or ".join(kinds.asked_edition_names(question, tree)) or "another edition"
    noun = "information" if kind is Kind.TEXT else kind.noun
    return _abstain(tree, noun, editions)


STATEMENT_WORDS = 3


def _states(value: str) -> bool:
    """Whether a value says something (a sentence), not only names it (a title, a label)."""
    return len(value.split()) >= STATEMENT_WORDS or value.rstrip().endswith(".")


def _names_thing(thing: list[str], question: str, item: EvidencePath) -> bool:
    """Whether a path's headings and its value name the thing asked about."""
    headings = PATH_SEPARATOR.join(item.path.split(PATH_SEPARATOR)[:-1])
    return checks.names_thing(thing, headings, item.value, question)


SINGLE_VALUE_OPERATIONS = ("span", "value")


def _checked(question: str, kind: Kind, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    """The general checks of ``checks`` on an answer: a superlative the evidence states, an answer that is
    more than the question's own words, a value from the branch the question names (else the plain sentence)."""
    cited = [item for item in evidence if item.rank in answer.cited]
    texts = [f"{item.path} {item.value}" for item in cited] + [node_path_text(tree, node) for node in answer.read]
    superlative = checks.unstated_superlative(question, texts)
    if superlative is not None:  # "Which hotel is closest?" over a page that compares nothing
        return _abstain(tree, f"statement of what is {superlative}")
    if answer.operation in SINGLE_VALUE_OPERATIONS and checks.echoes_question(question, answer.text):
        return _not_held(kind, question, tree)  # "Who sponsors X?" → "X Sponsor" says nobody
    if answer.operation == "list" and kind is Kind.PEOPLE:  # a section's fields listed: its role label holds no role
        items = [item for item in re.split(r", | and ", answer.text) if item]
        kept = [item for item in items if not checks.echoes_question(question, item)]
        if len(kept) < len(items):
            if not kept or (kind is Kind.PEOPLE and sum(_of_kind(Kind.PEOPLE, item) for item in kept) * 2 < len(kept)):
                return _not_held(kind, question, tree)
            answer.text = _join(kept)
    if answer.operation in SINGLE_VALUE_OPERATIONS and kind in CHECKED:
        nodes = [node for item in cited if (node := _leaf(tree, item)) is not None] + list(answer.read)
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
    if node is None or (kind in CHECKED and not _of_kind(kind, node.text or "")):
        return _not_held(kind, question, tree)  # (a menu's "Authors" page beside "Dates" holds no date)
    rank = next((item.rank for item in evidence if item.node_id == node.id), None)
    switched = _found(kinds.Found(node, node.text or "", rank))
    switched.branch_checked = support.supported(question, tree, kind, [item.path for item in cited])
    return switched


def _said_for_yes_no(question: str, item: EvidencePath, sentence: str | None = None) -> str:
    """What a yes or no rests on: the path's headings and the one sentence of its value the verdict reads
    (``sentence``, else its closest to the question: a page that says "care" in one sentence and "children" in
    another says nothing of child care)."""
    headings = PATH_SEPARATOR.join(item.path.split(PATH_SEPARATOR)[:-1])
    said = sentence if sentence and sentence.lower() in item.value.lower() else None  # not "John Roe" of a record
    return f"{headings} {said or _support_sentence(question, item.value)}"


def _verdict_sentence(text: str) -> str | None:
    """The sentence written beside a verdict ("No, registrations are not Transferable." → the sentence)."""
    verdict = re.match(r"\s*(?:yes|no),\s*", text, re.IGNORECASE)
    return text[verdict.end() :] if verdict else None


def answer_paths(answer: Computed, evidence: Sequence[EvidencePath], tree: Tree) -> list[str]:
    """The paths an answer rests on: the evidence it cites and the tree nodes it was read from, with the
    other fields of a record it was read from (a prize winner's title is supported by its category)."""
    nodes = [_leaf(tree, item) for item in evidence if item.rank in answer.cited] + list(answer.read)
    paths = [item.path for item in evidence if item.rank in answer.cited]
    paths += [node_path_text(tree, node) for node in answer.read]
    for node in nodes:
        record = node if node is not None and node.kind == "item" else (tree.parent(node) if node is not None else None)
        if record is not None and record.kind == "item":
            paths += [
                f"{child.label} {child.text}"
                for child in tree.children(record)
                if child.is_leaf and child.text and len(child.text.split()) <= kinds.CATEGORY_MAX_WORDS
            ]  # a record's short fields (its category, its role), not a page's paragraphs
    return paths


UNKNOWN_TOGETHER = 2
"""One word a small site does not use may be its synonym ("street" for an "Address"); two together that it
never uses name a topic it does not cover."""


def _all_unknown(question: str, tree: Tree) -> str | None:
    """What the question is about, when the site uses none of its words (on a small site too, where one unknown
    word alone says little: "What is the Wi-Fi password?" on a workshop's one page), else None."""
    about = support.subject(question, tree, conference_kind(question), known_only=False)
    if len(about) < UNKNOWN_TOGETHER or support.subject(question, tree, conference_kind(question)):
        return None
    return _topic(question, tree)


def _computed(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed:
    if not evidence:
        return _abstain(tree, "evidence", f"“{question.strip()}”")
    form = question_form(question)
    valued = _value_asked(form, question, evidence, tree)
    if valued is not None:  # "what's the page limit?" is answered by "15 pages", not a sentence naming the limit
        return valued
    unknown = kinds.unknown_topic(question, tree) or _all_unknown(question, tree)
    if unknown:  # a word the site never uses: answering a neighbour would be a confident wrong answer
        return _abstain(tree, f"mention of “{unknown}”")
    kind = conference_kind(question)
    if form == "list" and kind in (Kind.DATE, Kind.MONEY):  # "On which days …?" asks one value
        form = "span"
    named = _named_value(question, evidence, tree)
    if named is not None:
        return named
    if form == "yes_no":  # a yes or no rests on the path that says most of what is asked, not merely the first,
        # and on a statement rather than a heading's title ("Transfer Policy" says neither yes nor no)
        shares = {
            item.rank: support.support(question, tree, kind, [_said_for_yes_no(question, item)]) for item in evidence
        }
        evidence = sorted(
            evidence,
            key=lambda item: (
                -(shares[item.rank] >= support.SUPPORT_SHARE and _states(item.value)),
                -shares[item.rank],
            ),
        )
    predicate = checks.asked_predicate(question) if form == "yes_no" else []
    if predicate:  # "Are talks streamed online?": a verdict rests on a path that says whether they are streamed
        saying = [item for item in evidence if _names_thing(predicate, question, item)]
        if not saying:
            return _abstain(tree, f"mention of {_topic(question, tree) or 'it'}")
        evidence = [*saying, *(item for item in evidence if item not in saying)]
    thing = checks.existence_thing(question) if form == "yes_no" else []
    if thing:  # "Is there a conference app?": a yes rests on a path that names the app, not on any mention
        naming = [item for item in evidence if _names_thing(thing, question, item)]
        if not naming:
            return _abstain(tree, f"mention of {_topic(question, tree) or 'it'}")
        evidence = [*naming, *(item for item in evidence if item not in naming)]
    if (
        form == "yes_no"
        and not SAME.search(question)
        and not kinds.names_topic(question, tree, f"{evidence[0].path} {evidence[0].value}")
    ):
        # "Is there child care?" over a registration fee: a Yes would rest on nothing about child care
        return _abstain(tree, f"mention of {_topic(question, tree) or 'it'}")
    sponsors = checks.role_holders(question, tree)
    if sponsors is not None:  # "Who sponsors the doctoral consortium?": the names listed for that role
        nodes, names = sponsors
        ranks = {item.node_id: item.rank for item in evidence}
        return Computed(_join(names), "list", sorted({ranks[node.id] for node in nodes if node.id in ranks}), nodes)
    if ONLINE_ACTION.search(question):
        pointer = _pointer(question, evidence, tree)
        if pointer is not None:
            return pointer
    if (
        form in ("span", "list")
        and kind is Kind.PEOPLE
        and (holders := kinds.role_holders(question, evidence, tree, headed=form == "span"))
    ):
        # a role several records hold: every holder, cited by its record
        return Computed(_join([kinds.item_text(Kind.PEOPLE, record, tree) for record in holders]), "list", [], holders)
    elif form == "count":
        answer = _counted(question, evidence, tree) or (
            count_answer(question, evidence, tree)
            if checks.count_qualifier(question) is None
            else _abstain(tree, "count", _topic(question, tree))
        )
        if answer.operation == "abstain":  # the sentence says why: "only a list of “outstanding” ones"
            return answer
    elif (
        form == "span"
        and kind is Kind.PEOPLE
        and ONE_PERSON.search(question)
        and (labelled := _role_labelled(question, evidence, tree))
    ):
        return labelled  # "Who is the general chair?": the name under the heading "General Chair"
    elif form == "list" or (kind is Kind.PEOPLE and form == "span" and kinds.asked_noun(question)):
        answer = _listed(kind, question, evidence, tree) or OPERATORS[form](question, evidence, tree)
        items = [item for item in re.split(r", | and ", answer.text) if item]
        people = sum(_of_kind(Kind.PEOPLE, item) or bool(kinds.PERSON_IN.search(item)) for item in items)
        if kind is Kind.PEOPLE and people * 2 < len(items):  # a list of people, most of it at least
            person = kinds.person_in_sentences(question, evidence)
            return person or _abstain(tree, "person", _topic(question, tree))
    elif form == "span" and kind is Kind.PLACE:
        named = _place_of_named(question, evidence, tree)  # "Where is Jane Doe based?": her record's field
        if named is not None:
            return named
        asked = question if kinds.asked_editions(question, tree) else _without_identity(question, tree)
        found = kinds.typed_value(Kind.PLACE, asked, evidence, tree)
        return _found(found) if found else _abstain(tree, "location", _topic(question, tree))
    elif form == "span" and kind is Kind.DATE and kinds.asks_itself(question, tree):
        found = kinds.typed_value(Kind.DATE, question, evidence, tree)  # the conference's own dates
        return _found(found) if found else _abstain(tree, "date", _topic(question, tree))
    else:
        answer = OPERATORS[form](question, evidence, tree)
    if (
        form == "span"
        and URL.fullmatch(answer.text.strip())
        and not any(pattern.search(question) for pattern in (ASKS_LINK, ONLINE_ACTION, FIND_ACTION))
    ):
        # a bare link answers "which time zone …?" with a converter's address: the next value instead
        rest = [item for item in evidence if not URL.fullmatch(item.value.strip())]
        answer = span_answer(question, rest, tree) if rest else _abstain(tree, kind.noun, _topic(question, tree))
    if form == "span" and kind in (Kind.DATE, Kind.MONEY) and answer.operation != "abstain":
        answer = _from_labelled(kind, question, answer, evidence, tree)
    # A value of another kind, or of the kind but about another thing ("How much is the gala dinner?"
    # answered with a student fee), is refused: the node of the asked kind the question names, or the sentence.
    about = kinds.about_the_question(question, tree, answer, evidence) if form == "span" else True
    if form == "span" and kind is Kind.TEXT and kinds._only_dates(answer.text) and not TIME_WORDS.search(question):
        # "What is the submission system?" is not answered by a bare date
        return _abstain(tree, f"information on {_topic(question, tree) or 'it'}")
    if form in ("span", "count") and kind in (*CHECKED, Kind.PAPER) and (not about or not _of_kind(kind, answer.text)):
        found = kinds.typed_value(kind, question, evidence, tree) if kind is not Kind.COUNT else None
        if found and kinds.about_the_question(question, tree, _found(found), evidence):
            return _found(found)
        field = checks.record_value(question, kind, tree)  # "the prize for the best poster": its record's "prize"
        if field is not None:
            return _found(kinds.Found(field, field.text or "", None))
        person = kinds.person_in_sentences(question, evidence) if kind is Kind.PEOPLE else None
        return person or _abstain(tree, kind.noun, _topic(question, tree))
    return answer


def _value_asked(form: str, question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The value itself when the question asks a measure ("what's the page limit?" → "15 pages", the plain
    sentence when no sentence states one) or the entries of a list that have a property ("which workshops run
    for a full day?" → their titles); None when it asks neither."""
    if form in ("span", "count") and value_answers.asked_units(question):
        stated = value_answers.measure_value(question, evidence, tree)
        if stated is None:
            units = value_answers.asked_units(question)
            return _abstain(tree, f"number of {units[0]}", _topic(question, tree))
        text = stated.measure.bound(value_answers.asked_bound(question))
        return Computed(text, "value", [stated.item.rank], said=value_answers.measure_words(stated.measure.unit))
    if form == "span" and value_answers.asks_named(question):
        named = value_answers.named_things(question, evidence, tree)
        if named is not None:  # else the span operators, which may read a record's field ("sponsor: …")
            return Computed(named[0], "value", [named[1].rank])
    if form in ("span", "list"):
        filtered = value_answers.filtered_entries(question, tree)
        if filtered is not None:  # each entry by its title, cited by the field that holds the property
            texts = [kinds.item_text(Kind.TEXT, record, tree) for record, _ in filtered[:MAX_LIST_ITEMS]]
            return Computed(_join(texts), "list", [], [field for _, field in filtered[:MAX_LIST_ITEMS]])
    return None


def _place_of_named(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The place field of the first record, in rank order, that names the thing the question names and holds a
    place there: a board's "affiliation: Elected 2019 & 2018 Program Chair" names a role, not where Andreas
    Krause works, and his committee record's "affiliation: ETH Zurich" does."""
    for start in range(len(evidence)):
        named = record_field(question, evidence[start:], tree, kinds.LABEL_WORDS[Kind.PLACE]) or _small_record_field(
            question, evidence[start], tree
        )
        if named is not None and not URL.search(named.text) and not EMAIL.search(named.text):
            if not _names_role(named.text) and len(named.text.split()) <= PLACE_MAX_WORDS:
                return named
    return None


PLACE_MAX_WORDS = 20
"""A place is named in a few words, an address at most a line ("Hawaii Convention Center, 1801 Kalakaua Ave,
Honolulu"); a record's longer field is its description (a workshop's abstract), never where it is."""
SMALL_RECORD = 4
"""A heading over this few fields, all values ("General Chair » name, affiliation"), is one person's record."""


def _small_record_field(question: str, item: EvidencePath, tree: Tree) -> Computed | None:
    """The field the question asks for ("affiliation") beside the value it names ("name: Andreas Krause") under a
    heading that is one small record, not a list of them."""
    leaf = _leaf(tree, item)
    parent = tree.parent(leaf) if leaf is not None else None
    if leaf is None or parent is None or not leaf.text or not names_the_value(question, leaf.text):
        return None
    fields = tree.children(parent)
    if len(fields) > SMALL_RECORD or any(not field.is_leaf for field in fields):
        return None
    asked = expanded_query(question)
    fitting = [field for field in fields if field.id != leaf.id and field.text and label_fit(asked, field.label) > 0]
    best = max(fitting, key=lambda field: label_fit(asked, field.label), default=None)
    return None if best is None else Computed(best.text or "", "span", [item.rank], [best])


ROLE_WORDS = kinds.LABEL_WORDS[Kind.PEOPLE] - {"name", "names"}


def _names_role(text: str) -> bool:
    """Whether a text names a role ("Program Chair", "President"): a role is held, not a place one is at."""
    return bool(set(words(text)) & ROLE_WORDS)


def _without_identity(question: str, tree: Tree) -> str:
    """The question less the words that name the conference itself (``support.identity``): on a workshop's site,
    "Where is the workshop held?" names nothing but the event, and the "Workshop dinner" is not it."""
    own = support.identity(tree)
    kept = [
        raw for raw in question.split() if not (words(raw) and {word[: kinds.PREFIX] for word in words(raw)} <= own)
    ]
    return " ".join(kept)


ONE_PERSON = re.compile(r"^\s*who\s+(?:is|was)\s+the\b", re.IGNORECASE)
""""Who is the general chair?" asks for the one person a heading names by that role."""


def _role_labelled(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """The person in the node the site labels with the role asked ("Organizing Committee » General Chair »
    name: …" for "Who is the general chair?"), preferring the evidence's."""
    node = support.labelled(Kind.PEOPLE, question, tree, [item.node_id for item in evidence])
    if node is None:
        return None
    rank = next((item.rank for item in evidence if item.node_id == node.id), None)
    return _found(kinds.Found(node, node.text or "", rank))


def _from_labelled(
    kind: Kind, question: str, answer: Computed, evidence: Sequence[EvidencePath], tree: Tree
) -> Computed:
    """A date or an amount read from a node not named by what the question asks about ("What day are the
    tutorials?" answered from the tutorial *proposals'* paragraph) gives way to the node so labelled."""
    nodes = [_leaf(tree, item) for item in evidence if item.rank in answer.cited] + list(answer.read)
    if any(node is not None and support.names_subject(question, tree, kind, node) for node in nodes):
        return answer
    node = support.labelled(kind, question, tree, [item.node_id for item in evidence])
    if node is None:
        return answer
    rank = next((item.rank for item in evidence if item.node_id == node.id), None)
    return _found(kinds.Found(node, node.text or "", rank))


def _named_value(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """A title ("What is the title of X?") or a prize's winner ("Who won the best paper award?"): read
    from the node labelled so or the record the question names, else the abstain sentence — never a
    description that mentions the thing, a role, or another prize's winner."""
    if kinds.asks_title(question):
        found = kinds.titled(question, evidence, tree)
        thing = kinds.title_thing(question) or question  # asks_title matched it: the fallback is never used
        return _found(found) if found else _abstain(tree, "title", _topic(thing, tree))
    if kinds.asked_prize(question):
        winner = kinds.award_winner(question, evidence, tree)
        return _found(winner) if winner else _abstain(tree, "winner", _topic(question, tree))
    return None


POINTER_WORDS = 30
"""A pointer said in a sentence short enough to read is answered with the sentence, else the link alone."""


def _pointer(question: str, evidence: Sequence[EvidencePath], tree: Tree) -> Computed | None:
    """ "Where can I find the proceedings?": the best ranked link whose path names the thing asked."""
    for item in evidence:
        found = URL.search(item.value)
        if found and kinds.names_topic(question, tree, item.path):
            text = item.value if len(item.value.split()) <= POINTER_WORDS else found.group(0)
            return Computed(text, "value", [item.rank])
    node = support.labelled(Kind.TEXT, question, tree, [item.node_id for item in evidence], holds=URL.search)
    if node is not None:  # a link the site labels with the thing ("Register url"), beyond the evidence
        found = URL.search(node.text or "")
        return _found(kinds.Found(node, found.group(0) if found else node.text or "", None))
    return None


TOPIC_WORD = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*")


def _topic(question: str, tree: Tree) -> str | None:
    """What the question is about, in its own words, for the abstain sentence ("hotel room cost night")."""
    stems = set(words(question))
    written: dict[str, str] = {}  # each word once, as the person wrote it ("ISWC 2023", not "iswc 2023")
    lowered = question.lower()
    same_places = len(lowered) == len(question)  # lower() lengthens a few letters ("İ"): then as lowered
    for match in TOPIC_WORD.finditer(lowered):  # "Krötzsch" whole, not "kr" and "tzsch"
        written.setdefault(match.group(0), question[match.start() : match.end()] if same_places else match.group(0))
    asked = [
        written[word]
        for word in written
        if (word in stems or len(word) > 3)
        and word not in kinds.STOPWORDS
        and kinds.stem(word) not in kinds.GENERIC
        and word not in words(tree.root.label)
        and word not in ("how", "much", "many", "does", "the")
        and kinds.stem(word) not in support.FORM_WORDS
    ]
    return " ".join(asked[:6]) or None


# -- with a model -----------------------------------------------------------------------------
def _short(text: str, limit: int = MAX_CANDIDATE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def readable_path(path: str) -> str:
    """A path as a reader sees it: the root dropped, ' › ' between headings, the value after ':'."""
    parts = path.split("»")
    if len(parts) > 2:
        parts = parts[1:]
    return " › ".join(parts[:-1]) + ": " + parts[-1] if len(parts) > 1 else parts[0]


def choice_prompt(question: str, evidence: Sequence[EvidencePath]) -> str:
    lines = "\n".join(f"{item.rank}. {_short(readable_path(item.path))}" for item in evidence)
    return (
        "Pick the line from a conference website that answers the question. Reply with its number only.\n"
        f"{lines}\nQuestion: {question}\nNumber:"
    )


def generate_prompt(question: str, evidence: Sequence[EvidencePath], computed: Computed) -> str:
    lines = "\n".join(f"[{item.rank}] {_short(readable_path(item.path), 400)}" for item in evidence)
    return (
        "Answer the question from these lines of a conference website, briefly, and cite the lines you used "
        "as [n]. If the lines do not say, answer that the site does not say.\n"
        f"{lines}\nA computed answer ({computed.operation}): {computed.text}\nQuestion: {question}\nAnswer:"
    )


CITATION = re.compile(r"\s*\[(\d+)\]")


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
        answered.operation = "model"
        answered.cited = cited or computed.cited
        answered.model_detail = (
            f"{llm.model_name}, {completion.completion_tokens} tokens in {completion.duration_s:.1f} s"
        )
    answered.answer_mode = mode
    return answered
