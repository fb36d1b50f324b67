"""debiased: slot reads averaged over cyclic rotations of the option order, read only when needed.

Auto policy (after the DiffusionGemma decision prototype): read once in a canonical order (options sorted
by name, so the request's own order cannot matter; `order="given"` starts from the request's order
instead); when the label distribution's normalised entropy H(p)/log(n) exceeds `entropy_threshold`, read
again under evenly spaced cyclic rotations (at most `max_reads` reads in all) and combine. Rotations put every option in other
positions, so a positional (letter) prior is averaged out; reads are combined by averaging label
log-probabilities (a geometric mean), which cancels a multiplicative position prior exactly when all n
rotations are read. Reports x_reads and x_agreement (share of reads whose argmax is the final answer).
Yes/no and score questions are read once, as slot: their labels carry meaning (Yes/No, level digits).
Label mass: the mean over reads of the mass on the offered labels.
A label a remote engine did not return (NaN) is left out of its read: an option is averaged over the reads
that have its label (a stand-in log-probability would zero the geometric mean), and an option no read has
is left out (probability 0, reported in Outcome.excluded).
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Read
from onepass.readouts.base import Outcome, Plan, excluded_scores, present
from onepass.readouts.slot import SlotReadout
from onepass.render import Renderer
from onepass.wire import ChoiceQuestion, Question


class DebiasedReadout:
    name = "debiased"

    def __init__(self, max_reads: int = 4, entropy_threshold: float = 0.5, order: str = "canonical"):
        if order not in ("canonical", "given"):
            raise ValueError("order must be 'canonical' or 'given'")
        self.order = order
        if max_reads < 1:
            raise ValueError("max_reads must be at least 1")
        if not 0.0 <= entropy_threshold <= 1.0:
            raise ValueError("entropy_threshold is a normalised entropy in [0, 1]")
        self.max_reads = max_reads
        self.entropy_threshold = entropy_threshold

    def plan(self, renderer: Renderer, question: Question) -> Plan:
        if not isinstance(question, ChoiceQuestion):
            plan = SlotReadout().plan(renderer, question)
            first = plan.combine
            plan.combine = lambda r, c: _with_reads(first(r, c), 1, 1.0)
            return plan
        n = len(question.criteria)
        names = list(question.criteria)
        base = sorted(range(n), key=names.__getitem__) if self.order == "canonical" else list(range(n))
        rotations = sorted({(j * n) // min(self.max_reads, n) for j in range(min(self.max_reads, n))})

        def read(shift: int) -> Read:
            order = [base[(shift + k) % n] for k in range(n)]
            rendered = renderer.question(question, order)
            return Read(rendered.suffix, rendered.label_ids)

        def outcome(logprobs: list[np.ndarray]) -> Outcome:
            lp = np.stack(logprobs).astype(np.float64)
            ok = present(lp)
            if ok.all():
                scores = lp.mean(axis=0)
            else:  # each option over the reads that returned its label
                counts = ok.sum(axis=0)
                scores = np.where(counts > 0, np.where(ok, lp, 0.0).sum(axis=0) / np.maximum(counts, 1), np.nan)
            scores, excluded = excluded_scores(scores)
            best = int(np.argmax(scores))
            rows = [np.where(k, row, -np.inf) for row, k in zip(lp, ok) if k.any()]
            agreement = float(np.mean([int(np.argmax(row)) == best for row in rows])) if rows else 0.0
            mass = float(np.where(ok, np.exp(lp), 0.0).sum(axis=1).mean())
            return _with_reads(Outcome(scores, mass, raw=list(logprobs), excluded=excluded), len(logprobs), agreement)

        first_read = read(rotations[0])

        def followup(first: Outcome) -> Plan | None:
            p = first.probs()  # the policy looks at the uncalibrated read
            entropy = -float(np.sum(p * np.log(np.clip(p, 1e-300, None)))) / np.log(n)
            if entropy <= self.entropy_threshold or len(rotations) == 1:
                return None
            more = [read(shift) for shift in rotations[1:]]
            return Plan(reads=more, combine=lambda r, _c: outcome([*first.raw, *r]))

        return Plan(reads=[first_read], combine=lambda r, _c: outcome(r), followup=followup)


def _with_reads(outcome: Outcome, reads: int, agreement: float) -> Outcome:
    outcome.extras.update({"x_reads": reads, "x_agreement": agreement})
    return outcome
