"""A small LoRA (Hu et al., 2021) on ``nn.Linear``: W x + (alpha / r) * B A x, with B starting at zero.

No peft dependency: ``apply_lora`` swaps the chosen linear layers for ``LoRALinear`` and freezes
everything else; ``merge_lora`` folds B A back into W and restores plain ``nn.Linear`` layers, which
is what the GGUF export needs; ``lora_disabled`` runs the base model (the PPO reference policy
pi_sft is the policy with its adapters off).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass

import torch
from torch import nn

ALL_LINEAR = "all-linear"


@dataclass(frozen=True)
class LoRAConfig:
    r: int = 16
    alpha: float = 32.0
    dropout: float = 0.05
    targets: str = ALL_LINEAR
    """Comma-separated module-name suffixes (``q_proj,v_proj``) or ``all-linear`` (every linear layer
    but the output head)."""

    def as_dict(self) -> dict:
        return asdict(self)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int, alpha: float, dropout: float) -> None:
        super().__init__()
        if r < 1:
            raise ValueError("LoRA rank r must be at least 1")
        self.base = base
        self.r = r
        self.scaling = alpha / r
        self.enabled = True
        self.dropout = nn.Dropout(dropout) if dropout > 0 else nn.Identity()
        # Adapters train in float32 even when the frozen base weights are bfloat16.
        device = base.weight.device
        self.lora_A = nn.Parameter(torch.empty(r, base.in_features, device=device, dtype=torch.float32))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, r, device=device, dtype=torch.float32))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))  # as nn.Linear initialises its weight

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.base(x)
        if not self.enabled:
            return out
        update = self.dropout(x).to(self.lora_A.dtype) @ self.lora_A.T @ self.lora_B.T
        return out + (update * self.scaling).to(out.dtype)

    def merged(self) -> nn.Linear:
        """The plain linear layer with B A folded into its weight."""
        weight = self.base.weight.data
        delta = (self.lora_B @ self.lora_A) * self.scaling
        merged = nn.Linear(
            self.base.in_features,
            self.base.out_features,
            bias=self.base.bias is not None,
            device=weight.device,
            dtype=weight.dtype,
        )
        merged.weight.data.copy_((weight.float() + delta).to(weight.dtype))
        if self.base.bias is not None:
            merged.bias.data.copy_(self.base.bias.data)
        return merged


def _wanted(name: str, module: nn.Module, targets: str, output_head: nn.Module | None) -> bool:
    if not isinstance(module, nn.Linear) or module is output_head:
        return False
    if targets == ALL_LINEAR:
        return True
    return any(name == suffix or name.endswith("." + suffix) for suffix in targets.split(","))


def apply_lora(model: nn.Module, config: LoRAConfig) -> list[str]:
    """Wrap the target linear layers of ``model`` in place; freeze every other parameter.

    Returns the wrapped module names; raises ValueError when nothing matched.
    """
    output_head = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    chosen = [
        (name, module) for name, module in model.named_modules() if _wanted(name, module, config.targets, output_head)
    ]
    if not chosen:
        raise ValueError(f"no linear layer matches LoRA targets {config.targets!r}")
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    for name, module in chosen:
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, LoRALinear(module, config.r, config.alpha, config.dropout))
    return [name for name, _ in chosen]


def lora_layers(model: nn.Module) -> Iterator[tuple[str, LoRALinear]]:
    for name, module in model.named_modules():
        if isinstance(module, LoRALinear):
            yield name, module


def has_lora(model: nn.Module) -> bool:
    return any(True for _ in lora_layers(model))


def merge_lora(model: nn.Module) -> int:
    """Fold every adapter into its base weight, in place; returns how many layers were merged."""
    merged = 0
    for name, module in list(lora_layers(model)):
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child, module.merged())
        merged += 1
    return merged


@contextmanager
def lora_disabled(model: nn.Module) -> Iterator[None]:
    """Run the frozen base model: every adapter off inside the block."""
    layers = [module for _, module in lora_layers(model)]
    for module in layers:
        module.enabled = False
    try:
        yield
    finally:
        for module in layers:
            module.enabled = True


def lora_state_dict(model: nn.Module) -> dict[str, torch.Tensor]:
    return {name: tensor.detach().cpu() for name, tensor in model.state_dict().items() if ".lora_" in name}
