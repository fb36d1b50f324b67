"""auto: each question read by the family that measured best for its type on the served model.

The policy (question type -> family) comes from the model's profile (`readout_policy`, written from the
leave-one-domain-out table in docs/calibration.md); a type the policy does not name, or whose family this
engine cannot serve (the head without a head loaded), is read with slot. Every answer reports the family
that actually read it in `x_readout` and `x_readout_policy: "auto"`, and is calibrated with that family's
temperatures. A delegate's plan is returned whole, so follow-up reads and the head's features work as
they do when the family is asked for by name.
"""

from __future__ import annotations

from onepass.readouts.base import Outcome, Plan
from onepass.render import Renderer
from onepass.wire import Question

FALLBACK = "slot"


class AutoReadout:
    name = "auto"

    def __init__(self):
        self.policy: dict[str, str] = {}  # question type -> family (public: part of the scores-cache key)
        self._families: dict = {}

    def bind(self, families: dict, policy: dict[str, str]) -> None:
        """The engine's readout instances, and the policy cut to the families this engine can serve."""
        self._families = families
        self.policy = dict(sorted(policy.items()))

    def family(self, question: Question) -> str:
        return self.policy.get(question.type, FALLBACK)

    def plan(self, renderer: Renderer, question: Question) -> Plan:
        family = self.family(question)
        plan = self._families[family].plan(renderer, question)
        inner, inner_followup = plan.combine, plan.followup

        def tag(outcome: Outcome) -> Outcome:
            outcome.extras.update({"x_readout": family, "x_readout_policy": "auto"})
            return outcome

        plan.combine = lambda *parts: tag(inner(*parts))
        if inner_followup is not None:
            def followup(outcome: Outcome) -> Plan | None:
                nxt = inner_followup(outcome)
                if nxt is not None:
                    combine = nxt.combine
                    nxt.combine = lambda *parts: tag(combine(*parts))
                return nxt

            plan.followup = followup
        return plan
