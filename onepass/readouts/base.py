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

    def probs(self, temperature: float = 1.0) -> np.ndarray:
        """The answer distribution; calibration divides the label logits by a fitted temperature."""
        return softmax(self.scores, temperature)


@dataclass
class Plan:
    reads: list[Read] = field(default_factory=list)
    continuations: list[Continuation] = field(default_factory=list)
    # (read log-probs, continuation log-probs) -> Outcome
    combine: Callable[[list[np.ndarray], list[list[np.ndarray]]], Outcome] = None  # type: ignore[assignment]
    # Called with the Outcome; returns another Plan whose combine gives the final Outcome, or None.
    followup: Callable[[Outcome], "Plan | None"] | None = None


class Readout(Protocol):
    name: str

    def plan(self, renderer: Renderer, question: Question) -> Plan: ...


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = np.asarray(logits, dtype=np.float64) / temperature
    z = np.exp(z - z.max())
    return z / z.sum()
