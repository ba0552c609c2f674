"""PaSa on the command line: `search`, `pasa prepare|build-queries`, `bench pasa`.

The commands consume the engine's event stream: progress goes to standard error as it happens,
results to standard output (or one JSON document with ``--json``).
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

import click

from scholar_tui.app.cli_support import Context, emit_json, one_line_errors, person_part_option, terminal_text, whole
from scholar_tui.core.events import counted
from scholar_tui.core.pasa.events import PLAIN_DEPTH
from scholar_tui.core.pasa.fit import CLOSEST_SHOWN


def _check_date(value: str | None) -> str | None:
    from scholar_tui.indexes.library_search import is_cut_off_date  # numpy with it: only when a date is given

    if value is not None and not is_cut_off_date(value):
        raise click.BadParameter(f"expected YYYY-MM-DD, not {value!r}")
    return value


def queries_option(help: str, *, required: bool = False):
    """``--queries FILE``: an AutoScholarQuery JSONL (``pasa build-queries``), read by ``_read_query_file``."""
    return click.option(
        "--queries", "queries_file", required=required, type=click.Path(dir_okay=False, path_type=Path), help=help
    )


def _say(text: str, quiet: bool) -> None:
    if not quiet:
        click.echo(terminal_text(text), err=True)  # model-written search queries and rationales included


def _preparing(quiet: bool):
    """What `search`, `bench pasa` and the `pasa` commands say while the library is prepared."""
    from scholar_tui.core.pasa.works import CitedWorks
    from scholar_tui.indexes.library_search import IndexDeferred, IndexFinished, IndexProgress

    def say(event) -> None:
        if isinstance(event, CitedWorks) and event.linked:
            _say(f"library: {event.summary()}", quiet)
        elif isinstance(event, IndexProgress) and event.total and event.done == 0:
            _say(f"library: embedding {event.total} papers for search…", quiet)
        elif isinstance(event, IndexFinished) and event.embedded:
            _say(f"library: {event.embedded} papers embedded in {event.seconds:.1f} s", quiet)
        elif isinstance(event, IndexDeferred):
            _say(f"library: {event.summary()}", quiet)

    return say


def _library(obj: Context, *, quiet: bool):
    """The library, prepared (cited works, index), for the commands that use its tools without a crawl;
    an empty library is one line. It is closed when the command ends."""
    from scholar_tui.core.pasa.factory import EmptyLibrary, prepared_library

    try:
        library = prepared_library(obj.services, _preparing(quiet))
    except EmptyLibrary as error:
        raise click.ClickException(str(error)) from error
    click.get_current_context().call_on_close(library.close)
    return library


def _open_pasa(obj: Context, *, quiet: bool, **options):
    """``open_pasa`` as every PaSa command opens it: preparation said on stderr, an empty library one line."""
    from scholar_tui.core.pasa.factory import EmptyLibrary, open_pasa

    try:
        return open_pasa(obj.services, on_progress=_preparing(quiet), **options)
    except EmptyLibrary as error:
        raise click.ClickException(str(error)) from error


def _options(max_actions: int, max_papers: int, depth: int, query_mode: str, rationale: str, head: bool = True):
    from scholar_tui.core.pasa.engine import PaSaOptions
    from scholar_tui.core.pasa.queue import Budgets

    if min(max_actions, max_papers, depth) < 1:
        raise click.BadParameter("--max-actions, --max-papers and --depth must be at least 1")
    return PaSaOptions(
        budgets=Budgets(max_actions=max_actions, max_papers=max_papers, max_depth=depth),
        query_mode=query_mode,
        rationale=rationale,
        use_head=head,
    )


def crawl_options(function):
    """The budget and mode options shared by `search` and `bench pasa`."""
    for decorator in reversed(
        [
            click.option("--max-actions", default=8, show_default=True, help="[Search] + [Expand] actions in all."),
            click.option("--max-papers", default=40, show_default=True, help="Papers the queue may hold."),
            click.option("--depth", default=3, show_default=True, help="Exploration depth (PaSa uses 3)."),
            click.option(
                "--query-mode",
                type=click.Choice(["auto", "candidates", "free"]),
                default="auto",
                show_default=True,
                help="[Search] queries: picked from the query's key phrases (tiny model) or written by the model.",
            ),
            click.option(
                "--rationale",
                type=click.Choice(["auto", "template", "model"]),
                default="auto",
                show_default=True,
                help="Selector rationale: templated from evidence (tiny model) or generated.",
            ),
            click.option(
                "--offline", is_flag=True, help="Do not ask arXiv or OpenAlex, even when the network is there."
            ),
            click.option(
                "--feedback/--no-feedback",
                default=None,
                help="Send every [Search]/[Expand] through AutoFeedback (default: the autofeedback.pasa setting).",
            ),
            click.option(
                "--head/--no-head",
                default=True,
                show_default=True,
                help="Score with the Selector's head (--no-head: P(True) alone, PaSa's own Selector).",
            ),
        ]
    ):
        function = decorator(function)
    return function


INTERIM_SHOWN = 3  # papers of an interim ranking shown while the crawl goes on


def _interim_lines(event) -> str:
    """The Selector's early ranking, while the crawl goes on: its summary as each verdict comes, and
    with the last one, its first papers."""
    lines = [f"  {event.summary()}"]
    if event.last_interim:
        shown = enumerate(event.results[:INTERIM_SHOWN], start=1)
        lines += [f"  {rank:>3}. {paper.line()}" for rank, paper in shown]
    return "\n".join(lines)


def _progress_line(event) -> str | None:
    """The event's own line, indented by its place in the crawl; verdicts and the plain and final
    rankings stay quiet (the final one is printed as the results), an interim ranking is shown."""
    kind = event.kind
    if kind == "ranking" and event.interim:
        return _interim_lines(event)
    if kind in ("verdict", "ranking", "feedback_round"):
        return None
    if kind == "feedback_finished":
        if not event.retried:
            return None  # the call was fine as sent: nothing to say
        line = f"    {event.summary()}"
        if event.status == "limit_hit":
            line += (
                f"\n    it waits for a person: scholar-tui logs --loop {event.loop_id}, then "
                f"scholar-tui feedback send '<request>' --loop {event.loop_id}"
            )
        return line
    indent = {"search": "  ", "expand": "  ", "found": "    ", "notice": "  "}.get(kind, "")
    return indent + event.summary()


# -- search ----------------------------------------------------------------------------------------
@click.command("search")
@click.argument("query")
@click.option(
    "--date",
    callback=lambda ctx, param, value: _check_date(value),
    help="Query date: only papers published strictly before it (YYYY-MM-DD).",
)
@crawl_options
@click.option(
    "--plain-depth",
    type=click.IntRange(0, 1000),
    default=PLAIN_DEPTH,
    show_default=True,
    help="How many of the plain search's hits start the pool (the rest is the Crawler's to find).",
)
@click.option("--all", "show_all", is_flag=True, help="List every judged paper, not only the selected ones.")
@click.option("--collection", help="Search only the papers of this collection (sub-collections included).")
@click.option("--tag", help="Search only the papers with this tag.")
@click.option(
    "--export",
    "export",
    nargs=2,
    type=(click.Choice(["bib", "json"]), click.Path(dir_okay=False, path_type=Path)),
    help="Write the selected papers as BibTeX or JSON: --export bib results.bib",
)
@click.option(
    "--save-sessions",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write this run's Crawler sessions as CrawlerSession JSONL (Table 8).",
)
@click.option(
    "--save-selections",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write this run's Selector decisions as SelectorRecord JSONL.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON document: results, stats and every event.")
@click.pass_obj
@one_line_errors
def search_command(
    obj: Context,
    query: str,
    date: str | None,
    max_actions: int,
    max_papers: int,
    depth: int,
    query_mode: str,
    rationale: str,
    offline: bool,
    feedback: bool | None,
    head: bool,
    plain_depth: int,
    show_all: bool,
    collection: str | None,
    tag: str | None,
    export: tuple | None,
    save_sessions: Path | None,
    save_selections: Path | None,
    as_json: bool,
) -> None:
    """PaSa paper search: the plain search's hits, the Crawler's searches and expansions, ranked by the Selector's score."""
    from scholar_tui.indexes.library_search import SearchError

    if not query.strip():
        raise click.BadParameter("the query is empty", param_hint="QUERY")
    options = _options(max_actions, max_papers, depth, query_mode, rationale, head)
    from scholar_tui.core.library.labels import LabelError, labelled_papers

    labels = obj.services.library()  # before the model loads: a wrong collection name is said at once
    try:
        within = labelled_papers(labels, collection, tag)
    except LabelError as error:  # it lists the library's collections: outside text
        raise click.ClickException(terminal_text(str(error))) from error
    finally:
        labels.close()
    with _open_pasa(
        obj,
        quiet=as_json,
        options=options,
        online=False if offline else None,
        plain_depth=plain_depth,
        feedback=feedback,
        within=within,
    ) as agent:
        events: list[Any] = []
        try:
            for event in agent.run(query, date=date):
                events.append(event)
                line = _progress_line(event)
                if line:
                    _say(line, as_json)
        except SearchError as error:
            raise click.ClickException(str(error)) from error
        _show_search(agent, query, date, events, show_all, export, save_sessions, save_selections, as_json)


def _show_search(agent, query, date, events, show_all, export, save_sessions, save_selections, as_json) -> None:
    """What `search` prints (or writes) from its run's events."""
    from scholar_tui.core.jsonl import write_jsonl
    from scholar_tui.core.pasa.export import export_results

    finished = events[-1]
    shown = finished.results if show_all else finished.selected
    if save_sessions:
        write_jsonl(save_sessions, agent.sessions)
        _say(f"wrote {len(agent.sessions)} Crawler sessions to {save_sessions}", as_json)
    if save_selections:
        write_jsonl(save_selections, agent.selections)
        _say(f"wrote {len(agent.selections)} Selector records to {save_selections}", as_json)
    if export:
        fmt, path = export
        count = export_results(path, fmt, agent.library, query, date, finished.selected)
        _say(f"exported {count} selected papers to {path} ({fmt})", as_json)
    if as_json:
        emit_json(
            {
                "query": query,
                "date": date,
                "model": agent.llm.model_name,
                "head": agent.head.origin if agent.head else None,
                "nothing_fits": finished.nothing_fits,
                "results": [asdict(paper) for paper in shown],
                "queue": finished.queue,
                "stop_reason": finished.stop_reason,
                "actions": finished.actions,
                "llm_calls": finished.llm_calls,
                "seconds": finished.seconds,
                "first_results_seconds": finished.first_results_seconds,
                "events": [event.to_json() for event in events if event.kind not in ("ranking", "finished")],
            }
        )
        return
    if finished.nothing_fits:  # said plainly, the closest papers shown as such (not as answers)
        click.echo(terminal_text(finished.nothing_fits))
        if not show_all:
            shown = finished.results[:CLOSEST_SHOWN]
            click.echo(
                f"the closest {counted(len(shown), 'paper')}, not selected (--all lists every paper of the pool):"
            )
    for rank, paper in enumerate(shown, start=1):
        click.echo(terminal_text(f"{rank:>3}. {paper.line()}"))
        click.echo(terminal_text(f"       {paper.rationale}"))
        click.echo(f"       found by {paper.found_by} · depth {paper.depth}" + (f" · {paper.url}" if paper.url else ""))


# -- pasa ------------------------------------------------------------------------------------------------
@click.group("pasa")
def pasa() -> None:
    """PaSa's data: cited works in the library, the AutoScholarQuery-style query set."""


@pasa.command("prepare")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def pasa_prepare(obj: Context, as_json: bool) -> None:
    """Turn titled bibliography entries into library papers (cited works) and index them."""
    from scholar_tui.core.pasa.factory import prepare
    from scholar_tui.indexes.pasa_works import source_counts

    library = obj.services.library()
    click.get_current_context().call_on_close(library.close)
    prepared = prepare(obj.where, library, obj.services.embedder())
    sources = source_counts(library)
    if as_json:
        emit_json(
            {
                "cited_works": prepared.cited.__dict__,
                "index": prepared.index.__dict__ if prepared.index else None,
                "papers_by_source": sources,
            }
        )
        return
    click.echo(prepared.cited.summary())
    click.echo("papers by source: " + ", ".join(f"{count} {source}" for source, count in sorted(sources.items())))
    if prepared.index:
        click.echo(
            f"search index: {prepared.index.embedded} embedded in {prepared.index.seconds:.1f} s "
            f"({prepared.index.indexed} indexed)"
        )


@pasa.command("build-queries")
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--min-answers",
    type=whole(1, 1000),
    default=2,
    show_default=True,
    help="Cited works a clause needs to become a query.",
)
@click.option(
    "--per-section",
    type=whole(1, 1000),
    default=5,
    show_default=True,
    help="Queries kept per passage (Table 16 asks for five).",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def pasa_build_queries(obj: Context, output: Path, min_answers: int, per_section: int, as_json: bool) -> None:
    """Write an AutoScholarQuery-style set (query, answer papers, query date) built from the library."""
    from scholar_tui.core.pasa.queries import build_queries, write_queries
    from scholar_tui.core.pasa.works import prepare_cited_works
    from scholar_tui.indexes.library import Library

    library = Library.open(obj.where)
    cited = prepare_cited_works(library)  # answers are cited works: they must be library papers
    report = build_queries(library, min_answers=min_answers, per_section=per_section)
    count = write_queries(output, report.queries)
    passages: dict[str, int] = {}
    for query in report.queries:
        passages[query.passage] = passages.get(query.passage, 0) + 1
    answers = [len(query.answers) for query in report.queries]
    summary = {
        "output": str(output),
        "queries": count,
        "source_papers": report.papers,
        "passages_read": report.passages,
        "clauses_with_citations": report.clauses_with_citations,
        "by_passage": passages,
        "mean_answers": round(sum(answers) / len(answers), 2) if answers else 0,
        "cited_works_linked_now": cited.linked,
    }
    if as_json:
        emit_json(summary)
        return
    click.echo(f"wrote {count} queries from {report.papers} papers to {output}")
    click.echo(
        f"  passages read: {report.passages} ({', '.join(f'{n} queries from {k}' for k, n in passages.items())})"
    )
    click.echo(
        f"  answers per query: mean {summary['mean_answers']}, from {report.clauses_with_citations} citing clauses"
    )


@pasa.command("selector-pairs")
@queries_option("AutoScholarQuery JSONL (pasa build-queries); its train split is read.", required=True)
@click.option(
    "--negatives",
    type=whole(0, 1000),
    default=3,
    show_default=True,
    help="Hard negatives per positive (plain search's top 20).",
)
@click.option(
    "--held-out",
    "held_out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the held-out slice (default: OUTPUT with .heldout.jsonl).",
)
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path))
@click.pass_obj
@one_line_errors
def pasa_selector_pairs(obj: Context, queries_file: Path, negatives: int, held_out: Path | None, output: Path) -> None:
    """Write Selector SFT records (train selector-sft) from the train split: answers True, search hits False."""
    from scholar_tui.core.jsonl import write_jsonl
    from scholar_tui.core.pasa.tools import LibraryTools
    from scholar_tui.training.selector_pairs import selector_pairs

    query_set = _read_query_file(queries_file)
    library = _library(obj, quiet=False)
    tools = LibraryTools(obj.where, library, obj.services.embedder())
    pairs = selector_pairs(tools, query_set, negatives_per_positive=negatives)
    held_out = held_out or output.with_suffix(".heldout.jsonl")
    write_jsonl(output, pairs.train)
    write_jsonl(held_out, pairs.held_out)
    positives = sum(record.decision for record in pairs.train)
    click.echo(f"wrote {len(pairs.train)} records ({positives} True) from {pairs.queries} training queries to {output}")
    click.echo(f"  held out: {len(pairs.held_out)} records from {pairs.held_out_queries} queries in {held_out}")


@pasa.command("selector-auc")
@queries_option("AutoScholarQuery JSONL (pasa build-queries); its test split is scored.", required=True)
@click.option(
    "--model",
    "models",
    multiple=True,
    help="A Selector model to score (registered name or .gguf path); repeat to compare (default: the setting).",
)
@click.option("--limit", type=whole(), help="Papers judged per query (default: the head's judge_limit, as bench pasa).")
@click.option("--split", type=click.Choice(["train", "test", "all"]), default="test", show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def pasa_selector_auc(
    obj: Context, queries_file: Path, models: tuple[str, ...], limit: int | None, split: str, as_json: bool
) -> None:
    """AUC of P(True) of one or more Selector models on the same judged (query, paper) pairs, in one run."""
    from scholar_tui.core.llm import open_llm
    from scholar_tui.core.pasa.selector import Selector
    from scholar_tui.core.pasa.selector_head import load_head
    from scholar_tui.core.pasa.tools import LibraryTools
    from scholar_tui.training.selector_auc import judged_pairs, score_model

    query_set = _read_query_file(queries_file)
    tools = LibraryTools(obj.where, _library(obj, quiet=as_json), obj.services.embedder())
    head = load_head(obj.where.data_dir)
    judged = judged_pairs(tools, query_set, head, split=split, limit=limit)
    pairs = sum(len(item.labels) for item in judged)
    _say(
        f"{pairs} judged pairs ({sum(sum(item.labels) for item in judged)} answers) from {len(judged)} {split} queries",
        as_json,
    )
    results = []
    for name in models or (obj.settings.llm.model,):
        settings = obj.settings.model_copy(update={"llm": obj.settings.llm.model_copy(update={"model": name})})
        selector = Selector(open_llm(settings, obj.where), rationale="template")
        results.append(score_model(name, selector, tools, judged, head, progress=lambda line: _say(line, as_json)))
    if as_json:
        emit_json(
            {"split": split, "queries": len(judged), "pairs": pairs, "models": [asdict(result) for result in results]}
        )
        return
    click.echo(f"{'model':40} {'AUC P(True)':>11} {'AUC head':>9} {'mean P(True)':>12} {'s':>6}")
    for result in results:
        click.echo(
            f"{result.model[:40]:40} {_fmt(result.auc):>11} {_fmt(result.head_auc):>9} "
            f"{result.mean_p_true:>12.3f} {result.seconds:>6.0f}"
        )


@pasa.command("train-selector")
@queries_option("AutoScholarQuery JSONL (default: built from the library now); its train split is read.")
@click.option(
    "--judge-limit",
    type=whole(0, 10_000),
    default=5,
    show_default=True,
    help="Papers per query the Selector's model judges.",
)
@click.option(
    "--judge-queries", type=whole(), help="Ask the model about the first N training queries only (slow CPUs)."
)
@click.option("--no-model", is_flag=True, help="Leave P(True) out (no model calls: fast, for a quick head).")
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the weights (default: the data folder, where PaSa reads them).",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def pasa_train_selector(
    obj: Context,
    queries_file: Path | None,
    judge_limit: int,
    judge_queries: int | None,
    no_model: bool,
    output: Path | None,
    as_json: bool,
) -> None:
    """Fit the Selector's scoring head on citation-derived queries of this library (train split by source paper)."""
    from scholar_tui.core.pasa.queries import build_queries
    from scholar_tui.core.pasa.selector import Selector
    from scholar_tui.core.pasa.selector_head import head_file
    from scholar_tui.core.pasa.tools import LibraryTools
    from scholar_tui.training.errors import TrainingError
    from scholar_tui.training.selector_head import train_head

    query_set = _read_query_file(queries_file)
    library = _library(obj, quiet=as_json)
    if queries_file is None:
        query_set = build_queries(library).queries
    tools = LibraryTools(obj.where, library, obj.services.embedder())
    selector = None if no_model else Selector(obj.services.llm(), rationale="template")
    try:
        head = train_head(
            tools,
            query_set,
            selector,
            judge_limit=judge_limit,
            judge_queries=judge_queries,
            progress=lambda line: _say(line, as_json),
        )
    except TrainingError as error:
        raise click.ClickException(str(error)) from error
    head.provenance["queries_from"] = str(queries_file) if queries_file else "built from the library"
    path = head.save(output or head_file(obj.where.data_dir))
    if as_json:
        emit_json(
            {
                "weights": str(path),
                **head.provenance,
                "selection": head.selection,
                "threshold": head.threshold,
                "max_selected": head.max_selected,
            }
        )
        return
    figures = head.provenance
    click.echo(f"wrote the Selector head to {path}")
    click.echo(
        f"  {figures['train_queries']} training queries from {figures['train_sources']} source papers, "
        f"{figures['pairs']} pool papers ({figures['relevant']} relevant), {figures['seconds']:.0f} s"
    )
    cap = "" if head.max_selected is None else f", at most {head.max_selected} selected per query"
    click.echo(
        f"  selection: the expected-F1 cut per query (mean F1 on the training split "
        f"{figures['train_f1_expected_f1_cut']:.3f}; threshold {head.threshold:.3f}{cap} would give "
        f"{figures['train_f1_at_threshold']:.3f}); AUC on judged training papers: head {_fmt(figures['train_auc_head_judged'])}, "
        f"P(True) {_fmt(figures['train_auc_p_true_judged'])}"
    )
    click.echo("  held-out figures: scholar-tui bench pasa --queries FILE (its test split)")


def _person_json(verdicts, part: str) -> dict:
    from scholar_tui.core.pasa.bench import verdict_counts

    answerable = [item for item in verdicts if item.query.expected]
    return {
        "part": part,
        **verdict_counts(verdicts),
        "queries": len(verdicts),
        "expected_in_top5": sum(item.found_in_top > 0 for item in answerable),
        "answerable": len(answerable),
        "per_query": [
            {
                "query": item.query.query,
                "held_out": item.query.held_out,
                "verdict": item.verdict,
                "found_in_top5": item.found_in_top,
                "expected": len(item.query.expected),
                "top5": item.top,
                "nothing_fits": item.nothing_fits,
            }
            for item in verdicts
        ],
    }


def _print_person(verdicts, part: str) -> None:
    """The person-written set as a person sees it: per query, then right / wrong / abstained."""
    figures = _person_json(verdicts, part)
    click.echo(f"\nperson-written set ({part}): {figures['queries']} queries")
    for item in verdicts:
        click.echo(terminal_text(f"  {item.line()}"))
    share = figures["expected_in_top5"] / figures["answerable"] if figures["answerable"] else 0.0
    click.echo(
        f"right {figures['right']} · wrong {figures['wrong']} · abstained {figures['abstained']} · "
        f"expected papers in the top 5 for {figures['expected_in_top5']}/{figures['answerable']} answerable "
        f"queries ({100 * share:.0f} %)"
    )


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.3f}"


def _read_query_file(path: Path | None) -> list:
    """The query set in a file, read before anything slow loads (a bad file fails at once)."""
    from scholar_tui.core.pasa.queries import QuerySetError, read_queries

    if path is None:
        return []
    try:
        return read_queries(path)
    except QuerySetError as error:
        raise click.ClickException(str(error)) from error


# -- bench pasa ------------------------------------------------------------------------------------------
@click.command("pasa")
@queries_option("AutoScholarQuery JSONL (default: built from the library now).")
@click.option(
    "--split",
    type=click.Choice(["test", "train", "all"]),
    default="test",
    show_default=True,
    help="Which side of the by-source-paper split to run (the head trains on 'train').",
)
@click.option(
    "--person-queries",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also run person-written queries (query<TAB>title substrings|…; no cut-off).",
)
@click.option(
    "--person-set",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A person's queries with the papers they expect (query<TAB>titles|… or -<TAB>dev|held-out): "
    "right / wrong / abstained and the top 5 of each, beside the usual figures.",
)
@person_part_option
@click.option("--limit", type=click.IntRange(min=0), help="Only the first N queries (0: only --person-set).")
@click.option(
    "--include-source",
    is_flag=True,
    help="Cut-off one day later, so the source paper is findable (leakage; shows what [Expand] adds).",
)
@crawl_options
@click.option(
    "--save-sessions",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write every Crawler session as CrawlerSession JSONL.",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def bench_pasa_command(
    obj: Context,
    queries_file: Path | None,
    split: str,
    person_queries: Path | None,
    person_set: Path | None,
    person_part: str,
    limit: int | None,
    include_source: bool,
    max_actions: int,
    max_papers: int,
    depth: int,
    query_mode: str,
    rationale: str,
    offline: bool,
    feedback: bool | None,
    head: bool,
    save_sessions: Path | None,
    as_json: bool,
) -> None:
    """PaSa against plain library search, one run: recall@k of both, crawler recall, P/R/F1, AUC, seconds."""
    from scholar_tui.core.jsonl import write_jsonl
    from scholar_tui.core.pasa.bench import (
        BenchFinished,
        QueryDone,
        bench_pasa,
        person_verdict,
        read_person_queries,
        read_person_set,
        table,
    )
    from scholar_tui.core.pasa.queries import QuerySetError, build_queries, split_queries

    options = _options(max_actions, max_papers, depth, query_mode, rationale, head)
    query_set = _read_query_file(queries_file)
    agent = _open_pasa(
        obj,
        quiet=as_json,
        options=options,
        online=False if offline else None,
        feedback=feedback,
        feedback_source="bench-pasa",
    )
    click.get_current_context().call_on_close(agent.close)
    library, llm = agent.library, agent.llm
    if queries_file is not None:
        origin = str(queries_file)
    else:
        query_set = build_queries(library).queries
        origin = "built from the library now (scholar-tui pasa build-queries to save it)"
    query_set = split_queries(query_set, split)
    if limit is not None:
        query_set = query_set[: max(limit, 0)]
    sets = [(f"{split} split", query_set)] if query_set else []
    if person_queries is not None:
        try:
            sets.append(("person-written", read_person_queries(person_queries, library)))
        except QuerySetError as error:
            raise click.ClickException(str(error)) from error
    person = []
    if person_set is not None:
        try:
            person = read_person_set(person_set, library, person_part)
        except QuerySetError as error:
            raise click.ClickException(str(error)) from error
    if not any(queries for _, queries in sets) and not person:
        raise click.ClickException("no queries to run")
    head_name = "head" if agent.head is not None else "P(True) alone"
    _say(
        f"bench pasa: {', '.join(f'{len(q)} {name} queries' for name, q in sets)} ({origin}), model {llm.model_name}, "
        f"{head_name}{f' from {agent.head.origin}' if agent.head else ''}, budgets {options.budgets.as_dict()}",
        as_json,
    )
    results = {}
    for name, queries in sets:
        finished: BenchFinished | None = None
        for item in bench_pasa(agent, queries, include_source=include_source):
            if isinstance(item, QueryDone):
                s = item.scores
                _say(
                    f"[{name} {item.index}/{item.total}] search R@20 {s.search_recall_at[20]:.2f} · PaSa R@20 "
                    f"{s.pasa_recall_at[20]:.2f} · crawler recall {s.crawler_recall:.2f} · F1 {s.extra['f1']:.2f} · "
                    f"{s.crawled} in pool, {s.selected} selected, {s.actions} actions, {s.seconds:.0f} s "
                    f"(first {s.extra['first_results_seconds'] or 0:.1f} s) · {s.query[:50]}",
                    as_json,
                )
            else:
                finished = item
        assert finished is not None
        results[name] = finished
    verdicts = []
    for number, query in enumerate(person, start=1):
        verdicts.append(person_verdict(agent, query))
        _say(f"[person {number}/{len(person)}] {verdicts[-1].line()}", as_json)
    if save_sessions:
        write_jsonl(save_sessions, agent.sessions)
        _say(f"wrote {len(agent.sessions)} Crawler sessions to {save_sessions}", as_json)
    settings = {
        "model": llm.model_name,
        "head": agent.head.origin if agent.head else None,
        "query_mode": agent.crawler.query_mode,
        "include_source": include_source,
        "budgets": options.budgets.as_dict(),
        "queries_from": origin,
    }
    if as_json:
        emit_json(
            {
                **settings,
                "runs": {
                    name: {
                        **done.summary,
                        "seconds": round(done.seconds, 1),
                        "per_query": [score.__dict__ for score in done.scores],
                    }
                    for name, done in results.items()
                },
                "person_set": _person_json(verdicts, person_part) if person_set else None,
            }
        )
        return
    for name, done in results.items():
        summary, pasa_stats = done.summary, done.summary["pasa"]
        cut = (
            "none"
            if name == "person-written"
            else ("query date + 1 day (source visible)" if include_source else "query date")
        )
        click.echo(f"\n{name}: {summary['queries']} queries · cut-off {cut}")
        click.echo(table(summary, llm.model_name, head_name))
        first = pasa_stats["median_first_results_seconds"]
        click.echo(
            f"median {pasa_stats['median_seconds']:.1f} s per query, first papers after "
            f"{'-' if first is None else f'{first:.2f}'} s (median; max {pasa_stats['max_first_results_seconds'] or 0:.2f} s) · "
            f"mean {pasa_stats['mean_crawled']:.1f} in the pool, {pasa_stats['mean_selected']:.1f} selected, "
            f"{pasa_stats['mean_actions']:.1f} actions · {counted(pasa_stats['answers_found_only_by_expand'], 'answer')} "
            f"found through [Expand] · AUC of the head over the whole pool {_fmt(pasa_stats['auc_head_pool'])} · "
            f"total {done.seconds:.0f} s"
        )
        click.echo(
            f"top 20 against plain search's: {counted(pasa_stats['top20_gained'], 'answer')} gained, "
            f"{pasa_stats['top20_lost']} lost"
        )
    if person_set is not None:
        _print_person(verdicts, person_part)
    if agent.feedback is not None and results:
        pasa_stats = next(iter(results.values())).summary["pasa"]
        click.echo(
            f"AutoFeedback: {counted(pasa_stats['retried_calls'], 'call')} sent back to the Crawler, "
            f"{counted(pasa_stats['retries'], 'other action')} tried, "
            f"{counted(pasa_stats['limit_hit'], 'loop')} waiting for a person"
        )
    else:
        click.echo("AutoFeedback: off (--no-feedback or autofeedback.pasa = false)")


__all__ = ["bench_pasa_command", "pasa", "search_command"]
