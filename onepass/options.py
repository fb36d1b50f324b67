"""Per-request onepass options: top-level `x_` fields, validated (never clamped) like everything else.

    "x_readout": "slot" | "isolated" | "likelihood" | "debiased" | "shortlist" | "head" | "auto"
    "x_abstain_mass": 0..1        mark x_abstain when the label mass is below this
    "x_abstain_confidence": 0..1  mark x_abstain when the confidence is below this
    "x_calibrated": true | false  apply the model's calibration profile (default: the server's setting)
    "x_debias_prior": true | false  divide out the question's content-free label prior (onepass/learn/priors.py)

Any other top-level field is ignored, as the wire contract says (clients add their own, `x_trace_id` for
one), and its name is reported beside the answer (`DecisionRequest.ignored`; over HTTP the header
`x-onepass-ignored-fields` and the access log, onepass/ignored.py). With `strict_options`
(`--strict-options`, off by default) an unknown `x_` field is a 422 `unknown_option` naming the known ones
instead, so a misspelt option (`x_readuot`) cannot go unnoticed; unknown fields without the prefix stay
ignored even then, since they are other clients' extras, not onepass options.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from onepass.errors import RequestInvalid
from onepass.wire import SystemOneRequest, validation_detail


class RequestOptions(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    x_readout: Literal["slot", "isolated", "likelihood", "debiased", "shortlist", "head", "auto"] | None = None
    x_abstain_mass: float | None = Field(None, ge=0.0, le=1.0)
    x_abstain_confidence: float | None = Field(None, ge=0.0, le=1.0)
    x_calibrated: bool | None = None
    x_debias_prior: bool | None = None


# The top-level names onepass reads; every other one is ignored (and reported).
KNOWN_FIELDS = frozenset(SystemOneRequest.model_fields) | frozenset(RequestOptions.model_fields)


def ignored_fields(payload: dict[str, Any]) -> tuple[str, ...]:
    """The top-level names of `payload` onepass does not read, in request order (as sent: sanitise them
    before they reach a header or a log line, onepass/ignored.py)."""
    return tuple(k if isinstance(k, str) else repr(k) for k in payload if k not in KNOWN_FIELDS)


def parse_options(payload: dict[str, Any], *, strict: bool = False) -> RequestOptions:
    """The request's x_ options; with `strict`, an unknown x_ field is a 422 naming the known ones."""
    known = sorted(RequestOptions.model_fields)
    unknown = [k for k in payload if isinstance(k, str) and k.startswith("x_") and k not in RequestOptions.model_fields]
    if unknown and strict:
        raise RequestInvalid([{"loc": ["body", k], "type": "unknown_option",
                               "msg": f"unknown option {k[:60]!r}; the x_ options are {', '.join(known)} (this server "
                                      "refuses unknown x_ fields: strict_options, --strict-options)"}
                              for k in unknown[:20]])
    try:
        # Integers are fine for thresholds (0 and 1); strict mode would refuse them.
        fields = {k: (float(v) if k.startswith("x_abstain") and type(v) is int else v)
                  for k, v in payload.items() if k in RequestOptions.model_fields}
        return RequestOptions.model_validate(fields)
    except ValidationError as error:
        raise RequestInvalid(validation_detail(error)) from None
    except (OverflowError, ValueError):  # an integer threshold too large to be a float
        raise RequestInvalid.single(["body"], "x_abstain thresholds must be numbers between 0 and 1", "value_error") from None


class DecisionRequest(SystemOneRequest):
    """A validated request together with its onepass options and the top-level names it ignored (what
    Engine.validate returns; neither is part of the wire body)."""

    options: RequestOptions = Field(default_factory=RequestOptions, exclude=True)
    ignored: tuple[str, ...] = Field(default=(), exclude=True)


def with_options(request: SystemOneRequest, payload: dict[str, Any], *, strict: bool = False) -> DecisionRequest:
    fields = {name: getattr(request, name) for name in SystemOneRequest.model_fields}
    return DecisionRequest.model_construct(**fields, options=parse_options(payload, strict=strict),
                                           ignored=ignored_fields(payload))
