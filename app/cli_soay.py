"""`scholar-tui ask`, `scholar-tui soay …` and `scholar-tui bench soay`: SoAy from the command line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import click

from scholar_tui.app.cli_support import SEED, Context, emit_json, one_line_errors, terminal_text, whole

CHOICE_MODES = click.Choice(["auto", "retrieval", "llm"])
CODE_MODES = click.Choice(["template", "model"])


FEEDBACK = click.option(
    "--feedback/--no-feedback",
    default=None,
    help="Run the program through AutoFeedback (default: the autofeedback.soay setting).",
)


def _engine(obj: Context, choice: str, code: str, backend: str, feedback: bool | None = None, source: str = "soay"):
    """``open_soay`` over the command's services (the LLM loads only when a stage asks for it)."""
    from scholar_tui.core.soay import NothingToAsk, open_soay

    try:  # an empty library is said before any model loads
        return open_soay(
            obj.services, backend=backend, choice_mode=choice, code_mode=code, feedback=feedback, feedback_source=source
        )
    except NothingToAsk as error:
        raise click.ClickException(str(error)) from error


@click.command()
@click.argument("question")
@click.option(
    "--choice",
    "choice",
    type=CHOICE_MODES,
    default="auto",
    show_default=True,
    help="How the plan is chosen: by the question's asked kind and cues (auto, retrieval), or the LLM "
    "among the top three.",
)
@click.option(
    "--code",
    "code",
    type=CODE_MODES,
    default="template",
    show_default=True,
    help="template: the program written for the chosen solution; model: the LLM writes it.",
)
@click.option("--backend", type=click.Choice(["local", "openalex"]), default="local", show_default=True)
@FEEDBACK
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def ask(
    obj: Context, question: str, choice: str, code: str, backend: str, feedback: bool | None, as_json: bool
) -> None:
    """Answer QUESTION about scholars and papers: solution, program, result, answer, timings."""
    from scholar_tui.core.soay.engine import Finished, ProgramWritten

    last = None
    with _engine(obj, choice, code, backend, feedback) as engine:
        for last in engine.run(question):
            if not as_json:
                click.echo(terminal_text(last.summary()))  # a model's words and a program's value
                if isinstance(last, ProgramWritten):
                    click.echo(terminal_text(textwrap.indent(last.source, "    ")))
    assert isinstance(last, Finished)  # every run ends with its answer
    if as_json:
        emit_json(last.to_json())
    else:
        click.echo(click.style(f"timings (ms): {last.answer.timings_ms}", dim=True))
    if not last.answer.ok:
        raise SystemExit(1)


@click.group()
def soay() -> None:
    """SoAy: the solution library and SoAyBench."""


@soay.command("solutions")
@click.option("--plans", "show_plans", is_flag=True, help="List every plan (combination) with its description.")
@click.option("--json", "as_json", is_flag=True)
def soay_solutions(show_plans: bool, as_json: bool) -> None:
    """The API graph's solution library and the plans generated on it (every output field within 3 hops)."""
    from scholar_tui.core.library.apis import SPECS
    from scholar_tui.core.soay.plans import default_plans
    from scholar_tui.core.soay.solutions import solution_library

    solutions = solution_library(SPECS)
    plans = default_plans()
    if as_json:
        emit_json(
            {
                "solutions": [list(s.apis) for s in solutions],
                "plans": [
                    {
                        "key": p.key,
                        "start": p.start,
                        "solution": list(p.solution),
                        "field": p.field,
                        "kind": p.kind.value,
                        "count": p.count,
                        "narrow": p.narrow,
                        "description": p.description,
                    }
                    for p in plans
                ],
            }
        )
        return
    for solution in solutions:
        fields = sorted({p.field for p in plans if p.solution == solution.apis})
        click.echo(f"{solution.hops}  {solution}   {len(fields)} fields: {', '.join(fields)}")
    click.echo(f"{len(plans)} plans from {len(solutions)} solutions")
    if show_plans:
        for plan in plans:
            click.echo(f"  {plan.kind.value:<6} {plan.description}")


def default_bench_path(obj: Context) -> Path:
    return obj.where.data_dir / "soaybench.jsonl"


@soay.command("gen-bench")
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="Default: soaybench.jsonl in the data dir."
)
@click.option("--per-intent", type=whole(1, 10_000), default=8, show_default=True, help="Entities per intent.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.pass_obj
@one_line_errors
def soay_gen_bench(obj: Context, out: Path | None, per_intent: int, seed: int) -> None:
    """Generate SoAyBench from the library: questions, solutions, programs, gold answers."""
    from scholar_tui.core.jsonl import write_jsonl
    from scholar_tui.core.library.apis import open_api
    from scholar_tui.core.library.sandbox_apis import FACTORY
    from scholar_tui.core.sandbox import Sandbox
    from scholar_tui.core.soay.bench import BenchProgress, generate_bench
    from scholar_tui.indexes.library import Library

    out = out or default_bench_path(obj)
    library = Library.open(obj.where)
    api = open_api(obj.where, obj.settings)
    records = []
    with Sandbox(FACTORY) as sandbox:
        for item in generate_bench(library, api, sandbox, per_intent=per_intent, seed=seed):
            if isinstance(item, BenchProgress):
                click.echo(f"[{item.done}/{item.total}] {item.message}", err=True)
            else:
                records.append(item)
    if not records:
        raise click.ClickException("the library holds nothing to ask about: import papers first")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl(out, records)
    splits = {split: sum(r.split == split for r in records) for split in ("train", "test")}
    click.echo(f"wrote {len(records)} questions ({splits['train']} train, {splits['test']} test) to {out}")


@click.command("soay")
@click.option(
    "--bench",
    "bench_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="A SoAyBench JSONL (default: the one gen-bench wrote).",
)
@click.option("--limit", type=whole(0), default=0, help="At most this many test questions (0: all).")
@click.option(
    "--baseline-limit",
    type=whole(0),
    default=24,
    show_default=True,
    help="Test questions for the slow step-by-step baseline, spread over hop counts (0: all).",
)
@click.option("--choice", type=CHOICE_MODES, default="auto", show_default=True)
@click.option(
    "--person",
    "person_files",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help='A person-written question set (JSONL: question, expected values or "abstain"); '
    "default: tests/data/soay-person-dev.jsonl of the sources. Repeat for several.",
)
@FEEDBACK
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def bench_soay(
    obj: Context,
    bench_file: Path | None,
    limit: int,
    baseline_limit: int,
    choice: str,
    person_files: tuple[Path, ...],
    feedback: bool | None,
    as_json: bool,
) -> None:
    """SoAyEval of SoAy and the step-by-step baseline on the test split, with median latency; then the
    person-written questions: right / wrong / abstained."""
    from scholar_tui.core.jsonl import read_jsonl
    from scholar_tui.core.soay.bench import compare_with_baseline
    from scholar_tui.core.soay.engine import final_answer
    from scholar_tui.core.soay.person_bench import PersonQuestion, default_person_set, run_person_set
    from scholar_tui.core.soay.prompts import SoAyRecord

    path = bench_file or default_bench_path(obj)
    if not path.exists():
        raise click.ClickException(f"no benchmark at {path}: run `scholar-tui soay gen-bench` first")
    test = [record for record in read_jsonl(path, SoAyRecord) if record.split == "test"]
    if limit:
        test = test[:limit]
    person_sets = [(p, read_jsonl(p, PersonQuestion)) for p in (person_files or filter(None, [default_person_set()]))]
    with _engine(obj, choice, "template", "local", feedback, source="bench-soay") as engine:
        soay_run, baseline_run = compare_with_baseline(engine, test, baseline_limit)
        person_reports = [
            run_person_set(p.name, questions, lambda q: final_answer(engine.run(q))) for p, questions in person_sets
        ]
    runs = [soay_run, baseline_run]
    if as_json:
        emit_json(
            {"soaybench": [run.as_dict() for run in runs], "person": [report.as_dict() for report in person_reports]}
        )
        return
    click.echo(f"SoAyBench test split: {path} ({len(test)} questions; baseline on {len(baseline_run.latencies_s)})")
    for run in runs:
        data = run.as_dict()
        click.echo(f"\n{run.name}: Score {data['score']:.2f}, median latency {run.median_latency_s:.3f} s")
        click.echo(f"  {'hops':>4} {'n':>4} {'EM':>7} {'DS':>7} {'WS':>7} {'WP':>7} {'EE':>7} {'ACC':>7}")
        for hops, row in data["by_hops"].items():
            click.echo(
                f"  {hops:>4} {row['count']:>4} "
                + " ".join(f"{row[k]:7.2f}" for k in ("EM", "DS", "WS", "WP", "EE", "ACC"))
            )
    if baseline_run.median_latency_s and soay_run.median_latency_s:
        click.echo(f"\nSoAy is {baseline_run.median_latency_s / soay_run.median_latency_s:.1f}x faster (median).")
    _print_person_reports(person_reports)


def _print_person_reports(reports) -> None:
    """Right / wrong / abstained per person-written set, and every wrong answer in full."""
    if not reports:
        click.echo("\nperson-written questions: none (give --person FILE)")
        return
    click.echo(
        "\nperson-written questions (right = holds the expected value or abstains where the library has "
        "nothing; abstained = the plain not-in-the-library sentence):"
    )
    click.echo(f"  {'set':<34} {'n':>4} {'right':>12} {'wrong':>12} {'abstained':>12}")
    for report in reports:
        cells = " ".join(f"{report.count(v):>4} {report.percent(v):5.1f} %" for v in ("right", "wrong", "abstained"))
        click.echo(f"  {report.name:<34} {len(report.outcomes):>4} {cells}")
    for report in reports:
        for outcome in report.outcomes:
            if outcome.verdict == "wrong":
                click.echo(
                    terminal_text(
                        f"  wrong · {report.name} {outcome.id}: {outcome.question} → "
                        f"{outcome.answer} (expected {outcome.expected})"
                    )
                )
