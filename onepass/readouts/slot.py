"""slot: one read at the answer position; the labels' log-probabilities, renormalised over the labels.

Label mass: the probability the model put on the offered labels (Yes/No, option letters, level digits)
before renormalising.
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Read
from onepass.readouts.base import Outcome, Plan
from onepass.render import Renderer
from onepass.wire import Question


def label_outcome(lp: np.ndarray) -> Outcome:
    return Outcome(np.asarray(lp, dtype=np.float64), float(np.exp(lp).sum()))


class SlotReadout:
    name = "slot"

    def plan(self, renderer: Renderer, question: Question) -> Plan:
        rendered = renderer.question(question)
        return Plan(reads=[Read(rendered.suffix, rendered.label_ids)], combine=lambda reads, _c: label_outcome(reads[0]))
