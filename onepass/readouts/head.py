"""head: a learned head (onepass/learn/head.py) on the model's hidden state at Yes/No answer positions.

A yes/no question is its slot read; a choice option or score level is its isolated read ("is this the
right answer?", no other option visible, so the answer does not depend on option order). The backend
hands back each read's label log-probabilities and final hidden state (`Backend.features`), and the head
scores every read; the answer is sigmoid (yes/no) or the softmax over options. Label mass: the mean over
reads of P(Yes) + P(No), as isolated reports it. Served only with a head loaded (`--head PATH`) and by a
backend that hands out hidden states (the embedded one); the engine refuses other requests first.
"""

from __future__ import annotations

import numpy as np

from onepass.backends.base import Read
from onepass.errors import RequestInvalid
from onepass.learn.head import Head
from onepass.readouts.base import Outcome, Plan
from onepass.render import Renderer
from onepass.wire import NoulQuestion, Question


def feature_reads(renderer: Renderer, question: Question) -> list[Read]:
    """The reads a head scores: a yes/no question's slot read, else one isolated read per option/level."""
    suffixes = [renderer.question(question).suffix] if isinstance(question, NoulQuestion) else renderer.isolated(question)
    return [Read(suffix, renderer.yes_no) for suffix in suffixes]


class HeadReadout:
    name = "head"

    def __init__(self, path: str | None = None):
        self.path = path
        self._head = Head.load(path) if path else None
        self.head_id = self._head.id if self._head else None  # part of the scores-cache key

    @property
    def head(self) -> Head | None:
        return self._head

    def refusal(self, question: Question) -> str | None:
        """Why this question cannot be answered with the loaded head, or None."""
        if self._head is None:
            return ("readout 'head' needs a learned head: start the server with --head PATH (fit one with "
                    "`onepass tune --data labelled.jsonl --out head.safetensors`)")
        if question.type not in self._head.types:
            return (f"the head {self.path} was fitted for {sorted(self._head.types)} questions, not {question.type}: "
                    "choose another x_readout for it, or refit the head with labelled items of that type")
        return None

    def check(self, questions: dict[str, Question]) -> None:
        """A 422 for a request this head cannot answer: no head loaded, or a type it was not fitted for."""
        errors = [{"loc": ["body", "x_readout"] if self._head is None else ["body", "questions", qid, "type"],
                   "type": "value_error", "msg": why}
                  for qid, question in questions.items() if (why := self.refusal(question))]
        if errors:
            raise RequestInvalid(errors[:1] if self._head is None else errors)

    def plan(self, renderer: Renderer, question: Question) -> Plan:
        head = self._head.types[question.type]
        noul = isinstance(question, NoulQuestion)

        def combine(_reads, _conts, features) -> Outcome:
            lp = np.stack([f[0] for f in features]).astype(np.float64)  # (reads, [yes, no])
            scores = head.scores(lp[:, 0] - lp[:, 1], np.stack([f[1] for f in features]))
            mass = float(np.exp(lp).sum(axis=1).mean())
            # yes/no: [s, 0] is sigmoid(s) for yes under the softmax every answer goes through.
            return Outcome(np.array([scores[0], 0.0]) if noul else scores, mass, extras={"x_head": self.head_id})

        return Plan(features=feature_reads(renderer, question), combine=combine)
