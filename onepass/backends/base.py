"""The narrow questions every backend answers, so readouts never care where logits come from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


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


class Backend(Protocol):
    name: str
    max_context: int

    def logprobs(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        """Full-vocabulary log-probabilities of each read's token ids at the position after its suffix.

        The prefix is shared by every read (prefilled once); results come back in the order of `reads`
        and must not depend on which other reads are in the call, beyond float noise.
        """
        ...


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
    return [[np.array(tokens) for tokens in per_item] for per_item in out]


def continuation_logprobs(backend: Backend, prefix: list[int], items: list[Continuation]) -> list[list[np.ndarray]]:
    """Use the backend's own continuation scoring when it has one, else the generic read-based one."""
    native = getattr(backend, "continuations", None)
    if native is not None:
        return native(prefix, items)
    return continuations_via_reads(backend, prefix, items)
