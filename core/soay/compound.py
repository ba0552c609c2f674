"""Two questions asked as one ("Who wrote X and when did it come out?"): where the split falls, what the
second part's pronouns name in the first part's answer, and the one answer that holds both."""

from __future__ import annotations

import re
from typing import Any

from scholar_tui.core.soay.events import SoAyAnswer
from scholar_tui.core.soay.linking import link
from scholar_tui.core.soay.shapes import split_compound


def compound_parts(question: str, api: Any) -> tuple[str, str, str] | None:
    """(the first question, the second as asked, the first's entity) of two questions in one; None: one
    question (no split, a title that runs across the split, or a first part that names nobody)."""
    compound = split_compound(question)
    if compound is None:
        return None
    whole = link(question, api)  # a title that runs across the split ("Who and what …") stays whole
    if whole is not None and any(m.start < compound.at < m.end for m in whole.mentions):
        return None
    first = link(compound.first, api)
    if first is None:
        return None
    return compound.first, compound.second, first.names()


RANK_FIGURE = re.compile(r"\s+\((?:\d{4}|\d+ citations)\)$")  # "Morphy (2019)": the ranked paper's figure


def referents(first: SoAyAnswer) -> dict[str, str]:
    """What a second question's pronouns can refer to in the first part's answer: the papers or people
    it listed (``things``: "the papers of A of 2022"), or the one paper it named (``thing``)."""
    if first.ok and first.abstained and first.papers:  # "A's most cited paper" the library cannot rank:
        return {"thing": first.papers, "things": first.papers}  # "where was it published" asks of it still
    if not first.ok or first.abstained or first.asked not in ("paper", "people") or not first.subject:
        return {}
    values = first.value if isinstance(first.value, list) else [first.value]
    found = {"things": first.subject}
    if first.asked == "paper" and len(values) == 1 and isinstance(values[0], str):
        found["thing"] = RANK_FIGURE.sub("", values[0])
    elif first.papers:  # "who wrote A's latest paper and where was it published": "it" is that paper
        found["thing"] = first.papers
    return found


def joined_answer(question: str, answers: list[SoAyAnswer]) -> SoAyAnswer:
    """Two questions asked as one: one answer holding both, said in turn."""
    said = [a.answer if a.ok else f"{a.question} — {a.error}" for a in answers]
    total = sum(a.timings_ms.get("total", 0.0) for a in answers)
    return SoAyAnswer(
        question=question,
        ok=any(a.ok for a in answers),
        entity=answers[0].entity,
        entity_kind=answers[0].entity_kind,
        intent=" + ".join(a.intent or "none" for a in answers),
        solution=[api for a in answers for api in a.solution],
        choice_mode=answers[0].choice_mode,
        program="\n\n".join(a.program for a in answers if a.program),
        code_mode=answers[0].code_mode,
        value=[a.value for a in answers],
        answer=" ".join(dict.fromkeys(text for text in said if text)),  # one sentence said once for both parts
        abstained=all(a.abstained for a in answers),
        asked=" + ".join(a.asked or "text" for a in answers),
        sources=[source for a in answers for source in a.sources],
        error=None if all(a.ok for a in answers) else "; ".join(a.error or "" for a in answers if not a.ok),
        error_stage=next((a.error_stage for a in answers if not a.ok), None),
        timings_ms={"total": round(total, 1)},
    )
