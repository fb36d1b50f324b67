"""The embedded engine's memory budget: one number of bytes for everything a request makes it hold beyond
the weights (cached prefixes, the KV-cache copies, activations, attention scores, masks and kept logits of
each forward pass). Passes are estimated from the model's shape before anything is allocated: batches are
cut to fit, and a request whose smallest pass cannot fit is refused with a 413 that says what to shrink.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass

from onepass.errors import APIError

__all__ = ["MemoryBudget", "Shape", "default_budget", "return_freed_memory", "MemoryTrim"]


def return_freed_memory() -> None:
    """Make glibc hand freed memory back and keep it from scattering. Its mmap threshold otherwise grows to the
    size of the largest block freed so far, so after one long prefill every activation of that size comes
    from a heap that is never trimmed, and resident memory stays at its high-water mark: a fixed 1 MiB
    threshold keeps each big tensor in its own mapping, released when freed. And each thread that allocates
    (workers, the batcher, the event loop) would get an arena of its own, up to 8 per core, each keeping its
    own free fragments: two arenas bound that (docs/operations.md, soak). No effect off glibc."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-3, 1 << 20)  # M_MMAP_THRESHOLD
        libc.mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):
        pass


class MemoryTrim:
    """Hands the free pages inside glibc's heaps back to the system (malloc_trim) as requests leave the
    engine, at most once per `every_s`. Freed small blocks otherwise stay resident, scattered between live
    ones, and resident memory creeps up in steps whenever traffic reaches a new mix of sizes
    (docs/operations.md, soak). A trim takes milliseconds on the thread of a request that has finished its
    model work; a trim already running is never waited for. No-op off glibc."""

    def __init__(self, every_s: float = 2.0):
        import ctypes
        import ctypes.util

        self.every_s = every_s
        self._last = 0.0
        self._lock = threading.Lock()
        try:
            self._trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
        except (OSError, AttributeError):
            self._trim = None

    def __call__(self) -> None:
        if self._trim is None or not self._lock.acquire(blocking=False):
            return
        try:
            now = time.monotonic()
            if now - self._last >= self.every_s:
                self._last = now
                self._trim(0)
        finally:
            self._lock.release()


def default_budget(device: str = "cpu") -> int:
    """Half of the memory free now (after the weights are loaded): on a GPU its free memory, else the
    machine's available RAM (cgroup limits are ignored; set --memory-budget where they apply)."""
    if device.startswith("cuda"):
        import torch

        free, _total = torch.cuda.mem_get_info()
        return int(free * 0.5)
    try:
        with open("/proc/meminfo") as f:
            info = {line.split(":")[0]: int(line.split()[1]) * 1024 for line in f}
        return int(info["MemAvailable"] * 0.5)
    except (OSError, KeyError, ValueError):
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") * 0.25)


@dataclass(frozen=True)
class Shape:
    """What one token costs in a model, in bytes."""

    kv_per_token: int  # keys and values of every layer
    hidden: int  # one hidden state
    intermediate: int  # the MLP's widest activation
    heads: int
    vocab: int
    itemsize: int

    @classmethod
    def of(cls, config, itemsize: int) -> "Shape":
        heads = int(config.num_attention_heads)
        head_dim = int(getattr(config, "head_dim", None) or config.hidden_size // heads)
        kv_heads = int(getattr(config, "num_key_value_heads", None) or heads)
        return cls(kv_per_token=int(config.num_hidden_layers) * 2 * kv_heads * head_dim * itemsize,
                   hidden=int(config.hidden_size) * itemsize,
                   intermediate=int(getattr(config, "intermediate_size", 4 * config.hidden_size)) * itemsize,
                   heads=heads, vocab=int(config.vocab_size), itemsize=itemsize)


class MemoryBudget:
    """The budget in bytes, and estimates of what cached prefixes and forward passes take from it."""

    def __init__(self, shape: Shape, budget: int):
        if budget < 1:
            raise ValueError(f"the memory budget must be at least 1 byte, got {budget}")
        self.shape = shape
        self.budget = budget

    def cache_bytes(self, tokens: int) -> int:
        """A KV cache of `tokens` positions (a cached prefix, or one copy of it)."""
        return tokens * self.shape.kv_per_token

    def pass_bytes(self, rows: int, new: int, seen: int, kept: int, cache_copy: bool = True) -> int:
        """One forward pass: `rows` rows of `new` tokens each attending to `seen` positions (cache plus new),
        keeping `kept` logit rows. Counts the KV copy the pass writes into, one layer's activations at a
        time (hidden states, MLP intermediates: 3 live at once), attention scores in float32 (math path),
        an additive mask, and the kept logits in the model dtype plus their float32 copy."""
        s = self.shape
        kv = rows * seen * s.kv_per_token if cache_copy else 0
        activations = rows * new * (4 * s.hidden + 3 * s.intermediate)
        scores = rows * s.heads * new * seen * 4
        mask = rows * new * seen * s.itemsize
        logits = kept * s.vocab * (s.itemsize + 4)
        return kv + activations + scores + mask + logits

    def refuse(self, needed: int, what: str, held: int = 0) -> APIError:
        return APIError(
            413, "memory_budget_exceeded",
            f"{what} needs about {_gib(needed)} of working memory; this server's memory budget is {_gib(self.budget)}"
            + (f" ({_gib(held)} of it holds cached states)" if held else "")
            + ". Shorten the state or the question text, use fewer options, or ask the operator for a larger "
            "--memory-budget.")


def _gib(n: int) -> str:
    return f"{n / 2**30:.2f} GiB" if n >= 2**27 else f"{n / 2**20:.1f} MiB"
