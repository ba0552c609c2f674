"""What every training script shares: device, model loading and saving, checkpoints, the loss log.

A finished run writes ``OUTPUT_DIR/final``: a full Hugging Face model folder after full fine-tuning,
or, after LoRA, ``adapter.pt`` + ``adapter_config.json`` (naming the base model) + the tokenizer.
``load_model`` accepts either, so one run's ``final`` is the next run's ``--model`` (Crawler imitation
learning -> PPO) and the export's input. ``OUTPUT_DIR/checkpoint.pt`` holds the trainable weights,
the optimizer and the step; a run started again with the same output folder resumes from it.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from scholar_tui.training.errors import TrainingError
from scholar_tui.training.lora import LoRAConfig, apply_lora, has_lora, lora_state_dict, merge_lora

ADAPTER_CONFIG = "adapter_config.json"
ADAPTER_WEIGHTS = "adapter.pt"
CHECKPOINT = "checkpoint.pt"
LOSS_LOG = "losses.jsonl"


# -- device ------------------------------------------------------------------------------------
def pick_device(name: str = "auto") -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise TrainingError(f"device {name!r} asked for, but torch sees no CUDA GPU")
    return torch.device(name)


def pick_dtype(name: str, device: torch.device, lora: bool) -> torch.dtype:
    """auto: frozen base weights in bfloat16 under LoRA on a GPU that has it, float32 otherwise.

    Full fine-tuning keeps float32 master weights (AdamW in bfloat16 loses small updates such as
    PaSa's 1e-6 PPO steps); on a GPU the forward pass still runs under bfloat16 autocast.
    """
    if name != "auto":
        try:
            return {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[name]
        except KeyError:
            raise TrainingError(f"dtype must be auto, float32, bfloat16 or float16, not {name!r}") from None
    if device.type == "cuda" and lora and torch.cuda.is_bf16_supported():
        return torch.bfloat16
    return torch.float32


def autocast(device: torch.device):
    if device.type == "cuda" and torch.cuda.is_bf16_supported():
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return torch.autocast(device.type, enabled=False)


def seed_everything(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)


# -- models ------------------------------------------------------------------------------------
def quiet_transformers() -> None:
    """No per-shard progress bars: the loss log is the script's output."""
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()


def _from_pretrained(spec: str, dtype: torch.dtype):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    quiet_transformers()

    try:
        tokenizer = AutoTokenizer.from_pretrained(spec)
        model = AutoModelForCausalLM.from_pretrained(spec, dtype=dtype)
    except (OSError, ValueError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        offline = " (offline: HF_HUB_OFFLINE is set)" if os.environ.get("HF_HUB_OFFLINE") == "1" else ""
        raise TrainingError(f"cannot load model {spec!r}{offline}: {first}") from error
    return model, tokenizer


def _from_gguf(path: Path, dtype: torch.dtype):
    """A llama.cpp GGUF file (the bundled model) as a Hugging Face model, its weights dequantized.

    Done by hand rather than ``from_pretrained(gguf_file=...)``, which asks for ``accelerate``: the
    config and tokenizer come from the file's metadata, the tensors from transformers' GGUF reader.
    """
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer
    from transformers.modeling_gguf_pytorch_utils import load_gguf_checkpoint

    quiet_transformers()
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
        config = AutoConfig.from_pretrained(str(path.parent), gguf_file=path.name)
        model = AutoModelForCausalLM.from_config(config, dtype=dtype)
        tensors = load_gguf_checkpoint(str(path), return_tensors=True, model_to_load=model)["tensors"]
    except (OSError, ValueError, KeyError, NotImplementedError) as error:
        raise TrainingError(f"cannot load GGUF {path}: {error}") from error
    result = model.load_state_dict({name: tensor.to(dtype) for name, tensor in tensors.items()}, strict=False)
    tied = {"lm_head.weight"} if config.tie_word_embeddings else set()
    if set(result.missing_keys) - tied:
        raise TrainingError(f"GGUF {path.name} lacks weights for {sorted(set(result.missing_keys) - tied)[0]}")
    model.tie_weights()
    return model, tokenizer


def load_model(spec: str, dtype: torch.dtype = torch.float32) -> tuple[nn.Module, Any]:
    """A causal LM and its tokenizer from a Hub id, a model folder, a GGUF file, or a LoRA run's ``final`` folder.

    A LoRA folder is loaded onto its base model and merged, so the result is always a plain model.
    """
    folder = Path(spec).expanduser()
    adapter_config = folder / ADAPTER_CONFIG
    if adapter_config.is_file():
        config = json.loads(adapter_config.read_text(encoding="utf-8"))
        model, _ = load_model(config["base_model"], dtype)
        apply_lora(model, LoRAConfig(**config["lora"]))
        missing = load_trainable(model, torch.load(folder / ADAPTER_WEIGHTS, map_location="cpu"))
        if missing:
            raise TrainingError(f"{folder / ADAPTER_WEIGHTS} does not fit its base model: missing {missing[0]}")
        merge_lora(model)
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(str(folder))
    elif folder.suffix == ".gguf" and folder.is_file():
        model, tokenizer = _from_gguf(folder, dtype)
    else:
        model, tokenizer = _from_pretrained(str(folder) if folder.exists() else spec, dtype)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return model, tokenizer


def base_model_reference(spec: str) -> str:
    """How a saved adapter names its base: an absolute path for a local folder, else the Hub id."""
    folder = Path(spec).expanduser()
    return str(folder.resolve()) if folder.exists() else spec


def save_final(
    model: nn.Module, tokenizer: Any, folder: Path, base_model: str, lora: LoRAConfig | None, extra: dict[str, Any]
) -> Path:
    """Write the trained model to ``folder``: the adapter alone after LoRA, the full model otherwise."""
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save_pretrained(str(folder))
    if lora is not None and has_lora(model):
        torch.save(lora_state_dict(model), folder / ADAPTER_WEIGHTS)
        (folder / ADAPTER_CONFIG).write_text(
            json.dumps({"base_model": base_model_reference(base_model), "lora": lora.as_dict(), **extra}, indent=2),
            encoding="utf-8",
        )
    else:
        model.save_pretrained(str(folder))
        (folder / "training.json").write_text(
            json.dumps({"base_model": base_model, **extra}, indent=2), encoding="utf-8"
        )
    return folder


# -- checkpoints -------------------------------------------------------------------------------
def trainable_state(model: nn.Module) -> dict[str, torch.Tensor]:
    return {
        name: parameter.detach().cpu().clone()
        for name, parameter in model.named_parameters()
        if parameter.requires_grad
    }


def load_trainable(model: nn.Module, state: dict[str, torch.Tensor]) -> list[str]:
    """Load saved trainable tensors; returns the trainable names the state lacked."""
    result = model.load_state_dict(state, strict=False)
    if result.unexpected_keys:
        raise TrainingError(f"checkpoint holds weights this model lacks: {result.unexpected_keys[0]}")
    wanted = {name for name, parameter in model.named_parameters() if parameter.requires_grad}
    return sorted(wanted - set(state))


def save_checkpoint(
    output_dir: Path, models: dict[str, nn.Module], optimizer: torch.optim.Optimizer, progress: dict[str, Any]
) -> Path:
    """Trainable weights + optimizer + progress in one file, written atomically."""
    path = output_dir / CHECKPOINT
    temporary = path.with_suffix(".tmp")
    torch.save(
        {
            "models": {name: trainable_state(model) for name, model in models.items()},
            "optimizer": optimizer.state_dict(),
            "progress": progress,
            "rng": {
                "torch": torch.get_rng_state(),
                "python": random.getstate(),
                "cuda": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else None,
            },
        },
        temporary,
    )
    os.replace(temporary, path)  # a crash mid-save leaves the previous checkpoint intact
    return path


def load_checkpoint(
    output_dir: Path, models: dict[str, nn.Module], optimizer: torch.optim.Optimizer
) -> dict[str, Any] | None:
    """Restore a checkpoint into ``models`` and ``optimizer``; its progress, or None if there is none."""
    path = output_dir / CHECKPOINT
    if not path.is_file():
        return None
    saved = torch.load(path, map_location="cpu", weights_only=False)
    for name, model in models.items():
        if name not in saved["models"]:
            raise TrainingError(f"{path} has no {name!r} weights; it was written by another script")
        try:
            missing = load_trainable(model, saved["models"][name])
        except TrainingError as error:
            raise TrainingError(
                f"{path} does not match this model ({name}: {error}); use another --output-dir or --no-resume"
            ) from error
        if missing:
            raise TrainingError(
                f"{path} does not match this model ({name}: no {missing[0]}); use another --output-dir or --no-resume"
            )
    try:
        optimizer.load_state_dict(saved["optimizer"])
    except ValueError as error:
        raise TrainingError(f"{path}: optimizer state does not match ({error}); use --no-resume") from error
    torch.set_rng_state(saved["rng"]["torch"])
    random.setstate(saved["rng"]["python"])
    if saved["rng"].get("cuda") is not None and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(saved["rng"]["cuda"])
    return saved["progress"]


# -- the loss log ------------------------------------------------------------------------------
@dataclass
class LossLog:
    """Appends one JSON line per optimizer step to ``losses.jsonl`` and prints it."""

    path: Path
    started: float = 0.0

    def __post_init__(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.started = time.monotonic()

    def log(self, record: dict[str, Any], quiet: bool = False) -> None:
        record = {**record, "elapsed_s": round(time.monotonic() - self.started, 3)}
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")
        if not quiet:
            shown = "  ".join(
                f"{key} {value:.4g}" if isinstance(value, float) else f"{key} {value}" for key, value in record.items()
            )
            print(shown, flush=True)


def read_losses(output_dir: Path) -> list[dict[str, Any]]:
    path = output_dir / LOSS_LOG
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
