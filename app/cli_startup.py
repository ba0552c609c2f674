"""`scholar-tui bench startup`: whole-process start-up times and embedding throughput."""

from __future__ import annotations

from pathlib import Path

import click

from scholar_tui.app.cli_support import Context, emit_json, one_line_errors, whole


def _mark(seconds: float, target: float | None) -> str:
    if target is None:
        return ""
    return click.style("  ok", fg="green") if seconds <= target else click.style(f"  over {target:g} s", fg="red")


@click.command("startup")
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("../shared/data"),
    show_default=True,
    help="The real data: unarxive/ and conferenceqa/ICML/.",
)
@click.option(
    "--runs", type=whole(1, 1000), default=5, show_default=True, help="Processes per command (the median is reported)."
)
@click.option("--texts", type=whole(1), default=2000, show_default=True, help="Texts both embedding backends embed.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
@one_line_errors
def bench_startup(obj: Context, data_dir: Path, runs: int, texts: int, as_json: bool) -> None:
    """Time --help, library search, ask, conf ask and the TUI (until ready) as whole processes,
    in a scratch home filled from DATA, then both embedding backends on the same texts."""
    from scholar_tui.app import startup_probe
    from scholar_tui.core.startup_bench import BenchError, run_startup_bench

    def progress(line: str) -> None:
        if not as_json:
            click.echo(click.style(line, dim=True), err=True)

    try:
        report = run_startup_bench(
            data_dir, tui_probe=startup_probe.__name__, runs=runs, texts=texts, progress=progress
        )
    except BenchError as error:
        raise click.ClickException(str(error)) from error
    if as_json:
        emit_json(report.as_dict())
        return
    click.echo(f"scratch home {report.home}")
    for step in report.preparation:
        click.echo(f"  {step.label:32} {step.median_s:7.2f} s  (whole process; CPU {step.median_cpu_s:.2f} s)")
    if report.star_build_s is not None:
        click.echo(
            f"  {'STAR index of ICML, from scratch':32} {report.star_build_s:7.2f} s{_mark(report.star_build_s, 60.0)}"
        )
    click.echo(f"whole processes, median of {runs} (wall; CPU = user + system of the process):")
    for timing in report.processes:
        runs_text = " ".join(f"{value:.2f}" for value in timing.seconds)
        click.echo(
            f"  {timing.label:16} {timing.median_s:6.2f} s  CPU {timing.median_cpu_s:5.2f} s"
            f"{_mark(timing.median_s, timing.target_s)}" + click.style(f"   [{runs_text}]", dim=True)
        )
    click.echo(f"embedding throughput, the same {texts} texts:")
    for item in report.throughput:
        if item.error:
            click.echo(f"  {item.backend:22} unavailable: {item.error}")
        else:
            rates = item.as_dict()
            work = (
                f", {rates['tokens_per_s']} tokens/s, {rates['gflop_per_s']} GFLOP/s"
                if rates["gflop_per_s"] is not None
                else ""
            )
            click.echo(
                f"  {item.backend:22} {item.per_second:7.1f} texts/s{work}  "
                f"({item.seconds:.1f} s; load {item.load_s:.1f} s)"
            )
    speeds = [item.per_second for item in report.throughput if item.per_second]
    if len(speeds) == 2:
        click.echo(f"  llama.cpp / sentence-transformers: {speeds[0] / speeds[1]:.2f}x")
    if report.cosine_min is not None:
        click.echo(f"  cosine between the backends: min {report.cosine_min:.5f}, mean {report.cosine_mean:.6f}")
