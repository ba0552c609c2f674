"""PaSa on the command line: `search`, `pasa prepare|build-queries`, `bench pasa`.

The commands consume the engine's event stream: progress goes to standard error as it happens,
results to standard output (or one JSON document with ``--json``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from .cli import Context, emit_json, one_line_errors

DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?$")


def _check_date(value: str | None) -> str | None:
    if value is not None and not DATE.match(value):
        raise click.BadParameter(f"expected YYYY-MM-DD, not {value!r}")
    return value


def _say(text: str, quiet: bool) -> None:
    if not quiet:
        click.echo(text, err=True)


def _open(obj: Context, *, quiet: bool, need_llm: bool = True):
    """Library, embedder and model; the library is prepared (cited works, index) first."""
    from ..core.pasa.setup import prepare_library
    from ..core.pasa.works import CitedWorks
    from ..indexes.library import Library
    from ..indexes.library_search import IndexFinished, IndexProgress
    from ..models import load_embedder, load_llm

    library = Library.open(obj.where)
    if library.counts()["papers"] == 0:
        raise click.ClickException("the library is empty: import papers first (scholar-tui import unarxive FILE)")
    embedder = load_embedder(obj.settings)
    for event in prepare_library(obj.where, library, embedder):
        if isinstance(event, CitedWorks) and event.linked:
            _say(f"library: {event.summary()}", quiet)
        elif isinstance(event, IndexProgress) and event.total and event.done == 0:
            _say(f"library: embedding {event.total} papers for search…", quiet)
        elif isinstance(event, IndexFinished) and event.embedded:
            _say(f"library: {event.embedded} papers embedded in {event.seconds:.1f} s", quiet)
    llm = load_llm(obj.settings, obj.where) if need_llm else None
    return library, embedder, llm


def _options(max_actions: int, max_papers: int, depth: int, query_mode: str, rationale: str):
    from ..core.pasa.engine import PaSaOptions
    from ..core.pasa.queue import Budgets

    if min(max_actions, max_papers, depth) < 1:
        raise click.BadParameter("--max-actions, --max-papers and --depth must be at least 1")
    return PaSaOptions(budgets=Budgets(max_actions=max_actions, max_papers=max_papers, max_depth=depth),
                       query_mode=query_mode, rationale=rationale)


def crawl_options(function):
    """The budget and mode options shared by `search` and `bench pasa`."""
    for decorator in reversed([
        click.option("--max-actions", default=8, show_default=True, help="[Search] + [Expand] actions in all."),
        click.option("--max-papers", default=40, show_default=True, help="Papers the queue may hold."),
        click.option("--depth", default=3, show_default=True, help="Exploration depth (PaSa uses 3)."),
        click.option("--query-mode", type=click.Choice(["auto", "candidates", "free"]), default="auto", show_default=True,
                     help="[Search] queries: picked from the query's key phrases (tiny model) or written by the model."),
        click.option("--rationale", type=click.Choice(["auto", "template", "model"]), default="auto", show_default=True,
                     help="Selector rationale: templated from evidence (tiny model) or generated."),
        click.option("--offline", is_flag=True, help="Do not ask arXiv or OpenAlex, even when the network is there."),
        click.option("--feedback/--no-feedback", default=None,
                     help="Send every [Search]/[Expand] through AutoFeedback (default: the autofeedback.pasa setting)."),
    ]):
        function = decorator(function)
    return function


def _progress_line(event, titles: dict[int, str]) -> str | None:
    kind = event.kind
    if kind == "started":
        return (f"PaSa with {event.model} ({event.query_mode} queries, {event.rationale_mode} rationales, "
                f"{'online' if event.online else 'offline'}) · cut-off {event.date or 'none'}")
    if kind == "decided":
        head = "Crawler (search session)" if event.session == "search" else f"Crawler reads {titles.get(event.paper_node, '')[:50]!r}"
        refused = f" · refused {event.refused}" if event.refused else ""
        return f"{head}: {event.text} ({event.seconds:.1f} s){refused}"
    if kind == "search":
        return f"  {'↻ ' if event.retry_of else ''}[Search] {event.query}"
    if kind == "expand":
        return f"  {'↻ ' if event.retry_of else ''}[Expand] paper:{event.paper_id} “{event.section}”"
    if kind == "feedback":
        if not event.retried:
            return None  # the call was fine as sent: nothing to say
        line = f"    AutoFeedback (loop {event.loop_id}, {event.status}): {event.reasons}"
        if event.status == "limit_hit":
            line += (f"\n    it waits for a person: scholar-tui logs --loop {event.loop_id}, then "
                     f"scholar-tui feedback send '<request>' --loop {event.loop_id} (or the API debugger, F4)")
        return line
    if kind == "found":
        for paper in event.papers:
            titles[paper.node] = paper.title
        extra = "".join([f", {event.duplicates} already queued" if event.duplicates else "",
                         f", {event.over_budget} over the paper budget" if event.over_budget else ""])
        return f"    → {len(event.papers)} new papers ({event.origin}{extra})"
    if kind == "verdict":
        mark = "✓" if event.decision else "·"
        return f"      {mark} {event.probability:.2f} paper:{event.paper_id} {titles.get(event.node, '')[:70]}"
    if kind == "notice":
        return f"  ! {event.message}"
    if kind == "finished":
        return (f"done: {len(event.queue)} papers crawled, {len(event.selected)} selected, {event.actions} actions, "
                f"{event.llm_calls} model calls, {event.seconds:.1f} s ({event.stop_reason})")
    return None


# -- search ----------------------------------------------------------------------------------------
@click.command("search")
@click.argument("query")
@click.option("--date", callback=lambda ctx, param, value: _check_date(value),
              help="Query date: only papers published strictly before it (YYYY-MM-DD).")
@crawl_options
@click.option("--all", "show_all", is_flag=True, help="List every judged paper, not only the selected ones.")
@click.option("--export", "export", nargs=2, type=(click.Choice(["bib", "json"]), click.Path(dir_okay=False, path_type=Path)),
              help="Write the selected papers as BibTeX or JSON: --export bib results.bib")
@click.option("--save-sessions", type=click.Path(dir_okay=False, path_type=Path),
              help="Write this run's Crawler sessions as CrawlerSession JSONL (Table 8).")
@click.option("--save-selections", type=click.Path(dir_okay=False, path_type=Path),
              help="Write this run's Selector decisions as SelectorRecord JSONL.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document: results, stats and every event.")
@click.pass_obj
@one_line_errors
def search_command(obj: Context, query: str, date: str | None, max_actions: int, max_papers: int, depth: int,
                   query_mode: str, rationale: str, offline: bool, feedback: bool | None, show_all: bool,
                   export: tuple | None,
                   save_sessions: Path | None, save_selections: Path | None, as_json: bool) -> None:
    """PaSa paper search: the Crawler searches and expands citations, the Selector ranks by P(True)."""
    from ..core.pasa.events import event_dict
    from ..core.pasa.export import export_results
    from ..core.pasa.setup import build_agent
    from ..indexes.library_search import SearchError
    from ..training.formats import write_jsonl

    if not query.strip():
        raise click.BadParameter("the query is empty", param_hint="QUERY")
    options = _options(max_actions, max_papers, depth, query_mode, rationale)
    library, embedder, llm = _open(obj, quiet=as_json)
    agent = build_agent(obj.where, obj.settings, library, llm, embedder, options=options,
                        online=False if offline else None, feedback=feedback)
    events: list[Any] = []
    titles: dict[int, str] = {}

    async def consume() -> None:
        async for event in agent.run(query, date=date):
            events.append(event)
            line = _progress_line(event, titles)
            if line:
                _say(line, as_json)

    import asyncio  # here, not at the top: `scholar-tui --help` should not pay for it

    try:
        asyncio.run(consume())
    except SearchError as error:
        raise click.ClickException(str(error)) from error
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
        count = export_results(path, fmt, library, query, date, finished.selected)
        _say(f"exported {count} selected papers to {path} ({fmt})", as_json)
    if as_json:
        emit_json({"query": query, "date": date, "model": llm.model_name,
                   "results": [event_dict(paper) for paper in shown],
                   "queue": finished.queue, "stop_reason": finished.stop_reason, "actions": finished.actions,
                   "llm_calls": finished.llm_calls, "seconds": finished.seconds,
                   "events": [event_dict(event) for event in events]})
        return
    if not shown:
        click.echo("no paper was selected" + ("" if show_all else " (--all lists every judged paper)"))
    for rank, paper in enumerate(shown, start=1):
        mark = "✓" if paper.decision else "·"
        click.echo(f"{rank:>3}. {mark} P(True) {paper.probability:.2f}  paper:{paper.paper_id}  "
                   f"{paper.date or '????'}  {paper.title}")
        click.echo(f"       {paper.rationale}")
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
    from ..core.pasa.setup import prepare
    from ..indexes.library import Library
    from ..indexes.pasa_works import source_counts
    from ..models import load_embedder

    library = Library.open(obj.where)
    prepared = prepare(obj.where, library, load_embedder(obj.settings))
    sources = source_counts(library)
    if as_json:
        emit_json({"cited_works": prepared.cited.__dict__, "index": prepared.index.__dict__ if prepared.index else None,
                   "papers_by_source": sources})
        return
    click.echo(prepared.cited.summary())
    click.echo("papers by source: " + ", ".join(f"{count} {source}" for source, count in sorted(sources.items())))
    if prepared.index:
        click.echo(f"search index: {prepared.index.embedded} embedded in {prepared.index.seconds:.1f} s "
                   f"({prepared.index.indexed} indexed)")


@pasa.command("build-queries")
@click.argument("output", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--min-answers", default=2, show_default=True, help="Cited works a clause needs to become a query.")
@click.option("--per-section", default=5, show_default=True, help="Queries kept per passage (Table 16 asks for five).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def pasa_build_queries(obj: Context, output: Path, min_answers: int, per_section: int, as_json: bool) -> None:
    """Write an AutoScholarQuery-style set (query, answer papers, query date) built from the library."""
    from ..core.pasa.queries import build_queries, write_queries
    from ..core.pasa.works import prepare_cited_works
    from ..indexes.library import Library

    library = Library.open(obj.where)
    cited = prepare_cited_works(library)  # answers are cited works: they must be library papers
    report = build_queries(library, min_answers=min_answers, per_section=per_section)
    count = write_queries(output, report.queries)
    passages: dict[str, int] = {}
    for query in report.queries:
        passages[query.passage] = passages.get(query.passage, 0) + 1
    answers = [len(query.answers) for query in report.queries]
    summary = {"output": str(output), "queries": count, "source_papers": report.papers,
               "passages_read": report.passages, "clauses_with_citations": report.clauses_with_citations,
               "by_passage": passages, "mean_answers": round(sum(answers) / len(answers), 2) if answers else 0,
               "cited_works_linked_now": cited.linked}
    if as_json:
        emit_json(summary)
        return
    click.echo(f"wrote {count} queries from {report.papers} papers to {output}")
    click.echo(f"  passages read: {report.passages} ({', '.join(f'{n} queries from {k}' for k, n in passages.items())})")
    click.echo(f"  answers per query: mean {summary['mean_answers']}, from {report.clauses_with_citations} citing clauses")


# -- bench pasa ------------------------------------------------------------------------------------------
@click.command("pasa")
@click.option("--queries", "queries_file", type=click.Path(dir_okay=False, path_type=Path),
              help="AutoScholarQuery JSONL (default: built from the library now).")
@click.option("--limit", type=int, help="Only the first N queries.")
@click.option("--include-source", is_flag=True,
              help="Cut-off one day later, so the source paper is findable (leakage; shows what [Expand] adds).")
@crawl_options
@click.option("--save-sessions", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every Crawler session as CrawlerSession JSONL.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def bench_pasa_command(obj: Context, queries_file: Path | None, limit: int | None, include_source: bool,
                       max_actions: int, max_papers: int, depth: int, query_mode: str, rationale: str, offline: bool,
                       feedback: bool | None, save_sessions: Path | None, as_json: bool) -> None:
    """PaSa against plain library search: crawler recall, precision, recall, recall@20/50/100."""
    from ..core.pasa.bench import BenchFinished, QueryDone, bench_pasa, table
    from ..core.pasa.queries import QuerySetError, build_queries, read_queries
    from ..core.pasa.setup import build_agent
    from ..training.formats import write_jsonl

    options = _options(max_actions, max_papers, depth, query_mode, rationale)
    query_set = []
    if queries_file is not None:  # a bad file fails before anything slow is loaded
        try:
            query_set = read_queries(queries_file)
        except QuerySetError as error:
            raise click.ClickException(str(error)) from error
    library, embedder, llm = _open(obj, quiet=as_json)
    if queries_file is not None:
        origin = str(queries_file)
    else:
        query_set = build_queries(library).queries
        origin = "built from the library now (scholar-tui pasa build-queries to save it)"
    if limit is not None:
        query_set = query_set[:max(limit, 0)]
    if not query_set:
        raise click.ClickException("no queries to run")
    agent = build_agent(obj.where, obj.settings, library, llm, embedder, options=options,
                        online=False if offline else None, feedback=feedback, feedback_source="bench-pasa")
    _say(f"bench pasa: {len(query_set)} queries ({origin}), model {llm.model_name}, "
         f"budgets {options.budgets.as_dict()}", as_json)
    finished: BenchFinished | None = None

    async def consume() -> None:
        nonlocal finished
        async for item in bench_pasa(agent, query_set, include_source=include_source):
            if isinstance(item, QueryDone):
                s = item.scores
                _say(f"[{item.index}/{item.total}] crawler recall {s.crawler_recall:.2f} · recall {s.recall:.2f} · "
                     f"precision {s.precision:.2f} · search R@20 {s.search_recall_at[20]:.2f} · "
                     f"{s.crawled} crawled, {s.actions} actions{f', {s.retries} retries' if s.retries else ''}, "
                     f"{s.seconds:.0f} s · {s.query[:60]}", as_json)
            else:
                finished = item

    import asyncio

    asyncio.run(consume())
    assert finished is not None
    if save_sessions:
        write_jsonl(save_sessions, agent.sessions)
        _say(f"wrote {len(agent.sessions)} Crawler sessions to {save_sessions}", as_json)
    summary = {**finished.summary, "model": llm.model_name, "query_mode": agent.crawler.query_mode,
               "rationale_mode": agent.selector.rationale_mode, "include_source": include_source,
               "budgets": options.budgets.as_dict(), "seconds": round(finished.seconds, 1), "queries_from": origin}
    if as_json:
        emit_json({**summary, "per_query": [score.__dict__ for score in finished.scores]})
        return
    click.echo(table(finished.summary, llm.model_name))
    pasa_stats = finished.summary["pasa"]
    click.echo(f"\n{finished.summary['queries']} queries · cut-off {'query date + 1 day (source visible)' if include_source else 'query date'} · "
               f"{agent.crawler.query_mode} queries, {agent.selector.rationale_mode} rationales · "
               f"mean {pasa_stats['mean_crawled']:.1f} crawled, {pasa_stats['mean_selected']:.1f} selected, "
               f"{pasa_stats['mean_actions']:.1f} actions, {pasa_stats['mean_seconds']:.1f} s per query "
               f"(plain search {finished.summary['mean_search_seconds']:.2f} s) · "
               f"{pasa_stats['answers_found_only_by_expand']} answers found through [Expand] · total {finished.seconds:.0f} s")
    if agent.feedback is not None:
        click.echo(f"AutoFeedback: {pasa_stats['retried_calls']} calls sent back to the Crawler, "
                   f"{pasa_stats['retries']} other actions tried, {pasa_stats['limit_hit']} loops waiting for a person, "
                   f"{pasa_stats['answers_found_by_retry']} answers first found by a retry")
    else:
        click.echo("AutoFeedback: off (--no-feedback or autofeedback.pasa = false)")


__all__ = ["bench_pasa_command", "pasa", "search_command"]
