"""AutoFeedback on the command line: `logs`, `feedback check|send` and `bench feedback`.

scholar-tui logs [--limit-hit] [--loop ID] [--json]
scholar-tui feedback check '<<API>>getCoauthors(name="Ada")<</API>>' --instruction "Who worked with Ada?"
scholar-tui feedback send '<<API>>getCoauthors(person_id="person:1")<</API>>' [--loop ID]
scholar-tui bench feedback [--per-type 2] [--per-api 2] [--json]
"""

from __future__ import annotations

import json
import textwrap

import click

from scholar_tui.app.cli_support import (
    SEED,
    Context,
    emit_json,
    one_line_errors,
    terminal_json,
    terminal_text,
    whole,
)


def _open_autofeedback(obj: Context, source: str, **documentation):
    """``open_autofeedback`` over the command's services; its log is closed with the command."""
    from scholar_tui.core.autofeedback import open_autofeedback

    engine = open_autofeedback(obj.services, source=source, **documentation)
    click.get_current_context().call_on_close(engine.close)
    return engine


def _short(value, width: int = 100) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    text = " ".join(terminal_text(text or "").split())  # a logged request or response is a model's text
    return text if len(text) <= width else text[: width - 1] + "…"


# -- logs ----------------------------------------------------------------------------------------------
@click.command("logs")
@click.option("--limit-hit", is_flag=True, help="Only loops that ran out of rounds (waiting for a person).")
@click.option("--loop", "loop_id", type=int, help="Show this loop's rounds.")
@click.option("--limit", type=whole(), default=50, show_default=True, help="How many loops to list.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def logs(obj: Context, limit_hit: bool, loop_id: int | None, limit: int, as_json: bool) -> None:
    """AutoFeedback's loops and their rounds (every request, error, feedback and response)."""
    from scholar_tui.indexes.autofeedback_log import FeedbackLog

    log = FeedbackLog(obj.where)
    if loop_id is not None:
        loop = log.loop(loop_id)
        if loop is None:
            raise click.ClickException(f"no AutoFeedback loop {loop_id} (see `scholar-tui logs`)")
        rounds = log.rounds(loop_id)
        if as_json:
            emit_json({"loop": loop, "rounds": rounds})
            return
        click.echo(
            f"loop {loop['id']} · {loop['status']} · {loop['source']} · {loop['mode']} · "
            f"static {loop['static_rounds']}/{loop['static_limit']} · dynamic {loop['dynamic_rounds']}/{loop['dynamic_limit']}"
        )
        click.echo(f"instruction: {terminal_text(loop['instruction'])}")
        for row in rounds:
            error = row["sub_type"] or ("ok" if row["ok"] else "-")
            tokens = (row["prompt_tokens"] or 0) + (row["completion_tokens"] or 0)
            click.echo(f"\n#{row['round']} {row['kind']:7} {error:9} {tokens:5} tokens {row['duration_s'] or 0:6.2f} s")
            click.echo(f"  request:  {_short(row['request'], 200)}")
            if row["thought"]:
                click.echo(f"  thought:  {_short(row['thought'], 200)}")
            if row["response"] is not None:
                click.echo(f"  response: {_short(row['response'], 200)}")
            if row["feedback"]:
                click.echo(textwrap.indent(terminal_text(row["feedback"]), "  | "))
        return
    loops = log.loops(status="limit_hit" if limit_hit else None, limit=limit)
    if as_json:
        emit_json(loops)
        return
    if not loops:
        from scholar_tui.core.readiness import loops_missing

        missing = None if limit_hit else loops_missing(0)
        click.echo(missing.summary() if missing else "no AutoFeedback loop hit its limit: nothing waits for a person")
        return
    click.echo(f"{'id':>5}  {'status':13} {'source':8} {'mode':8} {'rounds':>6}  instruction")
    for loop in loops:
        click.echo(
            f"{loop['id']:>5}  {loop['status']:13} {loop['source']:8} {loop['mode']:8} {loop['rounds']:>6}  "
            f"{_short(loop['instruction'], 80)}"
        )


# -- feedback check / send -------------------------------------------------------------------------------
def _require_utf8(**texts: str) -> None:
    """One line, before anything reads them, for arguments that are not valid UTF-8 (the shell passes
    bytes; Python hands invalid ones on as lone surrogates that no parser, log or terminal takes)."""
    from scholar_tui.core.sandbox import unicode_problem

    for name, text in texts.items():
        problem = unicode_problem(text)
        if problem is not None:
            raise click.ClickException(f"{name} cannot be read: {problem}")


@click.group("feedback")
def feedback() -> None:
    """Check an API request with AutoFeedback, or send one by hand."""


@feedback.command("check")
@click.argument("text")
@click.option("--instruction", "-i", required=True, help="What the request is meant to do.")
@click.option("--program", is_flag=True, help="TEXT is a SoAy program: scan every API call in it.")
@click.option("--send", "send_it", is_flag=True, help="Also send it (local backend) and show DAC's observation.")
@click.option("--backend", type=click.Choice(["local", "openalex"]), default="local", show_default=True)
@click.option(
    "--apis",
    type=click.Choice(["academic", "pasa"]),
    default="academic",
    show_default=True,
    help="Check against the seven academic APIs, or PaSa's tools (searchPapers, expandSection).",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def feedback_check(
    obj: Context, text: str, instruction: str, program: bool, send_it: bool, backend: str, apis: str, as_json: bool
) -> None:
    """Static scan of TEXT (E1–E4.1, Table 2's returns and the five-part feedback)."""
    from scholar_tui.core.autofeedback.registry import tool_apis

    _require_utf8(TEXT=text, instruction=instruction)

    if apis == "pasa" and program:
        raise click.BadParameter("PaSa's tools take requests, not programs", param_hint="--program")
    documentation = tool_apis(apis).documentation if apis != "academic" else {}
    engine = _open_autofeedback(obj, "check", **documentation)
    (checked,) = engine.check(text, instruction, program=program, send=send_it, backend=backend)
    findings, observation = checked.findings, checked.observation
    if as_json:
        emit_json(checked.to_json())
        return
    if not findings:
        click.echo("no static error found: the request may be sent")
    for finding in findings:
        click.echo(
            click.style(f"{finding.sub_type}", bold=True)
            + terminal_text(f"  at {finding.location}  returns {list(finding.returns)}")
        )
        click.echo(textwrap.indent(terminal_text(finding.feedback), "  "))  # it quotes the request
    if observation is not None:
        state = "satisfied" if observation.satisfied else f"not satisfied: {observation.reason}"
        click.echo(terminal_text(f"\nsent: {state}\n  {observation.observation}"))


@feedback.command("send")
@click.argument("text")
@click.option("--loop", "loop_id", type=int, help="Log it as a human round of this loop (fixed by hand when it works).")
@click.option("--backend", type=click.Choice(["local", "openalex"]), default="local", show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def feedback_send(obj: Context, text: str, loop_id: int | None, backend: str, as_json: bool) -> None:
    """Send TEXT by hand: a request (<<API>>NAME(…)<</API>> or NAME(…)) or a program.

    Exits with status 1 when the request or program failed (its error is the last line).
    """

    _require_utf8(TEXT=text)

    engine = _open_autofeedback(obj, "api")
    if loop_id is not None and engine.log.loop(loop_id) is None:
        raise click.ClickException(f"no AutoFeedback loop {loop_id} (see `scholar-tui logs`)")
    if backend == "local":
        from scholar_tui.core.readiness import library_missing_at

        missing = library_missing_at(obj.where)
        if missing is not None:  # the request is still sent: an empty answer is then explained
            click.echo(click.style(missing.summary(), fg="yellow"), err=True)
    (result,) = engine.send(text, backend=backend, loop_id=loop_id)
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(terminal_json(result.response))  # a program's value and output: its own text
        click.echo(click.style(terminal_text(result.summary()), dim=True), err=True)
    if result.error:  # an empty result is an answer; an error (E_OFFLINE, E_BAD_ARGUMENT, a refusal) is a failure
        raise click.exceptions.Exit(1)


# -- bench feedback --------------------------------------------------------------------------------------
@click.command("feedback")
@click.option(
    "--per-type", type=whole(0, 1000), default=2, show_default=True, help="Seeded requests per error sub-type."
)
@click.option(
    "--per-api",
    type=whole(0, 1000),
    default=2,
    show_default=True,
    help="Instructions per API answered by the model itself.",
)
@click.option("--only", help="Only these seeded sub-types, comma-separated (E2.2,E4.1).")
@click.option("--free-names", is_flag=True, help="Let the model write any API and parameter names (looser grammar).")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--log", "keep_log", is_flag=True, help="Log the benchmark's loops too (source 'bench').")
@click.option("--save", type=click.Path(dir_okay=False), help="Also write the full report (every case) as JSON here.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def bench_feedback(
    obj: Context,
    per_type: int,
    per_api: int,
    only: str | None,
    free_names: bool,
    seed: int,
    keep_log: bool,
    save: str | None,
    as_json: bool,
) -> None:
    """Accuracy with no feedback, static, dynamic and both; error types before and after (Tables 3–4)."""
    from scholar_tui.core.autofeedback import AutoFeedback
    from scholar_tui.core.autofeedback.bench import SEEDED_TYPES, BenchError, make_cases, make_tasks, run_bench
    from scholar_tui.core.autofeedback.request_generator import ModelRequestGenerator
    from scholar_tui.core.library.apis import local_api
    from scholar_tui.core.llm import open_llm
    from scholar_tui.indexes.autofeedback_log import FeedbackLog
    from scholar_tui.indexes.library import Library

    sub_types = SEEDED_TYPES
    if only:
        sub_types = tuple(part.strip() for part in only.split(",") if part.strip())
        unknown = [part for part in sub_types if part not in SEEDED_TYPES]
        if unknown:
            raise click.ClickException(f"unknown sub-type {unknown[0]}: one of {', '.join(SEEDED_TYPES)}")
    library = Library.open(obj.where)
    api = local_api(library)
    try:
        tasks = make_tasks(api, library, per_api=max(per_api, 1), seed=seed)
    except BenchError as error:
        raise click.ClickException(str(error)) from error
    cases = make_cases(tasks, per_type=per_type, per_api_model=per_api, sub_types=sub_types)
    settings = obj.settings.model_copy(deep=True)
    settings.llm.log_prompts = False  # a benchmark measures, it does not fill the prompt log
    embedder = obj.services.embedder()
    llm = open_llm(settings, obj.where)  # its own, unlogged: closed below
    af = AutoFeedback.from_settings(obj.where, settings, embedder)

    def progress(done: int, total: int, text: str) -> None:
        if not as_json:
            click.echo(f"\r[{done}/{total}] {text:60.60}", nl=False, err=True)

    report = run_bench(
        af,
        ModelRequestGenerator(llm, constrain_names=not free_names),
        api,
        cases,
        log=FeedbackLog(obj.where) if keep_log else None,
        progress=progress,
        model_name=llm.model_name,
        embedder_name=embedder.name,
    )
    llm.close()
    if save:
        with open(save, "w", encoding="utf-8") as handle:
            json.dump(report.as_dict(), handle, indent=2, ensure_ascii=False, default=str)
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo("\r" + " " * 80, err=True)
    print_report(report, free_names)


def print_report(report, free_names: bool = False) -> None:
    def cell(value) -> str:
        return "    -" if value is None else f"{value:5.1f}"

    click.echo(
        f"AutoFeedback bench: {report.cases} cases ({report.seeded} seeded, {report.from_model} written by the model) "
        f"· model {report.model} ({'free names' if free_names else 'names constrained to the specs'}) "
        f"· embedder {report.embedder}"
    )
    click.echo("\nTable 3 shape: accuracy (%) and Table 4 shape: error types of the final requests (% of cases)")
    click.echo(
        f"{'method':16}{'acc':>6}{'seeded':>8}{'model':>7}{'E1':>7}{'E2':>7}{'E3':>7}{'E4':>7}"
        f"{'tokens':>8}{'gens':>6}{'limit':>7}"
    )
    before = report.before_row()
    click.echo(
        f"{'(first request)':16}{before['accuracy']:6.1f}{'':15}{before['E1']:7.1f}{before['E2']:7.1f}"
        f"{before['E3']:7.1f}{before['E4']:7.1f}"
    )
    for row in report.method_rows():
        click.echo(
            f"{row['method']:16}{row['accuracy']:6.1f}  {cell(row['accuracy_seeded'])}  {cell(row['accuracy_model'])}"
            f"{row['E1']:7.1f}{row['E2']:7.1f}{row['E3']:7.1f}{row['E4']:7.1f}{row['avg_tokens']:8.0f}"
            f"{row['avg_generations']:6.2f}{row['limit_hit']:7d}"
        )
    detection = report.detection_rows()
    if detection:
        click.echo("\nSeeded errors: sub-type named by SSC (DAC for E4.other), and fixed with static+dynamic feedback")
        for row in detection:
            others = ", ".join(
                f"{name} {count}" for name, count in sorted(row["named"].items()) if name != row["seeded"]
            )
            click.echo(
                f"  {row['seeded']:9} named {row['detected']}/{row['n']}   fixed {row['fixed']}/{row['n']}"
                + (f"   (also named: {others})" if others else "")
            )
    distribution = report.sub_type_distribution()
    click.echo("\nSub-types found by AutoFeedback, static+dynamic: first request → final request")
    names = sorted(set(distribution["before"]) | set(distribution["after"]), key=lambda n: (n == "none", n))
    click.echo(
        "  "
        + "  ".join(
            f"{name} {distribution['before'].get(name, 0)}→{distribution['after'].get(name, 0)}" for name in names
        )
    )
    click.echo(
        f"\nAPI retriever: the gold API is the top-1 (relevant set R) for {report.retriever_hits} of "
        f"{report.instructions} instructions"
    )
    click.echo(
        f"{report.generations_run} model generations in {report.generation_s:.1f} s; total {report.total_s:.1f} s"
    )


__all__ = ["bench_feedback", "feedback", "logs"]
