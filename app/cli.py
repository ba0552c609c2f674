"""The command line: `scholar-tui` opens the TUI; subcommands use the same engines headless."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from scholar_tui.app.cli_conf import conf
from scholar_tui.app.cli_feedback import bench_feedback, feedback, logs
from scholar_tui.app.cli_history import export, history
from scholar_tui.app.cli_library import api, import_command, library
from scholar_tui.app.cli_pasa import bench_pasa_command, pasa, search_command
from scholar_tui.app.cli_scale import bench_scale
from scholar_tui.app.cli_soay import ask, bench_soay, soay
from scholar_tui.app.cli_startup import bench_startup
from scholar_tui.app.cli_support import Context, OneLineGroup, emit_json, one_line_errors, terminal_text, whole
from scholar_tui.app.cli_train import train
from scholar_tui.config.locations import HOME_ENV


@click.group(cls=OneLineGroup, invoke_without_command=True)
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=Path),
    help=f"Keep all state (config, database, indexes, logs) in this folder; same as {HOME_ENV}.",
)
@click.version_option(package_name="scholar-tui")
@click.pass_context
def cli(ctx: click.Context, home: Path | None) -> None:
    """scholar-tui: paper search, scholar Q&A, conference QA and an API debugger, on local models.

    Run without a command to open the app.
    """
    if home is not None:
        os.environ[HOME_ENV] = str(home.resolve())
    ctx.obj = Context()
    if ctx.invoked_subcommand not in OneLineGroup.REPORTS_STATE:
        ctx.obj.where.check()  # a file or a newline where the home should be: one line, before any work
    if ctx.invoked_subcommand is None:
        ctx.invoke(tui)


@cli.command()
@click.pass_obj
@one_line_errors
def tui(obj: Context) -> None:
    """Open the terminal app (the default)."""
    from scholar_tui.app.services import Services
    from scholar_tui.app.tui import ScholarApp, StateProblemApp
    from scholar_tui.core.doctor import state_problem

    problem = state_problem(obj.where)
    if problem is not None:  # the app shows the line (and what to do) instead of failing in a tab
        StateProblemApp(problem).run()
        raise click.ClickException(problem)
    ScholarApp(Services(obj.where, obj.settings), check_network_on_start=True).run()


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the paths as JSON.")
@click.pass_obj
def paths(obj: Context, as_json: bool) -> None:
    """Where scholar-tui keeps its config, database, indexes, models and logs."""
    values = obj.where.as_dict()
    if as_json:
        emit_json(values)
        return
    for key, value in values.items():
        click.echo(f"{key:13} {value}")


# -- config ------------------------------------------------------------------------------------
@cli.group()
def config() -> None:
    """Read and change settings (config.toml; SCHOLAR_TUI_<SECTION>__<FIELD> overrides)."""


@config.command("show")
@click.pass_obj
@one_line_errors
def config_show(obj: Context) -> None:
    """Print the settings in force, after the config file and the environment."""
    emit_json(obj.settings.model_dump())


@config.command("set")
@click.argument("key")
@click.argument("value")
@click.pass_obj
@one_line_errors
def config_set(obj: Context, key: str, value: str) -> None:
    """Set KEY (section.field, e.g. llm.n_ctx) to VALUE in the config file."""
    from scholar_tui.config.settings import save_setting

    try:
        parsed: Any = json.loads(value)
    except json.JSONDecodeError:
        parsed = value
    save_setting(obj.where, key, parsed)
    click.echo(f"{key} = {parsed!r} written to {obj.where.config_file}")


# -- models ------------------------------------------------------------------------------------
@cli.group()
def models() -> None:
    """List, pull and choose models."""


@models.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def models_list(obj: Context, as_json: bool) -> None:
    """Bundled, pulled and registered models; * marks the active LLM and embedder."""
    from scholar_tui.models.registry import all_models

    settings = obj.settings
    active = {settings.llm.model, settings.embeddings.model}
    rows = [
        {**entry.__dict__, "available": entry.available, "active": entry.name in active or entry.location in active}
        for entry in all_models(obj.where)
    ]
    if settings.llm.model.startswith(("http://", "https://")):
        rows.append(
            {
                "name": settings.llm.model,
                "kind": "endpoint",
                "location": settings.llm.model,
                "source": "setting",
                "available": True,
                "active": True,
            }
        )
    if as_json:
        emit_json(rows)
        return
    for row in rows:
        mark = "*" if row["active"] else " "
        state = "" if row["available"] else "  (missing)"
        click.echo(f"{mark} {row['name']:28} {row['kind']:22} {row['source']:28} {row['location']}{state}")


@models.command("pull")
@click.argument("repo")
@click.argument("filename")
@click.option("--name", help="Register the file under this name (default: the file's stem).")
@click.option("--endpoint", envvar="HF_ENDPOINT", help="A Hugging Face Hub mirror to pull from.")
@click.pass_obj
@one_line_errors
def models_pull(obj: Context, repo: str, filename: str, name: str | None, endpoint: str | None) -> None:
    """Download FILENAME (a .gguf) from the Hugging Face repository REPO."""
    from scholar_tui.models.pull import pull

    network = obj.settings.network
    entry = pull(
        repo, filename, obj.where, offline=network.offline, endpoint=endpoint, name=name, timeout_s=network.timeout_s
    )
    click.echo(f"pulled {entry.name}: {entry.location}\nuse it with: scholar-tui models use {entry.name}")


@models.command("use")
@click.argument("name")
@click.pass_obj
@one_line_errors
def models_use(obj: Context, name: str) -> None:
    """Make NAME (a model name, a .gguf path or an endpoint URL) the active LLM."""
    from scholar_tui.config.settings import save_setting
    from scholar_tui.models.registry import ModelNotFound, resolve_llm

    try:
        entry = resolve_llm(name, obj.where)
    except ModelNotFound as error:
        raise click.ClickException(str(error)) from error
    value = entry.location if entry.source == "path" else name
    save_setting(obj.where, "llm.model", value)
    click.echo(f"active model: {value} ({entry.kind})")


# -- doctor ------------------------------------------------------------------------------------
@cli.command()
@click.option("--json", "as_json", is_flag=True)
@click.option("--deep", is_flag=True, help="Also load the LLM and generate a few tokens.")
@click.option(
    "--repair",
    is_flag=True,
    help="Rebuild the search caches from SQLite (LanceDB, the snapshot) and say what cannot be fixed.",
)
@click.pass_obj
def doctor(obj: Context, as_json: bool, deep: bool, repair: bool) -> None:
    """What is installed and found: models, data dir, SQLite, LanceDB, network."""
    from scholar_tui.core.doctor import repair as repair_state
    from scholar_tui.core.doctor import run_checks

    checks = []
    marks = {
        "ok": click.style("ok  ", fg="green"),
        "warn": click.style("warn", fg="yellow"),
        "fail": click.style("FAIL", fg="red"),
    }
    for check in repair_state(obj.where) if repair else run_checks(obj.where, deep=deep):
        checks.append(check)
        if not as_json:
            click.echo(f"{marks[check.status]} {check.name:24} {terminal_text(check.detail)}")
    if as_json:
        emit_json([check.__dict__ for check in checks])
    if any(check.status == "fail" for check in checks):
        sys.exit(1)


# -- prompt ------------------------------------------------------------------------------------
@cli.command()
@click.argument("text")
@click.option("--system", help="A system message; the prompt is then sent as a chat.")
@click.option("--chat/--raw", default=True, help="Use the model's chat template (default) or raw completion.")
@click.option("--schema", help="Constrain the reply to this JSON schema (JSON text or @file).")
@click.option("--choices", help="Constrain the reply to one of these comma-separated strings.")
@click.option("--max-tokens", type=whole(1, 1_048_576), default=256, show_default=True)
@click.option(
    "--logprobs", type=whole(0, 20), default=0, help="Show each token's log-probability and top K alternatives."
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def prompt(
    obj: Context,
    text: str,
    system: str | None,
    chat: bool,
    schema: str | None,
    choices: str | None,
    max_tokens: int,
    logprobs: int,
    as_json: bool,
) -> None:
    """Send TEXT to the active model and stream the reply (logged like every call)."""
    from scholar_tui.core.llm import open_llm

    options: dict[str, Any] = {"max_tokens": max_tokens, "logprobs": logprobs}
    if schema:
        raw = Path(schema[1:]).read_text() if schema.startswith("@") else schema
        try:
            options["schema"] = json.loads(raw)
        except json.JSONDecodeError as error:
            raise click.ClickException(f"--schema is not valid JSON: {error}") from error
    if choices:
        options["choices"] = [choice.strip() for choice in choices.split(",") if choice.strip()]
    if chat or system:
        messages = ([{"role": "system", "content": system}] if system else []) + [{"role": "user", "content": text}]
        options["messages"] = messages
        text_arg = None
    else:
        text_arg = text
    from scholar_tui.models.base import LLMError

    llm = open_llm(obj.settings, obj.where)
    stream = llm.stream(text_arg, **options)
    printed = False
    try:
        for piece in stream:
            if not as_json:
                click.echo(terminal_text(piece), nl=False)  # a model may emit ESC like any other byte
                printed = True
    except LLMError:
        if printed:  # the error's line starts on a line of its own, after what the model sent
            click.echo()
        raise
    finally:
        llm.close()
    completion = stream.completion
    if as_json:
        record = completion.as_log_record()
        record["tokens"] = [token.__dict__ for token in completion.tokens or []]
        emit_json(record)
        return
    click.echo()
    if completion.tokens:
        for token in completion.tokens:
            alternatives = ", ".join(f"{alt!r}:{value:.2f}" for alt, value in list(token.top.items())[:4])
            click.echo(f"  {token.token!r:14} p={token.probability:.3f}  [{alternatives}]")
    click.echo(
        click.style(
            f"{completion.prompt_tokens} prompt + {completion.completion_tokens} generated tokens, "
            f"{completion.duration_s:.2f} s, {completion.tokens_per_second:.1f} tokens/s, {completion.finish_reason}",
            dim=True,
        ),
        err=True,
    )


# -- bench -------------------------------------------------------------------------------------
@cli.group()
def bench() -> None:
    """Benchmarks (speed and quality figures, printed with what produced them)."""


@bench.command("llm")
@click.option("--n-prompt", type=whole(1, 1_048_576), default=256, show_default=True, help="Prompt tokens per run.")
@click.option("--n-gen", type=whole(1, 1_048_576), default=64, show_default=True, help="Generated tokens per run.")
@click.option("--repetitions", type=whole(1, 1000), default=3, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def bench_llm_command(obj: Context, n_prompt: int, n_gen: int, repetitions: int, as_json: bool) -> None:
    """Prompt and generation tokens/s of the active model, beside llama.cpp's bare figure."""
    from scholar_tui.core.llm import open_llm
    from scholar_tui.models.bench import bench_llm

    settings = obj.settings.model_copy(deep=True)
    settings.llm.log_prompts = False  # a benchmark measures the model, not the log
    llm = open_llm(settings, obj.where)
    result = bench_llm(llm, n_prompt=n_prompt, n_gen=n_gen, repetitions=repetitions)
    llm.close()
    if as_json:
        emit_json(result.as_dict())
        return
    click.echo(
        f"model {result.model} ({result.backend}), {result.threads} threads, "
        f"pp{result.n_prompt} / tg{result.n_gen}, median of {result.repetitions}"
    )
    click.echo(f"{'':24}{'prompt tok/s':>14}{'generation tok/s':>18}")
    click.echo(f"{'scholar-tui (ours)':24}{result.ours_prompt_tps:14.1f}{result.ours_gen_tps:18.1f}")
    if result.bare_prompt_tps is not None:
        click.echo(f"{'llama.cpp bare':24}{result.bare_prompt_tps:14.1f}{result.bare_gen_tps:18.1f}")


for command in (
    import_command,
    library,
    api,
    ask,
    soay,
    search_command,
    pasa,
    conf,
    logs,
    feedback,
    train,
    history,
    export,
):
    cli.add_command(command)
for command in (bench_soay, bench_pasa_command, bench_feedback, bench_startup, bench_scale):
    bench.add_command(command)


def main() -> None:
    cli(prog_name="scholar-tui")
