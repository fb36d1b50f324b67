"""isolated: each option judged alone ("is this the right answer?"), no other option visible.

Option i's evidence is its yes/no log-odds; the choice distribution is their softmax. Order invariant by
construction: an option's read never sees the others. Score levels are read the same way; a yes/no
question is its own single read (as slot). Label mass: the mean over reads of P(Yes) + P(No).
An option whose Yes or No a remote engine did not return has no log-odds: it is left out (probability 0,
reported in Outcome.excluded) instead of getting +-9999 from a stand-in log-probability.
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Read
from onepass.readouts.base import Outcome, Plan, excluded_scores, present
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
            lp = np.stack(logprobs).astype(np.float64)  # (options, [yes, no]); NaN: not returned
            scores, excluded = excluded_scores(lp[:, 0] - lp[:, 1])
            mass = float(np.where(present(lp), np.exp(lp), 0.0).sum(axis=1).mean())
            return Outcome(scores, mass, excluded=excluded)

        return Plan(reads=reads, combine=combine)
