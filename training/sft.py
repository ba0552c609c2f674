"""Supervised fine-tuning on (prompt, response) pairs, the loss on the response tokens only.

The SoAy SFT, the Selector SFT and the Crawler's imitation learning are this loop on different
pairs (``soay_sft``, ``selector_sft``, ``crawler_il``). A pair is one user turn of the model's chat
template when the tokenizer has one (``--chat-template auto``), so that an engine calling
``llm.chat([{"role": "user", "content": prompt}])`` on the exported GGUF sees the training format.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scholar_tui.training.errors import TrainingError
from scholar_tui.training.options import option, required

IGNORE = -100  # label of a token that does not count in the loss (prompt, padding)


@dataclass
class SFTOptions:
    model: str = required("base model: a Hugging Face id, a local model folder, or a previous run's final/ folder")
    train_file: str = required("training data (JSONL)")
    output_dir: str = required("where checkpoints, losses.jsonl and final/ go")
    lora: bool = option(False, "train LoRA adapters instead of every weight")
    lora_r: int = option(16, "LoRA rank")
    lora_alpha: float = option(32.0, "LoRA alpha (the update is scaled by alpha / r)")
    lora_dropout: float = option(0.05, "dropout on the LoRA input")
    lora_targets: str = option("all-linear", "comma-separated module names to adapt (q_proj,v_proj) or all-linear")
    learning_rate: float = option(1e-5, "AdamW learning rate")
    weight_decay: float = option(0.0, "AdamW weight decay")
    batch_size: int = option(4, "examples per optimizer step (before accumulation)")
    gradient_accumulation: int = option(1, "micro-batches summed into one optimizer step")
    epochs: int = option(1, "passes over the training data")
    max_steps: int = option(0, "stop after this many optimizer steps (0: run every epoch)")
    max_length: int = option(2048, "longest example in tokens; longer ones are skipped and counted")
    max_grad_norm: float = option(1.0, "gradient clipping norm (0: off)")
    chat_template: str = option("auto", "auto (use the tokenizer's chat template if it has one), on, or off")
    save_every: int = option(100, "write a checkpoint every N optimizer steps (and at the end)")
    seed: int = option(0, "seed for the data order, dropout and LoRA initialisation")
    device: str = option("auto", "auto (cuda when torch sees a GPU, else cpu), cpu, cuda, cuda:1 ...")
    dtype: str = option("auto", "auto, float32, bfloat16 or float16 for the model weights")
    resume: bool = option(True, "resume from OUTPUT_DIR/checkpoint.pt when it exists")
    gradient_checkpointing: bool = option(False, "trade compute for memory on long examples")
    quiet: bool = option(False, "log losses to losses.jsonl without printing them")
    eval_file: str = option("", "held-out data (same format as --train-file): its loss is logged as eval_loss")
    eval_every: int = option(20, "log the held-out loss every N optimizer steps (and at the start and end)")


@dataclass(frozen=True)
class Example:
    input_ids: list[int]
    labels: list[int]

    @property
    def response_tokens(self) -> int:
        return sum(1 for label in self.labels if label != IGNORE)


# -- encoding ----------------------------------------------------------------------------------
def uses_chat_template(tokenizer: Any, setting: str) -> bool:
    if setting not in ("auto", "on", "off"):
        raise TrainingError(f"chat_template must be auto, on or off, not {setting!r}")
    has_template = bool(getattr(tokenizer, "chat_template", None))
    if setting == "on" and not has_template:
        raise TrainingError("--chat-template on, but this tokenizer has no chat template")
    return has_template if setting == "auto" else setting == "on"


def encode_prompt(tokenizer: Any, prompt: str, chat: bool) -> list[int]:
    """The token ids of a prompt, ending where the model's answer starts."""
    if chat:
        text = tokenizer.apply_chat_template(
            [{"role": "user", "content": prompt}], tokenize=False, add_generation_prompt=True
        )
        return tokenizer(text, add_special_tokens=False)["input_ids"]
    return tokenizer(prompt, add_special_tokens=True)["input_ids"]


def encode_example(tokenizer: Any, prompt: str, response: str, chat: bool) -> Example:
    """Prompt + response + end-of-sequence; only the response and its end count in the loss."""
    prompt_ids = encode_prompt(tokenizer, prompt, chat)
    response_ids = tokenizer(response, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]
    return Example(prompt_ids + response_ids, [IGNORE] * len(prompt_ids) + response_ids)


def collate(examples: list[Example], pad_id: int):
    import torch

    width = max(len(example.input_ids) for example in examples)
    input_ids = torch.full((len(examples), width), pad_id, dtype=torch.long)
    labels = torch.full((len(examples), width), IGNORE, dtype=torch.long)
    attention = torch.zeros((len(examples), width), dtype=torch.long)
    for row, example in enumerate(examples):
        size = len(example.input_ids)
        input_ids[row, :size] = torch.tensor(example.input_ids)
        labels[row, :size] = torch.tensor(example.labels)
        attention[row, :size] = 1
    return input_ids, labels, attention


def response_loss_sum(model, input_ids, labels, attention):
    """Summed cross-entropy of the response tokens (next-token prediction, prompt masked)."""
    import torch.nn.functional as F

    logits = model(input_ids=input_ids, attention_mask=attention).logits[:, :-1, :]
    targets = labels[:, 1:]
    return F.cross_entropy(
        logits.reshape(-1, logits.size(-1)).float(), targets.reshape(-1), ignore_index=IGNORE, reduction="sum"
    )


def held_out_loss(model, examples: list[Example], pad_id: int, device, batch_size: int) -> float:
    """Token-mean response loss on held-out examples, without gradients (the loss curve's other half)."""
    import torch

    was_training = model.training
    model.eval()
    total, tokens = 0.0, 0
    with torch.no_grad():
        for offset in range(0, len(examples), batch_size):
            batch = examples[offset : offset + batch_size]
            input_ids, labels, attention = (tensor.to(device) for tensor in collate(batch, pad_id))
            total += response_loss_sum(model, input_ids, labels, attention).item()
            tokens += sum(example.response_tokens for example in batch)
    model.train(was_training)
    return total / max(tokens, 1)


# -- the loop ----------------------------------------------------------------------------------
def epoch_order(count: int, seed: int, epoch: int) -> list[int]:
    order = list(range(count))
    random.Random(seed * 1_000_003 + epoch).shuffle(order)
    return order


def prepare_model(options: SFTOptions):
    """Model, tokenizer, device and LoRA config, as the options ask."""
    import torch

    from scholar_tui.training.lora import LoRAConfig, apply_lora
    from scholar_tui.training.runtime import load_model, pick_device, pick_dtype, seed_everything

    seed_everything(options.seed)
    device = pick_device(options.device)
    dtype = pick_dtype(options.dtype, device, options.lora)
    model, tokenizer = load_model(options.model, dtype)
    lora = None
    if options.lora:
        lora = LoRAConfig(options.lora_r, options.lora_alpha, options.lora_dropout, options.lora_targets)
        try:
            apply_lora(model, lora)
        except ValueError as error:
            raise TrainingError(str(error)) from error
    elif dtype != torch.float32:
        raise TrainingError("full fine-tuning keeps float32 weights; drop --dtype or add --lora")
    if options.gradient_checkpointing:
        model.gradient_checkpointing_enable()
        model.enable_input_require_grads()
    model.to(device)
    return model, tokenizer, device, lora


def run_sft(
    options: SFTOptions, pairs: list[tuple[str, str]], script: str, eval_pairs: list[tuple[str, str]] | None = None
) -> dict[str, Any]:
    """Train on (prompt, response) pairs; returns a summary (steps, last loss, where things are).

    With ``eval_pairs`` the held-out loss is logged (``eval_loss``) before the first step, every
    ``eval_every`` steps and after the last."""
    import torch

    from scholar_tui.training.options import options_dict
    from scholar_tui.training.runtime import LOSS_LOG, LossLog, autocast, load_checkpoint, save_checkpoint, save_final

    if not pairs:
        raise TrainingError(f"{options.train_file}: no training examples")
    if options.batch_size < 1 or options.gradient_accumulation < 1 or options.epochs < 1:
        raise TrainingError("batch_size, gradient_accumulation and epochs must be at least 1")
    output_dir = Path(options.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    model, tokenizer, device, lora = prepare_model(options)
    chat = uses_chat_template(tokenizer, options.chat_template)
    encoded = [encode_example(tokenizer, prompt, response, chat) for prompt, response in pairs]
    examples = [example for example in encoded if len(example.input_ids) <= options.max_length]
    skipped = len(encoded) - len(examples)
    if skipped:
        print(f"skipped {skipped} of {len(encoded)} examples longer than max_length={options.max_length}", flush=True)
    if not examples:
        raise TrainingError(f"every example is longer than max_length={options.max_length}")

    trainable = [parameter for parameter in model.parameters() if parameter.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=options.learning_rate, weight_decay=options.weight_decay)
    progress = {"step": 0, "epoch": 0, "batches_done": 0}
    if options.resume:
        restored = load_checkpoint(output_dir, {"model": model}, optimizer)
        if restored is not None:
            progress = restored
            print(f"resumed from {output_dir / 'checkpoint.pt'} at step {progress['step']}", flush=True)
    (output_dir / "config.json").write_text(json.dumps(options_dict(options), indent=2))

    micro = options.batch_size
    per_step = micro * options.gradient_accumulation
    steps_per_epoch = math.ceil(len(examples) / per_step)
    total_steps = steps_per_epoch * options.epochs
    if options.max_steps:
        total_steps = min(total_steps, options.max_steps)
    log = LossLog(output_dir / LOSS_LOG)
    model.train()
    last_loss = float("nan")
    pad_id = tokenizer.pad_token_id
    held_out = [
        example
        for example in (encode_example(tokenizer, prompt, response, chat) for prompt, response in eval_pairs or [])
        if len(example.input_ids) <= options.max_length
    ]
    eval_loss = None

    def log_eval() -> None:
        nonlocal eval_loss
        if held_out:
            eval_loss = held_out_loss(model, held_out, pad_id, device, micro)
            log.log({"step": progress["step"], "eval_loss": round(eval_loss, 6)}, quiet=options.quiet)

    if progress["step"] == 0:
        log_eval()
    while progress["step"] < total_steps:
        order = epoch_order(len(examples), options.seed, progress["epoch"])
        start = progress["batches_done"] * per_step
        if start >= len(order):
            progress.update(epoch=progress["epoch"] + 1, batches_done=0)
            continue
        group = [examples[index] for index in order[start : start + per_step]]
        micro_batches = [group[offset : offset + micro] for offset in range(0, len(group), micro)]
        tokens = sum(example.response_tokens for example in group)
        began = time.monotonic()
        optimizer.zero_grad(set_to_none=True)
        total = 0.0
        for batch in micro_batches:
            input_ids, labels, attention = (tensor.to(device) for tensor in collate(batch, pad_id))
            with autocast(device):
                loss_sum = response_loss_sum(model, input_ids, labels, attention)
            # Dividing by the tokens of the whole step makes the accumulated gradient a token mean.
            (loss_sum / tokens).backward()
            total += loss_sum.item()
        if options.max_grad_norm > 0:
            torch.nn.utils.clip_grad_norm_(trainable, options.max_grad_norm)
        optimizer.step()
        last_loss = total / tokens
        if not math.isfinite(last_loss):
            raise TrainingError(f"loss became {last_loss} at step {progress['step'] + 1}; lower --learning-rate")
        progress["step"] += 1
        progress["batches_done"] += 1
        log.log(
            {
                "step": progress["step"],
                "epoch": progress["epoch"],
                "loss": round(last_loss, 6),
                "lr": options.learning_rate,
                "tokens": tokens,
                "step_s": round(time.monotonic() - began, 3),
            },
            quiet=options.quiet,
        )
        if progress["step"] % options.save_every == 0 or progress["step"] == total_steps:
            save_checkpoint(output_dir, {"model": model}, optimizer, dict(progress))
        if options.eval_every > 0 and progress["step"] % options.eval_every == 0 or progress["step"] == total_steps:
            log_eval()
    if math.isnan(last_loss) and log.path.is_file():  # resumed a finished run: report its last loss
        from scholar_tui.training.runtime import read_losses

        last_loss = next((row["loss"] for row in reversed(read_losses(output_dir)) if "loss" in row), last_loss)
    model.eval()
    final = save_final(
        model,
        tokenizer,
        output_dir / "final",
        options.model,
        lora,
        {"script": script, "chat_template": chat, "steps": progress["step"]},
    )
    return {
        "steps": progress["step"],
        "loss": last_loss,
        "examples": len(examples),
        "skipped": skipped,
        "eval_loss": eval_loss,
        "final": str(final),
        "checkpoint": str(output_dir / "checkpoint.pt"),
        "losses": str(output_dir / LOSS_LOG),
        "device": str(device),
    }
