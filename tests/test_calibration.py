"""Calibration: metric definitions, temperature fitting, profiles applied by the engine and the server,
and `onepass eval` / `onepass calibrate` end to end (tiny random model, real corpus lines)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from onepass import Engine, score_cache
from onepass.learn.calibration import Profile, ece, fit_temperature, metrics, nll_at
from onepass.readouts.base import softmax
from tests.tiny_random import llama_with_smollm_tokenizer

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "data/decisions/corpus.jsonl"


def test_ece_by_hand():
    # Two bins used: conf 0.9 (2 items, 1 right) and conf 0.3 (2 items, 1 right) -> (2*0.4 + 2*0.2)/4
    assert math.isclose(ece(np.array([0.9, 0.9, 0.3, 0.3]), np.array([1, 0, 1, 0])), 0.3)
    assert ece(np.array([0.7] * 10), np.array([1] * 7 + [0] * 3)) < 1e-12


def test_metrics_by_hand():
    m = metrics([np.array([0.8, 0.2]), np.array([0.6, 0.3, 0.1])], [0, 1], [True, False])
    assert m["accuracy"] == 0.5
    assert math.isclose(m["brier"], ((0.2 ** 2) + (0.6 ** 2 + 0.7 ** 2 + 0.1 ** 2)) / 2)
    assert math.isclose(m["nll"], (-math.log(0.8) - math.log(0.3)) / 2)


def test_fit_recovers_a_known_temperature():
    rng = np.random.default_rng(0)
    true_t = 2.5
    scores, gold = [], []
    for _ in range(3000):
        logits = rng.normal(0, 3, size=4)
        scores.append(logits)
        gold.append(int(rng.choice(4, p=softmax(logits, true_t))))
    t = fit_temperature(scores, gold)
    assert abs(t - true_t) < 0.25
    assert nll_at(scores, gold, t) <= nll_at(scores, gold, 1.0)


def test_profile_round_trip_and_rejects_bad_temperatures(tmp_path):
    path = Profile(model="m", temperatures={"slot": {"noul": 0.5}}).save(tmp_path / "p.json")
    assert Profile.load(path).temperature("slot", "noul") == 0.5
    assert Profile.load(path).temperature("isolated", "choice") == 1.0
    data = json.loads(path.read_text())
    data["temperatures"]["slot"]["noul"] = -1
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="positive"):
        Profile.load(path)


@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory):
    return llama_with_smollm_tokenizer(tmp_path_factory.mktemp("cal") / "tiny", seed=5)


def test_engine_applies_profile_and_request_can_switch_it_off(tiny_dir, tmp_path):
    profile = Profile(model="tiny", temperatures={"slot": {"choice": 3.0, "noul": 0.5}}).save(tmp_path / "p.json")
    raw = Engine(str(tiny_dir), calibration=None, log=lambda _m: None)
    cal = Engine(str(tiny_dir), calibration=str(profile), log=lambda _m: None)
    payload = {"model": "jev-latest", "state": "Disk /var is 100% full.",
               "questions": {"c": {"type": "choice", "criteria": {"disk": None, "cpu": None, "network": None}},
                             "y": {"type": "noul", "instructions": "Is it a disk problem?"}}}
    a, b = raw.decide(payload)["answers"], cal.decide(payload)["answers"]
    off = cal.decide({**payload, "x_calibrated": False})["answers"]
    assert a["c"]["x_calibrated"] is False and b["c"]["x_calibrated"] is True and off["c"]["x_calibrated"] is False
    pa = np.array(list(a["c"]["probabilities"].values()))
    pb = np.array(list(b["c"]["probabilities"].values()))
    assert np.allclose(pb, softmax(np.log(pa), 3.0), atol=1e-9)  # T=3 on the label logits
    assert abs(off["y"]["noul"] - a["y"]["noul"]) < 1e-12
    ya = a["y"]["noul"]
    assert math.isclose(b["y"]["noul"], 1 / (1 + ((1 - ya) / ya) ** 2), rel_tol=1e-9)  # T=0.5 squares the odds
    assert "calibrated" in cal.model_list()[0]["x_calibration"] and "uncalibrated" in raw.model_list()[0]["x_calibration"]
    with pytest.raises(Exception, match="no calibration profile"):
        raw.decide({**payload, "x_calibrated": True})


def test_calibrate_and_eval_commands(tiny_dir, tmp_path, server):
    corpus = tmp_path / "mini.jsonl"
    lines = CORPUS.read_text().splitlines()
    calib = [line for line in lines if json.loads(line)["split"] == "calibration"][:16]
    test = [line for line in lines if json.loads(line)["split"] == "test"][:8]
    corpus.write_text("\n".join(calib + test) + "\n")
    cli = [sys.executable, "-m", "onepass.cli"]
    out = tmp_path / "profile.json"
    subprocess.run([*cli, "calibrate", "--model", str(tiny_dir), "--data", str(corpus), "--readouts", "slot,isolated",
                    "--out", str(out), "--report", str(tmp_path / "r.json"), "--plot", str(tmp_path / "r.png")],
                   check=True, capture_output=True, text=True, timeout=600)
    profile = Profile.load(out)
    assert set(profile.temperatures) == {"slot", "isolated"}
    assert len(profile.data_sha256) == 64 and profile.version == 1
    assert all(0.05 <= t <= 20 for ts in profile.temperatures.values() for t in ts.values())
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"
    report = json.loads((tmp_path / "r.json").read_text())
    assert "held_out_after" in report["slot"] and "cross_validation" in report["slot"]

    # eval in-process with that profile, and against a live server by URL (here: the SmolLM2 test server)
    done = subprocess.run([*cli, "eval", "--model", str(tiny_dir), "--data", str(corpus), "--calibration", str(out),
                           "--json", str(tmp_path / "e.json")], check=True, capture_output=True, text=True, timeout=600)
    result = json.loads((tmp_path / "e.json").read_text())
    assert result["overall"]["n"] == 8 and result["calibration"]["applied"] is True
    assert set(result["by_type"]) <= {"noul", "choice", "score"} and "by_domain" in result
    assert "accuracy=" in done.stdout
    remote = subprocess.run([*cli, "eval", "--url", server.url, "--api-key", "test-key-1", "--data", str(corpus),
                             "--limit", "4", "--json", str(tmp_path / "u.json")], check=True, capture_output=True, text=True, timeout=600)
    assert json.loads((tmp_path / "u.json").read_text())["overall"]["n"] == 4 and "accuracy=" in remote.stdout


def _mini_corpus(tmp_path, calib: int = 16, test: int = 8) -> Path:
    lines = CORPUS.read_text().splitlines()
    picked = ([line for line in lines if json.loads(line)["split"] == "calibration"][:calib]
              + [line for line in lines if json.loads(line)["split"] == "test"][:test])
    path = tmp_path / "mini.jsonl"
    path.write_text("\n".join(picked) + "\n")
    return path


def _counting(engine, monkeypatch) -> list:
    """Count the items an engine actually scores (cache misses)."""
    calls, real = [], engine.outcomes
    monkeypatch.setattr(engine, "outcomes", lambda request: calls.append(1) or real(request))
    return calls


def test_scores_cache_reuses_only_its_own_setting(tiny_dir, tmp_path, monkeypatch):
    from dataclasses import replace

    from onepass import evaluate as ev
    from onepass.readouts.likelihood import LikelihoodReadout

    engine = Engine(str(tiny_dir), dtype="float32", calibration=None, log=lambda _m: None)  # then bf16 is a change
    items = ev.load_corpus(_mini_corpus(tmp_path, 3, 1))
    cache, said = tmp_path / "scores.jsonl", []
    calls = _counting(engine, monkeypatch)
    first = ev.score_with_engine(engine, items, "likelihood", cache, log=said.append)
    assert len(calls) == 4 and not said
    again = ev.score_with_engine(engine, items, "likelihood", cache, log=said.append)
    assert len(calls) == 4 and not said  # all four served from the cache, the same numbers
    assert all(np.array_equal(a.scores, b.scores) and a.label_mass == b.label_mass for a, b in zip(first, again))
    ev.score_with_engine(engine, items, "slot", cache, log=said.append)  # another family: its own rows, no complaint
    assert len(calls) == 8 and not said

    monkeypatch.setitem(engine.readouts, "likelihood", LikelihoodReadout("sum"))  # the readout's options changed
    ev.score_with_engine(engine, items, "likelihood", cache, log=said.append)
    assert len(calls) == 12 and len(said) == 1 and "readout_options" in said[0] and '"sum"' in said[0]

    monkeypatch.setattr(engine, "dtype", replace(engine.dtype, value="bfloat16"))  # the dtype changed
    said.clear()
    ev.score_with_engine(engine, items, "slot", cache, log=said.append)
    assert len(calls) == 16 and len(said) == 1 and 'dtype "float32" -> "bfloat16"' in said[0]

    before = score_cache.setting(engine, "slot")
    monkeypatch.setattr(engine, "prior_correction", True)  # prior correction switched on: a key of its own
    assert score_cache.setting(engine, "slot") == {**before, "prior_correction": True}


def test_scores_cache_knows_the_weights_and_ignores_old_files(tiny_dir, tmp_path, monkeypatch):
    from onepass import evaluate as ev

    items = ev.load_corpus(_mini_corpus(tmp_path, 2, 0))
    cache, said = tmp_path / "scores.jsonl", []
    engine = Engine(str(tiny_dir), calibration=None, log=lambda _m: None)
    ev.score_with_engine(engine, items, "slot", cache, log=said.append)
    # Another model with the same id (a directory of the same name) and other weights: nothing reused.
    other = Engine(str(llama_with_smollm_tokenizer(tmp_path / "elsewhere" / tiny_dir.name, seed=6)), calibration=None,
                   log=lambda _m: None)
    assert other.info.id == engine.info.id
    calls = _counting(other, monkeypatch)
    ev.score_with_engine(other, items, "slot", cache, log=said.append)
    assert len(calls) == 2 and len(said) == 1 and "weights" in said[0]

    # Rows of the first format (keyed by model, readout and dtype only) are never served; a torn line is skipped.
    legacy = tmp_path / "legacy.jsonl"
    legacy.write_text("\n".join(json.dumps({"key": score_cache.legacy_key(engine.info.id, "slot", "float32", False, i["request"]),
                                            "id": i["id"], "scores": [0.0, 0.0], "label_mass": 1.0}) for i in items)
                      + '\n{"key": "torn')
    said.clear()
    scored = ev.score_with_engine(other, items, "slot", legacy, log=said.append)
    assert len(calls) == 4 and len(said) == 1 and "format 1" in said[0]
    assert not any(np.array_equal(s.scores, [0.0, 0.0]) for s in scored)
    assert set(score_cache.select(legacy, items, model=engine.info.id, readout="slot")) == {i["id"] for i in items}
    assert len(ev.score_with_engine(other, items, "slot", legacy)) == 2 and len(calls) == 4  # resumed after the torn line


def test_fit_families_fits_saves_and_reports(tiny_dir, tmp_path):
    from onepass import evaluate as ev
    from onepass.learn.fit import fit_families

    engine = Engine(str(tiny_dir), calibration=None, log=lambda _m: None)
    data = _mini_corpus(tmp_path)
    items, lines = ev.load_corpus(data), []
    out = tmp_path / "profile.json"
    profile = fit_families(engine, items, ["slot"], data_path=data, out=out, report_path=tmp_path / "r.json", log=lines.append)
    assert Profile.load(out).temperatures == profile.temperatures and set(profile.temperatures) == {"slot"}
    assert lines[-1] == f"wrote {out}" and all(line.startswith("slot/") and "held-out ECE" in line for line in lines[:-1])
    assert len(lines) - 1 == len(profile.temperatures["slot"])
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["profile"] == str(out) and set(report["curves"]) == {"slot before", "slot after"}
    updated = fit_families(engine, items, ["isolated"], data_path=data, out=out, update=True, log=lambda _m: None)
    assert set(updated.temperatures) == {"slot", "isolated"} == set(Profile.load(out).temperatures)
    replaced = fit_families(engine, items, ["isolated"], data_path=data, out=out, log=lambda _m: None)
    assert set(replaced.temperatures) == {"isolated"}


def test_a_fit_under_auto_fits_the_families_its_policy_picks_and_keeps_the_policy(tiny_dir, tmp_path):
    from onepass import evaluate as ev
    from onepass.learn.fit import fit_families

    measured = Profile(model="tiny", temperatures={}, readout_policy={"choice@3": "likelihood"},
                       policy_report={"by_option_count": {"rule": "r"}}).save(tmp_path / "measured.json")
    engine = Engine(str(tiny_dir), calibration=str(measured), log=lambda _m: None)
    assert engine.default_readout == "auto"
    data = _mini_corpus(tmp_path)
    out = tmp_path / "mine.json"
    profile = fit_families(engine, ev.load_corpus(data), data_path=data, out=out, log=lambda _m: None)
    assert set(profile.temperatures) == {"slot", "likelihood"}  # never "auto": answers are calibrated per family
    assert Profile.load(out).readout_policy == {"choice@3": "likelihood"}
    assert Profile.load(out).policy_report == {"by_option_count": {"rule": "r"}}


def test_prompt_version_is_per_family():
    # A family's rows depend on render.py, readouts/base.py, its own module and what it imports, so adding
    # or editing one family (a new head module, say) does not rescore the others' cached rows.
    names = {f: [p.name for p in score_cache.prompt_modules(f)] for f in ("slot", "isolated", "shortlist", "auto")}
    assert names["slot"] == ["base.py", "slot.py"]
    assert names["isolated"] == ["base.py", "isolated.py", "slot.py"]  # isolated builds on slot's rendering
    assert {"likelihood.py", "isolated.py", "shortlist.py"} <= set(names["shortlist"]) and "head.py" not in names["shortlist"]
    assert {"auto.py", "head.py", "slot.py"} <= set(names["auto"])  # auto hands questions to every family
    assert len({score_cache.prompt_version(f) for f in ("slot", "isolated", "likelihood", "auto")}) == 4


def test_the_shipped_smollm2_bf16_profile_reaches_an_sdk_caller_where_the_rule_passed(smol_bf16):
    """SmolLM2 answers at chance; in bf16 one temperature per type passed the held-out-domain rule for
    yes/no and choice (bench/lodo.py --profile-out), so those answers are flattened towards uniform and say
    x_calibrated: true, while score questions, where the rule failed, are served raw."""
    import httpx
    from typesafe_sdk import Choice, Noul, RetryPolicy, Score, TypeSafeClient

    from onepass.config import ServerConfig
    from onepass.server import create_app
    from tests.test_hardening_support import LoopbackServer

    profile = smol_bf16.profile
    assert profile is not None and set(profile.temperatures["slot"]) == {"noul", "choice"}
    raw_engine = Engine("smollm2-135m", dtype="bfloat16", calibration="none", log=lambda _m: None)
    state = "Hi, I was charged twice for my March subscription. Please refund one of the charges."
    questions = {"n": {"type": "noul", "instructions": "Is this message about billing?"},
                 "c": {"type": "choice", "instructions": "Which team?", "criteria": {"billing": None, "shipping": None, "tech": None}},
                 "s": {"type": "score", "instructions": "How urgent?", "criteria": ["low", "medium", "high"]}}
    raw = raw_engine.decide({"model": "jev-latest", "state": state, "questions": questions, "x_readout": "slot"})["answers"]
    settings = ServerConfig()
    with LoopbackServer(create_app(smol_bf16, settings), settings) as s, \
            TypeSafeClient(base_url=s.url, api_key="k", retry=RetryPolicy(max_retries=0), timeout=120) as client:
        got = client.system_one(state=state, questions={
            "n": Noul(instructions=questions["n"]["instructions"]),
            "c": Choice(instructions="Which team?", criteria=questions["c"]["criteria"]),
            "s": Score(instructions="How urgent?", criteria=questions["s"]["criteria"])})
        p_yes = raw["n"]["noul"]
        t_noul = profile.temperature("slot", "noul")
        want = softmax(np.log([p_yes, 1 - p_yes]), t_noul)[0]  # the raw yes/no distribution, divided by T
        # T > 1 flattens towards 0.5 (a raw 0.5, which bf16 can round to, stays 0.5)
        assert t_noul > 1 and abs(got.nouls["n"].noul - want) < 1e-6 and abs(got.nouls["n"].noul - 0.5) <= abs(p_yes - 0.5)
        names = list(questions["c"]["criteria"])
        want_c = softmax(np.log([raw["c"]["probabilities"][n] for n in names]), profile.temperature("slot", "choice"))
        assert max(abs(got.choices["c"].probabilities[n] - w) for n, w in zip(names, want_c)) < 1e-6
        assert abs(got.scores["s"].score - raw["s"]["score"]) < 1e-6  # the expected level, unchanged
        body = httpx.post(f"{s.url}/v1/systemone", headers={"Authorization": "Bearer k"}, timeout=120,
                          json={"model": "jev-latest", "state": state, "questions": questions}).json()["answers"]
        assert body["n"]["x_calibrated"] is True and body["c"]["x_calibrated"] is True and body["s"]["x_calibrated"] is False
