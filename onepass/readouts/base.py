"""The small interface every readout family implements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np

from onepass.backends.base import Read
from onepass.render import Renderer
from onepass.wire import Question


@dataclass
class Plan:
    reads: list[Read]
    # Maps the reads' log-probabilities to (probabilities in the question's order, label mass).
    combine: Callable[[list[np.ndarray]], tuple[np.ndarray, float]]


class Readout(Protocol):
    name: str

    def plan(self, renderer: Renderer, question: Question, temperature: float = 1.0) -> Plan: ...


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = np.asarray(logits, dtype=np.float64) / temperature
    z = np.exp(z - z.max())
    return z / z.sum()
