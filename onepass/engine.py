"""The decision pipeline: wire request -> render -> readout -> backend -> answers -> wire response.

`Engine` is the in-process API (`from onepass import Engine`); the HTTP server and the CLI call the same
`decide`, so every entry point gives the same numbers.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onepass import answers, models
from onepass.backends.base import Backend, continuation_logprobs
from onepass.calibration import Profile, find_profile
from onepass.options import RequestOptions, with_options
from onepass.readouts import READOUTS, Outcome, Plan
from onepass.render import LabelError, Renderer
from onepass.wire import APIError, BoxQuestion, RequestInvalid, SystemOneRequest, parse_request, reject_lone_surrogates


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
        readout_options: dict[str, dict] | None = None,
        abstain_mass: float | None = None,
        abstain_confidence: float | None = None,
        calibration: str | None = "auto",
        max_input_tokens: int = 65536,
        backend: Backend | None = None,
        backend_options: dict | None = None,
        tokenizer=None,
        model_id: str | None = None,
        log=print,
    ):
        if readout not in READOUTS:
            raise ValueError(f"unknown readout {readout!r}; choose one of {sorted(READOUTS)}")
        if backend is None:
            from onepass.backends.embedded import EmbeddedBackend

            hf_model, tokenizer, model_id = models.load(model, dtype=dtype, device=device, log=log)
            backend = EmbeddedBackend(hf_model, tokenizer, **(backend_options or {}))
        if tokenizer is None or model_id is None:
            raise ValueError("a custom backend needs its tokenizer and model_id")
        self.backend = backend
        self.tokenizer = tokenizer
        self.renderer = Renderer(tokenizer)
        # One instance per family, so a request can pick any of them with x_readout.
        self.readouts = {name: cls(**(readout_options or {}).get(name, {})) for name, cls in READOUTS.items()}
        self.default_readout = readout
        for name, value in (("abstain_mass", abstain_mass), ("abstain_confidence", abstain_confidence)):
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {value}")
        if max_input_tokens < 1:
            raise ValueError(f"max_input_tokens must be at least 1, got {max_input_tokens}")
        self.max_input_tokens = max_input_tokens  # all tokens one request makes the model read
        self.abstain_mass = abstain_mass
        self.abstain_confidence = abstain_confidence
        # "auto": the model's own profile if one exists (cache dir, then packaged); a path: that file;
        # None: uncalibrated. Requests can switch it off with x_calibrated: false.
        if calibration == "auto":
            self.profile = find_profile(model_id)
        elif calibration:
            self.profile = Profile.load(Path(calibration))
        else:
            self.profile = None
        entry = models.REGISTRY.get(model_id)
        self.info = ModelInfo(
            id=model_id,
            description=entry.description if entry else f"{model_id} (loaded from {model})",
            release_date=entry.release_date if entry else "1970-01-01",
        )
        # Names a request may use: the model's id, the name it was loaded by, and the SDK's default alias
        # (a drop-in server answers `jev-latest` with the model it serves).
        self.names = {model_id, *(x for x in [model] if x), *models.ALIASES}
        # The embedded backend is not re-entrant (one model, shared caches); remote backends are, so
        # several workers can keep a remote engine busy.
        self._lock = contextlib.nullcontext() if getattr(backend, "reentrant", False) else threading.Lock()

    def model_list(self) -> list[dict]:
        calibration = self.profile.summary() if self.profile else "uncalibrated: probabilities are the raw label distribution"
        listed = [{"name": self.info.id, "description": f"{self.info.description} Readout {self.default_readout}; {calibration}.",
                   "release_date": self.info.release_date, "x_calibration": calibration,
                   "x_readouts": sorted(self.readouts), "x_default_readout": self.default_readout}]
        for alias in sorted(self.names & models.ALIASES):
            listed.append({"name": alias, "description": f"Alias of {self.info.id}.", "release_date": self.info.release_date})
        return listed

    # -- the pipeline ------------------------------------------------------------------------------------
    def validate(self, payload: Any) -> SystemOneRequest:
        """Everything that can be checked without running the model; raises RequestInvalid / APIError."""
        if not isinstance(payload, dict):
            raise RequestInvalid.single(["body"], "the request body must be a JSON object", "model_attributes_type")
        reject_lone_surrogates(payload)  # the HTTP path checks this while parsing; in-process callers too
        request = with_options(parse_request(payload), payload)
        if request.options.x_calibrated and self.profile is None:
            raise RequestInvalid.single(["body", "x_calibrated"], f"model {self.info.id} has no calibration profile; "
                                        "fit one with `onepass calibrate` or leave x_calibrated out", "value_error")
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
        options = getattr(request, "options", None) or RequestOptions()
        readout, prefix, plans, executed, outcomes = self.outcomes(request)
        # A profile calibrates the readout families it was fitted for; others report x_calibrated: false.
        calibrated = (self.profile is not None and options.x_calibrated is not False
                      and readout.name in self.profile.temperatures)
        result = {}
        for qid, question in request.questions.items():
            outcome = outcomes[qid]
            temperature = self.profile.temperature(readout.name, question.type) if calibrated else 1.0
            extras = {"x_label_mass": outcome.label_mass, "x_readout": readout.name, "x_calibrated": calibrated, **outcome.extras}
            answer = answers.build(question, outcome.probs(temperature), extras)
            abstain = self._abstain(answer, options)
            if abstain is not None:
                answer["x_abstain"] = abstain
            result[qid] = answer
        return {
            "model": self.info.id,
            "answers": result,
            "usage": {
                "input_tokens": len(prefix) + sum(self._plan_tokens(p) for p in executed),
                # Nothing is generated: output_tokens counts the answer positions read.
                "output_tokens": sum(len(p.reads) + sum(len(c.options) for c in p.continuations) for p in executed),
            },
        }

    def outcomes(self, request: SystemOneRequest):
        """(readout, prefix, plans, executed plans, qid -> Outcome): label logits before calibration."""
        options = getattr(request, "options", None) or RequestOptions()
        readout = self.readouts[options.x_readout or self.default_readout]
        prefix = self.renderer.prefix(request.state)
        plans: dict[str, Plan] = {}
        for qid, question in request.questions.items():
            try:
                plans[qid] = readout.plan(self.renderer, question)
            except LabelError as error:
                raise RequestInvalid.single(["body", "questions", qid, "criteria"], str(error), "label_error") from None
        self._check_context(prefix, plans.values())
        total = len(prefix) + sum(self._plan_tokens(p) for p in plans.values())
        if total > self.max_input_tokens:
            raise APIError(400, "max_tokens_exceeded",
                           f"the request makes the model read {total} tokens (state once, plus every question); "
                           f"this server reads at most {self.max_input_tokens} per request. Split it or shorten it.")
        # A batching backend gathers reads of concurrent requests; it waits for companions only while
        # requests are in flight.
        expecting = getattr(self.backend, "expecting", None)
        with self._lock, (expecting() if expecting else contextlib.nullcontext()):
            outcomes = self._execute(prefix, plans)
            followups = {qid: plan.followup(outcomes[qid]) for qid, plan in plans.items() if plan.followup}
            followups = {qid: plan for qid, plan in followups.items() if plan is not None}
            if followups:
                self._check_context(prefix, followups.values())
                outcomes.update(self._execute(prefix, followups))
        executed = [*plans.values(), *followups.values()]
        return readout, prefix, plans, executed, outcomes

    def _execute(self, prefix: list[int], plans: dict[str, Plan]) -> dict[str, Outcome]:
        """One backend call for every read of every plan, one for every continuation; then combine."""
        reads = [read for plan in plans.values() for read in plan.reads]
        conts = [c for plan in plans.values() for c in plan.continuations]
        # Identical reads (the same question asked twice, isolated options or likelihood contexts that do
        # not depend on order) are computed once and shared.
        unique_reads, read_of = _unique(reads, lambda r: (tuple(r.suffix), tuple(r.token_ids)))
        unique_conts, cont_of = _unique(conts, lambda c: (tuple(c.context), tuple(map(tuple, c.options))))
        read_lp = self.backend.logprobs(prefix, unique_reads) if reads else []
        cont_lp = continuation_logprobs(self.backend, prefix, unique_conts) if conts else []
        read_lp = [read_lp[k] for k in read_of]
        cont_lp = [cont_lp[k] for k in cont_of]
        outcomes, r, c = {}, 0, 0
        for qid, plan in plans.items():
            mine = read_lp[r : r + len(plan.reads)]
            outcomes[qid] = plan.combine(mine, cont_lp[c : c + len(plan.continuations)])
            # A remote engine's top-k fallback may not return every label (they count as probability 0).
            missing = sorted({int(i) for lp in mine for i in getattr(lp, "missing", ())})
            if missing:
                outcomes[qid].extras["x_missing_labels"] = missing
            r += len(plan.reads)
            c += len(plan.continuations)
        return outcomes

    @staticmethod
    def _plan_tokens(plan: Plan) -> int:
        return sum(len(r.suffix) for r in plan.reads) + sum(
            len(c.context) + sum(len(o) for o in c.options) for c in plan.continuations)

    def _check_context(self, prefix: list[int], plans) -> None:
        longest = max(
            [len(r.suffix) for p in plans for r in p.reads]
            + [len(c.context) + max(map(len, c.options)) for p in plans for c in p.continuations]
        )
        if len(prefix) + longest > self.backend.max_context:
            raise APIError(
                400,
                "max_tokens_exceeded",
                f"the state and question take {len(prefix) + longest} tokens; model {self.info.id} reads at most "
                f"{self.backend.max_context}. Shorten the state or the question text.",
            )

    def _abstain(self, answer: dict, options: RequestOptions) -> bool | None:
        mass_floor = options.x_abstain_mass if options.x_abstain_mass is not None else self.abstain_mass
        conf_floor = options.x_abstain_confidence if options.x_abstain_confidence is not None else self.abstain_confidence
        if mass_floor is None and conf_floor is None:
            return None
        # noul has no confidence field; its confidence is the two-option choice formula, |2p - 1|.
        confidence = answer["confidence"] if "confidence" in answer else abs(2 * answer["noul"] - 1)
        low_mass = mass_floor is not None and answer["x_label_mass"] < mass_floor
        low_conf = conf_floor is not None and confidence < conf_floor
        return bool(low_mass or low_conf)


def _unique(items: list, key) -> tuple[list, list[int]]:
    """(distinct items in first-seen order, index of each item's distinct copy)."""
    seen: dict = {}
    index = [seen.setdefault(key(item), len(seen)) for item in items]
    distinct = [None] * len(seen)
    for item, k in zip(items, index):
        distinct[k] = item
    return distinct, index
