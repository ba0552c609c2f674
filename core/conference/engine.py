"""The Conference QA engine: import and index a conference, answer a question, evaluate a dataset.

``open_conference(services, answer_mode=…)`` opens it; every request is one sync generator of typed
events (``core.events``) that takes ``cancel``: ``build`` yields the build's progress and
``IndexBuilt``; ``ask`` yields ``EvidenceFound`` then ``Answered``; ``evaluate`` yields the build,
``EvalProgress`` per question and ``EvalFinished``. The models come from the services when a request
needs them (the embedder to search, an LLM only where one answers); tests and benchmarks may hand
them to ``ConferenceEngine`` directly.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from statistics import mean
from typing import TYPE_CHECKING, cast

import numpy as np

from scholar_tui.config.locations import Locations
from scholar_tui.core.conference.answer import ANSWER_MODES, answer_mode_for, answer_question
from scholar_tui.core.conference.asking import plain_question
from scholar_tui.core.conference.describe import DescribeProgress, Describer, describe_tree, embedded_text
from scholar_tui.core.conference.events import (
    Answered,
    EmbedProgress,
    EvalFinished,
    EvalProgress,
    EvalReport,
    EvidenceFound,
    EvidencePath,
    IndexBuilt,
    MethodReport,
    TreeLoaded,
    TypeScores,
)
from scholar_tui.core.conference.evidence import EvidenceIndex, hit_at_k
from scholar_tui.core.conference.metrics import exact_match, scored_answer, token_f1
from scholar_tui.core.conference.paths import leaf_paths, node_path_text
from scholar_tui.core.conference.person import PersonQuestion, PersonVerdict
from scholar_tui.core.conference.person import score as score_person
from scholar_tui.core.conference.person import verdict as person_verdict
from scholar_tui.core.conference.questions import QUESTION_TYPES, find_dataset_files, load_dataset_questions
from scholar_tui.core.conference.retrieval import ABLATION, METHODS, PathRetriever, RetrievalParts
from scholar_tui.core.conference.tree import ConferenceError, Node, NodeKind, Tree, load_json_tree
from scholar_tui.core.events import Engine, cancelled
from scholar_tui.indexes import conference_vectors as vectors
from scholar_tui.indexes.conference_store import ConferenceRecord, ConferenceStore, NodeRow
from scholar_tui.models.origin import logs_prompts_as

if TYPE_CHECKING:
    from scholar_tui.core.services import Services

AUTO = "auto"  # the answer mode that follows the active model
TOP_K = 5
EMBED_BATCH = 128
ANSWER_F1_MISS = 0.5
"""``--errors`` lists a question whose answer scores below this token F1 even when its evidence was found."""


def _text_hash(embedder_name: str, text: str) -> str:
    return hashlib.sha256(f"{embedder_name}\x1f{text}".encode("utf-8")).hexdigest()


def node_rows(tree: Tree, descriptions: dict[int, tuple[str, str]]) -> list[NodeRow]:
    return [
        NodeRow(
            node.id,
            node.parent,
            node.position,
            node.kind,
            node.key,
            node.label,
            node.text,
            node.depth,
            node_path_text(tree, node),
            descriptions.get(node.id, (None, ""))[0],
        )
        for node in tree.nodes
    ]


def tree_from_rows(name: str, rows: Sequence[NodeRow]) -> Tree:
    nodes = [
        Node(
            id=row.id,
            parent=row.parent_id,
            kind=cast(NodeKind, row.kind),  # stored from a Node's kind (indexes knows no NodeKind)
            key=row.key,
            label=row.label,
            text=row.text,
            depth=row.depth,
        )
        for row in rows
    ]
    for node in nodes:
        if node.parent is not None:
            node.position = len(nodes[node.parent].children)
            nodes[node.parent].children.append(node.id)
    return Tree(name=name, nodes=nodes)


def method_parts(method: str) -> RetrievalParts:
    if method not in METHODS:
        raise ConferenceError(f"unknown method {method!r} (star or path)")
    return METHODS[method]


class ConferenceEngine(Engine):
    """One user's conferences: their trees and descriptions in SQLite, their vectors in LanceDB.

    Models come as arguments (tests, benchmarks) or from ``services`` (``open_conference``), asked for
    only when a request needs them: listing conferences or loading a tree loads none, and the LLM
    loads only for an answer mode that uses it.
    """

    def __init__(
        self,
        where: Locations,
        embedder=None,
        *,
        llm=None,
        answer_mode: str = "computed",
        services: Services | None = None,
    ) -> None:
        if answer_mode not in (*ANSWER_MODES, AUTO):
            raise ConferenceError(f"answer mode must be one of {', '.join((AUTO, *ANSWER_MODES))}")
        self.where = where
        self.services = services
        self._embedder = embedder
        self._llm = llm
        self._answer_mode = answer_mode
        self._retrievers: dict[str, PathRetriever] = {}

    @property
    def embedder(self):
        if self._embedder is None and self.services is not None:
            return self.services.embedder()
        return self._embedder

    @property
    def answer_mode(self) -> str:
        """The mode in force: ``auto`` is ``answer_mode_for`` the active model (the same choice for the
        Conference tab and `conf ask`); without a model to ask, "computed"."""
        if self._llm is None and self.services is None:
            return "computed"
        if self._answer_mode == AUTO:
            return answer_mode_for(self.services.settings.llm.model) if self.services is not None else "computed"
        return self._answer_mode

    @property
    def llm(self):
        if self._llm is None and self.services is not None and self.answer_mode != "computed":
            return self.services.llm()
        return self._llm

    def close(self) -> None:
        self._retrievers.clear()
        super().close()

    # -- what is imported --------------------------------------------------------------------
    def _store(self) -> ConferenceStore:
        return ConferenceStore(self.where)  # one connection per call: requests run in worker threads

    def conferences(self) -> list[ConferenceRecord]:
        store = self._store()
        try:
            return store.conferences()
        finally:
            store.close()

    def conference(self, name: str) -> ConferenceRecord:
        records = self.conferences()
        for record in records:
            if record.name == name:
                return record
        known = ", ".join(record.name for record in records) or "none imported yet"
        raise ConferenceError(
            f"no conference named {name!r} (known: {known}; import one with `scholar-tui conf import`)"
        )

    def load_tree(self, name: str) -> Tree:
        """The stored tree, as imported (node ids and order preserved)."""
        self.conference(name)
        return self._stored_tree(name)

    def _stored_tree(self, name: str) -> Tree:
        store = self._store()
        try:
            return tree_from_rows(name, store.node_rows(name))
        finally:
            store.close()

    def retriever(self, name: str) -> PathRetriever:
        """The conference's retriever, read once (its row, vectors and tree) and kept for later requests."""
        if name not in self._retrievers:
            self.conference(name)  # the one read of its row: an unknown name is said before any model loads
            table = vectors.load_paths(self.where, name)
            if table is None:
                raise ConferenceError(f"conference {name!r} has no index; run `scholar-tui conf import` again")
            self._retrievers[name] = PathRetriever(table, self._stored_tree(name))
        return self._retrievers[name]

    # -- import and index --------------------------------------------------------------------
    def build(
        self,
        tree: Tree,
        source: str,
        describer: Describer,
        *,
        rebuild: bool = False,
        cancel: threading.Event | None = None,
    ) -> Iterator[TreeLoaded | DescribeProgress | EmbedProgress | IndexBuilt]:
        """Store the tree, describe every node top-down (cached), embed what changed, write the table.

        Incremental: a description is regenerated only when its inputs changed, and a text is
        embedded only when no vector of it (same embedder, same text) is stored. ``rebuild``
        ignores both caches, to time a cold build. ``cancel`` stops it between descriptions (those
        written so far stay cached) and between embedding batches, before anything is indexed.
        """
        self._retrievers.pop(tree.name, None)
        started, cpu_started = time.perf_counter(), time.process_time()
        paths = leaf_paths(tree)
        yield TreeLoaded(tree.name, source, len(tree.nodes), len(paths))
        store = self._store()
        try:
            results: dict[int, tuple[str, str]] = {}
            progress = DescribeProgress(0, len(tree.nodes), 0, 0, 0)
            for event in describe_tree(
                tree,
                describer,
                store.cached_descriptions,
                lambda rows: store.store_descriptions(rows, describer.identity),
                force=rebuild,
            ):
                if cancelled(cancel):
                    return
                if isinstance(event, DescribeProgress):
                    progress = event
                    yield event
                else:
                    results = event
            describe_s = time.perf_counter() - started
            leaves = sum(1 for node in tree.leaves() if node.text)
            store.save_nodes(tree.name, source, tree.root.label, leaves, describer.kind, node_rows(tree, results))
            embed_started = time.perf_counter()
            rows = [
                vectors.PathRow(
                    node_id=path.node_id,
                    path=path.text,
                    value=path.value,
                    description=results[path.node_id][1],
                    star_hash=_text_hash(self.embedder.name, embedded_text(results[path.node_id][1])),
                    path_hash=_text_hash(self.embedder.name, path.text),
                )
                for path in paths
            ]
            wanted = [("star", row.star_hash, embedded_text(row.description)) for row in rows] + [
                ("path", row.path_hash, row.path) for row in rows
            ]
            if not rebuild and vectors.holds_rows(self.where, tree.name, rows):
                # nothing changed: the table is reused as it is, not read and written again
                reused, load_s = len({(method, key) for method, key, _ in wanted}), 0.0
                yield EmbedProgress(reused, reused, reused)
            else:
                known, reused, load_s = yield from self._embed(
                    wanted,
                    {"star": {}, "path": {}} if rebuild else vectors.existing_vectors(self.where, tree.name),
                    cancel,
                )
                if cancelled(cancel):
                    return
                star = np.stack([known[("star", row.star_hash)] for row in rows])
                path_matrix = np.stack([known[("path", row.path_hash)] for row in rows])
                vectors.write_table(self.where, tree.name, rows, star, path_matrix)
            embedded = len({(method, key) for method, key, _ in wanted}) - reused
            embed_s = time.perf_counter() - embed_started - load_s
            build_s = time.perf_counter() - started - load_s
            store.record_build(
                tree.name,
                embedder=self.embedder.name,
                describe_s=round(describe_s, 3),
                embed_s=round(embed_s, 3),
                build_s=round(build_s, 3),
                generated=progress.generated,
                embedded=embedded,
            )
            yield IndexBuilt(
                conference=tree.name,
                leaves=len(paths),
                describer=describer.kind,
                describer_identity=describer.identity,
                generated=progress.generated,
                cached=progress.cached,
                embedded=embedded,
                reused=reused,
                describe_s=describe_s,
                embed_s=embed_s,
                build_s=build_s,
                embedder=self.embedder.name,
                embedder_load_s=load_s,
                cpu_s=time.process_time() - cpu_started,
            )
        finally:
            store.close()

    def _embed(
        self,
        wanted: list[tuple[str, str, str]],
        previous: dict[str, dict[str, np.ndarray]],
        cancel: threading.Event | None = None,
    ) -> Generator[EmbedProgress, None, tuple[dict[tuple[str, str], np.ndarray], int, float]]:
        """Vectors for every (method, hash, text): kept from ``previous`` when there, embedded otherwise.

        Returns (vectors by (method, hash), how many were reused, seconds spent loading the embedder).
        """
        known: dict[tuple[str, str], np.ndarray] = {}
        missing: dict[tuple[str, str], str] = {}
        for method, key, text in wanted:
            if key in previous[method]:
                known[(method, key)] = previous[method][key]
            else:
                missing.setdefault((method, key), text)
        reused = len(known)
        total = reused + len(missing)
        yield EmbedProgress(reused, total, reused)
        load_s = 0.0
        if missing:  # loading the embedder is not building the index: timed apart
            load_started = time.perf_counter()
            _ = self.embedder.dimension
            load_s = time.perf_counter() - load_started
        pending = list(missing.items())
        for start in range(0, len(pending), EMBED_BATCH):
            if cancelled(cancel):
                break
            batch = pending[start : start + EMBED_BATCH]
            for (slot, _), vector in zip(batch, self.embedder.embed([text for _, text in batch]), strict=False):
                known[slot] = vector
            yield EmbedProgress(reused + start + len(batch), total, reused)
        return known, reused, load_s

    # -- asking ------------------------------------------------------------------------------
    def search(
        self,
        conference: str,
        question: str,
        method: str = "star",
        k: int = TOP_K,
        query_vector: np.ndarray | None = None,
        parts: RetrievalParts | None = None,
    ) -> list[EvidencePath]:
        retriever = self.retriever(conference)
        parts = parts or method_parts(method)
        # phrasal verbs said as the one word a site writes: "who's running the expo" is looked for as "who organizes"
        question = plain_question(question)
        if query_vector is None and parts.dense:
            query_vector = self.embedder.embed([question])[0]
        table = retriever.table
        return [
            EvidencePath(
                rank,
                table.node_ids[found.row],
                table.paths[found.row],
                table.values[found.row],
                table.descriptions[found.row],
                found.score,
                found.kept,
            )
            for rank, found in enumerate(retriever.search(question, query_vector, parts, k), start=1)
        ]

    @logs_prompts_as("conference", text="question")  # the question's model calls, in the prompt log
    def ask(
        self,
        conference: str,
        question: str,
        *,
        method: str = "star",
        k: int = TOP_K,
        cancel: threading.Event | None = None,
    ) -> Iterator[EvidenceFound | Answered]:
        """Find the evidence (``EvidenceFound``), then answer from it (``Answered``, with citations);
        ``cancel`` set after the evidence: no answer (the model is not asked)."""
        started = time.perf_counter()
        if not question.strip():
            raise ConferenceError("the question is empty")
        evidence = self.search(conference, question, method, k)
        yield EvidenceFound(question, conference, method, evidence)
        if cancelled(cancel):
            return
        answered = answer_question(question, evidence, self.retriever(conference).tree, self.llm, self.answer_mode)
        answered.conference, answered.method = conference, method
        answered.seconds = time.perf_counter() - started
        yield answered

    # -- evaluation --------------------------------------------------------------------------
    def evaluate(
        self,
        directory: Path,
        describer: Describer,
        *,
        methods: Sequence[str] = ("star", "path"),
        ablation: bool = False,
        name: str | None = None,
        rebuild: bool = False,
        k: int = TOP_K,
        person: Sequence[PersonQuestion] = (),
        person_part: str = "dev",
        cancel: threading.Event | None = None,
    ) -> Iterator[object]:
        """Import and index a ConferenceQA directory (reusing caches), then score every question
        with each method (and each ablation row) in the same run.

        Yields the build's events, ``EvalProgress`` per question and method, then ``EvalFinished``;
        ``cancel`` stops it between questions, with no ``EvalFinished``.
        """
        files = find_dataset_files(directory)
        questions = load_dataset_questions(files)
        tree = load_json_tree(files.tree_file, name)
        built: IndexBuilt | None = None
        for event in self.build(tree, str(files.tree_file), describer, rebuild=rebuild, cancel=cancel):
            if isinstance(event, IndexBuilt):
                built = event
            yield event
        if cancelled(cancel) or built is None:
            return
        evidence_index = EvidenceIndex(tree)
        gold = []
        for question in questions:
            resolutions = [evidence_index.resolve(source) for source in question.sources]
            leaves = frozenset().union(*(evidence_index.evidence_leaves(item) for item in resolutions))
            gold.append(
                (leaves, [node_path_text(tree, tree.nodes[node]) for item in resolutions for node in item.nodes])
            )
        query_vectors = self.embedder.embed([question.question for question in questions])
        configurations = [(method, method_parts(method)) for method in methods]
        if ablation:
            configurations += [(f"ablation {number}", parts) for number, parts in enumerate(ABLATION, start=1)]
        reports: list[MethodReport] = []
        answer_started = time.perf_counter()
        total = len(questions) * len(configurations)
        done = 0
        for label, parts in configurations:
            rows: list[dict] = []
            for question, vector, (leaves, gold_paths) in zip(questions, query_vectors, gold, strict=False):
                if cancelled(cancel):
                    return
                evidence = self.search(tree.name, question.question, k=k, query_vector=vector, parts=parts)
                answered = answer_question(question.question, evidence, tree, self.llm, self.answer_mode)
                scored = scored_answer(question.answer, answered.value, answered.answer)
                retrieved = [item.node_id for item in evidence]
                resolved = bool(leaves)
                rows.append(
                    {
                        "type": question.question_type,
                        "question": question.question,
                        "gold": question.answer,
                        "from": list(question.sources),
                        "gold_paths": gold_paths,
                        "answer": answered.answer,
                        "value": answered.value,
                        "scored": scored,
                        "operation": answered.operation,
                        "cited": answered.cited,
                        "f1": token_f1(question.answer, scored),
                        "em": exact_match(question.answer, scored),
                        "evidence_resolved": resolved,
                        "hit_at_1": resolved and hit_at_k(retrieved, leaves, 1),
                        "hit_at_5": resolved and hit_at_k(retrieved, leaves, 5),
                        "top_paths": [item.path for item in evidence],
                    }
                )
                done += 1
                yield EvalProgress(done, total, question.question_type, rows[-1]["hit_at_5"] if resolved else None)
            reports.append(
                MethodReport(
                    method=label,
                    retrieval=parts.name,
                    rows=rows,
                    overall=_scores("all", rows),
                    by_type=[
                        _scores(kind, [row for row in rows if row["type"] == kind])
                        for kind in QUESTION_TYPES
                        if any(row["type"] == kind for row in rows)
                    ],
                )
            )
        person_scores = None
        if person:  # a person's questions, answered by STAR as `conf ask` answers them
            verdicts = []
            for item in person:
                evidence = self.search(tree.name, item.question, k=k)
                answered = answer_question(item.question, evidence, tree, self.llm, self.answer_mode)
                verdicts.append(
                    PersonVerdict(
                        item.question,
                        item.expect,
                        item.held_out,
                        answered.answer,
                        person_verdict(item, answered.answer),
                        list(answered.cited_paths),
                    )
                )
            person_scores = score_person(person_part, verdicts)
        yield EvalFinished(
            EvalReport(
                conference=tree.name,
                describer=describer.kind,
                answer_mode=self.answer_mode,
                k=k,
                index=built,
                methods=reports,
                answer_s=time.perf_counter() - answer_started,
                person=person_scores,
            )
        )


def _scores(question_type: str, rows: list[dict]) -> TypeScores:
    scores = TypeScores(question_type, questions=len(rows))
    if not rows:
        return scores
    scores.f1 = mean(row["f1"] for row in rows)
    scores.em = mean(row["em"] for row in rows)
    resolved = [row for row in rows if row["evidence_resolved"]]
    scores.resolved = len(resolved)
    if resolved:
        scores.hit_at_1 = mean(float(row["hit_at_1"]) for row in resolved)
        scores.hit_at_5 = mean(float(row["hit_at_5"]) for row in resolved)
    return scores


def missed(row: dict) -> list[str]:
    """Why an evaluated question counts as missed: its evidence not in the top k, its answer wrong."""
    reasons = []
    if row["evidence_resolved"] and not row["hit_at_5"]:
        reasons.append("evidence")
    if row["f1"] < ANSWER_F1_MISS:
        reasons.append("answer")
    return reasons


def errors_text(report: EvalReport, method: str = "star") -> str:
    """Every missed question of ``method``: the question, gold answer and path, top-5 paths, the answer given."""
    blocks = []
    for number, row in enumerate(report.method(method).rows, start=1):
        reasons = missed(row)
        if not reasons:
            continue
        lines = [
            f"## {number}. [{row['type']}] {row['question']}",
            f"missed: {', '.join(reasons)} · F1 {100 * row['f1']:.1f} · hit@1 {int(row['hit_at_1'])} hit@5 {int(row['hit_at_5'])}",
            f"gold answer: {row['gold']}",
            f"gold from: {' | '.join(row['from'])}",
        ]
        lines += [f"gold path: {path}" for path in row["gold_paths"][:3]] or ["gold path: (not found in the tree)"]
        lines.append(f"answer ({row['operation']}, cites {row['cited']}): {row['answer']}")
        if row.get("scored", row["answer"]) != row["answer"]:  # a verdict scored apart from its sentence
            lines.append(f"scored: {row['scored']} (the gold is as short as the value asked)")
        lines += [f"  {rank}. {path}" for rank, path in enumerate(row["top_paths"], start=1)]
        blocks.append("\n".join(lines))
    header = f"# {report.conference} · {method} · {len(blocks)} missed of {len(report.method(method).rows)}\n"
    return header + "\n\n".join(blocks) + "\n"


def open_conference(services: Services, *, answer_mode: str = AUTO) -> ConferenceEngine:
    """The one way the front ends open the Conference QA engine (``core.events``' shape), over the
    services' models, each loaded when a request first needs it.

    ``answer_mode``: "auto" (the default, for the Conference tab and `conf ask` alike) follows the
    active model (``answer.answer_mode_for``); "computed", "choose" or "generate" force one.
    """
    return ConferenceEngine(services.where, answer_mode=answer_mode, services=services)
