"""`scholar-tui history` and `scholar-tui export`: what was asked, kept across sessions, and the
exports a person pastes into a paper (core/history.py, core/exports.py do the work)."""

from __future__ import annotations

import click

from scholar_tui.app.cli_support import Context, emit_json, terminal_text

TAB_CHOICES = ("paper-search", "scholar-qa", "conference-qa")


@click.command("history")
@click.option("--tab", type=click.Choice(TAB_CHOICES), help="Only this tab's runs.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 100000))
@click.option("--id", "entry_id", type=int, help="One run, with its stored result.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@click.pass_obj
def history(obj: Context, tab: str | None, limit: int, entry_id: int | None, as_json: bool) -> None:
    """Every query, question and conference question asked, newest first, with what came back."""
    from scholar_tui.core import history as kept

    if entry_id is not None:
        found = kept.entry(obj.where, entry_id)
        if found is None:
            raise click.ClickException(f"no history entry {entry_id} (`scholar-tui history` lists them)")
        if as_json:
            emit_json(found)
        else:
            click.echo(terminal_text(f"{found['created_at']} · {found['tab']} · {found['text']}\n{found['summary']}"))
        return
    rows = kept.entries(obj.where, tab, limit)
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("No history yet: searches (F1), questions (F2) and conference questions (F3) are kept here.")
        return
    for row in rows:
        context = " · ".join(f"{key} {value}" for key, value in row["context"].items() if value)
        click.echo(
            terminal_text(
                f"{row['id']:>5}  {row['created_at'][:16]}  {row['tab']:<13}  {row['text']}"
                + (f"  ({context})" if context else "")
            )
        )
        click.echo(terminal_text(f"       {'✓' if row['ok'] else '✗'} {row['summary']}"))


@click.command("export")
@click.argument("fmt", metavar="FORMAT", type=click.Choice(["bib", "ris", "json", "md"]))
@click.option("--to", "path", help="The file to write (default: exports/ in the data folder).")
@click.option("--papers", help="Comma-separated paper ids (default: the whole library).")
@click.option("--history", "entry_id", type=int, help="A kept run (`scholar-tui history`): its papers, or as Markdown.")
@click.pass_obj
def export(obj: Context, fmt: str, path: str | None, papers: str | None, entry_id: int | None) -> None:
    """Export papers as BibTeX (bib), RIS, CSL-JSON (json), or a kept run as Markdown (md) with its bibliography."""
    from scholar_tui.core import history as kept
    from scholar_tui.core.exports import (
        ExportError,
        export_markdown,
        export_papers,
        export_path,
        gather,
        run_export,
    )
    from scholar_tui.indexes.library import Library

    ids = None
    if papers:
        try:
            ids = [int(part.removeprefix("paper:")) for part in papers.split(",") if part.strip()]
        except ValueError as error:
            raise click.BadParameter("paper ids are numbers, e.g. 3,17 or paper:3", param_hint="--papers") from error
    entry = None
    if entry_id is not None:
        entry = kept.entry(obj.where, entry_id)
        if entry is None:
            raise click.ClickException(f"no history entry {entry_id} (`scholar-tui history` lists them)")
    elif fmt == "md":
        raise click.UsageError("Markdown exports a kept run: add --history ID (`scholar-tui history` lists them)")
    library = Library.open(obj.where)
    try:
        stem = f"{entry['tab']}-{entry['id']}" if entry else "library"
        target = export_path(obj.where, path, stem, fmt)
        if entry is not None:
            markdown, references = run_export(library, entry)
            written = (
                export_markdown(target, markdown, references) if fmt == "md" else export_papers(target, fmt, references)
            )
        else:
            written = export_papers(target, fmt, gather(library, ids))
    except ExportError as error:
        raise click.ClickException(str(error)) from error
    finally:
        library.close()
    click.echo(terminal_text(written.summary()))
