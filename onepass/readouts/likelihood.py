"""likelihood: the log-probability of each option's own text (all of its tokens) as the answer.

One shared prefill, the question context run once on top of it, then one batched pass over every option's
tokens. `normalise="mean"` (the default) divides each option's log-probability by its token count, so a
long option is not penalised for its length; "sum" keeps the total. On the default model mean was the more
accurate of the two (0.717 vs 0.683 on 60 choice items; docs/readouts.md).
Label mass: the total probability of the offered answers' full token sequences, P(option 1) + ... + P(option n).
An option with a token a remote engine did not return (NaN) has no likelihood: it is left out (probability 0,
reported in Outcome.excluded) and adds nothing to the mass.
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Continuation
from onepass.readouts.base import Outcome, Plan, excluded_scores, present
from onepass.render import Renderer
from onepass.wire import ChoiceQuestion, Question


class LikelihoodReadout:
    name = "likelihood"

    def __init__(self, normalise: str = "mean"):
        if normalise not in ("sum", "mean"):
            raise ValueError("normalise must be 'sum' or 'mean'")
        self.normalise = normalise

    def plan(self, renderer: Renderer, question: Question) -> Plan:
        context, options = renderer.likelihood(question)
        # Score choice options sorted by name (as the prompt lists them), so reordered copies of a
        # question are the same work and are computed once; results go back to the question's order.
        names = list(question.criteria) if isinstance(question, ChoiceQuestion) else []
        order = sorted(range(len(options)), key=names.__getitem__) if names else list(range(len(options)))
        back = np.argsort(order)

        def combine(_r, continuations: list[list[np.ndarray]]) -> Outcome:
            per_token = [continuations[0][k] for k in back]
            totals = np.array([float(t.sum()) for t in per_token])
            scores = totals / np.array([len(t) for t in per_token]) if self.normalise == "mean" else totals
            scores, excluded = excluded_scores(scores)
            return Outcome(scores, float(np.exp(totals[present(totals)]).sum()),
                           {"x_likelihood_normalise": self.normalise}, excluded=excluded)

        return Plan(continuations=[Continuation(context, [options[i] for i in order])], combine=combine)
