"""One source for every setting: EngineConfig / ServerConfig fields, the CLI flags and Engine(...) agree."""

from __future__ import annotations

import argparse
import inspect
from dataclasses import fields

import pytest

from onepass import cli
from onepass.config import (
    SHAPE_LIMITS,
    EngineConfig,
    ServerConfig,
    flag_of,
    parse_bytes,
)
from onepass.errors import ConfigError, OnepassError
from onepass.readouts import READOUTS

CLI_ONLY = {"-h", "--help", "--api-key-file", "--no-auth"}  # serve flags that are not settings (keys never are)
MODEL_COMMANDS = ("serve", "decide", "eval", "calibrate", "bench", "run", "label", "mcp")


def subparsers() -> dict[str, argparse.ArgumentParser]:
    captured = {}
    original = argparse.ArgumentParser.parse_args

    def capture(self, argv=None, namespace=None):
        action = next(a for a in self._actions if isinstance(a, argparse._SubParsersAction))
        captured.update(action.choices)
        raise SystemExit(0)

    argparse.ArgumentParser.parse_args = capture
    try:
        with pytest.raises(SystemExit):
            cli.main([])
    finally:
        argparse.ArgumentParser.parse_args = original
    return captured


def flags(parser: argparse.ArgumentParser) -> dict[str, str]:
    return {option: action.dest for action in parser._actions for option in action.option_strings}


def test_every_setting_has_one_flag_and_every_serve_flag_one_setting():
    serve = flags(subparsers()["serve"])
    settings = {flag_of(f): f.name for cls in (EngineConfig, ServerConfig) for f in fields(cls) if f.metadata["cli"]}
    for flag, name in settings.items():
        assert serve.get(flag) == name, f"{name} has no flag {flag} on onepass serve"
    for flag in serve:
        assert flag in settings or flag in CLI_ONLY, f"onepass serve {flag} sets nothing in EngineConfig / ServerConfig"
    assert [f.name for f in fields(ServerConfig) if not f.metadata["cli"]] == ["api_keys"]


@pytest.mark.parametrize("command", MODEL_COMMANDS)
def test_every_command_that_loads_a_model_takes_every_engine_flag(command):
    """calibrate and bench once built Engine directly and dropped --readout, --backend, --torch-threads ..."""
    parser = subparsers()[command]
    have = flags(parser)
    for f in fields(EngineConfig):
        assert have.get(flag_of(f)) == f.name, f"onepass {command} lacks {flag_of(f)}"


def test_decide_enforces_the_servers_shape_limits_by_the_same_flags():
    have = flags(subparsers()["decide"])
    assert SHAPE_LIMITS and all(have.get("--" + name.replace("_", "-")) == name for name in SHAPE_LIMITS)


def test_engine_takes_exactly_the_config_fields():
    accepted = set(inspect.signature(EngineConfig).parameters)
    assert accepted == {f.name for f in fields(EngineConfig)}
    with pytest.raises(TypeError):
        EngineConfig(readout_optoins={})  # a misspelt setting is an error, not ignored


def test_choices_come_from_what_exists():
    choices = {f.name: f.metadata["choices"] for f in fields(EngineConfig)}
    assert choices["readout"] == tuple(READOUTS)


@pytest.mark.parametrize("cls, changes, says", [
    (EngineConfig, {"readout": "slto"}, "--readout"),
    (EngineConfig, {"abstain_mass": 1.5}, "--abstain-mass"),
    (EngineConfig, {"shortlist_k": 1}, "--shortlist-k"),
    (EngineConfig, {"batch_wait_ms": -1.0}, "--batch-wait-ms"),
    (EngineConfig, {"prior_correction": True, "readout": "debiased"}, "--prior-correction"),
    (EngineConfig, {"backend": "vllm"}, "--backend-url"),
    (EngineConfig, {"memory_budget": "lots"}, "--memory-budget"),
    (ServerConfig, {"workers": 0}, "--workers"),
    (ServerConfig, {"body_timeout_s": float("nan")}, "--body-timeout"),
    (ServerConfig, {"max_options": 256}, "--max-options"),
    (ServerConfig, {"max_body_bytes": 10, "max_decompressed_bytes": 5}, "--max-decompressed-bytes"),
    (ServerConfig, {"port": True}, "--port"),
])
def test_bad_settings_are_refused_naming_the_flag(cls, changes, says):
    with pytest.raises(ConfigError, match=says) as caught:
        cls(**changes)
    assert isinstance(caught.value, OnepassError) and isinstance(caught.value, ValueError)


def test_flags_parse_into_the_same_config_the_keywords_build():
    parser = argparse.ArgumentParser()
    cli.model_args(parser)
    args = parser.parse_args(["--readout", "likelihood", "--likelihood-normalise", "sum", "--memory-budget", "2G",
                              "--prior-correction", "--torch-threads", "1"])
    from onepass.engine_setup import engine_config

    assert engine_config(args) == EngineConfig(readout="likelihood", likelihood_normalise="sum", memory_budget=2 << 30,
                                               prior_correction=True, torch_threads=1)
    assert engine_config(parser.parse_args([])) == EngineConfig()
    assert parse_bytes("512MiB") == 512 << 20


def test_readout_options_reach_the_readouts():
    options = EngineConfig(debias_max_reads=3, debias_entropy=0.2, likelihood_normalise="sum", shortlist_k=5,
                           shortlist_rerank="isolated").readout_options()
    assert options["debiased"] == {"max_reads": 3, "entropy_threshold": 0.2, "order": "canonical"}
    assert options["likelihood"] == {"normalise": "sum"}
    assert options["shortlist"] == {"k": 5, "normalise": "sum", "first": "likelihood", "rerank": "isolated"}
    for name, kwargs in options.items():
        READOUTS[name](**kwargs)  # every option is a real constructor argument
