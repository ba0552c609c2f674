"""Conference QA engines: import and index a conference, answer a question, evaluate a dataset.

Every engine is a generator of typed events (``events.py``); the last event carries the result.
Models are arguments (an ``Embedder``; an ``LLM`` only where one answers or describes), so the
CLI, the TUI and tests decide what runs.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from pathlib import Path
from statistics import mean

import numpy as np

from scholar_tui.config.locations import Locations
from ...indexes import conference_vectors as vectors
from .answer import answer_from_evidence
from .describe import DescribeProgress, Describer, describe_tree, embedded_text
from .events import (Answered, EmbedProgress, EvalFinished, EvalProgress, EvalReport, EvidencePath, IndexBuilt,
                     TreeLoaded, TypeScores)
from .evidence import EvidenceIndex, hit_at_k
from .metrics import exact_match, token_f1
from .paths import leaf_paths
from .questions import QUESTION_TYPES, find_dataset_files, load_dataset_questions
from .store import ConferenceStore
from .tree import ConferenceError, Tree, load_json_tree

TOP_K = 5
EMBED_BATCH = 128
METHODS = ("star", "path")


def _text_hash(embedder_name: str, text: str) -> str:
    return hashlib.sha256(f"{embedder_name}\x1f{text}".encode("utf-8")).hexdigest()


def build_index(
    where: Locations,
    tree: Tree,
    source: str,
    describer: Describer,
    embedder,
    *,
    rebuild: bool = False,
) -> Iterator[TreeLoaded | DescribeProgress | EmbedProgress | IndexBuilt]:
    """Store the tree, describe every node top-down (cached), embed every path (reused when unchanged).

    ``rebuild`` ignores both caches, to time a cold build.
    """
    started, cpu_started = time.perf_counter(), time.process_time()
    paths = leaf_paths(tree)
    yield TreeLoaded(tree.name, source, len(tree.nodes), len(paths))
    store = ConferenceStore(where)
    try:
        results: dict[int, tuple[str, str]] = {}
        progress = DescribeProgress(0, len(tree.nodes), 0, 0, 0)
        for event in describe_tree(
            tree, describer, store.cached_descriptions,
            lambda rows: store.store_descriptions(rows, describer.identity), force=rebuild,
        ):
            if isinstance(event, DescribeProgress):
                progress = event
                yield event
            else:
                results = event
        describe_s = time.perf_counter() - started
        store.save_tree(tree, source, describer.kind, results)

        embed_started = time.perf_counter()
        rows = [
            vectors.PathRow(
                node_id=path.node_id, path=path.text, value=path.value, description=results[path.node_id][1],
                star_hash=_text_hash(embedder.name, embedded_text(results[path.node_id][1])),
                path_hash=_text_hash(embedder.name, path.text),
            )
            for path in paths
        ]
        previous = {"star": {}, "path": {}} if rebuild else vectors.existing_vectors(where, tree.name)
        wanted = [("star", row.star_hash, embedded_text(row.description)) for row in rows] + \
                 [("path", row.path_hash, row.path) for row in rows]
        known: dict[tuple[str, str], np.ndarray] = {}
        missing: dict[tuple[str, str], str] = {}
        for method, key, text in wanted:
            if key in previous[method]:
                known[(method, key)] = previous[method][key]
            else:
                missing.setdefault((method, key), text)
        reused, total = len(known), len(known) + len(missing)
        yield EmbedProgress(reused, total, reused)
        load_s = 0.0
        if missing:  # loading the embedder is not building the index: timed apart
            load_started = time.perf_counter()
            _ = embedder.dimension
            load_s = time.perf_counter() - load_started
        pending = list(missing.items())
        for start in range(0, len(pending), EMBED_BATCH):
            batch = pending[start:start + EMBED_BATCH]
            for (slot, _), vector in zip(batch, embedder.embed([text for _, text in batch])):
                known[slot] = vector
            yield EmbedProgress(reused + start + len(batch), total, reused)
        star = np.stack([known[("star", row.star_hash)] for row in rows])
        path_matrix = np.stack([known[("path", row.path_hash)] for row in rows])
        vectors.write_table(where, tree.name, rows, star, path_matrix)
        embed_s = time.perf_counter() - embed_started - load_s
        build_s = time.perf_counter() - started - load_s
        store.record_build(tree.name, embedder=embedder.name, describe_s=round(describe_s, 3),
                           embed_s=round(embed_s, 3), build_s=round(build_s, 3),
                           generated=progress.generated, embedded=len(missing))
        yield IndexBuilt(
            conference=tree.name, leaves=len(paths), describer=describer.kind,
            describer_identity=describer.identity, generated=progress.generated, cached=progress.cached,
            embedded=len(missing), reused=reused, describe_s=describe_s, embed_s=embed_s, build_s=build_s,
            embedder=embedder.name, embedder_load_s=load_s, cpu_s=time.process_time() - cpu_started,
        )
    finally:
        store.close()


class ConferenceIndex:
    """Search one imported conference: the question is embedded once, LanceDB ranks by cosine."""

    def __init__(self, where: Locations, conference: str, embedder) -> None:
        self.where = where
        self.conference = conference
        self.embedder = embedder
        self._table = vectors.open_table(where, conference)
        if self._table is None:
            raise ConferenceError(f"conference {conference!r} has no index; run `scholar-tui conf import` again")

    def search_vector(self, query: np.ndarray, method: str, k: int = TOP_K) -> list[EvidencePath]:
        if method not in METHODS:
            raise ConferenceError(f"unknown method {method!r} (star or path)")
        hits = vectors.search_table(self._table, query, method, k)
        return [EvidencePath(rank, hit.node_id, hit.path, hit.value, hit.description, hit.score)
                for rank, hit in enumerate(hits, start=1)]

    def search(self, question: str, method: str = "star", k: int = TOP_K) -> list[EvidencePath]:
        return self.search_vector(self.embedder.embed([question])[0], method, k)


def ask(
    where: Locations, conference: str, question: str, embedder, *, method: str = "star", llm=None,
    answer_mode: str = "choose", k: int = TOP_K,
) -> Answered:
    """Retrieve the top-k paths and answer: extractive always, the model's answer when ``llm`` is given."""
    started = time.perf_counter()
    if not question.strip():
        raise ConferenceError("the question is empty")
    evidence = ConferenceIndex(where, conference, embedder).search(question, method, k)
    answered = answer_from_evidence(question, evidence, llm, answer_mode)
    answered.conference, answered.method = conference, method
    answered.seconds = time.perf_counter() - started
    return answered


def _scores(question_type: str, rows: list[dict], with_model: bool) -> TypeScores:
    scores = TypeScores(question_type, questions=len(rows))
    if not rows:
        return scores
    scores.f1 = mean(row["f1"] for row in rows)
    scores.em = mean(row["em"] for row in rows)
    if with_model:
        scores.model_f1 = mean(row["model_f1"] for row in rows)
        scores.model_em = mean(row["model_em"] for row in rows)
    resolved = [row for row in rows if row["evidence_resolved"]]
    scores.resolved = len(resolved)
    if resolved:
        scores.hit_at_1 = mean(float(row["hit_at_1"]) for row in resolved)
        scores.hit_at_5 = mean(float(row["hit_at_5"]) for row in resolved)
    return scores


def evaluate(
    where: Locations,
    directory: Path,
    describer: Describer,
    embedder,
    *,
    method: str = "star",
    llm=None,
    answer_mode: str = "extractive",
    name: str | None = None,
    rebuild: bool = False,
    k: int = TOP_K,
) -> Iterator[object]:
    """Import and index a ConferenceQA directory (reusing caches), then score every question.

    Yields the build's events, one ``EvalProgress`` per question, and finally ``EvalFinished``.
    """
    files = find_dataset_files(directory)
    questions = load_dataset_questions(files)
    tree = load_json_tree(files.tree_file, name)
    built: IndexBuilt | None = None
    for event in build_index(where, tree, str(files.tree_file), describer, embedder, rebuild=rebuild):
        if isinstance(event, IndexBuilt):
            built = event
        yield event
    assert built is not None
    evidence_index = EvidenceIndex(tree)
    index = ConferenceIndex(where, tree.name, embedder)
    query_vectors = embedder.embed([question.question for question in questions])
    with_model = llm is not None and answer_mode != "extractive"
    rows: list[dict] = []
    answer_started = time.perf_counter()
    for number, (question, vector) in enumerate(zip(questions, query_vectors), start=1):
        evidence = index.search_vector(vector, method, k)
        answered = answer_from_evidence(question.question, evidence, llm if with_model else None, answer_mode)
        resolutions = [evidence_index.resolve(source) for source in question.sources]
        gold_leaves = frozenset().union(*(evidence_index.evidence_leaves(item) for item in resolutions))
        retrieved = [item.node_id for item in evidence]
        resolved = bool(gold_leaves)
        row = {
            "type": question.question_type, "question": question.question, "gold": question.answer,
            "from": list(question.sources), "extractive": answered.extractive,
            "f1": token_f1(question.answer, answered.extractive), "em": exact_match(question.answer, answered.extractive),
            "evidence_resolved": resolved,
            "hit_at_1": resolved and hit_at_k(retrieved, gold_leaves, 1),
            "hit_at_5": resolved and hit_at_k(retrieved, gold_leaves, 5),
            "top_paths": [item.path for item in evidence],
        }
        if with_model:
            row.update(model_answer=answered.model_answer or "",
                       model_f1=token_f1(question.answer, answered.model_answer or ""),
                       model_em=exact_match(question.answer, answered.model_answer or ""))
        rows.append(row)
        yield EvalProgress(number, len(questions), question.question_type, row["hit_at_5"] if resolved else None)
    by_type = [_scores(kind, [row for row in rows if row["type"] == kind], with_model)
               for kind in QUESTION_TYPES if any(row["type"] == kind for row in rows)]
    yield EvalFinished(EvalReport(
        conference=tree.name, method=method, describer=describer.kind,
        answer_mode=answer_mode if with_model else "extractive", k=k, index=built, by_type=by_type,
        overall=_scores("all", rows, with_model), answer_s=time.perf_counter() - answer_started, rows=rows,
    ))
