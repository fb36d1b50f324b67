"""slot: one read at the answer position; the labels' log-probabilities, renormalised over the labels.

Label mass: the probability the model put on the offered labels (Yes/No, option letters, level digits)
before renormalising. A label a remote engine did not return (NaN) is left out: probability 0, not counted
in the mass, and reported in Outcome.excluded.
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Read
from onepass.readouts.base import Outcome, Plan, excluded_scores, present
from onepass.render import Renderer
from onepass.wire import Question


def label_outcome(lp: np.ndarray) -> Outcome:
    lp = np.asarray(lp, dtype=np.float64)
    scores, excluded = excluded_scores(lp)
    return Outcome(scores, float(np.exp(lp[present(lp)]).sum()), excluded=excluded)


class SlotReadout:
    name = "slot"

    def plan(self, renderer: Renderer, question: Question) -> Plan:
        rendered = renderer.question(question)
        return Plan(reads=[Read(rendered.suffix, rendered.label_ids)], combine=lambda reads, _c: label_outcome(reads[0]))
