"""Per-request onepass options: top-level `x_` fields, validated (never clamped) like everything else.

    "x_readout": "slot" | "isolated" | "likelihood" | "debiased" | "shortlist" | "head" | "auto"
    "x_abstain_mass": 0..1        mark x_abstain when the label mass is below this
    "x_abstain_confidence": 0..1  mark x_abstain when the confidence is below this
    "x_calibrated": true | false  apply the model's calibration profile (default: the server's setting)
    "x_debias_prior": true | false  divide out the question's content-free label prior (onepass/learn/priors.py)

Any other top-level field starting with `x_` is a 422 naming the known ones: a misspelled option would
otherwise be silently ignored. Fields without the prefix are ignored, as the hosted API does.
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


def parse_options(payload: dict[str, Any]) -> RequestOptions:
    known = sorted(RequestOptions.model_fields)
    unknown = [k for k in payload if isinstance(k, str) and k.startswith("x_") and k not in RequestOptions.model_fields]
    if unknown:
        raise RequestInvalid([{"loc": ["body", k], "type": "unknown_option",
                               "msg": f"unknown option {k[:60]!r}; the x_ options are {', '.join(known)}"}
                              for k in unknown[:20]])
    try:
        # Integers are fine for thresholds (0 and 1); strict mode would refuse them.
        fields = {k: (float(v) if k.startswith("x_abstain") and type(v) is int else v)
                  for k, v in payload.items() if k.startswith("x_")}
        return RequestOptions.model_validate(fields)
    except ValidationError as error:
        raise RequestInvalid(validation_detail(error)) from None
    except (OverflowError, ValueError):  # an integer threshold too large to be a float
        raise RequestInvalid.single(["body"], "x_abstain thresholds must be numbers between 0 and 1", "value_error") from None


class DecisionRequest(SystemOneRequest):
    """A validated request together with its onepass options (what Engine.validate returns)."""

    options: RequestOptions = Field(default_factory=RequestOptions, exclude=True)


def with_options(request: SystemOneRequest, payload: dict[str, Any]) -> DecisionRequest:
    fields = {name: getattr(request, name) for name in SystemOneRequest.model_fields}
    return DecisionRequest.model_construct(**fields, options=parse_options(payload))
