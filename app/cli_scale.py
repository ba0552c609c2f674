"""`scholar-tui bench scale --papers N [--papers M …]`: the app's figures at library sizes (#28)."""

from __future__ import annotations

from pathlib import Path

import click

from scholar_tui.app.cli_support import Context, emit_json, one_line_errors, whole


@click.command("scale")
@click.option(
    "--papers",
    "sizes",
    type=whole(1, 10_000_000),
    multiple=True,
    default=(1000,),
    show_default=True,
    help="A library size; repeat for several (run smallest first, back to back).",
)
@click.option("--runs", type=whole(1, 100), default=3, show_default=True, help="Cold processes per query (median).")
@click.option("--seed", type=whole(0), default=0, show_default=True, help="The generator's seed.")
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("../shared/data"),
    show_default=True,
    help="Where the unArXive sample is (its sentences are recombined); absent: a built-in vocabulary.",
)
@click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    help="Scratch folder for the libraries and their homes (default: a new temporary folder).",
)
@click.option("--index-budget", type=float, default=300.0, show_default=True, help="Seconds the vector build may take.")
@click.option("--pasa-budget", type=float, default=300.0, show_default=True, help="Seconds PaSa's search may take.")
@click.option(
    "--compile/--no-compile",
    "compile_first",
    default=True,
    show_default=True,
    help="Compile the app's bytecode first, as the README's install does.",
)
@click.option("--import-only", is_flag=True, help="Generate and import only (the largest sizes).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def bench_scale(
    obj: Context,
    sizes: tuple[int, ...],
    runs: int,
    seed: int,
    data_dir: Path,
    root: Path | None,
    index_budget: float,
    pasa_budget: float,
    compile_first: bool,
    import_only: bool,
    as_json: bool,
) -> None:
    """Generate a synthetic library of each size and time import, vectors, library search, ask
    and PaSa's search as cold processes of this CLI, each beside a bare baseline of the same data."""
    from scholar_tui.core.scale_bench import ScaleOptions, run_scale_bench
    from scholar_tui.core.scale_report import notes, table
    from scholar_tui.core.startup_bench import BenchError

    def progress(line: str) -> None:
        click.echo(click.style(line, dim=True), err=True)

    try:
        options = ScaleOptions(runs, seed, data_dir, index_budget, pasa_budget, import_only)
        report = run_scale_bench(
            list(sizes), root=root, options=options, compile_first=compile_first, progress=progress
        )
    except BenchError as error:
        raise click.ClickException(str(error)) from error
    if as_json:
        emit_json(report.as_dict())
        return
    set_or_not = "set" if report.dont_write_bytecode else "not set"
    compiled = "compiled first" if report.app_compiled else "not compiled first"
    click.echo(
        f"bench scale: medians of {runs} cold processes; PYTHONDONTWRITEBYTECODE {set_or_not}; "
        f"the app's bytecode {compiled}"
    )
    for line in table(report):
        click.echo(line)
    for line in notes(report):
        click.echo(line)
