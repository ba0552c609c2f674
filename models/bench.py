"""`scholar-tui bench llm`: our interface's throughput beside llama.cpp's bare figure.

"Bare" repeats llama-bench's method on the same loaded model and threads: pp = one batched
decode of N random prompt tokens, tg = N single-token decodes, no sampling and no detokenizing.
"Ours" is the full path every engine takes: tokenize, decode, sample, detokenize, log.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import asdict, dataclass

import numpy as np

from scholar_tui.models.base import LLM


@dataclass
class LLMBench:
    model: str
    backend: str
    threads: int | None
    n_prompt: int
    n_gen: int
    repetitions: int
    ours_prompt_tps: float
    ours_gen_tps: float
    bare_prompt_tps: float | None
    bare_gen_tps: float | None

    def as_dict(self) -> dict:
        return asdict(self)


# A prompt the model continues for a long time without stopping: counting.
def _counting_prompt(run: int, n_prompt: int, llm: LLM) -> str:
    words = [f"Run {run}. Continue the list of numbers:"]
    number = 1
    text = " ".join(words)
    while True:
        candidate = f"{text} {number},"
        if hasattr(llm, "tokenize") and len(llm.tokenize(candidate)) > n_prompt:
            return text
        if not hasattr(llm, "tokenize") and len(candidate.split()) > n_prompt:
            return text
        text, number = candidate, number + 1


def measure_ours(llm: LLM, n_prompt: int, n_gen: int, repetitions: int) -> tuple[float, float]:
    prompt_rates, gen_rates = [], []
    for run in range(repetitions + 1):
        # a different first token each run, so no run reuses the previous one's KV cache
        completion = llm.complete(_counting_prompt(run, n_prompt, llm), max_tokens=n_gen, temperature=0.0)
        if run == 0:
            continue  # warm-up
        if completion.first_token_s:
            prompt_rates.append(completion.prompt_tokens / completion.first_token_s)
        gen_rates.append(completion.tokens_per_second)
    return statistics.median(prompt_rates), statistics.median(gen_rates)


def measure_bare(llm: LLM, n_prompt: int, n_gen: int, repetitions: int) -> tuple[float, float]:
    import llama_cpp

    llama = llm._llama  # type: ignore[attr-defined]
    ctx = llama._ctx.ctx
    n_vocab = llama.n_vocab()
    rng = np.random.default_rng(0)
    memory = llama_cpp.llama_get_memory(ctx)

    def decode(tokens: list[int]) -> None:
        array = (llama_cpp.llama_token * len(tokens))(*tokens)
        if llama_cpp.llama_decode(ctx, llama_cpp.llama_batch_get_one(array, len(tokens))) != 0:
            raise RuntimeError("llama_decode failed")

    prompt_rates, gen_rates = [], []
    with llm._lock:  # type: ignore[attr-defined]
        for run in range(repetitions + 1):
            llama_cpp.llama_memory_clear(memory, True)
            tokens = rng.integers(0, n_vocab, n_prompt).tolist()
            started = time.perf_counter()
            for start in range(0, n_prompt, llama.n_batch):
                decode(tokens[start : start + llama.n_batch])
            pp = time.perf_counter() - started
            llama_cpp.llama_memory_clear(memory, True)
            decode([int(tokens[0])])
            started = time.perf_counter()
            for token in rng.integers(0, n_vocab, n_gen).tolist():
                decode([token])
            tg = time.perf_counter() - started
            if run:
                prompt_rates.append(n_prompt / pp)
                gen_rates.append(n_gen / tg)
        llama_cpp.llama_memory_clear(memory, True)
        llama.n_tokens = 0  # our KV cache is gone: the next generate must not reuse a prefix
    return statistics.median(prompt_rates), statistics.median(gen_rates)


def bench_llm(llm: LLM, *, n_prompt: int = 256, n_gen: int = 64, repetitions: int = 3) -> LLMBench:
    ours_pp, ours_tg = measure_ours(llm, n_prompt, n_gen, repetitions)
    bare_pp = bare_tg = None
    if llm.backend_name == "llama.cpp":
        bare_pp, bare_tg = measure_bare(llm, n_prompt, n_gen, repetitions)
    return LLMBench(
        model=llm.model_name,
        backend=llm.backend_name,
        threads=getattr(llm, "n_threads", None),
        n_prompt=n_prompt,
        n_gen=n_gen,
        repetitions=repetitions,
        ours_prompt_tps=ours_pp,
        ours_gen_tps=ours_tg,
        bare_prompt_tps=bare_pp,
        bare_gen_tps=bare_tg,
    )
