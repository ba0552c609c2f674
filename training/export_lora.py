"""Export a LoRA run as a llama.cpp LoRA adapter (GGUF) on its base GGUF, and register the pair.

The Selector SFT starts from the bundled GGUF (``runtime.load_model`` dequantizes it), so the base
llama.cpp runs is that very file; the adapter is a few MB beside it, and llama.cpp adds B A x to
each adapted layer at run time (``Llama(lora_path=...)``). Steps: the run's ``adapter.pt`` is
written in PEFT's layout (``adapter_model.safetensors`` + ``adapter_config.json``), the base's
``config.json`` beside it, and llama.cpp's ``convert_lora_to_gguf.py`` (found next to
``convert_hf_to_gguf.py``, see ``export_gguf.find_converter``) converts it; the registry entry names
the base GGUF and the adapter, so ``scholar-tui models use NAME`` runs both.

    scholar-tui train export-lora --model runs/selector/final --name smollm2-selector
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scholar_tui.training.errors import TrainingError
from scholar_tui.training.options import option, parse_options, required

LORA_CONVERTER = "convert_lora_to_gguf.py"
ADAPTERS_FOLDER = "adapters"  # under the models folder, apart from the *.gguf models listed there


@dataclass
class ExportLoRAOptions:
    model: str = required("a LoRA run's final/ folder (adapter.pt + adapter_config.json) whose base is a GGUF file")
    name: str = option("", "register the base + adapter under this name (default: the run folder's name)")
    output_dir: str = option("", "where the adapter GGUF goes (default: the models folder's adapters/)")
    outtype: str = option("f16", "the adapter's type: f32, f16, bf16 or q8_0")
    convert_script: str = option("", "path to llama.cpp's convert_hf_to_gguf.py; the LoRA converter is beside it")
    register: bool = option(True, "add the base + adapter to the models registry")


def peft_tensors(adapter: dict) -> dict:
    """Our adapter's tensors under PEFT's names (``base_model.model.<layer>.lora_A.weight``)."""
    tensors = {}
    for name, tensor in adapter.items():
        match = re.fullmatch(r"(.+)\.(lora_[AB])", name)
        if match is None:
            raise TrainingError(f"unexpected tensor {name!r} in the adapter")
        tensors[f"base_model.model.{match.group(1)}.{match.group(2)}.weight"] = tensor.float().contiguous()
    return tensors


def write_peft_folder(final: Path, target: Path) -> dict:
    """adapter_model.safetensors + adapter_config.json in PEFT's layout; returns our adapter config."""
    import torch
    from safetensors.torch import save_file

    from scholar_tui.training.runtime import ADAPTER_CONFIG, ADAPTER_WEIGHTS

    config_path = final / ADAPTER_CONFIG
    if not config_path.is_file():
        raise TrainingError(f"{final} is not a LoRA run's final/ folder (no {ADAPTER_CONFIG})")
    config = json.loads(config_path.read_text(encoding="utf-8"))
    tensors = peft_tensors(torch.load(final / ADAPTER_WEIGHTS, map_location="cpu"))
    target.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(target / "adapter_model.safetensors"))
    modules = sorted({name.split(".")[-3] for name in tensors})
    (target / "adapter_config.json").write_text(
        json.dumps(
            {
                "peft_type": "LORA",
                "r": config["lora"]["r"],
                "lora_alpha": config["lora"]["alpha"],
                "target_modules": modules,
                "base_model_name_or_path": config["base_model"],
                "bias": "none",
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    return config


def write_base_config(base_gguf: Path, target: Path) -> None:
    """The base model's config.json, read from the GGUF's metadata (the converter needs only that)."""
    from transformers import AutoConfig
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    config = AutoConfig.from_pretrained(str(base_gguf.parent), gguf_file=base_gguf.name)
    if not config.architectures:  # GGUF metadata has none; the converter picks its model class by it
        config.architectures = [MODEL_FOR_CAUSAL_LM_MAPPING_NAMES[config.model_type]]
    config.save_pretrained(str(target))


def check_adapter_loads(base: Path, adapter: Path) -> None:
    """llama.cpp opens the base with the adapter applied (a wrong adapter fails here, not in the app)."""
    from llama_cpp import Llama

    try:
        model = Llama(model_path=str(base), lora_path=str(adapter), n_ctx=64, verbose=False)
    except (ValueError, RuntimeError) as error:
        raise TrainingError(f"llama.cpp cannot apply {adapter.name} to {base.name}: {error}") from error
    model.close()


def export_adapter(options: ExportLoRAOptions) -> dict[str, Any]:
    from scholar_tui.config.locations import locations
    from scholar_tui.models.registry import ModelEntry, register
    from scholar_tui.training.export_gguf import convert, export_name, find_converter

    converter = find_converter(options.convert_script).parent / LORA_CONVERTER
    if not converter.is_file():
        raise TrainingError(f"no {LORA_CONVERTER} beside {converter.parent / 'convert_hf_to_gguf.py'}")
    final = Path(options.model).expanduser()
    where = locations()
    name = export_name(options.model, options.name)
    output_dir = Path(options.output_dir).expanduser() if options.output_dir else where.models_dir / ADAPTERS_FOLDER
    output_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="lora-export-") as scratch:
        peft_dir, base_dir = Path(scratch) / "peft", Path(scratch) / "base"
        config = write_peft_folder(final, peft_dir)
        base = Path(config["base_model"])
        if base.suffix != ".gguf" or not base.is_file():
            raise TrainingError(
                f"the adapter's base {config['base_model']!r} is not a GGUF file; "
                "use `train export` (merge and convert) for a Hugging Face base"
            )
        write_base_config(base, base_dir)
        adapter = convert(
            converter,
            peft_dir,
            output_dir / f"{name}-lora-{options.outtype}.gguf",
            options.outtype,
            ("--base", str(base_dir)),
        )
    check_adapter_loads(base, adapter)
    if options.register:
        register(
            where,
            ModelEntry(
                name,
                "gguf",
                str(base.resolve()),
                f"{base.name} + LoRA from {options.model}",
                adapter=str(adapter.resolve()),
            ),
        )
    return {
        "name": name,
        "gguf": str(adapter.resolve()),
        "base": str(base),
        "bytes": adapter.stat().st_size,
        "converter": str(converter),
        "registered": options.register,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    options = parse_options(ExportLoRAOptions, argv, "scholar-tui train export-lora", __doc__.split("\n\n")[0])
    return export_adapter(options)


if __name__ == "__main__":
    from scholar_tui.training.cli_entry import run_script

    run_script(main)
