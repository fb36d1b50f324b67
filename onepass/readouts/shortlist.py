"""shortlist: two-stage choice for many options. A first pass over all options shortlists the k most
probable; a second family then reranks only those, with a prompt that lists just the shortlist. The first
pass is a slot read (options listed sorted by name, so the request's order cannot matter) or the likelihood
family; the rerank is likelihood or isolated (`--shortlist-first`, `--shortlist-rerank`). Options outside
the shortlist keep their first-pass probability; the shortlist shares the first pass's mass on it in
proportion to the rerank:

    p(o) = p1(o)                              o not shortlisted
    p(o) = (sum of p1 over the shortlist) * q(o)   o shortlisted, q = the rerank's distribution over it

so the answer stays a distribution over every option and no option gains mass it never had. Ties in the
first pass go by name, so any permutation of the options gives the same shortlist. Choices with at most k
options, yes/no and score questions are read by the rerank family alone. Reports x_shortlist (the reranked
options, in the question's order). Label mass: the first pass's label mass.
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Read
from onepass.readouts.base import Outcome, Plan, softmax
from onepass.readouts.isolated import IsolatedReadout
from onepass.readouts.likelihood import LikelihoodReadout
from onepass.readouts.slot import label_outcome
from onepass.render import Renderer
from onepass.wire import ChoiceQuestion, Question


class ShortlistReadout:
    name = "shortlist"
    FIRST = ("slot", "likelihood")
    RERANK = ("likelihood", "isolated")

    def __init__(self, k: int = 8, normalise: str = "mean", first: str = "likelihood", rerank: str = "likelihood"):
        if k < 2:
            raise ValueError("k (the shortlist size) must be at least 2")
        if first not in self.FIRST or rerank not in self.RERANK:
            raise ValueError(f"first must be one of {self.FIRST} and rerank one of {self.RERANK}")
        self.k, self.first = k, first
        self.likelihood = LikelihoodReadout(normalise)
        self.rerank = self.likelihood if rerank == "likelihood" else IsolatedReadout()

    def plan(self, renderer: Renderer, question: Question) -> Plan:
        if not isinstance(question, ChoiceQuestion) or len(question.criteria) <= self.k:
            plan = self.rerank.plan(renderer, question)
            names = list(question.criteria) if isinstance(question, ChoiceQuestion) else None
            inner = plan.combine
            plan.combine = lambda r, c: _extras(inner(r, c), names, self.k)
            return plan
        names = list(question.criteria)

        def followup(first: Outcome) -> Plan:
            p1 = first.probs()  # uncalibrated: the shortlist depends on the model, not on a profile
            top = sorted(range(len(names)), key=lambda i: (-p1[i], names[i]))[: self.k]
            chosen = sorted(top)
            reduced = question.model_copy(update={"criteria": {names[i]: question.criteria[names[i]] for i in chosen}})
            second = self.rerank.plan(renderer, reduced)

            def combine(r, c) -> Outcome:
                reranked = second.combine(r, c)
                probs = p1.copy()
                probs[chosen] = p1[chosen].sum() * softmax(reranked.scores)
                scores = np.log(np.clip(probs, 1e-300, None))
                scores[probs == 0] = -np.inf
                return _extras(Outcome(scores, first.label_mass, dict(reranked.extras), excluded=first.excluded),
                               [names[i] for i in chosen], self.k)

            return Plan(reads=second.reads, continuations=second.continuations, combine=combine)

        if self.first == "likelihood":  # it lists the options sorted by name itself
            plan = self.likelihood.plan(renderer, question)
            plan.followup = followup
            return plan
        canonical = sorted(range(len(names)), key=names.__getitem__)
        rendered = renderer.question(question, canonical)
        return Plan(reads=[Read(rendered.suffix, rendered.label_ids)], combine=lambda r, _c: label_outcome(r[0]),
                    followup=followup)


def _extras(outcome: Outcome, shortlist: list[str] | None, k: int) -> Outcome:
    if shortlist is not None:
        outcome.extras.update({"x_shortlist": shortlist, "x_shortlist_k": k})
    return outcome
