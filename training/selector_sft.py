"""PaSa Selector SFT: (query, paper) -> the decision token True/False, then the rationale.

The prompt is PaSa's Table 15; the decision token comes first (PaSa §4.3) so that the probability
of "True" alone is the Selector's score and the Crawler's auxiliary reward (Eq. 2). Defaults follow
PaSa §5.1: one epoch, learning rate 1e-5, batch size 4.

    scholar-tui train selector-sft --model HF_ID_OR_FOLDER --train-file selector.jsonl --output-dir runs/selector
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scholar_tui.core.jsonl import read_jsonl
from scholar_tui.core.pasa.prompts import SelectorRecord, selector_prompt, selector_response
from scholar_tui.training.errors import TrainingError
from scholar_tui.training.options import parse_options
from scholar_tui.training.sft import SFTOptions


@dataclass
class SelectorSFTOptions(SFTOptions):
    pass


def build_pairs(records: list[SelectorRecord]) -> list[tuple[str, str]]:
    return [(selector_prompt(record.query, record.title, record.abstract),
             selector_response(record.decision, record.rationale)) for record in records]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    options = parse_options(SelectorSFTOptions, argv, "scholar-tui train selector-sft", __doc__.split("\n\n")[0])
    pairs = build_pairs(read_jsonl(options.train_file, SelectorRecord))
    if not pairs:
        raise TrainingError(f"{options.train_file}: no records")
    eval_pairs = build_pairs(read_jsonl(options.eval_file, SelectorRecord)) if options.eval_file else None
    from scholar_tui.training.sft import run_sft

    return run_sft(options, pairs, "selector-sft", eval_pairs)


if __name__ == "__main__":
    from scholar_tui.training.cli_entry import run_script

    run_script(main)
