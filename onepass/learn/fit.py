"""Fitting a calibration profile from a labelled corpus (`onepass calibrate`): score every item with each
readout family, fit one temperature per (family, question type) on the calibration split, cross-validate,
report the held-out split before and after, save the profile, and optionally write a JSON report and a
reliability plot.

The pieces it uses live elsewhere: temperature fitting, metrics and the Profile format in
onepass/learn/calibration.py, corpus scoring (and its scores cache) and reports in onepass/evaluate.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from onepass import evaluate as ev
from onepass import models
from onepass.learn import priors
from onepass.learn.calibration import Profile, cross_validate, file_sha256, find_profile, fit_temperature
from onepass.evaluate import Scored

__all__ = ["fit_profile", "fit_families", "default_profile_path"]


def default_profile_path(engine) -> Path:
    """Where a user's own fit is saved, and found again at serve time: the model's cache dir, per dtype."""
    return models.cache_dir(engine.info.id) / f"calibration.{engine.dtype.value}.json"


def fit_profile(scored: list[Scored], model_id: str, readout: str, data: Path, previous: Profile | None = None,
                dtype: str = "") -> Profile:
    """Fit one temperature per question type on the calibration split; cross-validate; held-out report.
    `readout` is the name answers are calibrated under (the family, "+prior" when prior-corrected)."""
    calib = [s for s in scored if s.item.get("split") == "calibration"]
    test = [s for s in scored if s.item.get("split") == "test"]
    temperatures, cv, counts = {}, {}, {}
    for qtype in sorted({s.qtype for s in calib}):
        rows = [s for s in calib if s.qtype == qtype]
        temperatures[qtype] = fit_temperature([s.scores for s in rows], [s.gold for s in rows])
        cv[qtype] = cross_validate([s.scores for s in rows], [s.gold for s in rows], [qtype == "noul"] * len(rows))
        counts[qtype] = len(rows)
    profile = previous or Profile(model=model_id, temperatures={})
    profile.model = model_id
    profile.dtype = dtype
    profile.temperatures[readout] = temperatures
    profile.data = str(data)
    profile.data_sha256 = file_sha256(data)
    profile.fitted_on[readout] = counts
    profile.report[readout] = {
        "cross_validation": cv,
        "held_out_before": ev.report(test)["by_type"] if test else {},
        "held_out_after": ev.report(test, temperatures)["by_type"] if test else {},
    }
    return profile


def _held_out_line(readout: str, qtype: str, t: float, before: dict, after: dict) -> str:
    nan = float("nan")
    return (f"{readout}/{qtype}: T={t:.3f}  held-out ECE {before.get('ece', nan):.3f} -> {after.get('ece', nan):.3f}"
            f"  Brier {before.get('brier', nan):.3f} -> {after.get('brier', nan):.3f}"
            f"  accuracy {before.get('accuracy', nan):.3f}")


def _default_families(engine, measured: Profile | None) -> list[str]:
    """The engine's readout; for auto, every family the model's policy can pick that this engine serves
    (answers are calibrated under the family that read them, never under "auto")."""
    if engine.default_readout != "auto":
        return [engine.default_readout]
    policy = measured.readout_policy if measured is not None else {}
    return sorted({"slot", *policy.values()} & set(engine.available_readouts()))


def fit_families(engine, items: list[dict], families: list[str] | None = None, *, data_path: Path,
                 out: Path | None = None, update: bool = False, scores_path: Path | None = None,
                 report_path: Path | None = None, plot_path: Path | None = None,
                 log: Callable[[str], None] = print) -> Profile:
    """Fit and save the calibration profile of an in-process `engine` on corpus `items` (read from
    `data_path`, whose sha256 the profile records), one readout family at a time (default: the engine's;
    for auto, the families its policy picks).

    out: the profile file (default: the model's cache dir, calibration.DTYPE.json); update: add to the
    profile already there instead of replacing it; scores_path: the scores cache (resumable, never
    stale); report_path / plot_path: a JSON report and a held-out reliability plot. Prints one line per
    fitted (family, question type) and `wrote OUT` through `log`. Returns the saved profile.
    """
    if engine.dtype is None:
        raise ValueError("calibration fits an in-process model (--backend embedded): a remote engine has no dtype here")
    data_path = Path(data_path)
    dtype = engine.dtype.value
    out = Path(out) if out else default_profile_path(engine)
    profile = Profile.load(out) if update and out.exists() else None
    curves = {}
    # The model's measured profile (calibrate reads raw logits, so the engine may have none loaded).
    measured = engine.profile or find_profile(engine.info.id, dtype)
    for family in families or _default_families(engine, measured):
        scored = ev.score_with_engine(engine, items, family, Path(scores_path) if scores_path else None)
        readout = priors.profile_key(family, engine.prior_correction)  # the name answers are calibrated under
        profile = fit_profile(scored, engine.info.id, readout, data_path, profile, dtype=dtype)
        test = [s for s in scored if s.item.get("split") == "test"]
        curves[f"{readout} before"] = ev.report(test)
        curves[f"{readout} after"] = ev.report(test, profile.temperatures[readout])
        held_out = profile.report[readout]
        for qtype, t in profile.temperatures[readout].items():
            log(_held_out_line(readout, qtype, t, held_out["held_out_before"].get(qtype, {}),
                               held_out["held_out_after"].get(qtype, {})))
    if not profile.readout_policy and measured is not None:
        # A user's own fit replaces the packaged profile (it is looked up first): keep the model's measured
        # readout policy, which a calibration fit does not measure.
        profile.readout_policy, profile.policy_report = dict(measured.readout_policy), dict(measured.policy_report)
    profile.save(out)
    log(f"wrote {out}")
    if report_path:
        report_path = Path(report_path)
        report_path.parent.mkdir(parents=True, exist_ok=True)
        report_path.write_text(json.dumps({"profile": str(out), **profile.report, "temperatures": profile.temperatures,
                                           "curves": {k: v["reliability"] for k, v in curves.items()},
                                           "held_out_overall": {k: v["overall"] for k, v in curves.items()}}, indent=2) + "\n")
    if plot_path:
        ev.plot(curves, Path(plot_path), f"{engine.info.id}: held-out reliability")
    return profile
