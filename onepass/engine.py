"""The decision pipeline: wire request -> render -> readout -> backend -> answers -> wire response.

`Engine` is the in-process API (`from onepass import Engine`); the HTTP server and the CLI call the same
`decide`, so every entry point gives the same numbers.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from onepass import answers, models
from onepass.backends.base import Backend
from onepass.readouts import READOUTS, Readout
from onepass.render import LabelError, Renderer
from onepass.wire import APIError, BoxQuestion, RequestInvalid, SystemOneRequest, parse_request


@dataclass
class ModelInfo:
    id: str
    description: str
    release_date: str


class Engine:
    """Answers System One requests with one model.

    >>> engine = Engine("smollm2-135m")
    >>> engine.decide({"model": "jev-latest", "state": "...", "questions": {...}})
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        device: str = "cpu",
        dtype: str = "float32",
        readout: str = "slot",
        backend: Backend | None = None,
        tokenizer=None,
        model_id: str | None = None,
        log=print,
    ):
        if readout not in READOUTS:
            raise ValueError(f"unknown readout {readout!r}; choose one of {sorted(READOUTS)}")
        if backend is None:
            from onepass.backends.embedded import EmbeddedBackend

            hf_model, tokenizer, model_id = models.load(model, dtype=dtype, device=device, log=log)
            backend = EmbeddedBackend(hf_model, tokenizer)
        if tokenizer is None or model_id is None:
            raise ValueError("a custom backend needs its tokenizer and model_id")
        self.backend = backend
        self.tokenizer = tokenizer
        self.renderer = Renderer(tokenizer)
        self.readout: Readout = READOUTS[readout]()
        entry = models.REGISTRY.get(model_id)
        self.info = ModelInfo(
            id=model_id,
            description=entry.description if entry else f"{model_id} (loaded from {model})",
            release_date=entry.release_date if entry else "1970-01-01",
        )
        # Names a request may use: the model's id, the name it was loaded by, and the SDK's default alias
        # (a drop-in server answers `jev-latest` with the model it serves).
        self.names = {model_id, *(x for x in [model] if x), *models.ALIASES}
        # The backend is not re-entrant; the server serialises calls through its worker pool anyway.
        self._lock = threading.Lock()

    def model_list(self) -> list[dict[str, str]]:
        listed = [{"name": self.info.id, "description": self.info.description, "release_date": self.info.release_date}]
        for alias in sorted(self.names & models.ALIASES):
            listed.append({"name": alias, "description": f"Alias of {self.info.id}.", "release_date": self.info.release_date})
        return listed

    # -- the pipeline ------------------------------------------------------------------------------------
    def validate(self, payload: Any) -> SystemOneRequest:
        """Everything that can be checked without running the model; raises RequestInvalid / APIError."""
        if not isinstance(payload, dict):
            raise RequestInvalid.single(["body"], "the request body must be a JSON object", "model_attributes_type")
        request = parse_request(payload)
        if request.model not in self.names:
            raise APIError(
                404,
                "model_not_found",
                f"model {request.model!r} is not served here; use one of {sorted(self.names)} (GET /v1/models)",
            )
        for qid, question in request.questions.items():
            if isinstance(question, BoxQuestion):
                raise RequestInvalid.single(
                    ["body", "questions", qid, "type"],
                    f"model {self.info.id} has no vision: box questions need a vision-language model",
                    "unsupported_question_type",
                )
        if request.assets:
            raise RequestInvalid.single(
                ["body", "assets"], f"model {self.info.id} has no vision: it cannot read image assets", "unsupported_assets"
            )
        return request

    def decide(self, payload: Any) -> dict:
        """Answer one System One request (a dict as sent on the wire); raises RequestInvalid / APIError."""
        return self.run(self.validate(payload))

    def run(self, request: SystemOneRequest) -> dict:
        prefix = self.renderer.prefix(request.state)
        plans, reads = {}, []
        for qid, question in request.questions.items():
            try:
                plan = self.readout.plan(self.renderer, question)
            except LabelError as error:
                raise RequestInvalid.single(["body", "questions", qid, "criteria"], str(error), "label_error") from None
            plans[qid] = (plan, len(reads))
            reads.extend(plan.reads)
        longest = len(prefix) + max(len(r.suffix) for r in reads)
        if longest > self.backend.max_context:
            raise APIError(
                400,
                "max_tokens_exceeded",
                f"the state and question take {longest} tokens; model {self.info.id} reads at most "
                f"{self.backend.max_context}. Shorten the state or the question text.",
            )
        with self._lock:
            logprobs = self.backend.logprobs(prefix, reads)
        result = {}
        for qid, question in request.questions.items():
            plan, start = plans[qid]
            probs, mass = plan.combine(logprobs[start : start + len(plan.reads)])
            result[qid] = answers.build(question, probs, {"x_label_mass": mass, "x_readout": self.readout.name})
        return {
            "model": self.info.id,
            "answers": result,
            "usage": {
                "input_tokens": len(prefix) + sum(len(r.suffix) for r in reads),
                # One label position is read per question read; nothing is generated.
                "output_tokens": len(reads),
            },
        }
