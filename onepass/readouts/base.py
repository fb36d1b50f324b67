"""The small interface every readout family implements.

A readout turns one question into a Plan: next-token reads and/or continuation scorings for the backend,
plus `combine`, which maps their log-probabilities to an Outcome. A family that wants more evidence after
seeing the first result (debiased's auto policy) returns a follow-up Plan from `followup`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np

from onepass.backends.base import Continuation, Read
from onepass.render import Renderer
from onepass.wire import Question


@dataclass
class Outcome:
    scores: np.ndarray  # label logits in the question's own option/level order (before any temperature)
    label_mass: float
    extras: dict = field(default_factory=dict)  # x_ fields this family reports
    raw: list = field(default_factory=list, repr=False)  # the reads' log-probabilities, for a follow-up
    # Options (indices, question order) with no evidence: every label that would score them was missing
    # from a remote engine's answer. Their score is -inf (probability 0); the engine reports them.
    excluded: list[int] = field(default_factory=list)

    def probs(self, temperature: float = 1.0) -> np.ndarray:
        """The answer distribution; calibration divides the label logits by a fitted temperature."""
        return softmax(self.scores, temperature)


@dataclass
class Plan:
    reads: list[Read] = field(default_factory=list)
    continuations: list[Continuation] = field(default_factory=list)
    # Reads whose hidden state is wanted too (the head family): combine then gets a third argument, one
    # (label log-probs, hidden state) pair per feature read (Backend.features).
    features: list[Read] = field(default_factory=list)
    # (read log-probs, continuation log-probs[, features]) -> Outcome
    combine: Callable[[list[np.ndarray], list[list[np.ndarray]]], Outcome] = None  # type: ignore[assignment]
    # Called with the Outcome; returns another Plan whose combine gives the final Outcome, or None.
    followup: Callable[[Outcome], "Plan | None"] | None = None
    # Reads another model answers (an adapter's LoRA weights over the base): (prefix, reads) -> what
    # Backend.logprobs would give. Such a plan's reads stay out of the shared backend call.
    runner: Callable[[list[int], list[Read]], list[np.ndarray]] | None = None


class Readout(Protocol):
    name: str

    def plan(self, renderer: Renderer, question: Question) -> Plan: ...


def present(values: np.ndarray) -> np.ndarray:
    """Which entries have a number: a label a remote engine did not return is NaN, never a stand-in."""
    return ~np.isnan(np.asarray(values, dtype=np.float64))


def excluded_scores(scores: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """(scores with NaN entries at -inf, so they get probability 0 and leave the others untouched, their indices)."""
    scores = np.asarray(scores, dtype=np.float64)
    gone = np.isnan(scores)
    if not gone.any():
        return scores, []
    return np.where(gone, -np.inf, scores), [int(i) for i in np.flatnonzero(gone)]


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = np.asarray(logits, dtype=np.float64) / temperature
    z = np.exp(z - z.max())
    return z / z.sum()
