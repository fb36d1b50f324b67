"""The decision pipeline: wire request -> render -> readout -> backend -> answers -> wire response.

`Engine` is the in-process API (`from onepass import Engine`); the HTTP server and the CLI call the same
`decide`, so every entry point gives the same numbers. Running a request's read plans on the backend, and
counting their tokens, is plan_runner.py's.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from onepass import answers, hardware, models
from onepass.learn import priors, serving
from onepass.backends.base import Backend
from onepass.learn.calibration import Profile, find_profile
from onepass.config import EngineConfig
from onepass.deadline import (
    Deadline,
    checkpoint,
    current_deadline,
    is_out_of_memory,
    overloaded,
)
from onepass.errors import APIError, ConfigError, RequestInvalid
from onepass.options import DecisionRequest, RequestOptions, with_options
from onepass.plan_runner import answer_positions, check_context, plan_tokens, run_plans
from onepass.readouts import READOUTS, Outcome, Plan, Readout
from onepass.readouts.auto import question_type
from onepass.render import LabelError, Renderer
from onepass.strict_json import reject_lone_surrogates
from onepass.wire import BoxQuestion, SystemOneRequest, parse_request


@dataclass
class Outcomes:
    """What one request's reads said, before calibration: per question, its Outcome (label logits)."""

    readout: Readout
    prefix: list[int]  # the rendered state, read once
    executed: list[Plan]  # every plan that ran, follow-up reads included
    by_question: dict[str, Outcome]


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

    def __init__(self, model: str | None = None, *, config: EngineConfig | None = None, backend: Backend | None = None,
                 tokenizer=None, model_id: str | None = None, log=print, **settings):
        """`config` (or EngineConfig's defaults) with `model` and any EngineConfig field given as a keyword
        on top. A custom `backend` comes with its tokenizer and model_id; otherwise the model loads here."""
        config = (config or EngineConfig()).replace(**({"model": model} if model is not None else {}), **settings)
        self.config = config
        # What the weights run in: chosen here for an in-process model (hardware.py says why), the remote
        # engine's own business otherwise.
        self.device = self.dtype = None
        hidden_size = None  # of an in-process model, to check a learned head against
        if backend is None:
            from onepass.backends.embedded import EmbeddedBackend

            if config.torch_threads is not None:
                import torch

                torch.set_num_threads(config.torch_threads)
            self.device = hardware.choose_device(config.device)
            self.dtype = hardware.choose_dtype(config.dtype, self.device.value)
            hf_model, tokenizer, model_id = models.load(config.model, dtype=self.dtype.value, device=self.device.value, log=log)
            backend = EmbeddedBackend(hf_model, tokenizer, **config.embedded_options())
            hidden_size = int(hf_model.config.hidden_size)
        if tokenizer is None or model_id is None:
            raise ValueError("a custom backend needs its tokenizer and model_id")
        self.backend = backend
        self.tokenizer = tokenizer
        self.renderer = Renderer(tokenizer)
        # One instance per family, so a request can pick any of them with x_readout.
        options = config.readout_options()
        self.readouts = {name: cls(**options.get(name, {})) for name, cls in READOUTS.items()}
        head = self.readouts["head"].head
        if head is not None:  # a head reads one model's hidden states: refuse another model's at start
            if not backend.capabilities.hidden_states:
                raise ConfigError(f"head (--head) needs hidden states, which backend {backend.name} does not hand out; "
                                  "serve the model in-process (--backend embedded) to use a learned head")
            head.check(model_id, hidden_size if hidden_size is not None else -1)
        self.default_readout = config.readout
        self.prior_correction = config.prior_correction  # the default for requests without x_debias_prior
        self.priors = priors.ContentFreePriors(self.renderer, self._execute)
        # "auto": the model's own profile if one exists (cache dir, then packaged); a path: that file;
        # None: uncalibrated. Requests can switch it off with x_calibrated: false.
        calibration = config.calibration_path
        served_dtype = self.dtype.value if self.dtype else None
        if calibration == "auto":
            self.profile = find_profile(model_id, served_dtype)
        elif calibration:
            self.profile = Profile.load(Path(calibration))
            if served_dtype and self.profile.dtype and self.profile.dtype != served_dtype:
                raise ValueError(f"calibration profile {calibration} was fitted in {self.profile.dtype} but the model is "
                                 f"served in {served_dtype}: serve with --dtype {self.profile.dtype} or fit a profile "
                                 f"in {served_dtype} with `onepass calibrate --dtype {served_dtype}`")
        else:
            self.profile = None
        # --readout auto: the profile's measured policy, kept to the families served here (the head only for
        # the types its loaded head was fitted for); any other type is read with slot.
        policy = self.profile.readout_policy if self.profile is not None else {}
        self.readouts["auto"].bind(self.readouts, {
            key: family for key, family in policy.items()
            if family in self.available_readouts() and family != "auto" and (family != "head" or question_type(key) in head.types)})
        entry = models.REGISTRY.get(model_id)
        self.info = ModelInfo(
            id=model_id,
            description=entry.description if entry else f"{model_id} (loaded from {config.model})",
            release_date=entry.release_date if entry else "1970-01-01",
        )
        # Names a request may use: the model's id, the name it was loaded by, and the SDK's default alias
        # (a drop-in server answers `jev-latest` with the model it serves).
        self.names = {model_id, *(x for x in [config.model] if x), *models.ALIASES}
        # A backend that is not re-entrant gets one request at a time; the embedded one batches concurrent
        # requests itself and remote engines take many, so several workers keep either busy.
        self._lock = None if backend.capabilities.reentrant else threading.Lock()
        # Adapters (`onepass learn`): more names for this model, each answering the questions it learned.
        self.adapters = serving.load_adapters(config.adapters, config.adapters_dir, model_id, backend, self.names)
        serving.attach_lora(self.adapters, self)

    def available_readouts(self) -> list[str]:
        """The families a request may choose here: the head only with a head loaded."""
        return sorted(name for name in self.readouts if name != "head" or self.readouts["head"].head is not None)

    def model_list(self) -> list[dict]:
        calibration = self.profile.summary() if self.profile else "uncalibrated: probabilities are the raw label distribution"
        listed = [{"name": self.info.id, "description": f"{self.info.description} Readout {self.default_readout}; {calibration}.",
                   "release_date": self.info.release_date, "x_calibration": calibration,
                   "x_readouts": self.available_readouts(), "x_default_readout": self.default_readout,
                   "x_readout_policy": {**{t: "slot" for t in ("noul", "choice", "score")}, **self.readouts["auto"].policy},
                   **({"x_dtype": self.dtype.value, "x_dtype_reason": self.dtype.reason, "x_device": self.device.value}
                      if self.dtype else {})}]
        for alias in sorted(self.names & models.ALIASES):
            listed.append({"name": alias, "description": f"Alias of {self.info.id}.", "release_date": self.info.release_date})
        return listed + serving.model_entries(self.adapters, self.info.release_date)

    # -- the pipeline ------------------------------------------------------------------------------------
    def validate(self, payload: Any) -> DecisionRequest:
        """Everything that can be checked without running the model; raises RequestInvalid / APIError."""
        if not isinstance(payload, dict):
            raise RequestInvalid.single(["body"], "the request body must be a JSON object", "model_attributes_type")
        reject_lone_surrogates(payload)  # the HTTP path checks this while parsing; in-process callers too
        # Unknown top-level fields are ignored and named in request.ignored; strict_options refuses unknown x_ ones.
        request = with_options(parse_request(payload), payload, strict=self.config.strict_options)
        family = request.options.x_readout or self.default_readout
        if self._corrects(request.options):
            for qid, question in request.questions.items():
                used = self.family(request.options, question)
                if used not in priors.FAMILIES:
                    how = f" (the auto policy's family for question {qid!r})" if family == "auto" else ""
                    raise RequestInvalid.single(["body", "x_debias_prior"], f"x_debias_prior works with the readouts "
                                                f"{list(priors.FAMILIES)}; this request reads with {used!r}{how}: choose "
                                                "one of them with x_readout, or set x_debias_prior to false", "value_error")
        if family == "head":  # (auto names the head only for the types it was fitted for)
            self.readouts["head"].check(request.questions)
        if request.options.x_calibrated:
            self._check_calibrated(request)
        if request.model not in self.names and request.model not in self.adapters:
            raise APIError(
                404,
                "model_not_found",
                f"model {request.model!r} is not served here; use one of {sorted(self.names | set(self.adapters))} (GET /v1/models)",
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

    def _corrects(self, options: RequestOptions) -> bool:
        return self.prior_correction if options.x_debias_prior is None else options.x_debias_prior

    def family(self, options: RequestOptions, question=None) -> str:
        """The family that reads this question: the request's or the server's, for auto the one its policy
        picks for the question."""
        family = options.x_readout or self.default_readout
        if family == "auto" and question is not None:
            family = self.readouts["auto"].family(question)
        return family

    def profile_key(self, options: RequestOptions, question=None) -> str:
        """The name an answer is calibrated under: the family that reads it, "+prior" when corrected."""
        return priors.profile_key(self.family(options, question), self._corrects(options))

    def _check_calibrated(self, request) -> None:
        """An explicit x_calibrated: true is a promise: every answer gets a fitted temperature for its readout
        and question type, or the request is a 422 saying what the profile has."""
        if self.profile is None:
            raise RequestInvalid.single(["body", "x_calibrated"], f"model {self.info.id} has no calibration profile; "
                                        "fit one with `onepass calibrate` or leave x_calibrated out", "value_error")
        self.profile.check_covers(self.info.id, {qid: (self.profile_key(request.options, question), question.type)
                                                 for qid, question in request.questions.items()})

    def decide(self, payload: Any) -> dict:
        """Answer one System One request (a dict as sent on the wire); raises RequestInvalid / APIError.
        The top-level fields it ignored are `self.validate(payload).ignored` (then `self.run(...)` that)."""
        return self.run(self.validate(payload))

    def run(self, request: SystemOneRequest) -> dict:
        # The caller's deadline (server, CLI) if it set one, else this engine's own budget.
        if current_deadline() is None and self.config.request_timeout_s is not None:
            with Deadline(self.config.request_timeout_s, setting="request_timeout_s (--request-timeout-s)").active():
                return self._run(request)
        return self._run(request)

    def _run(self, request: SystemOneRequest) -> dict:
        options = getattr(request, "options", None) or RequestOptions()
        try:
            found = self.outcomes(request)
            readout, prefix, executed, outcomes = found.readout, found.prefix, found.executed, found.by_question
        except Exception as error:
            if not is_out_of_memory(error):
                raise
            logging.getLogger("onepass").warning("out of memory answering %d questions: %s", len(request.questions), error)
            raise overloaded(f"this request ({len(request.questions)} questions)") from None
        # A profile calibrates the (readout family, question type) pairs it was fitted for; only those
        # answers report x_calibrated: true.
        profile = self.profile if options.x_calibrated is not False else None
        adapter = self.adapters.get(request.model)
        result = {}
        for qid, question in request.questions.items():
            fitted = profile.temperatures.get(self.profile_key(options, question), {}) if profile is not None else {}
            outcome = outcomes[qid]
            keys = _answer_keys(question)
            # No label came back at all (a remote top-k fallback): no evidence, so the uniform distribution,
            # label mass 0 and every option in x_excluded; nothing was calibrated.
            blind = len(outcome.excluded) == len(keys)
            learned = "x_adapter" in outcome.extras  # an adapter's answer carries its own fitted temperature
            calibrated = learned or (question.type in fitted and not blind)
            temperature = float(fitted[question.type]) if calibrated and not learned else 1.0
            extras = {"x_label_mass": outcome.label_mass, "x_readout": "adapter" if learned else readout.name,
                      "x_calibrated": calibrated, **outcome.extras}
            if adapter is not None:
                serving.mark(extras, adapter)
            if outcome.excluded:
                extras["x_excluded"] = [keys[i] for i in outcome.excluded]
            probs = np.full(len(keys), 1.0 / len(keys)) if blind else outcome.probs(temperature)
            answer = answers.build(question, probs, extras)
            abstain = self._abstain(answer, options)
            if abstain is not None:
                answer["x_abstain"] = abstain
            result[qid] = answer
        return {
            "model": adapter.name if adapter is not None else self.info.id,
            "answers": result,
            "usage": {
                "input_tokens": len(prefix) + sum(plan_tokens(p) for p in executed),
                "output_tokens": sum(answer_positions(p) for p in executed),  # nothing is generated
            },
        }

    def outcomes(self, request: SystemOneRequest):
        """Every read the request needs, run: label logits per question, before calibration."""
        options = getattr(request, "options", None) or RequestOptions()
        readout = self.readouts[options.x_readout or self.default_readout]
        prefix = self.renderer.prefix(request.state)
        plans: dict[str, Plan] = {}
        for qid, question in request.questions.items():
            try:
                plans[qid] = readout.plan(self.renderer, question)
            except LabelError as error:
                raise RequestInvalid.single(["body", "questions", qid, "criteria"], str(error), "label_error") from None
        adapter = self.adapters.get(request.model)
        learned = serving.learned_plans(adapter, self.renderer, request.state, request.questions,
                                          self.backend.capabilities.hidden_states) if adapter else {}
        plans.update(learned)
        check_context(prefix, plans.values(), self.backend.max_context, self.info.id)
        total = len(prefix) + sum(plan_tokens(p) for p in plans.values())
        if total > self.config.max_input_tokens:
            raise APIError(400, "max_tokens_exceeded",
                           f"the request makes the model read {total} tokens (state once, plus every question); "
                           f"this server reads at most {self.config.max_input_tokens} per request. Split it or shorten it.")
        checkpoint()
        # A batching backend gathers reads of concurrent requests; it waits for companions only while
        # requests are in flight.
        with self._serialised(), self.backend.expecting():
            outcomes = self._execute(prefix, plans)
            if self._corrects(options):  # only one-round families get here (validate)
                for qid, plan in ((q, p) for q, p in plans.items() if q not in learned):
                    prior = self.priors.log_prior(self.family(options, request.questions[qid]), request.questions[qid], plan)
                    outcomes[qid] = self.priors.correct(outcomes[qid], prior)
            followups = {qid: plan.followup(outcomes[qid]) for qid, plan in plans.items() if plan.followup}
            followups = {qid: plan for qid, plan in followups.items() if plan is not None}
            if followups:
                check_context(prefix, followups.values(), self.backend.max_context, self.info.id)
                # Follow-up reads are reads too: the limit covers everything one request makes the model read.
                total += sum(plan_tokens(p) for p in followups.values())
                if total > self.config.max_input_tokens:
                    raise APIError(400, "max_tokens_exceeded",
                                   f"with the follow-up reads debiasing asked for ({len(followups)} uncertain questions), "
                                   f"the request makes the model read {total} tokens; this server reads at most "
                                   f"{self.config.max_input_tokens} per request. Split it, shorten it, or use another x_readout.")
                checkpoint()
                outcomes.update(self._execute(prefix, followups))
        executed = [*plans.values(), *followups.values()]
        return Outcomes(readout, prefix, executed, outcomes)

    @contextlib.contextmanager
    def _serialised(self):
        """The engine lock of a non-reentrant backend, waited for without outliving the request's deadline."""
        if self._lock is None:
            yield
            return
        while not self._lock.acquire(timeout=0.05):
            checkpoint()
        try:
            yield
        finally:
            self._lock.release()

    def _execute(self, prefix: list[int], plans: dict[str, Plan]) -> dict[str, Outcome]:
        """This engine's read path (also the content-free priors'): every plan, on the backend."""
        return run_plans(self.backend, prefix, plans)

    def _abstain(self, answer: dict, options: RequestOptions) -> bool | None:
        mass_floor = options.x_abstain_mass if options.x_abstain_mass is not None else self.config.abstain_mass
        conf_floor = options.x_abstain_confidence if options.x_abstain_confidence is not None else self.config.abstain_confidence
        if mass_floor is None and conf_floor is None:
            return None
        # noul has no confidence field; its confidence is the two-option choice formula, |2p - 1|.
        confidence = answer["confidence"] if "confidence" in answer else abs(2 * answer["noul"] - 1)
        low_mass = mass_floor is not None and answer["x_label_mass"] < mass_floor
        low_conf = conf_floor is not None and confidence < conf_floor
        return bool(low_mass or low_conf)


def _answer_keys(question) -> list[str]:
    """How an answer names its options (x_excluded): option names, level numbers, or true/false."""
    criteria = getattr(question, "criteria", None)
    if question.type == "choice":
        return list(criteria)
    if question.type == "score":
        return [str(i) for i in range(len(criteria))]
    return ["true", "false"]
