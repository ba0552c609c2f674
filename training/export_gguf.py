"""Export a trained model to GGUF and register it, so that ``scholar-tui models use NAME`` runs it.

Steps: merge the LoRA adapters (a LoRA run's final/ folder) into the base weights and save a
Hugging Face folder; convert it with llama.cpp's ``convert_hf_to_gguf.py``; quantize with llama.cpp's
quantizer (the one compiled into llama-cpp-python); check that llama.cpp opens the file; register it
in the models registry.

The converter is not on PyPI. It is found, in order, at ``--convert-script``, in ``$LLAMA_CPP_DIR``,
or in uv's cache of the llama-cpp-python source distribution (which vendors llama.cpp, and with it
the ``gguf`` package the converter imports). When none is there the export stops and says so.

    scholar-tui train export --model runs/soay/final --name soay-smollm2
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import runpy
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scholar_tui.training.errors import TrainingError
from scholar_tui.training.options import option, parse_options, required

CONVERTER = "convert_hf_to_gguf.py"
OUTTYPES = ("f32", "f16", "bf16", "q8_0", "auto")


@dataclass
class ExportOptions:
    model: str = required("a training run's final/ folder (LoRA adapter or full model), a model folder or a Hub id")
    name: str = option("", "register the GGUF under this name (default: the run folder's name)")
    output_dir: str = option("", "where the GGUF (and the merged Hugging Face folder) go (default: the models folder)")
    outtype: str = option("f16", "the converter's output type: f32, f16, bf16, q8_0 or auto")
    quantize: str = option(
        "Q4_K_M", "llama.cpp quantization of the converted file (Q4_K_M, Q5_K_M, Q8_0, ...; none: keep it)"
    )
    convert_script: str = option(
        "", "path to llama.cpp's convert_hf_to_gguf.py (default: $LLAMA_CPP_DIR, then uv's cache)"
    )
    dtype: str = option("float32", "dtype for merging the adapters (float32, bfloat16, float16)")
    keep_hf: bool = option(True, "keep the merged Hugging Face folder next to the GGUF")
    keep_unquantized: bool = option(False, "keep the converter's unquantized GGUF after quantizing")
    register: bool = option(True, "add the GGUF to the models registry")


# -- finding the converter ---------------------------------------------------------------------
def uv_cache_dir() -> Path:
    if os.environ.get("UV_CACHE_DIR"):
        return Path(os.environ["UV_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "uv"


def installed_llama_cpp_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("llama-cpp-python")
    except PackageNotFoundError:
        return None


def find_converter(explicit: str = "") -> Path:
    """llama.cpp's convert_hf_to_gguf.py, or TrainingError saying where it was looked for."""
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise TrainingError(f"--convert-script: no such file {path}")
        return path
    if os.environ.get("LLAMA_CPP_DIR"):
        path = Path(os.environ["LLAMA_CPP_DIR"]).expanduser() / CONVERTER
        if path.is_file():
            return path
    version = installed_llama_cpp_version()
    root = uv_cache_dir()
    patterns = [f"sdists-v*/pypi/llama-cpp-python/{version}/*/src/vendor/llama.cpp/{CONVERTER}"] if version else []
    patterns.append(f"sdists-v*/pypi/llama-cpp-python/*/*/src/vendor/llama.cpp/{CONVERTER}")
    for pattern in patterns:
        found = sorted(root.glob(pattern))
        if found:
            return found[-1]
    raise TrainingError(
        f"GGUF conversion needs llama.cpp's {CONVERTER}, found neither in --convert-script, $LLAMA_CPP_DIR "
        f"nor uv's cache ({root}); clone https://github.com/ggml-org/llama.cpp and pass --convert-script"
    )


def _gguf_modules() -> dict[str, object]:
    return {name: module for name, module in sys.modules.items() if name == "gguf" or name.startswith("gguf.")}


@contextlib.contextmanager
def _argv_and_path(argv: list[str], paths: list[Path]):
    """The converter's argv and import path; with llama.cpp's own gguf-py among ``paths``, the
    converter imports that one, even when the runtime's PyPI ``gguf`` (models/gguf_bert.py) is
    already imported here: the two versions differ and the converter needs its own."""
    saved_argv, saved_path = sys.argv[:], sys.path[:]
    saved_gguf = _gguf_modules() if any(path.name == "gguf-py" for path in paths) else {}
    for name in saved_gguf:
        del sys.modules[name]
    sys.argv = argv
    sys.path[:0] = [str(path) for path in paths]
    try:
        yield
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        if saved_gguf:
            for name in _gguf_modules():
                del sys.modules[name]
            sys.modules.update(saved_gguf)


def convert(converter: Path, hf_dir: Path, outfile: Path, outtype: str, extra: tuple[str, ...] = ()) -> Path:
    """Run llama.cpp's converter in this process (torch is already imported here; a second
    interpreter would import it again). ``extra``: more flags (``convert_lora_to_gguf.py --base DIR``)."""
    if outtype not in OUTTYPES:
        raise TrainingError(f"--outtype must be one of {', '.join(OUTTYPES)}")
    llama_cpp_dir = converter.parent
    paths = [llama_cpp_dir] + ([llama_cpp_dir / "gguf-py"] if (llama_cpp_dir / "gguf-py").is_dir() else [])
    argv = [str(converter), str(hf_dir), "--outfile", str(outfile), "--outtype", outtype, *extra]
    with _argv_and_path(argv, paths):
        try:
            if "\ndef main(" not in converter.read_text(encoding="utf-8"):
                runpy.run_path(str(converter), run_name="__main__")  # a script body (convert_lora_to_gguf.py)
            else:
                spec = importlib.util.spec_from_file_location("scholar_tui_convert_hf_to_gguf", converter)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                _sentencepiece_only_when_needed()
                module.main()
        except SystemExit as exit_:
            if exit_.code not in (0, None):
                raise TrainingError(f"{converter.name} failed (exit {exit_.code}); its log is above") from None
        except ModuleNotFoundError as error:
            raise TrainingError(
                f"{converter.name} needs the Python package {error.name!r}: uv pip install {error.name}"
            ) from error
        except Exception as error:
            raise TrainingError(f"{converter.name} failed: {type(error).__name__}: {error}") from error
    if not outfile.is_file():
        raise TrainingError(f"{converter.name} finished without writing {outfile}")
    return outfile


def _sentencepiece_only_when_needed() -> None:
    """Llama and Qwen2 conversions try a SentencePiece vocabulary first and fall back to the Hugging
    Face tokenizer when ``tokenizer.model`` is absent, but the converter imports ``sentencepiece``
    before it looks for that file, so a missing package breaks even tokenizers that do not need it.
    Look for the file first, as the converter means to; with the file present, the import (and its
    error, if the package is missing) happens as before."""
    base = sys.modules.get("conversion.base")
    model_class = getattr(base, "TextModel", None)
    original = getattr(model_class, "_create_vocab_sentencepiece", None)
    if original is None or getattr(original, "_checks_file_first", False):
        return

    def create_vocab_sentencepiece(self):
        if not (Path(self.dir_model) / "tokenizer.model").is_file():
            raise FileNotFoundError(f"File not found: {Path(self.dir_model) / 'tokenizer.model'}")
        return original(self)

    create_vocab_sentencepiece._checks_file_first = True  # type: ignore[attr-defined]
    model_class._create_vocab_sentencepiece = create_vocab_sentencepiece


# -- quantizing and checking ---------------------------------------------------------------------
def quantize(source: Path, target: Path, kind: str) -> Path:
    """llama.cpp's quantizer (llama_model_quantize, compiled into llama-cpp-python)."""
    try:
        import llama_cpp
    except ImportError as error:
        raise TrainingError(f"quantizing needs llama-cpp-python: {error}") from error
    ftype = getattr(llama_cpp, f"LLAMA_FTYPE_MOSTLY_{kind.upper()}", None)
    if ftype is None:
        known = sorted(
            name.removeprefix("LLAMA_FTYPE_MOSTLY_")
            for name in dir(llama_cpp)
            if name.startswith("LLAMA_FTYPE_MOSTLY_")
        )
        raise TrainingError(f"unknown quantization {kind!r}; llama.cpp knows {', '.join(known)}")
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = ftype
    code = llama_cpp.llama_model_quantize(str(source).encode(), str(target).encode(), params)
    if code != 0 or not target.is_file():
        raise TrainingError(f"llama.cpp could not quantize {source.name} to {kind} (code {code})")
    return target


def check_opens(path: Path) -> int:
    """Open the GGUF with llama.cpp (vocabulary only: quick even for big files); its vocabulary size."""
    from llama_cpp import Llama

    try:
        model = Llama(model_path=str(path), vocab_only=True, verbose=False)
    except (ValueError, RuntimeError) as error:
        raise TrainingError(f"llama.cpp cannot open the exported {path.name}: {error}") from error
    size = model.n_vocab()
    model.close()
    return size


# -- the export --------------------------------------------------------------------------------
def default_name(model: str) -> str:
    path = Path(model)
    folder = path.parent if path.name == "final" else path
    return re.sub(r"[^A-Za-z0-9._-]+", "-", folder.name or model).strip("-") or "trained"


def export_name(model: str, name: str) -> str:
    """The name a model is registered (and its GGUF file named) under: ``name`` or the run folder's."""
    name = name or default_name(model)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        raise TrainingError(f"--name {name!r}: use letters, digits, '.', '_' and '-' (it names the GGUF file)")
    return name


def merged_hf_folder(options: ExportOptions, target: Path) -> Path:
    """A plain Hugging Face folder of the model: LoRA adapters merged, or the folder itself."""
    source = Path(options.model).expanduser()
    if (source / "config.json").is_file() and not (source / "adapter_config.json").is_file():
        return source  # already a full model folder: convert it as it is
    import torch

    from scholar_tui.training.runtime import load_model, pick_dtype

    model, tokenizer = load_model(options.model, pick_dtype(options.dtype, torch.device("cpu"), lora=True))
    target.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(target))
    tokenizer.save_pretrained(str(target))
    return target


def export(options: ExportOptions) -> dict[str, Any]:
    from scholar_tui.config.locations import locations
    from scholar_tui.models.registry import ModelEntry, register

    converter = find_converter(options.convert_script)  # fail before the slow merge
    where = locations()
    name = export_name(options.model, options.name)
    output_dir = Path(options.output_dir).expanduser() if options.output_dir else where.models_dir
    output_dir.mkdir(parents=True, exist_ok=True)
    hf_target = output_dir / f"{name}-hf"
    hf_dir = merged_hf_folder(options, hf_target)
    converted = convert(converter, hf_dir, output_dir / f"{name}-{options.outtype}.gguf", options.outtype)
    final = converted
    if options.quantize.lower() != "none":
        final = quantize(converted, output_dir / f"{name}-{options.quantize.upper()}.gguf", options.quantize)
        if not options.keep_unquantized:
            converted.unlink()
    vocabulary = check_opens(final)
    if hf_dir == hf_target and not options.keep_hf:
        shutil.rmtree(hf_target)
    if options.register:
        register(where, ModelEntry(name, "gguf", str(final.resolve()), f"trained from {options.model}"))
    return {
        "name": name,
        "gguf": str(final.resolve()),
        "bytes": final.stat().st_size,
        "vocabulary": vocabulary,
        "hf_folder": str(hf_dir) if hf_dir.exists() else None,
        "converter": str(converter),
        "registered": options.register,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    options = parse_options(ExportOptions, argv, "scholar-tui train export", __doc__.split("\n\n")[0])
    return export(options)


if __name__ == "__main__":
    from scholar_tui.training.cli_entry import run_script

    run_script(main)
