"""`scholar-tui conf …`: Conference QA with STAR from the command line (import, list, ask, eval)."""

from __future__ import annotations

import sys
import time
from functools import wraps
from pathlib import Path
from typing import Callable

import click

from scholar_tui.app.cli_support import Context, emit_json, one_line_errors, person_part_option, terminal_text, whole

DESCRIBERS = ("structural", "llm")
METHODS = ("star", "path")
ANSWERERS = ("auto", "computed", "choose", "generate")
DESCRIBER_NOTE = {
    "structural": "structural (deterministic: parent description + path + siblings, no model)",
    "llm": "llm (the active model writes each description)",
}
ANSWERER_HELP = (
    "auto: as the Conference QA tab chooses, by the active model (computed for the bundled one); computed: answered from the evidence by the question's form (span, yes/no, count, sum, "
    "earliest/latest), offline; choose: the model picks the path first (constrained); "
    "generate: the model writes the answer from the evidence (for a capable model or endpoint)."
)


def conference_errors(function: Callable) -> Callable:
    """A conference that cannot be read or found is one line and exit 1, like every known failure."""
    from scholar_tui.core.conference.tree import ConferenceError

    @wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except ConferenceError as error:
            raise click.ClickException(str(error)) from error

    return one_line_errors(wrapper)


def _describer(obj: Context, kind: str):
    from scholar_tui.core.conference.describe import LLMDescriber, StructuralDescriber

    if kind == "structural":
        return StructuralDescriber()
    return LLMDescriber(obj.services.llm())


def _engine(obj: Context, answerer: str = "auto"):
    """``open_conference`` over the command's services: the embedder loads when a request first
    searches, the LLM only for an answerer that uses it; both are closed with the command."""
    from scholar_tui.core.conference.engine import open_conference

    engine = open_conference(obj.services, answer_mode=answerer)
    click.get_current_context().call_on_close(engine.close)
    return engine


class _Progress:
    """One self-overwriting status line on stderr while a build runs; when stderr is not a terminal
    (a log, a pipe), a plain line every ``LOG_EVERY_S`` seconds, so a long import shows it moves."""

    LOG_EVERY_S = 30.0

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.terminal = enabled and sys.stderr.isatty()
        self.shown = False
        self.logged_at = time.monotonic()

    def show(self, text: str) -> None:
        if self.terminal:
            click.echo(f"\r\x1b[2K{terminal_text(text)}", nl=False, err=True)
            self.shown = True
        elif self.enabled and time.monotonic() - self.logged_at >= self.LOG_EVERY_S:
            click.echo(terminal_text(text), err=True)
            self.logged_at = time.monotonic()

    def done(self) -> None:
        if self.shown:
            click.echo("\r\x1b[2K", nl=False, err=True)
            self.shown = False


@click.group("conf")
def conf() -> None:
    """Conference QA (STAR): import a conference's site data, ask it questions, evaluate retrieval."""


@conf.command("import")
@click.argument("source")
@click.option("--name", help="Call the conference this (default: the tree's root, e.g. ICML2023).")
@click.option(
    "--describer",
    type=click.Choice(DESCRIBERS),
    default="structural",
    show_default=True,
    help="structural: deterministic descriptions (right for the tiny default model); llm: the active model writes them.",
)
@click.option("--rebuild", is_flag=True, help="Ignore the description cache and stored vectors (to time a cold build).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@conference_errors
def conf_import(obj: Context, source: str, name: str | None, describer: str, rebuild: bool, as_json: bool) -> None:
    """Import SOURCE (a ConferenceQA JSON file, an HTML page or folder of pages, or a URL) and index it."""
    from scholar_tui.core.conference.events import IndexBuilt
    from scholar_tui.core.conference.sources import is_url, load_source

    settings = obj.settings
    tree = load_source(source, name=name, offline=settings.network.offline, timeout_s=settings.network.timeout_s)
    label = source if is_url(source) else str(Path(source).expanduser().resolve())
    progress = _Progress(not as_json)
    built = None
    for event in _engine(obj).build(tree, label, _describer(obj, describer), rebuild=rebuild):
        progress.show(event.summary())
        if isinstance(event, IndexBuilt):
            built = event
    progress.done()
    if as_json:
        emit_json(built.as_dict())
        return
    click.echo(f"imported {built.conference} from {label}")
    click.echo(built.summary())
    click.echo(f"describer: {DESCRIBER_NOTE[built.describer]}")


@conf.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@conference_errors
def conf_list(obj: Context, as_json: bool) -> None:
    """The imported conferences, with their size, describer and last build time."""
    records = _engine(obj).conferences()
    if as_json:
        emit_json([record.__dict__ for record in records])
        return
    if not records:
        click.echo("no conferences yet: scholar-tui conf import PATH|URL")
        return
    click.echo(f"{'name':20} {'paths':>6} {'describer':11} {'build s':>8}  imported             source")
    for record in records:
        build = f"{record.build_s:.1f}" if record.build_s is not None else "-"
        click.echo(
            f"{record.name:20} {record.leaves:6} {record.describer:11} {build:>8}  {record.imported_at}  {record.source}"
        )


@conf.command("ask")
@click.argument("name")
@click.argument("question")
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="star",
    show_default=True,
    help="star: hybrid search over path descriptions, re-scored with the tree; path: raw paths (the baseline).",
)
@click.option("--answerer", type=click.Choice(ANSWERERS), default="auto", show_default=True, help=ANSWERER_HELP)
@click.option("-k", "k", type=whole(1, 1000), default=5, show_default=True, help="How many paths to retrieve.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@conference_errors
def conf_ask(obj: Context, name: str, question: str, method: str, answerer: str, k: int, as_json: bool) -> None:
    """Answer QUESTION from conference NAME, citing the evidence paths."""
    from scholar_tui.core.conference.events import Answered

    answered = None
    for event in _engine(obj, answerer).ask(name, question, method=method, k=k):  # an unknown name: before any model
        if isinstance(event, Answered):
            answered = event
    if as_json:
        emit_json(answered.to_json())
        return
    if answered.support:  # a verdict, then the sentence that decides it
        click.echo(terminal_text(f"answer ({answered.operation}): {answered.value}"))
        click.echo(terminal_text(f"  because: {answered.support}"))
    else:
        click.echo(terminal_text(f"answer ({answered.operation}): {answered.answer}"))  # a site's or a model's text
    if answered.model_detail:
        click.echo(click.style(terminal_text(f"  {answered.model_detail}"), dim=True))
    click.echo(f"evidence ({method}, top {k}; * cited):")
    for item in answered.evidence:
        mark = "*" if item.rank in answered.cited else " "
        kept = f" (kept: {item.kept})" if item.kept else ""
        click.echo(terminal_text(f" {mark}{item.rank}. {item.score:.3f}{kept}  {item.path}"))


def _percent(value: float | None) -> str:
    return "   -" if value is None else f"{100 * value:5.1f}"


def _print_report(report) -> None:
    click.echo(
        f"{report.conference} · describer {DESCRIBER_NOTE[report.describer]} · answers {report.answer_mode}"
        f" · evidence hit@k against each question's `from` · k={report.k}"
    )
    click.echo(report.index.summary())
    methods = [item for item in report.methods if not item.method.startswith("ablation")]
    header = f"{'type':20}{'n':>4}"
    for item in methods:
        header += f" | {item.method + ' F1':>9}{'EM':>6}{'hit@1':>7}{'hit@5':>7}"
    click.echo(header + "  from resolved")
    for position, kind in enumerate([*(scores.question_type for scores in methods[0].by_type), "all"]):
        rows = [item.overall if kind == "all" else item.by_type[position] for item in methods]
        line = f"{kind:20}{rows[0].questions:4}"
        for scores in rows:
            line += f" | {_percent(scores.f1):>9}{_percent(scores.em):>6}{_percent(scores.hit_at_1):>7}{_percent(scores.hit_at_5):>7}"
        click.echo(line + f"  {rows[0].resolved}/{rows[0].questions}")
    names = [item.method for item in methods]
    if "star" in names and "path" in names and report.method("path").overall.hit_at_5:
        ratio = report.method("star").overall.hit_at_5 / report.method("path").overall.hit_at_5
        click.echo(f"STAR / path hit@5: {ratio:.2f}")
    ablation = [item for item in report.methods if item.method.startswith("ablation")]
    if ablation:
        kinds = [scores.question_type for scores in ablation[0].by_type]
        click.echo("ablation (STAR, one part added per row): hit@5 / F1 by type")
        width = max(len(item.retrieval) for item in ablation) + 2
        click.echo(
            f"{'retrieval':{width}}"
            + "".join(f"{kind[:3].upper() + kind.split('_')[1][:1].upper():>12}" for kind in kinds)
            + f"{'all':>12}"
        )
        for item in ablation:
            cells = [*item.by_type, item.overall]
            click.echo(
                f"{item.retrieval:{width}}"
                + "".join(f"{_percent(s.hit_at_5).strip():>6}/{_percent(s.f1).strip():>5}" for s in cells)
            )
    click.echo(
        f"answering: {methods[0].overall.questions} questions × {len(report.methods)} configurations "
        f"in {report.answer_s:.1f} s"
    )


def _print_person(scores) -> None:
    """Right / wrong / abstained of the person-written set, and every answer that was not right."""
    click.echo(scores.line())
    for item in scores.verdicts:
        if item.verdict != "right":
            expected = "the abstain sentence" if item.expect is None else " + ".join(item.expect)
            click.echo(terminal_text(f"  {item.verdict}: {item.question} → {item.answer[:160]} (expected {expected})"))


@conf.command("eval")
@click.argument("directory", type=click.Path(path_type=Path))
@click.option("--describer", type=click.Choice(DESCRIBERS), default="structural", show_default=True)
@click.option("--answerer", type=click.Choice(ANSWERERS), default="computed", show_default=True, help=ANSWERER_HELP)
@click.option(
    "--ablation",
    is_flag=True,
    help="Also score STAR with its parts added one at a time (dense, + BM25, + query expansion, + tree).",
)
@click.option(
    "--errors",
    "errors_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write every missed question (gold path, top-5 paths, the answer given) of STAR to this file.",
)
@click.option("--name", help="Store the conference under this name (default: the tree's root).")
@click.option("--rebuild", is_flag=True, help="Ignore caches: time a cold index build.")
@click.option(
    "--person-set",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also answer a person's attendee questions (JSON lines: question, expect, held_out) and print "
    "right / wrong / abstained beside the usual figures.",
)
@person_part_option
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@conference_errors
def conf_eval(
    obj: Context,
    directory: Path,
    describer: str,
    answerer: str,
    ablation: bool,
    errors_file: Path | None,
    name: str | None,
    rebuild: bool,
    person_set: Path | None,
    person_part: str,
    as_json: bool,
) -> None:
    """Evaluate DIRECTORY in ConferenceQA form (one tree JSON + the four question files).

    Imports and indexes the conference into the current SCHOLAR_TUI_HOME (reusing cached
    descriptions and vectors), then prints F1, EM, hit@1 and hit@5 per question type for STAR and
    the path baseline side by side, from one run.
    """
    from scholar_tui.core.conference.engine import errors_text
    from scholar_tui.core.conference.events import EvalFinished
    from scholar_tui.core.conference.person import read_person_set

    person = read_person_set(person_set, person_part) if person_set is not None else []
    engine = _engine(obj, answerer)
    progress = _Progress(not as_json)
    report = None
    try:
        for event in engine.evaluate(
            directory,
            _describer(obj, describer),
            ablation=ablation,
            name=name,
            rebuild=rebuild,
            person=person,
            person_part=person_part,
        ):
            progress.show(event.summary())
            if isinstance(event, EvalFinished):
                report = event.report
    finally:
        progress.done()
    if errors_file is not None:
        try:
            errors_file.write_text(errors_text(report), encoding="utf-8")
        except OSError as error:
            raise click.ClickException(f"{errors_file}: cannot write ({error.strerror})") from error
    if as_json:
        emit_json(report.as_dict())
        return
    _print_report(report)
    if report.person is not None:
        _print_person(report.person)
    if errors_file is not None:
        click.echo(f"missed questions written to {errors_file}")
