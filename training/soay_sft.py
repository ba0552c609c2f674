"""SoAy SFT (SoAyLLaMA, SoAy Appendix B): API description + query -> solution + program.

Trains on the train split of the SoAyBench JSONL (``formats.SoAyRecord``), the loss on the response
only. The SoAy paper trained 7B models with batch size 16 and does not give the learning rate; the
default here is a common full fine-tuning value.

    scholar-tui train soay-sft --model HF_ID_OR_FOLDER --train-file soaybench.jsonl \\
        --api-description apis.txt --output-dir runs/soay
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scholar_tui.core.jsonl import read_jsonl
from scholar_tui.core.soay.prompts import SoAyRecord, soay_prompt, soay_response
from scholar_tui.training.errors import TrainingError
from scholar_tui.training.options import option, parse_options, required
from scholar_tui.training.sft import SFTOptions


@dataclass
class SoAySFTOptions(SFTOptions):
    api_description: str = required("text file describing the APIs (the SoAyLLaMA input carries it)")
    split: str = option("train", "which split of the SoAyBench file to train on")
    batch_size: int = option(16, "examples per optimizer step (SoAy Appendix B: 16 for 7B models)")
    learning_rate: float = option(2e-5, "AdamW learning rate (not given in the SoAy paper)")


def build_pairs(records: list[SoAyRecord], api_description: str, split: str) -> list[tuple[str, str]]:
    return [
        (soay_prompt(record.question, api_description), soay_response(record.solution, record.program))
        for record in records
        if record.split == split
    ]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    options = parse_options(SoAySFTOptions, argv, "scholar-tui train soay-sft", __doc__.split("\n\n")[0])
    description_file = Path(options.api_description)
    if not description_file.is_file():
        raise TrainingError(f"--api-description: no such file {description_file}")
    records = read_jsonl(options.train_file, SoAyRecord)
    pairs = build_pairs(records, description_file.read_text(encoding="utf-8"), options.split)
    if not pairs:
        raise TrainingError(f"{options.train_file}: no records in split {options.split!r} (of {len(records)})")
    from scholar_tui.training.sft import run_sft

    return run_sft(options, pairs, "soay-sft")


if __name__ == "__main__":
    from scholar_tui.training.cli_entry import run_script

    run_script(main)
