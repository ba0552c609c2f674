"""`scholar-tui train …`: the training scripts (issue #8) behind one command group.

Each subcommand hands its arguments to the script's own parser, so ``--help``, the flags and the
config file (``--config run.toml``) are the script's; torch is imported only once a run starts.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from scholar_tui.app.cli_support import SEED, emit_json, whole
from scholar_tui.core.jsonl import FormatError
from scholar_tui.training.errors import TrainingError

# command -> (module in scholar_tui.training, one-line summary); the module is imported on use.
SCRIPTS = {
    "soay-sft": ("soay_sft", "SoAy SFT: API description + query -> solution + program (SoAyBench train split)."),
    "selector-sft": (
        "selector_sft",
        "PaSa Selector SFT: (query, paper) -> decision token True/False, then the rationale.",
    ),
    "crawler-il": ("crawler_il", "PaSa Crawler imitation learning on search/expand session trajectories (Table 8)."),
    "crawler-ppo": ("crawler_ppo", "PaSa Crawler session-level PPO (Eq. 1-8, Table 9 defaults)."),
    "export": ("export_gguf", "Merge LoRA, convert to GGUF, quantize, register for `models use`."),
    "export-lora": (
        "export_lora",
        "Convert a LoRA run on a GGUF base to a llama.cpp adapter, register base + adapter.",
    ),
}


@click.group()
def train() -> None:
    """Fine-tune the local models for SoAy and PaSa, then export them to GGUF.

    Each command takes --help and --config FILE (TOML/JSON keys mirror the flags), writes
    checkpoints and losses.jsonl to --output-dir and resumes from them; it uses the GPU when torch
    sees one and runs on the CPU for a smoke run (try `train tiny-model` for a model to smoke-run).
    """


def _summary_line(name: str, summary: dict) -> str:
    if name in ("export", "export-lora"):
        return f"exported {summary['gguf']} ({summary['bytes']:,} bytes)" + (
            f"\nuse it with: scholar-tui models use {summary['name']}" if summary["registered"] else ""
        )
    loss = summary.get("loss", summary.get("last", {}).get("value_loss"))
    return (
        f"done: {summary['steps']} steps on {summary['device']}, last loss {loss}\n"
        f"model: {summary['final']}\nlosses: {summary['losses']}\ncheckpoint: {summary['checkpoint']}"
    )


def _script_command(name: str, module_name: str, summary: str) -> click.Command:
    @click.command(
        name,
        help=f"{summary} Run with --help for the script's flags.",
        short_help=summary,
        add_help_option=False,  # --help goes to the script's own parser
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    )
    @click.option("--json", "as_json", is_flag=True, help="Print the run's summary as JSON.")
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def command(args: tuple[str, ...], as_json: bool) -> None:
        module = importlib.import_module(f"scholar_tui.training.{module_name}")
        argv = list(args)
        if as_json and not name.startswith("export"):
            argv.append("--quiet")  # the JSON summary is the whole output
        try:
            result = module.main(argv)
        except (TrainingError, FormatError) as error:
            raise click.ClickException(str(error)) from error
        if as_json:
            emit_json(result)
        else:
            click.echo(_summary_line(name, result))

    return command


for _name, (_module, _summary) in SCRIPTS.items():
    train.add_command(_script_command(_name, _module, _summary))


@train.command("tiny-model")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--hidden", type=whole(1, 65_536), default=32, show_default=True, help="Hidden size.")
@click.option("--layers", type=whole(1, 1000), default=2, show_default=True, help="Transformer layers.")
@click.option("--chat-template/--no-chat-template", default=False, help="Give the tokenizer a chat template.")
@click.option("--seed", type=SEED, default=0, show_default=True)
def tiny_model(folder: Path, hidden: int, layers: int, chat_template: bool, seed: int) -> None:
    """Write a tiny random Llama and tokenizer to FOLDER, offline, for smoke runs of the scripts."""
    from scholar_tui.training.tiny_model import build_tiny_model

    build_tiny_model(folder, hidden=hidden, layers=layers, seed=seed, chat_template=chat_template)
    click.echo(f"tiny random model in {folder} (it knows nothing; it shows that the scripts run)")
