"""isolated: each option judged alone ("is this the right answer?"), no other option visible.

Option i's evidence is its yes/no log-odds; the choice distribution is their softmax. Order invariant by
construction: an option's read never sees the others. Score levels are read the same way; a yes/no
question is its own single read (as slot). Label mass: the mean over reads of P(Yes) + P(No).
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Read
from onepass.readouts.base import Outcome, Plan
from onepass.readouts.slot import SlotReadout
from onepass.render import Renderer
from onepass.wire import NoulQuestion, Question


class IsolatedReadout:
    name = "isolated"

    def plan(self, renderer: Renderer, question: Question) -> Plan:
        if isinstance(question, NoulQuestion):
            return SlotReadout().plan(renderer, question)
        reads = [Read(suffix, renderer.yes_no) for suffix in renderer.isolated(question)]

        def combine(logprobs: list[np.ndarray], _c) -> Outcome:
            lp = np.stack(logprobs)  # (options, [yes, no])
            log_odds = lp[:, 0] - lp[:, 1]
            return Outcome(log_odds, float(np.exp(lp).sum(axis=1).mean()))

        return Plan(reads=reads, combine=combine)
