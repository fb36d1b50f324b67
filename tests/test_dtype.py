"""--dtype / --device auto: the choice and its reason, the cache written in the served dtype, calibration
profiles per dtype, and what /v1/models reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from onepass import Engine, hardware, models
from onepass.learn.calibration import Profile, find_profile

AMX = {"fpu", "avx512f", "amx_tile", "amx_bf16", "avx512_bf16"}


def test_auto_dtype_takes_bf16_only_with_native_bf16_units():
    assert hardware.choose_dtype("auto", "cpu", AMX).value == "bfloat16"
    assert "amx_bf16" in hardware.choose_dtype("auto", "cpu", AMX).reason
    assert hardware.choose_dtype("auto", "cpu", {"avx512_bf16"}).value == "bfloat16"
    plain = hardware.choose_dtype("auto", "cpu", {"avx2", "fma"})
    assert plain.value == "float32" and "emulated" in plain.reason
    assert hardware.choose_dtype("float32", "cpu", AMX) == hardware.Choice("float32", "asked for")
    with pytest.raises(ValueError, match="unknown dtype"):
        hardware.choose_dtype("int3", "cpu")


def test_cpu_flags_are_read_from_cpuinfo(tmp_path):
    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nflags\t\t: fpu sse avx512_bf16 amx_bf16\n\nprocessor\t: 1\nflags\t\t: fpu\n")
    assert hardware.cpu_flags(info) == {"fpu", "sse", "avx512_bf16", "amx_bf16"}
    assert hardware.cpu_flags(tmp_path / "missing") == set()


def test_auto_device_is_the_cpu_without_a_gpu_and_cuda_is_refused_clearly():
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    assert hardware.choose_device("auto").value == "cpu"
    with pytest.raises(ValueError, match="no CUDA GPU"):
        hardware.choose_device("cuda")


def test_engine_serves_the_auto_dtype_from_a_cache_in_that_dtype(tmp_path, monkeypatch):
    """The registry cache of the served dtype holds weights in that dtype (half the bytes for bf16)."""
    monkeypatch.setenv("ONEPASS_CACHE_DIR", str(tmp_path))
    engine = Engine("smollm2-135m", dtype="bfloat16", calibration=None, log=lambda _m: None)
    assert engine.dtype.value == "bfloat16" and next(engine.backend.model.parameters()).dtype == torch.bfloat16
    bf16_dir = models.weights_dir("smollm2-135m", "bfloat16")
    assert json.loads((bf16_dir / "onepass-cache.json").read_text())["dtype"] == "bfloat16"
    from safetensors import safe_open

    with safe_open(str(bf16_dir / "model.safetensors"), "pt") as f:
        assert {f.get_slice(k).get_dtype() for k in f.keys()} == {"BF16"}
    listed = engine.model_list()[0]
    assert listed["x_dtype"] == "bfloat16" and listed["x_dtype_reason"] == "asked for" and listed["x_device"] == "cpu"
    answer = engine.decide({"model": "jev-latest", "state": "hi", "questions": {"q": {"type": "noul", "instructions": "?"}}})
    assert 0.0 <= answer["answers"]["q"]["noul"] <= 1.0
    # A float32 load next to it converts from nothing but the GGUF and keeps its own cache.
    fp32 = Engine("smollm2-135m", dtype="float32", calibration=None, log=lambda _m: None)
    assert next(fp32.backend.model.parameters()).dtype == torch.float32
    assert (models.weights_dir("smollm2-135m", "float32") / "model.safetensors").stat().st_size > \
        1.9 * (bf16_dir / "model.safetensors").stat().st_size


def test_auto_on_this_machine_follows_the_processor(smol_auto):
    expected = hardware.choose_dtype("auto", "cpu")
    assert smol_auto.dtype.value == expected.value
    assert next(smol_auto.backend.model.parameters()).dtype == getattr(torch, expected.value)


def test_profiles_are_found_per_dtype_and_a_mismatched_one_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("ONEPASS_CACHE_DIR", str(tmp_path))
    path = models.cache_dir("smollm2-135m") / "calibration.float32.json"
    Profile(model="smollm2-135m", temperatures={"slot": {"noul": 2.0}}, dtype="float32").save(path)
    assert find_profile("smollm2-135m", "float32").temperature("slot", "noul") == 2.0
    # bf16 finds the packaged bf16 profile, never the user's float32 one; float16 has none at all.
    assert find_profile("smollm2-135m", "bfloat16").temperature("slot", "noul") != 2.0
    assert find_profile("smollm2-135m", "float16") is None
    served = Engine("smollm2-135m", dtype="bfloat16", log=lambda _m: None)
    assert served.profile.dtype == "bfloat16" and served.model_list()[0]["x_calibration"].startswith("calibrated")
    with pytest.raises(ValueError, match="fitted in float32 but the model is served in bfloat16"):
        Engine("smollm2-135m", dtype="bfloat16", calibration=str(path), log=lambda _m: None)


def test_every_packaged_profile_names_its_dtype_and_ships_only_what_passed_the_rule():
    # A packaged temperature ships only for a type where bench/lodo.py's shipping rule passed
    # (docs/calibration.md): pooled held-out ECE below uncalibrated, no held-out domain worse by > 0.02.
    # A profile may also carry only a measured readout policy (docs/readouts.md). The withdrawn
    # first-edition profile, kept as a record, is checked for its model and dtype like any other.
    root = Path(__file__).parent.parent
    packaged = sorted((root / "onepass" / "profiles").glob("*.json"))
    withdrawn = root / "docs/calibration/qwen2.5-coder-1.5b-instruct.float32.withdrawn-profile.json"
    for path, (model, dtype) in [(p, p.stem.rsplit(".", 1)) for p in packaged] + [(withdrawn, ("qwen2.5-coder-1.5b-instruct", "float32"))]:
        profile = Profile.load(path)
        assert (profile.model, profile.dtype) == (model, dtype) and (profile.temperatures or profile.readout_policy)
    shipped = 0
    for path in packaged:
        profile = Profile.load(path)
        for family, per_type in profile.temperatures.items():
            report = profile.report[family]
            for qtype in per_type:
                method = profile.report["chosen"][qtype]
                assert method in ("T", "T-reg"), (path.name, qtype)
                assert report["held_out_after"][qtype]["ece"] < report["held_out_before"][qtype]["ece"]
                assert report["worst_domain_ece_change"][qtype][method] <= 0.02
                shipped += 1
    assert shipped >= 1  # SmolLM2 in bf16 passes for yes/no and choice; the default model passes nowhere
    assert not Profile.load(root / "onepass/profiles/qwen2.5-coder-1.5b-instruct.bfloat16.json").temperatures


def test_int8_quantises_every_linear_but_the_vocabulary_projection(smol):
    from torch.ao.nn.quantized.dynamic import Linear as DynamicLinear

    engine = Engine("smollm2-135m", dtype="int8", calibration=None, log=lambda _m: None)
    model = engine.backend.model
    assert engine.dtype.value == "int8" and engine.model_list()[0]["x_dtype"] == "int8"
    quantised = [m for m in model.modules() if isinstance(m, DynamicLinear)]
    assert len(quantised) == 7 * model.config.num_hidden_layers  # q, k, v, o, gate, up, down per layer
    assert type(model.get_output_embeddings()) is torch.nn.Linear  # label logits keep float precision
    request = {"model": "jev-latest", "state": "My parcel arrived broken.",
               "questions": {"q": {"type": "choice", "criteria": {"shipping": None, "billing": None}}}}
    got, ref = engine.decide(request)["answers"]["q"], smol.decide(request)["answers"]["q"]
    assert abs(sum(got["probabilities"].values()) - 1) < 1e-9
    assert got["probabilities"] != ref["probabilities"]  # really another number format
    with pytest.raises(ValueError, match="CPU only"):
        hardware.choose_dtype("int8", "cuda")
