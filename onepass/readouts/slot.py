"""slot: one read at the answer position; the labels' log-probabilities, renormalised over the labels.

Label mass is the probability the model put on the allowed labels before renormalising.
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Read
from onepass.readouts.base import Plan, softmax
from onepass.render import Renderer
from onepass.wire import Question


class SlotReadout:
    name = "slot"

    def plan(self, renderer: Renderer, question: Question, temperature: float = 1.0) -> Plan:
        rendered = renderer.question(question)

        def combine(logprobs: list[np.ndarray]) -> tuple[np.ndarray, float]:
            (lp,) = logprobs
            return softmax(lp, temperature), float(np.exp(lp).sum())

        return Plan([Read(rendered.suffix, rendered.label_ids)], combine)
