"""`scholar-tui logs`: AutoFeedback's loops (``cli_feedback.logs``) and `logs prompts`, the prompt log
as a person reads it, as simonw/llm's `llm logs` shows its own: every model call, with the crawl,
question or loop that made it (``models.origin``).

scholar-tui logs prompts [-n 20] [--origin pasa|soay|conference|autofeedback] [--run ID] [--json]
scholar-tui logs prompts show ID [--json]
"""

from __future__ import annotations

import json
from typing import Any

import click

from scholar_tui.app.cli_feedback import logs as loop_logs
from scholar_tui.app.cli_support import Context, emit_json, one_line_errors, terminal_text, whole

# models.origin.ORIGIN_KINDS, written out: importing the models package loads pydantic, and `--help`
# stays lean (tests/test_lean_runtime.py); tests/test_prompt_logs.py checks the two agree.
ORIGIN_KINDS = ("pasa", "soay", "conference", "autofeedback")
FIRST_LINE_WIDTH = 100


def _loops(**options: Any) -> None:
    """`logs` alone (or with its options) lists AutoFeedback's loops, as it always has."""
    context = click.get_current_context()
    if context.invoked_subcommand is None:
        context.invoke(loop_logs, **options)


logs = click.Group(
    "logs",
    params=list(loop_logs.params),
    callback=_loops,
    invoke_without_command=True,
    help=f"{loop_logs.help}\n\n`logs prompts` lists every model call, with what made it.",
    short_help="AutoFeedback's loops; `logs prompts`: every model call.",
)


# -- what a logged row says -------------------------------------------------------------------------
def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    """The row with its JSON columns read (``messages_json`` → ``messages``); a value that is not
    JSON (a database edited by hand) stays the text it is."""
    decoded: dict[str, Any] = {}
    for key, value in row.items():
        if key.endswith("_json"):
            if isinstance(value, str):
                try:
                    value = json.loads(value)
                except json.JSONDecodeError:
                    pass
            key = key.removesuffix("_json")
        decoded[key] = value
    return decoded


def _prompt_text(row: dict[str, Any]) -> str:
    """The prompt as written, or a chat's messages one per paragraph (``role: content``)."""
    if row.get("prompt") is not None:
        return str(row["prompt"])
    messages = row.get("messages")
    if isinstance(messages, list):
        return "\n\n".join(
            f"{message.get('role', '?')}: {message.get('content', '')}" if isinstance(message, dict) else str(message)
            for message in messages
        )
    return "" if messages is None else str(messages)


def _asked(row: dict[str, Any]) -> str:
    """What a list line shows of the prompt: the prompt, or a chat's last user message."""
    messages = row.get("messages")
    if row.get("prompt") is None and isinstance(messages, list):
        said = [message for message in messages if isinstance(message, dict) and message.get("role") == "user"]
        if said:
            return str(said[-1].get("content", ""))
    return _prompt_text(row)


def _first_line(text: str, width: int = FIRST_LINE_WIDTH) -> str:
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"


def _origin(row: dict[str, Any]) -> str:
    if not row.get("origin"):
        return "-"
    said = f"{row['origin']} {row['origin_run']}"
    if row.get("parent_origin"):
        said += f" in {row['parent_origin']} {row['parent_run']}"
    return said


def _usage(row: dict[str, Any]) -> str:
    parts = []
    if row.get("prompt_tokens") or row.get("completion_tokens"):
        parts.append(f"{row.get('prompt_tokens') or 0}+{row.get('completion_tokens') or 0} tokens")
    if row.get("duration_ms") is not None:
        parts.append(f"{row['duration_ms'] / 1000:.2f} s")
    return " · ".join(parts)


def _when(row: dict[str, Any]) -> str:
    return str(row.get("datetime_utc") or "")[:19].replace("T", " ")


# -- the commands -----------------------------------------------------------------------------------
@logs.group("prompts", invoke_without_command=True)
@click.option("-n", "--count", type=whole(0), default=20, show_default=True, help="How many calls (0: all).")
@click.option("--origin", type=click.Choice(ORIGIN_KINDS), help="Only calls made by this kind of run.")
@click.option("--run", "run", help="Only one run's calls: a crawl's or question's id, or an AutoFeedback loop's.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_context
@one_line_errors
def prompts(context: click.Context, count: int, origin: str | None, run: str | None, as_json: bool) -> None:
    """Logged model calls, newest first: when, which model, what made them, the prompt's first line."""
    if context.invoked_subcommand is not None:
        return
    from scholar_tui.indexes.prompt_log import PromptLog

    obj: Context = context.obj
    log = PromptLog(obj.where)
    try:
        rows = [_decoded(row) for row in log.recent(count or -1, origin=origin, run=run)]
    finally:
        log.close()
    if as_json:
        emit_json(rows)
        return
    if not rows:
        asked = " ".join(f"--{name} {value}" for name, value in (("origin", origin), ("run", run)) if value)
        click.echo(f"No logged model call matches {asked}." if asked else "No model call logged yet.")
        return
    for row in rows:
        asked = f'  "{_first_line(row["origin_text"], 40)}"' if row.get("origin_text") else ""
        click.echo(terminal_text(f"{row['id']:>5}  {_when(row)}  {row['model']}  {_origin(row)}{asked}  {_usage(row)}"))
        click.echo(terminal_text(f"       {_first_line(_asked(row))}"))


@prompts.command("show")
@click.argument("call_id", metavar="ID", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_obj
@one_line_errors
def show(obj: Context, call_id: int, as_json: bool) -> None:
    """One logged call whole: the prompt, the reply, the model, the timings and what made it."""
    from scholar_tui.indexes.prompt_log import PromptLog

    log = PromptLog(obj.where)
    try:
        found = log.call(call_id)
    finally:
        log.close()
    if found is None:
        raise click.ClickException(f"no logged model call {call_id} (`scholar-tui logs prompts` lists them)")
    row = _decoded(found)
    if as_json:
        emit_json(row)
        return
    for line in _described(row):
        click.echo(terminal_text(line))


def _described(row: dict[str, Any]) -> list[str]:
    """The lines `logs prompts show` prints: a header, then the prompt and the reply whole."""
    lines = [
        f"call {row['id']} · {_when(row)} UTC · {row['model']} ({row['backend']}) · {row['kind']} · {row['finish_reason']}",
        f"origin: {_origin(row)}" + (f' · "{row["origin_text"]}"' if row.get("origin_text") else ""),
    ]
    usage = _usage(row)
    if usage:
        lines.append(f"usage: {usage}")
    if row.get("options"):
        lines.append(f"options: {json.dumps(row['options'], ensure_ascii=False)}")
    if row.get("schema") is not None:
        lines.append(f"schema: {json.dumps(row['schema'], ensure_ascii=False)}")
    if row.get("grammar"):
        lines.append(f"grammar:\n{row['grammar']}")
    lines += ["", "prompt:", _prompt_text(row), "", "reply:", str(row.get("response") or "")]
    return lines


__all__ = ["logs"]
