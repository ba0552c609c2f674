"""An AutoScholarQuery-style query set built from the library, deterministically (no GPT).

PaSa §3.1 built AutoScholarQuery by giving GPT-4o the Related Work section of each paper and
asking for questions whose answers are the references cited there (Table 16); the query date is
the source paper's publication date, and only papers published before it count. Here the same
pieces come from the library, with rules in place of GPT-4o:

1. Passages. Sections titled like a related-work section (related work, background, prior or
   previous work, literature, state of the art) — and the Introduction, because 40 of the 49
   unarXive papers (physics and mathematics) review the literature there and have no separate
   related-work section. Each query records which kind it came from.
2. Units. A passage is split into sentences and a sentence into clauses at ';' (one clause per
   "research question", as Table 16 asks for questions "that do not involve more than one
   condition"). A clause with at least ``min_answers`` citations that resolve to titled library
   papers published before the source becomes one query.
3. The question. Citation markers and formulas are removed. When the citations are the clause's
   subject ("[26], [27] propose to exploit the RUS policy …") the question is "Which papers
   propose to exploit the RUS policy …?"; otherwise "Could you provide me some works about <the
   clause>?" — the two question forms Table 16's requirements name.
4. Answers: the cited works' library ids (with their arXiv ids and titles, for reading). Query
   date: the source paper's date. At most ``per_section`` queries per section (Table 16 asks for
   five), those with the most answers, in text order.

The set is saved as JSONL, one ``AutoScholarQuery`` per line.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scholar_tui.core.jsonl import json_objects
from scholar_tui.indexes.library import Library

RELATED = re.compile(
    r"related\s+work|background|previous\s+work|prior\s+work|literature|state\s+of\s+the\s+art|"
    r"overview of|review of",
    re.I,
)
INTRODUCTION = re.compile(r"^\s*introduction\s*$", re.I)
CITE = re.compile(r"\[(\d+)\]")
FORMULA = re.compile(r"\$[^$]*\$")
ABBREVIATIONS = (
    "et al.",
    "e.g.",
    "i.e.",
    "Fig.",
    "Figs.",
    "Eq.",
    "Eqs.",
    "Ref.",
    "Refs.",
    "cf.",
    "vs.",
    "Sec.",
    "resp.",
)
LEADING = re.compile(
    r"^(?:(?:however|moreover|furthermore|in addition|additionally|also|for example|for instance|"
    r"similarly|likewise|recently|in particular|then|thus|hence|finally|notably|besides|indeed)\s*,?\s+)+",
    re.I,
)
SUBJECT = re.compile(
    r"^(?:(?:the\s+)?(?:authors|works?|papers?|studies|references?)\s+(?:in|of)\s+)?"
    r"\[\d+\](?:\s*(?:,|and|&)\s*\[\d+\])*",
    re.I,
)
IN_CITATION = re.compile(r"^(?:in|see)\s+\[\d+\](?:\s*(?:,|and|&)\s*\[\d+\])*\s*,?\s*", re.I)
DANGLING = re.compile(
    r"(?:[\s,;:(]+(?:in|by|see|also|and|of|e\.g\.|i\.e\.|for example|such as|like|cf\.))+[\s,;:(]*$", re.I
)
WORD = re.compile(r"[A-Za-z][A-Za-z\-]{2,}")


class QuerySetError(ValueError):
    """A query file that is not in AutoScholarQuery form; the message names the line."""


@dataclass(frozen=True)
class AnswerPaper:
    paper_id: int
    title: str
    arxiv_id: str | None = None


@dataclass(frozen=True)
class ScholarQuery:
    """One AutoScholarQuery instance: the query, its answer papers, and the query date."""

    query: str
    answers: list[AnswerPaper]
    query_date: str
    source_paper_id: int | None = None
    source_arxiv_id: str | None = None
    section: str | None = None
    passage: str | None = None  # "related-work" | "introduction"
    clause: str | None = None  # the text the question was made from

    @property
    def answer_ids(self) -> set[int]:
        return {answer.paper_id for answer in self.answers}

    def to_dict(self) -> dict:
        data = asdict(self)
        data["answer_ids"] = [f"paper:{answer.paper_id}" for answer in self.answers]
        return data

    @classmethod
    def from_dict(cls, data: dict, where: str = "query") -> "ScholarQuery":
        try:
            answers = [
                AnswerPaper(int(item["paper_id"]), str(item.get("title") or ""), item.get("arxiv_id"))
                for item in data["answers"]
            ]
            query, date = data["query"], data["query_date"]
        except (KeyError, TypeError, ValueError) as error:
            raise QuerySetError(
                f"{where}: not an AutoScholarQuery line (needs query, answers, query_date): {error}"
            ) from error
        if not isinstance(query, str) or not query.strip() or not isinstance(date, str):
            raise QuerySetError(f"{where}: 'query' and 'query_date' must be strings")
        return cls(
            query,
            answers,
            date,
            data.get("source_paper_id"),
            data.get("source_arxiv_id"),
            data.get("section"),
            data.get("passage"),
            data.get("clause"),
        )


@dataclass
class BuildReport:
    queries: list[ScholarQuery] = field(default_factory=list)
    papers: int = 0  # source papers with at least one query
    passages: int = 0  # passages read
    clauses_with_citations: int = 0


def split_sentences(text: str) -> list[str]:
    """Sentences of a passage; abbreviations such as 'et al.' do not end one."""
    protected = text
    for index, abbreviation in enumerate(ABBREVIATIONS):
        protected = protected.replace(abbreviation, abbreviation.replace(".", f"\x00{index}\x00"))
    pieces = re.split(r"(?<=[.!?])\s+(?=[A-Z\[])|\n+", protected)
    sentences = []
    for piece in pieces:
        restored = re.sub(r"\x00\d+\x00", ".", piece).strip()
        if restored:
            sentences.append(restored)
    return sentences


def clean_clause(clause: str) -> str:
    text = FORMULA.sub(" ", clause)
    text = CITE.sub(" ", text)
    text = re.sub(r"\(\s*[,;]?\s*\)", " ", text)  # '( )' left by removed citations
    text = re.sub(r"\s+([,.;:])", r"\1", text)
    text = re.sub(r"(?:,\s*)+(?=[,.;:)])", "", text)
    text = re.sub(r"\(\s*(?:e\.g\.|i\.e\.|see)?\s*[,;]?\s*\)", " ", text)
    text = " ".join(text.split()).strip(" ,;:.")
    return DANGLING.sub("", text).strip(" ,;:.")


def question_for(clause: str) -> str | None:
    """The question a researcher would ask for this clause (see the module doc), or None."""
    if "\\" in clause or "{" in clause or "$" in FORMULA.sub("", clause):
        return None  # LaTeX the converter left behind: not a readable question
    body = IN_CITATION.sub("", LEADING.sub("", clause.strip()))
    subject = SUBJECT.match(body)
    if subject and body[subject.end() :].lstrip().startswith(","):
        body = body[subject.end() :].lstrip(" ,")
        subject = None  # '[20] and [26], words are swapped …': the citations are not the subject
    cleaned = clean_clause(body[subject.end() :] if subject else body)
    words = cleaned.split()
    if len(WORD.findall(cleaned)) < 5 or len(words) > 45:
        return None
    if subject and words[0][:1].islower():
        return f"Which papers {cleaned}?"
    return f"Could you provide me some works about {cleaned[0].lower() + cleaned[1:]}?"


def _passage_kind(title: str | None) -> str | None:
    if not title:
        return None
    if RELATED.search(title):
        return "related-work"
    if INTRODUCTION.match(title):
        return "introduction"
    return None


def build_queries(
    library: Library, *, min_answers: int = 2, per_section: int = 5, paper_ids: Iterable[int] | None = None
) -> BuildReport:
    """Queries from every full paper's related-work passages (see the module doc)."""
    report = BuildReport()
    wanted = set(paper_ids) if paper_ids is not None else None
    for paper in library.all_papers():
        if wanted is not None and paper["id"] not in wanted:
            continue
        if not paper["date"] or paper["source"] == "reference":
            continue
        ordinal_to_work = {}
        cited = library.references(paper["id"])
        works = library.papers([row["cited_paper_id"] for row in cited if row["cited_paper_id"]])
        for row in cited:
            work = works.get(row["cited_paper_id"])
            # PaSa: only papers published before the query date can be answers.
            if work and work["date"] and work["date"] < paper["date"] and row["ordinal"] is not None:
                ordinal_to_work[row["ordinal"]] = work
        made = 0
        for section in library.sections(paper["id"]):
            kind = _passage_kind(section["title"])
            if kind is None:
                continue
            report.passages += 1
            candidates: list[tuple[int, str, str, list[dict]]] = []  # (order, question, clause, answers)
            for sentence in split_sentences(section["text"]):
                for clause in sentence.split(";"):
                    ordinals = list(dict.fromkeys(int(n) for n in CITE.findall(clause)))
                    if not ordinals:
                        continue
                    report.clauses_with_citations += 1
                    answers = list(
                        {
                            ordinal_to_work[n]["id"]: ordinal_to_work[n] for n in ordinals if n in ordinal_to_work
                        }.values()
                    )
                    if len(answers) < min_answers:
                        continue
                    question = question_for(clause)
                    if question is None:
                        continue
                    candidates.append((len(candidates), question, clause.strip(), answers))
            best = sorted(candidates, key=lambda item: (-len(item[3]), item[0]))[:per_section]
            for _, question, clause, answers in sorted(best):
                report.queries.append(
                    ScholarQuery(
                        query=question,
                        answers=[AnswerPaper(work["id"], work["title"], work["arxiv_id"]) for work in answers],
                        query_date=paper["date"],
                        source_paper_id=paper["id"],
                        source_arxiv_id=paper["arxiv_id"],
                        section=" ".join(part for part in (section["number"], section["title"]) if part),
                        passage=kind,
                        clause=clean_clause(clause),
                    )
                )
                made += 1
        report.papers += made > 0
    return report


def write_queries(path: str | Path, queries: list[ScholarQuery]) -> int:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        for query in queries:
            handle.write(json.dumps(query.to_dict(), ensure_ascii=False) + "\n")
    temporary.replace(path)
    return len(queries)


def read_queries(path: str | Path) -> list[ScholarQuery]:
    return [ScholarQuery.from_dict(data, where) for where, data in json_objects(path, QuerySetError)]


def split_of(query: ScholarQuery, test_share: int = 50) -> str:
    """'train' or 'test', by the source paper (never by query): a paper's queries stay on one side.

    A stable hash of the source's arXiv id (or library id) puts ``test_share`` percent of the
    source papers in the test split, the same on every machine and every run.
    """
    return "test" if source_bucket(query) < test_share else "train"


def source_bucket(query: ScholarQuery, salt: str = "") -> int:
    """A stable 0–99 bucket of the query's source paper (its arXiv id, else its library id); another
    ``salt`` gives an independent split of the same sources (a held-out slice of the train side)."""
    key = query.source_arxiv_id or str(query.source_paper_id or query.query)
    return int(hashlib.sha1((salt + key).encode("utf-8")).hexdigest()[:8], 16) % 100


def split_queries(queries: list[ScholarQuery], split: str) -> list[ScholarQuery]:
    """The queries of one split ('train', 'test'), or all of them ('all')."""
    if split == "all":
        return list(queries)
    if split not in ("train", "test"):
        raise QuerySetError(f"split must be train, test or all, not {split!r}")
    return [query for query in queries if split_of(query) == split]
