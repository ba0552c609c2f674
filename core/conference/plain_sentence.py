"""The plain sentence that says what the site data lacks, in the question's own words.

An answer of the wrong kind is worse than none (issue #24): every operator and check that finds nothing of the
asked kind ends here, so the sentence reads the same whichever step refused ("ICML2023's site data has no date
for …").
"""

from __future__ import annotations

import re

from scholar_tui.core.answer_kind import Kind, abstain_sentence
from scholar_tui.core.conference import kinds, support
from scholar_tui.core.conference.asking import AUXILIARIES, predicate_words
from scholar_tui.core.conference.computed import Computed
from scholar_tui.core.conference.kinds import PREFIX
from scholar_tui.core.conference.lexical import STOPWORDS, stem, words
from scholar_tui.core.conference.question_words import WH_WORDS
from scholar_tui.core.conference.tree import Tree


def site_data(tree: Tree) -> str:
    """How the abstain sentence names the source: "ICML2023's site data"."""
    return f"{tree.root.label or tree.name}'s site data"


def abstain(tree: Tree, missing: str, about: str | None = None) -> Computed:
    return Computed(abstain_sentence(missing, about, source=site_data(tree)), "abstain", [])


def found_answer(found: kinds.Found, operation: str = "value") -> Computed:
    return Computed(found.text, operation, [found.rank] if found.rank is not None else [], [found.node])


def not_held(kind: Kind, question: str, tree: Tree, missing: str | None = None) -> Computed:
    """The plain sentence for a value of ``kind`` the site data does not hold ("ICML2023's site data has no
    date for acceptance rate."), with the word nothing answered names quoted ("… for guest ticket
    “workshops”.")."""
    topic = question_topic(question, tree)
    if missing is not None:
        quoted = re.sub(rf"\b{re.escape(missing)}\b", f"“{missing}”", topic or "", count=1, flags=re.IGNORECASE)
        topic = quoted if "“" in quoted else f"{topic or ''} “{missing}”".strip()
    if kind is Kind.TEXT:
        return abstain(tree, f"information on {topic or 'it'}")
    return abstain(tree, kind.noun, topic)


def other_edition(kind: Kind, question: str, tree: Tree) -> Computed:
    """The plain sentence for a question about another year's conference: "ISWC2022's site data has no place
    for ISWC 2023." (the topic read from the question said "… for ISWC 2023 place")."""
    editions = " or ".join(kinds.asked_edition_names(question, tree)) or "another edition"
    noun = "information" if kind is Kind.TEXT else kind.noun
    return abstain(tree, noun, editions)


TOPIC_WORD = re.compile(r"[^\W_]+(?:['’.][^\W_]+)*")


CLAUSE_BREAK = re.compile(r"\s*(?:[,;:!?.…]+(?=\s|$)|\s[-–—]+\s|[–—])\s*")
""""I'm driving a camper van, what's the max height …?": a person sets the scene in one clause and asks in another."""
ASKS = re.compile(
    rf"^(?:\W*)(?:{'|'.join(sorted(AUXILIARIES))})\b|\b(?:{'|'.join(sorted(WH_WORDS))})s?\b", re.IGNORECASE
)


def asking_clause(question: str) -> str:
    """The clause of the question that asks (opens with an auxiliary or holds a wh-word), without the clauses that
    set the scene ("If we designate our student author …, how much volunteering do they sign up for?" → "how much
    volunteering do they sign up for"); the whole question when no one clause asks."""
    clauses = [clause for clause in CLAUSE_BREAK.split(question) if clause.strip()]
    asking = [clause for clause in clauses if ASKS.search(clause)]
    return asking[0] if len(clauses) > 1 and asking else question


def question_topic(question: str, tree: Tree) -> str | None:
    """What the question is about, in its own words, for the abstain sentence: the words of the clause that asks
    ("hotel room cost night"), without the asker's own doing ("bought", "designate") and pronouns."""
    asked = _topic_words(asking_clause(question), tree)
    # "…, which session is it in?": one word left says the clause points back ("it") at what the scene named
    return asked if asked is not None and " " in asked else _topic_words(question, tree)


def _topic_words(question: str, tree: Tree) -> str | None:
    doing = support.asker_doing(question) | support.pronouns(question)
    doing |= {word[:PREFIX] for raw in predicate_words(question) for word in words(raw)}
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
        and word not in STOPWORDS
        and stem(word) not in kinds.GENERIC
        and word not in words(tree.root.label)
        and word not in ("how", "much", "many", "does", "the")
        and stem(word) not in support.FORM_WORDS
        and support.word_prefix(stem(word)) not in doing
    ]
    return " ".join(asked[:6]) or None
