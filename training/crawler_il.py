"""PaSa Crawler imitation learning on session trajectories (PaSa §4.2 stage one, Appendix A.1).

Each record is one session in the form of Table 8: a search session (the query alone, S_q) answered
by ``[Search] … [Stop]``, or an expand session (the query and a paper, S_{q+p}) answered by
``[Expand] … [Stop]``. Defaults follow PaSa §5.1: one epoch, learning rate 1e-5, batch size 4. The
run's ``final/`` folder is the SFT policy pi_sft that ``crawler-ppo`` starts from.

    scholar-tui train crawler-il --model HF_ID_OR_FOLDER --train-file sessions.jsonl --output-dir runs/crawler-il
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scholar_tui.core.jsonl import read_jsonl
from scholar_tui.core.pasa.prompts import CrawlerSession, crawler_prompt, crawler_response
from scholar_tui.training.errors import TrainingError
from scholar_tui.training.options import parse_options
from scholar_tui.training.sft import SFTOptions


@dataclass
class CrawlerILOptions(SFTOptions):
    pass


def build_pairs(sessions: list[CrawlerSession]) -> list[tuple[str, str]]:
    return [(crawler_prompt(session.query, session.paper), crawler_response(session.actions)) for session in sessions]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    options = parse_options(CrawlerILOptions, argv, "scholar-tui train crawler-il", __doc__.split("\n\n")[0])
    pairs = build_pairs(read_jsonl(options.train_file, CrawlerSession))
    if not pairs:
        raise TrainingError(f"{options.train_file}: no sessions")
    from scholar_tui.training.sft import run_sft

    return run_sft(options, pairs, "crawler-il")


if __name__ == "__main__":
    from scholar_tui.training.cli_entry import run_script

    run_script(main)
