"""`scholar-tui conf …`: Conference QA with STAR from the command line (import, list, ask, eval)."""

from __future__ import annotations

import sys
from functools import wraps
from pathlib import Path
from typing import Callable

import click

from scholar_tui.app.cli_support import Context, emit_json, one_line_errors

DESCRIBERS = ("structural", "llm")
METHODS = ("star", "path")
ANSWERERS = ("extractive", "choose", "generate")
DESCRIBER_NOTE = {
    "structural": "structural (deterministic: parent description + path + siblings, no model)",
    "llm": "llm (the active model writes each description)",
}


def conference_errors(function: Callable) -> Callable:
    """A conference that cannot be read or found is one line and exit 1, like every known failure."""
    from ..core.conference.tree import ConferenceError

    @wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except ConferenceError as error:
            raise click.ClickException(str(error)) from error

    return one_line_errors(wrapper)


def _describer(obj: Context, kind: str):
    from ..core.conference.describe import LLMDescriber, StructuralDescriber

    if kind == "structural":
        return StructuralDescriber()
    from scholar_tui.core.llm import open_llm

    return LLMDescriber(open_llm(obj.settings, obj.where))


def _embedder(obj: Context):
    from ..models import load_embedder

    return load_embedder(obj.settings)


class _Progress:
    """One self-overwriting status line on stderr while a build runs (silent when not a terminal)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.shown = False

    def show(self, text: str) -> None:
        if self.enabled:
            click.echo(f"\r\x1b[2K{text}", nl=False, err=True)
            self.shown = True

    def done(self) -> None:
        if self.shown:
            click.echo("\r\x1b[2K", nl=False, err=True)
            self.shown = False

    def event(self, event) -> None:
        from ..core.conference.events import DescribeProgress, EmbedProgress, EvalProgress, TreeLoaded

        if isinstance(event, TreeLoaded):
            self.show(f"{event.conference}: {event.nodes} nodes, {event.leaves} paths")
        elif isinstance(event, DescribeProgress):
            self.show(f"describing {event.done}/{event.total} nodes ({event.generated} generated, {event.cached} cached)")
        elif isinstance(event, EmbedProgress):
            self.show(f"embedding {event.done}/{event.total} texts ({event.reused} reused)")
        elif isinstance(event, EvalProgress):
            self.show(f"answering {event.done}/{event.total} ({event.question_type})")


def _build_line(built) -> str:
    return (
        f"index: {built.leaves} paths · descriptions {built.generated} generated / {built.cached} cached "
        f"({built.describer}) · vectors {built.embedded} embedded / {built.reused} reused ({built.embedder}) · "
        f"built in {built.build_s:.1f} s (describe {built.describe_s:.1f} s, embed {built.embed_s:.1f} s"
        + (f"; embedder load {built.embedder_load_s:.1f} s apart" if built.embedder_load_s else "")
        + f"; CPU {built.cpu_s:.0f} s)"
    )


@click.group("conf")
def conf() -> None:
    """Conference QA (STAR): import a conference's site data, ask it questions, evaluate retrieval."""


@conf.command("import")
@click.argument("source")
@click.option("--name", help="Call the conference this (default: the tree's root, e.g. ICML2023).")
@click.option("--describer", type=click.Choice(DESCRIBERS), default="structural", show_default=True,
              help="structural: deterministic descriptions (right for the tiny default model); llm: the active model writes them.")
@click.option("--rebuild", is_flag=True, help="Ignore the description cache and stored vectors (to time a cold build).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@conference_errors
def conf_import(obj: Context, source: str, name: str | None, describer: str, rebuild: bool, as_json: bool) -> None:
    """Import SOURCE (a ConferenceQA JSON file, an HTML page or folder of pages, or a URL) and index it."""
    from ..core.conference.engine import build_index
    from ..core.conference.events import IndexBuilt
    from ..core.conference.sources import is_url, load_source

    settings = obj.settings
    tree = load_source(source, name=name, offline=settings.network.offline, timeout_s=settings.network.timeout_s)
    label = source if is_url(source) else str(Path(source).expanduser().resolve())
    progress = _Progress(not as_json)
    built = None
    for event in build_index(obj.where, tree, label, _describer(obj, describer), _embedder(obj), rebuild=rebuild):
        progress.event(event)
        if isinstance(event, IndexBuilt):
            built = event
    progress.done()
    if as_json:
        emit_json(built.as_dict())
        return
    click.echo(f"imported {built.conference} from {label}")
    click.echo(_build_line(built))
    click.echo(f"describer: {DESCRIBER_NOTE[built.describer]}")


@conf.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@conference_errors
def conf_list(obj: Context, as_json: bool) -> None:
    """The imported conferences, with their size, describer and last build time."""
    from ..core.conference.store import ConferenceStore

    store = ConferenceStore(obj.where)
    records = store.conferences()
    store.close()
    if as_json:
        emit_json([record.__dict__ for record in records])
        return
    if not records:
        click.echo("no conferences yet: scholar-tui conf import PATH|URL")
        return
    click.echo(f"{'name':20} {'paths':>6} {'describer':11} {'build s':>8}  imported             source")
    for record in records:
        build = f"{record.build_s:.1f}" if record.build_s is not None else "-"
        click.echo(f"{record.name:20} {record.leaves:6} {record.describer:11} {build:>8}  {record.imported_at}  {record.source}")


@conf.command("ask")
@click.argument("name")
@click.argument("question")
@click.option("--method", type=click.Choice(METHODS), default="star", show_default=True,
              help="star: search path descriptions; path: search raw paths (the baseline).")
@click.option("--answerer", type=click.Choice(ANSWERERS), default="choose", show_default=True,
              help="choose: the model picks one of the top-5 leaf values (constrained); generate: a short free answer; extractive: no model.")
@click.option("-k", "k", default=5, show_default=True, help="How many paths to retrieve.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@conference_errors
def conf_ask(obj: Context, name: str, question: str, method: str, answerer: str, k: int, as_json: bool) -> None:
    """Answer QUESTION from conference NAME, with the evidence paths."""
    from ..core.conference.engine import ask
    from ..core.conference.store import ConferenceStore

    store = ConferenceStore(obj.where)
    store.conference(name)  # a clear error before loading any model
    store.close()
    llm = None
    if answerer != "extractive":
        from scholar_tui.core.llm import open_llm

        llm = open_llm(obj.settings, obj.where)
    answered = ask(obj.where, name, question, _embedder(obj), method=method, llm=llm, answer_mode=answerer, k=k)
    if llm is not None:
        llm.close()
    if as_json:
        emit_json(answered.as_dict())
        return
    click.echo(f"extractive: {answered.extractive}")
    if answered.model_answer is not None:
        click.echo(f"model ({answered.answer_mode}): {answered.model_answer}")
        click.echo(click.style(f"  {answered.model_detail}", dim=True))
    click.echo(f"evidence ({method}, top {k}, cosine):")
    for item in answered.evidence:
        click.echo(f"  {item.rank}. {item.score:.3f}  {item.path}")


def _percent(value: float | None) -> str:
    return "   -" if value is None else f"{100 * value:5.1f}"


def _print_report(report) -> None:
    click.echo(f"{report.conference} · method {report.method} · describer {DESCRIBER_NOTE[report.describer]}")
    click.echo("answers: extractive (best path's leaf value)"
               + (f" and model ({report.answer_mode})" if report.overall.model_f1 is not None else "")
               + f" · evidence hit@k against each question's `from` · k={report.k}")
    click.echo(_build_line(report.index))
    with_model = report.overall.model_f1 is not None
    header = f"{'type':20}{'n':>4} {'F1':>6}{'EM':>6}"
    if with_model:
        header += f"{'F1 llm':>8}{'EM llm':>8}"
    header += f"{'hit@1':>7}{'hit@5':>7}  from resolved"
    click.echo(header)
    for scores in [*report.by_type, report.overall]:
        line = f"{scores.question_type:20}{scores.questions:4} {_percent(scores.f1):>6}{_percent(scores.em):>6}"
        if with_model:
            line += f"{_percent(scores.model_f1):>8}{_percent(scores.model_em):>8}"
        line += f"{_percent(scores.hit_at_1):>7}{_percent(scores.hit_at_5):>7}  {scores.resolved}/{scores.questions}"
        click.echo(line)
    click.echo(f"answering: {report.overall.questions} questions in {report.answer_s:.1f} s")


@conf.command("eval")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--method", type=click.Choice(METHODS), default="star", show_default=True)
@click.option("--describer", type=click.Choice(DESCRIBERS), default="structural", show_default=True)
@click.option("--answerer", type=click.Choice(ANSWERERS), default="extractive", show_default=True,
              help="Also score the model's answers (choose/generate); slower: one model call per question.")
@click.option("--name", help="Store the conference under this name (default: the tree's root).")
@click.option("--rebuild", is_flag=True, help="Ignore caches: time a cold index build.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@conference_errors
def conf_eval(obj: Context, directory: Path, method: str, describer: str, answerer: str, name: str | None,
              rebuild: bool, as_json: bool) -> None:
    """Evaluate DIRECTORY in ConferenceQA form (one tree JSON + the four question files).

    Imports and indexes the conference into the current SCHOLAR_TUI_HOME (reusing cached
    descriptions and vectors), then prints F1, EM, hit@1 and hit@5 per question type.
    """
    from ..core.conference.engine import evaluate
    from ..core.conference.events import EvalFinished

    llm = None
    if answerer != "extractive":
        from scholar_tui.core.llm import open_llm

        llm = open_llm(obj.settings, obj.where)
    progress = _Progress(not as_json)
    report = None
    for event in evaluate(obj.where, directory, _describer(obj, describer), _embedder(obj), method=method,
                          llm=llm, answer_mode=answerer, name=name, rebuild=rebuild):
        progress.event(event)
        if isinstance(event, EvalFinished):
            report = event.report
    progress.done()
    if llm is not None:
        llm.close()
    if as_json:
        emit_json(report.as_dict())
        return
    _print_report(report)
