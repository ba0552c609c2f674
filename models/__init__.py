"""The models layer: which LLM or embedding backend runs is decided here and nowhere else.

``load_llm(settings)`` gives an ``LLM`` (llama.cpp in-process, or an OpenAI-compatible endpoint)
and ``load_embedder(settings)`` an ``Embedder``; engines take them as arguments (``core.llm``
adds the prompt log). Owns the LLM interface, the backends, grammars, the model registry and
pulls, the LLM benchmark. May import config only; indexes sits beside it and is not imported.
"""

from __future__ import annotations

from scholar_tui.config.locations import Locations, locations
from scholar_tui.config.settings import Settings
from scholar_tui.models.base import LLM, CancelToken, Completion, LLMError, TokenLogprob
from scholar_tui.models.embeddings import Embedder, LlamaCppEmbedder, SentenceTransformerEmbedder
from scholar_tui.models.gguf_bert import converted_gguf, convertible
from scholar_tui.models.registry import ModelNotFound, resolve_embedding, resolve_llm

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
        from scholar_tui.models.openai_http import OpenAICompatibleLLM, split_endpoint

        base_url, model = split_endpoint(entry.location)
        llm: LLM = OpenAICompatibleLLM(
            base_url,
            model=model,
            api_key=settings.openai.api_key,
            timeout_s=settings.openai.timeout_s,
            deadline_s=settings.openai.deadline_s,
        )
    else:
        from scholar_tui.models.llamacpp import LlamaCppLLM

        llm = LlamaCppLLM(
            entry.location,
            name=entry.name,
            lora_path=entry.adapter or None,
            n_ctx=settings.llm.n_ctx,
            n_threads=settings.llm.n_threads,
            n_gpu_layers=settings.llm.n_gpu_layers,
            seed=settings.llm.seed,
        )
    llm.default_temperature = settings.llm.temperature
    return llm


def load_embedder(settings: Settings, where: Locations | None = None) -> Embedder:
    """The embedder that ``settings.embeddings`` names (loaded on first use, so this is cheap).

    ``embeddings.backend`` ``auto`` runs llama.cpp for a GGUF and for a BERT folder it can convert
    (converted once into the models folder); any other folder goes to sentence-transformers.
    """
    where = where or locations()
    options = settings.embeddings
    try:
        entry = resolve_embedding(options.model, where)
    except ModelNotFound as error:
        raise LLMError(str(error)) from error
    backend = options.backend
    if backend == "auto":
        backend = (
            "llama.cpp"
            if entry.kind == "gguf" or convertible(entry.location, where, entry.name)
            else "sentence-transformers"
        )
    if backend == "model2vec":
        return _static_embedder(entry, where, llama_options={"n_gpu_layers": options.n_gpu_layers})
    if backend == "sentence-transformers":
        if entry.kind == "gguf":
            raise LLMError(
                f"{entry.name} is a GGUF file: sentence-transformers cannot run it (use embeddings.backend auto)"
            )
        return SentenceTransformerEmbedder(
            entry.location,
            name=f"{entry.name} (sentence-transformers)",
            device=options.device,
            batch_size=options.batch_size,
        )
    llama_options = {"max_sequences": options.batch_size, "n_gpu_layers": options.n_gpu_layers}
    if entry.kind == "gguf":
        return LlamaCppEmbedder(entry.location, name=entry.name, **llama_options)
    return LlamaCppEmbedder(
        None, name=entry.name, prepare=lambda: converted_gguf(entry.location, where, entry.name), **llama_options
    )


def _static_embedder(entry, where: Locations, llama_options: dict) -> Embedder:
    """The fast path: a static table distilled from ``entry``'s BERT folder, by llama.cpp, on first use."""
    from pathlib import Path

    from scholar_tui.models.static_embeddings import StaticEmbedder, distil, static_folder

    if entry.kind == "gguf" or not convertible(entry.location, where, entry.name):
        raise LLMError(f"{entry.name}: the model2vec backend distils from a BERT folder, such as the bundled MiniLM")
    teacher_folder = Path(entry.location)
    folder = static_folder(where.data_dir, teacher_folder, entry.name)

    def make() -> Path:
        teacher = LlamaCppEmbedder(
            None,
            name=entry.name,
            prepare=lambda: converted_gguf(entry.location, where, entry.name),
            max_sequences=64,
            **llama_options,
        )
        try:
            return distil(teacher.embed_token_ids, teacher_folder / "tokenizer.json", folder)
        finally:
            teacher.close()

    return StaticEmbedder(folder, name=f"{entry.name} (model2vec static)", make=make)
