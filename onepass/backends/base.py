"""The contract between the engine and a backend: what it can do (declared, never probed) and the two
questions it answers, so readouts never care where logits come from.

A backend subclasses `Backend` (a typing Protocol with default methods), sets `name`, `max_context` and
`capabilities` when it is built, and implements `logprobs`; it overrides `continuations` when it scores
option continuations natively and `expecting` when it gathers concurrent requests into shared passes.
Labels an engine did not return are NaN in the arrays it gives back: every readout leaves NaN out and
flags the label (`x_missing_labels`), so no sentinel value ever reaches the arithmetic.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import ContextManager, Protocol

import numpy as np

__all__ = ["Backend", "Capabilities", "Continuation", "Read", "continuations_via_reads"]


@dataclass(frozen=True)
class Read:
    """One next-token read: after `prefix + suffix`, the log-probabilities of `token_ids`."""

    suffix: list[int]
    token_ids: list[int]


@dataclass(frozen=True)
class Continuation:
    """After `prefix + context`, the log-probability of every token of each option's own token sequence."""

    context: list[int]
    options: list[list[int]]


@dataclass(frozen=True)
class Capabilities:
    """What a backend can do, fixed when it is built."""

    reentrant: bool = False  # several threads may call it at once (else the engine serialises requests)
    batches_requests: bool = False  # gathers concurrent requests' reads into shared passes (`expecting`)
    native_continuations: bool = False  # scores option continuations itself (else one read per token)
    may_miss_labels: bool = False  # may leave asked labels out (a remote engine's top-k): NaN for each
    hidden_states: bool = False  # hands out the final hidden state at a read's answer position (`features`)


class Backend(Protocol):
    name: str
    max_context: int  # longest prefix + suffix one read may take, known once the backend is built
    capabilities: Capabilities

    def logprobs(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        """Log-probabilities (float64, normalised over the full vocabulary) of each read's token ids at the
        position after its suffix; NaN for a label the engine did not return.

        The prefix is shared by every read (prefilled once); results come back in the order of `reads`
        and must not depend on which other reads are in the call, beyond float noise.
        """
        ...

    def continuations(self, prefix: list[int], items: list[Continuation]) -> list[list[np.ndarray]]:
        """Per item, one array per option of its tokens' log-probabilities (NaN where not returned)."""
        return continuations_via_reads(self, prefix, items)

    def features(self, prefix: list[int], reads: list[Read]) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per read: its label log-probabilities (as `logprobs`) and the model's final hidden state (after
        the last norm, float64) at the answer position: what a learned head reads (readouts/head.py).
        Only backends that declare `capabilities.hidden_states` answer it; the engine checks first."""
        raise NotImplementedError(f"backend {self.name} does not hand out hidden states")

    def expecting(self) -> ContextManager:
        """Held while a request is in flight: a batching backend waits for companions only then."""
        return contextlib.nullcontext()


def continuations_via_reads(backend: Backend, prefix: list[int], items: list[Continuation]) -> list[list[np.ndarray]]:
    """Per-token log-probabilities of continuations, for a backend that only answers next-token reads:
    token j of an option is one read after `context + option[:j]` (an engine's prefix cache keeps the
    shared part cheap). Returns, per item, one array of per-token log-probabilities per option."""
    reads, index = [], []
    for i, item in enumerate(items):
        for k, option in enumerate(item.options):
            for j, token in enumerate(option):
                index.append((i, k))
                reads.append(Read(item.context + option[:j], [token]))
    flat = backend.logprobs(prefix, reads) if reads else []
    out: list[list[list[float]]] = [[[] for _ in item.options] for item in items]
    for (i, k), lp in zip(index, flat):
        out[i][k].append(float(lp[0]))
    return [[np.array(tokens, dtype=np.float64) for tokens in per_item] for per_item in out]
