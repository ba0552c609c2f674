"""The llama.cpp backend: a GGUF file run in-process through llama-cpp-python."""

from __future__ import annotations

import codecs
import json
import threading
from collections.abc import Generator
from pathlib import Path
from typing import Any

import numpy as np

from scholar_tui.models.base import LLM, Chunk, FinishReason, LLMError, Request, TokenLogprob
from scholar_tui.models.cpu import Threads
from scholar_tui.models.llama_open import open_llama


class LlamaCppLLM(LLM):
    backend_name = "llama.cpp"

    def __init__(
        self,
        model_path: str | Path,
        *,
        name: str | None = None,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        n_gpu_layers: int = 0,
        seed: int = 0,
        lora_path: str | None = None,
    ) -> None:
        super().__init__()
        path = Path(model_path)
        if not path.is_file():
            raise LLMError(f"GGUF model file not found: {path}")
        if lora_path is not None and not Path(lora_path).is_file():
            raise LLMError(f"LoRA adapter file not found: {lora_path}")
        try:
            import llama_cpp
        except ImportError as error:  # a broken native build shows up here
            raise LLMError(f"llama-cpp-python is not usable: {error}") from error
        self.model_path = path
        self.model_name = name or path.stem
        # Unset: each generation runs on the cores free when it starts (``models.cpu``); set: always this many.
        self.threads = Threads(n_threads)
        self.n_threads = self.threads.cores
        try:
            self._llama = open_llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=self.n_threads,
                n_threads_batch=self.n_threads,
                n_gpu_layers=n_gpu_layers,
                seed=seed,
                lora_path=lora_path,
            )
        except (ValueError, RuntimeError) as error:
            raise LLMError(f"llama.cpp could not load {path.name}: {error}") from error
        self._llama_cpp = llama_cpp  # the low-level bindings, for end-of-generation checks
        self.seed = seed
        self._vocab = self._llama._model.vocab
        # One llama.cpp context serves one generation at a time; workers queue here.
        self._lock = threading.Lock()
        self._grammars: dict[str, Any] = {}
        self._chat_formatter = self._make_chat_formatter()

    # -- helpers -------------------------------------------------------------------------------
    def _make_chat_formatter(self):
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        template = self._llama.metadata.get("tokenizer.chat_template")
        if not template:
            return None
        eos_id, bos_id = self._llama.token_eos(), self._llama.token_bos()
        return Jinja2ChatFormatter(
            template=template,
            eos_token=self._token_text(eos_id),
            bos_token=self._token_text(bos_id),
            stop_token_ids=[eos_id],
        )

    def _token_text(self, token: int) -> str:
        """A special token's text; a model without that token (id -1) has none."""
        return self._llama._model.token_get_text(token) if token >= 0 else ""

    def format_chat(self, messages: list[dict[str, str]]) -> tuple[str, list[str]]:
        """The prompt text for ``messages`` under the model's own chat template, and its stops."""
        if self._chat_formatter is None:  # a base model: a plain transcript
            lines = [f"{message['role']}: {message['content']}" for message in messages]
            return "\n".join(lines) + "\nassistant:", ["\nuser:"]
        formatted = self._chat_formatter(messages=messages)
        stop = formatted.stop or []
        return formatted.prompt, [stop] if isinstance(stop, str) else list(stop)

    def _grammar(self, request: Request):
        from llama_cpp import LlamaGrammar

        if request.schema is not None:
            key = "schema:" + json.dumps(request.schema, sort_keys=True)
        elif request.grammar is not None:
            key = "gbnf:" + request.grammar
        else:
            return None
        if key not in self._grammars:
            if request.schema is not None:
                try:
                    grammar = LlamaGrammar.from_json_schema(json.dumps(request.schema), verbose=False)
                except Exception as error:  # the converter raises bare Exceptions on odd schemas
                    raise LLMError(f"JSON schema not supported for constrained decoding: {error}") from error
            else:  # a grammar, since the key was made from one
                grammar = LlamaGrammar.from_string(request.grammar or "", verbose=False)
            self._check_grammar(grammar._grammar)
            self._grammars[key] = grammar
        return self._grammars[key]

    def _check_grammar(self, text: str) -> None:
        """Parse a grammar once up front: llama.cpp crashes the process on a bad one mid-sampling."""
        llama_cpp = self._llama_cpp
        sampler = llama_cpp.llama_sampler_init_grammar(self._vocab, text.encode("utf-8"), b"root")
        if not sampler:
            first_line = text.strip().splitlines()[0] if text.strip() else "(empty)"
            raise LLMError(f"invalid GBNF grammar (llama.cpp could not parse it): {first_line[:80]}")
        llama_cpp.llama_sampler_free(sampler)

    def tokenize(self, text: str, *, special: bool = False) -> list[int]:
        return self._llama.tokenize(text.encode("utf-8"), add_bos=True, special=special)

    def _token_logprob(self, token: int, text: str, top_k: int) -> TokenLogprob:
        # The logits the token was sampled from are still in the context until the next decode.
        pointer = self._llama._ctx.get_logits_ith(-1)
        logits = np.ctypeslib.as_array(pointer, shape=(self._llama.n_vocab(),)).astype(np.float64)
        shifted = logits - logits.max()
        logprobs = shifted - np.log(np.exp(shifted).sum())
        best = np.argpartition(-logprobs, top_k)[:top_k]
        best = best[np.argsort(-logprobs[best])]
        top: dict[str, float] = {}
        for candidate in best:
            piece = self._llama.detokenize([int(candidate)]).decode("utf-8", errors="replace")
            top.setdefault(piece, float(logprobs[candidate]))
        return TokenLogprob(token=text, logprob=float(logprobs[token]), top=top)

    # -- generation --------------------------------------------------------------------------
    def _generate(self, request: Request) -> Generator[Chunk, None, None]:
        stops = list(request.stop)
        if request.messages is not None:
            prompt, template_stops = self.format_chat(request.messages)
            stops += template_stops
            tokens = self.tokenize(prompt, special=True)
        else:
            tokens = self.tokenize(request.prompt or "")
        n_ctx = self._llama.n_ctx()
        if len(tokens) >= n_ctx:
            raise LLMError(f"the prompt has {len(tokens)} tokens; the context holds {n_ctx}")
        max_tokens = min(request.max_tokens, n_ctx - len(tokens))
        grammar = self._grammar(request)
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        held = ""  # text that might be the start of a stop string
        keep = max((len(stop) for stop in stops), default=1) - 1
        generated = 0
        finish: FinishReason = "length"
        with self._lock:
            if self.threads.pinned is None:  # a pinned count is the one the context was opened with
                threads = self.threads.now()
                self._llama_cpp.llama_set_n_threads(self._llama._ctx.ctx, threads, threads)
            self._llama.set_seed(self.seed)
            for token in self._llama.generate(
                tokens,
                temp=request.temperature,
                top_k=40,
                top_p=0.95,
                min_p=0.05,
                repeat_penalty=1.0,
                grammar=grammar,
            ):
                if self._is_end(token):
                    finish = "stop"
                    break
                generated += 1
                piece = decoder.decode(self._llama.detokenize([token]))
                logprob = self._token_logprob(token, piece, request.logprobs) if request.logprobs else None
                held += piece
                hit = min((held.find(s) for s in stops if s and s in held), default=-1)
                if hit >= 0:
                    yield Chunk(text=held[:hit], logprob=logprob)
                    held = ""
                    finish = "stop"
                    break
                ready = held[: max(0, len(held) - keep)]
                held = held[len(ready) :]
                yield Chunk(text=ready, logprob=logprob)
                if generated >= max_tokens:
                    break
        held += decoder.decode(b"", final=True)
        yield Chunk(
            text=held,
            prompt_tokens=len(tokens),
            completion_tokens=generated,
            finish_reason=finish,
        )

    def _is_end(self, token: int) -> bool:
        return bool(self._llama_cpp.llama_vocab_is_eog(self._vocab, token))

    def describe(self) -> dict[str, Any]:
        return {
            "backend": self.backend_name,
            "model": self.model_name,
            "path": str(self.model_path),
            "size_mb": round(self.model_path.stat().st_size / 2**20, 1),
            "n_ctx": self._llama.n_ctx(),
            "n_threads": self.n_threads,
        }

    def close(self) -> None:
        llama = getattr(self, "_llama", None)
        if llama is not None:
            llama.close()
            self._llama = None
