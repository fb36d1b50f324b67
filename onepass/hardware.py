"""What the machine offers: the device and the number format a model is served in.

`--device auto` takes a CUDA GPU when torch sees one, else the CPU. `--dtype auto` takes bfloat16 where the
processor multiplies bf16 matrices natively (CUDA GPUs that support it; x86 CPUs with AMX-BF16 or
AVX-512 BF16), else float32: on a CPU without those units bf16 is emulated and slower than float32.
Each choice comes with the reason, which `onepass serve` prints and /v1/models reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEVICES = ("auto", "cpu", "cuda")
# int8: float32 weights quantised to int8 per output channel in every Linear but the vocabulary projection,
# activations quantised per pass (torch dynamic quantisation; fbgemm AVX2 / AVX-512 kernels): about half
# the float32 time and memory on a CPU without bf16 units (docs/throughput.md).
DTYPES = ("auto", "float32", "bfloat16", "float16", "int8")
# CPU flags (Linux /proc/cpuinfo names) of native bf16 matrix units.
BF16_CPU_FLAGS = ("amx_bf16", "avx512_bf16")


@dataclass(frozen=True)
class Choice:
    value: str
    reason: str


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    """The first processor's feature flags; empty where /proc/cpuinfo does not exist (not Linux)."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return set()
    for line in text.splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def choose_device(requested: str = "auto") -> Choice:
    import torch

    if requested not in DEVICES and not requested.startswith("cuda:"):
        raise ValueError(f"unknown device {requested!r}; choose one of {list(DEVICES)} or cuda:N")
    if requested != "auto":
        if requested.startswith("cuda") and not torch.cuda.is_available():
            raise ValueError(f"device {requested!r} was asked for but torch sees no CUDA GPU; use --device cpu or auto")
        return Choice(requested, "asked for")
    if torch.cuda.is_available():
        return Choice("cuda", f"torch sees a CUDA GPU ({torch.cuda.get_device_name(0)})")
    return Choice("cpu", "torch sees no CUDA GPU")


def choose_dtype(requested: str, device: str, flags: set[str] | None = None) -> Choice:
    import torch

    if requested not in DTYPES:
        raise ValueError(f"unknown dtype {requested!r}; choose one of {list(DTYPES)}")
    if requested != "auto":
        if requested == "int8" and device != "cpu":
            raise ValueError("dtype int8 (dynamic quantisation) runs on the CPU only; use --device cpu or another dtype")
        return Choice(requested, "asked for")
    if device.startswith("cuda"):
        if torch.cuda.is_bf16_supported():
            return Choice("bfloat16", "the GPU multiplies bf16 natively")
        return Choice("float32", "the GPU has no native bf16")
    flags = cpu_flags() if flags is None else flags
    native = [f for f in BF16_CPU_FLAGS if f in flags]
    if native:
        return Choice("bfloat16", f"the CPU multiplies bf16 natively ({', '.join(native)})")
    return Choice("float32", "the CPU has no native bf16 matrix unit (no amx_bf16 / avx512_bf16), so bf16 would be emulated")
