"""`onepass bench` on a tiny random model: the report has every key, and its numbers are consistent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from onepass import Engine
from onepass.bench import bench, raw_forward_seconds, workload
from tests.tiny_random import llama_with_smollm_tokenizer


def test_bench_report(tmp_path):
    engine = Engine(str(llama_with_smollm_tokenizer(tmp_path / "tiny")), log=lambda _m: None)
    result = bench(engine, state_tokens=120, questions=4, options=5, concurrency=2, requests=4, repeats=2,
                   generation_tokens=4, generation_questions=2)
    for key in ("decisions_per_s", "p50_ms", "p95_ms", "overhead_pct", "speedup_vs_generation"):
        assert isinstance(result[key], float), key
    assert result["decisions_per_s"] > 0 and result["p95_ms"] >= result["p50_ms"] > 0
    assert result["raw_forward_ms"] > 0 and result["engine_request_ms"] > 0
    # overhead_pct comes from unrounded seconds; the reported ms are rounded to 0.1 ms, which on a tiny
    # model's ~10 ms requests moves the recomputed percentage by up to 100 * 0.1 / raw_ms.
    recomputed = 100 * (result["engine_request_ms"] - result["raw_forward_ms"]) / result["raw_forward_ms"]
    assert abs(result["overhead_pct"] - recomputed) < 0.05 + 100 * 0.1 / result["raw_forward_ms"] * (1 + result["engine_request_ms"] / result["raw_forward_ms"])
    assert result["workload"]["questions"] == 4 and 100 <= result["workload"]["state_tokens"] <= 200
    request = workload(engine, 120, 4, 5)
    assert len(request["questions"]) == 4 and all(len(q["criteria"]) == 5 for q in request["questions"].values())
    assert raw_forward_seconds(engine, request, 1) > 0


def test_bench_cli_writes_json(tmp_path):
    directory = llama_with_smollm_tokenizer(tmp_path / "tiny")
    out = tmp_path / "b.json"
    subprocess.run([sys.executable, "-m", "onepass.cli", "bench", "--model", str(directory), "--state-tokens", "64",
                    "--questions", "2", "--options", "3", "--concurrency", "1", "--requests", "2", "--json", str(out)],
                   check=True, capture_output=True, text=True, timeout=600)
    result = json.loads(out.read_text())
    assert result["model"] == "tiny" and result["speedup_vs_generation"] > 0


def _bench_module(name: str = "many_options"):
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_many_options_policy_switches_only_where_a_family_beats_slot_beyond_noise_and_within_latency():
    mo = _bench_module()

    def rows(band, correct, seconds):
        return [{"id": f"{band}-{i}", "band": band, "correct": c, "seconds": seconds} for i, c in enumerate(correct)]

    n = 40
    results = {
        "slot": {"20": rows("20", [1] * 20 + [0] * 20, 1.0), "100": rows("100", [1] * 4 + [0] * 36, 2.0),
                 "200+": rows("200+", [1] * 2 + [0] * 38, 4.0)},
        # At 20 options as good as slot (no switch); at 100 and 225 far better and 1.2x slot's latency.
        "likelihood": {"20": rows("20", [1] * 21 + [0] * 19, 1.1), "100": rows("100", [1] * 20 + [0] * 20, 2.4),
                       "200+": rows("200+", [1] * 16 + [0] * 24, 4.8)},
        # Better still at 225 options but 3x slot's latency: not allowed.
        "shortlist-k8": {"200+": rows("200+", [1] * 30 + [0] * 10, 12.0)},
    }
    assert all(len(r) == n for fam in results.values() for r in fam.values())
    policy, report = mo.choose_policy(results, {"20": 20, "100": 100, "200+": 225})
    assert policy == {"choice@100": "likelihood"}
    assert report["20"]["chosen"] == "slot" and report["200+"]["chosen"] == "likelihood"
    assert report["200+"]["vs_slot"]["shortlist-k8"]["latency_vs_slot"] == 3.0
    # A larger band keeps the family on a difference within noise, as long as it is no worse than slot ...
    results["likelihood"]["200+"] = rows("200+", [1] * 3 + [0] * 37, 4.8)
    policy, report = mo.choose_policy(results, {"20": 20, "100": 100, "200+": 225})
    assert policy == {"choice@100": "likelihood"} and report["200+"]["why"] == "kept from the band below"
    # ... and goes back to slot where slot measures better, a key of its own so each holds up to the next.
    results["likelihood"]["200+"] = rows("200+", [1] * 1 + [0] * 39, 4.8)
    assert mo.choose_policy(results, {"20": 20, "100": 100, "200+": 225})[0] == {"choice@100": "likelihood", "choice@225": "slot"}


def test_many_options_bench_runs_and_writes_a_loadable_policy(tmp_path):
    from onepass.learn.calibration import Profile

    model = llama_with_smollm_tokenizer(tmp_path / "tiny", seed=5)
    out = subprocess.run([sys.executable, "bench/many_options.py", "--model", str(model), "--dtype", "float32",
                          "--bands", "20", "--per-band", "2", "--families", "slot,likelihood,shortlist-k4",
                          "--cache", str(tmp_path / "c.jsonl"), "--json", str(tmp_path / "r.json"),
                          "--policy-out", str(tmp_path / "p.json")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    table = json.loads((tmp_path / "r.json").read_text())["table"]
    assert set(table) == {"slot", "likelihood", "shortlist-k4"} and table["slot"]["20"]["n"] == 2
    assert table["slot"]["20"]["reads_per_question"] == 1 and table["likelihood"]["20"]["reads_per_question"] == 20
    assert table["likelihood"]["20"]["paired"]["n"] == 2
    profile = Profile.load(tmp_path / "p.json")
    assert profile.policy_report["by_option_count"]["bands"]["20"]["options"] == 20
    assert set(profile.readout_policy) <= {"choice@20"}
    rows = [json.loads(line) for line in (tmp_path / "c.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and all(1 <= r["gold_rank"] <= 20 for r in rows)
    assert all("gold_shortlisted" in r for r in rows if r["family"] == "shortlist-k4")


def test_lodo_ships_a_temperature_only_where_no_held_out_domain_gets_worse_beyond_the_margin(tmp_path):
    shipping_choice = _bench_module("lodo").shipping_choice

    def method(eces, worst):
        return {"by_type": {t: {"ece": e} for t, e in zip(("noul", "choice", "score"), eces)},
                "worst_domain_ece_change": dict(zip(("noul", "choice", "score"), worst))}

    by_method = {"none": method((0.10, 0.10, 0.10), (0, 0, 0)),
                 "T": method((0.03, 0.05, 0.20), (0.019, 0.021, 0.0)),  # noul passes; choice one domain too far; score worse pooled
                 "T-reg": method((0.04, 0.08, 0.09), (0.010, 0.015, 0.03)),  # noul passes (higher ECE); choice passes
                 "bias+T": method((0.01, 0.01, 0.01), (0.0, 0.0, 0.0))}  # not a shippable method: never chosen
    assert shipping_choice(by_method) == {"noul": "T", "choice": "T-reg", "score": None}

    # End to end on committed scores: the default model's table passes nowhere, so its profile ships no temperature.
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "bench/lodo.py", "--scores",
                          "docs/calibration/qwen2.5-coder-1.5b-instruct.bfloat16.slot-scores.jsonl", "--dtype", "bfloat16",
                          "--profile-out", str(tmp_path / "p.json"), "--json", str(tmp_path / "r.json")],
                         capture_output=True, text=True, timeout=600, cwd=root)
    assert out.returncode == 0, out.stderr
    from onepass.learn.calibration import Profile

    profile = Profile.load(tmp_path / "p.json")
    assert profile.temperatures == {} and profile.report["chosen"] == {"noul": None, "choice": None, "score": None}
    result = json.loads((tmp_path / "r.json").read_text())
    assert result["items"] == 1594 and len(result["domains"]) == 16
    by_domain, none = result["by_domain"], result["by_method"]["none"]["by_type"]
    for t in ("noul", "choice", "score"):  # the per-domain rows partition every type's items
        mine = [e for k, e in by_domain.items() if k.endswith("/" + t)]
        assert sum(e["n"] for e in mine) == none[t]["n"]
        assert abs(sum(e["n"] * e["accuracy"] for e in mine) / none[t]["n"] - none[t]["accuracy"]) < 1e-9
    assert all(e["above_chance"] == (e["accuracy"] - e["chance"] > 2 * e["se"]) for e in by_domain.values())


def test_prompt_variants_choose_on_one_half_of_the_domains_and_test_on_the_other(tmp_path):
    pv = _bench_module("prompt_variants")
    corpus = [json.loads(line) for line in (Path(__file__).resolve().parents[1] / "data/decisions/corpus.jsonl").open()]
    domains = sorted({i["domain"] for i in corpus})
    split = pv.halves(domains)
    first = _bench_module("lodo").first_edition_domains()
    assert split["select"].isdisjoint(split["test"]) and split["select"] | split["test"] == set(domains)
    for edition in (first, set(domains) - first):  # each half holds half of each edition's domains
        assert abs(len(split["select"] & edition) - len(split["test"] & edition)) <= 1
    assert pv.halves(list(reversed(domains))) == split  # fixed by the names, not their order

    # End to end on a tiny model: the shipped prompt scored against itself gains exactly nothing, another
    # wording reads different logits.
    from onepass import render

    system = render.SYSTEM
    model = llama_with_smollm_tokenizer(tmp_path / "tiny", seed=3)
    out = subprocess.run([sys.executable, "bench/prompt_variants.py", "--model", str(model), "--dtype", "float32",
                          "--fraction", "0.01", "--variants", "shipped", "rules", "--out", str(tmp_path / "v.jsonl"),
                          "--json", str(tmp_path / "v.json")], capture_output=True, text=True, timeout=600,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads((tmp_path / "v.json").read_text())
    assert result["select"]["shipped"]["all"]["gain"] == 0.0 and result["select"]["shipped"]["all"]["n"] > 0
    assert set(result["select_domains"]) == split["select"] and result["test"]["all"]["n"] == result["n_test"]
    rows = [json.loads(line) for line in (tmp_path / "v.jsonl").read_text().splitlines()]
    shipped = {r["id"]: r["scores"] for r in rows if r["variant"] == "shipped"}
    rules = {r["id"]: r["scores"] for r in rows if r["variant"] == "rules"}
    assert rules and any(rules[k] != shipped[k] for k in rules)

    # In process, a variant that swaps the chat template's system turn puts the served prompt back after.
    import argparse

    template = render.Renderer._template
    done: dict = {}
    args = argparse.Namespace(model=str(model), dtype="float32", out=str(tmp_path / "w.jsonl"))
    pv.read_variant("template-default", corpus[:2], args, done)
    assert len(done) == 2 and render.SYSTEM == system and render.Renderer._template is template
