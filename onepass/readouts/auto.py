"""auto: each question read by the family that measured best for its type on the served model.

The policy comes from the model's profile (`readout_policy`, written from the measured tables: the
leave-one-domain-out table in docs/calibration.md per question type, the many-options table in
docs/readouts.md per option count). Its keys are a question type ("noul", "choice", "score") or
"choice@N": choices with at least N options (the largest such N that applies wins, so a 151-way router
can get another family than a 4-way choice). A question the policy does not name, or whose family this
engine cannot serve (the head without a head loaded), is read with slot. Every answer reports the family
that actually read it in `x_readout` and `x_readout_policy: "auto"`, and is calibrated with that family's
temperatures. A delegate's plan is returned whole, so follow-up reads and the head's features work as
they do when the family is asked for by name.
"""

from __future__ import annotations

from onepass.readouts.base import Outcome, Plan
from onepass.render import Renderer
from onepass.wire import MAX_OPTIONS, Question

FALLBACK = "slot"
MIN_OPTIONS = 2  # a choice has at least two options (the wire contract); MAX_OPTIONS is its maximum


def policy_key_error(key: object) -> str | None:
    """Why `key` is not a policy key, or None: a question type, or choice@N with N an option count."""
    if key in ("noul", "choice", "score"):
        return None
    if isinstance(key, str) and key.startswith("choice@") and key[7:].isdigit() and MIN_OPTIONS <= int(key[7:]) <= MAX_OPTIONS:
        return None
    return (f"readout_policy key {key!r} is neither a question type (noul, choice, score) nor choice@N with N "
            f"from {MIN_OPTIONS} to {MAX_OPTIONS} (choices with at least N options)")


def question_type(key: str) -> str:
    """The question type a policy key is about ("choice@100" -> "choice")."""
    return key.split("@", 1)[0]


def policy_family(policy: dict[str, str], question: Question) -> str:
    """The family the policy names for this question: for a choice, the entry for the largest N <= its
    option count if any, else its type's entry; slot when the policy names none."""
    if question.type == "choice":
        n = len(question.criteria)
        counts = [int(k[7:]) for k in policy if k.startswith("choice@") and int(k[7:]) <= n]
        if counts:
            return policy[f"choice@{max(counts)}"]
    return policy.get(question.type, FALLBACK)


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
        return policy_family(self.policy, question)

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
