"""The models layer: which LLM or embedding backend runs is decided here and nowhere else.

``load_llm(settings)`` gives an ``LLM`` (llama.cpp in-process, or an OpenAI-compatible endpoint)
and ``load_embedder(settings)`` an ``Embedder``; engines take them as arguments (``core.llm``
adds the prompt log). Owns the LLM interface, the backends, grammars, the model registry and
pulls, the LLM benchmark. May import config only; indexes sits beside it and is not imported.
"""

from __future__ import annotations

from scholar_tui.config.locations import Locations, locations
from scholar_tui.config.settings import Settings
from .base import LLM, CancelToken, Completion, LLMError, TokenLogprob
from .embeddings import Embedder
from .registry import ModelNotFound, resolve_embedding, resolve_llm

__all__ = [
    "LLM",
    "CancelToken",
    "Completion",
    "Embedder",
    "LLMError",
    "ModelNotFound",
    "TokenLogprob",
    "load_embedder",
    "load_llm",
]


def load_llm(settings: Settings, where: Locations | None = None) -> LLM:
    """The LLM that ``settings.llm.model`` names (``core.llm.open_llm`` adds the prompt log)."""
    where = where or locations()
    try:
        entry = resolve_llm(settings.llm.model, where)
    except ModelNotFound as error:
        raise LLMError(str(error)) from error
    if entry.kind == "endpoint":
        from .openai_http import OpenAICompatibleLLM, split_endpoint

        base_url, model = split_endpoint(entry.location)
        llm: LLM = OpenAICompatibleLLM(
            base_url, model=model, api_key=settings.openai.api_key, timeout_s=settings.openai.timeout_s
        )
    else:
        from .llamacpp import LlamaCppLLM

        llm = LlamaCppLLM(
            entry.location,
            name=entry.name,
            n_ctx=settings.llm.n_ctx,
            n_threads=settings.llm.n_threads,
            n_gpu_layers=settings.llm.n_gpu_layers,
            seed=settings.llm.seed,
        )
    llm.default_temperature = settings.llm.temperature
    return llm


def load_embedder(settings: Settings) -> Embedder:
    try:
        entry = resolve_embedding(settings.embeddings.model)
    except ModelNotFound as error:
        raise LLMError(str(error)) from error
    return Embedder(
        entry.location,
        name=entry.name,
        device=settings.embeddings.device,
        batch_size=settings.embeddings.batch_size,
    )
