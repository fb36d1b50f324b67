"""From parsed flags to a running engine, the same way for every subcommand that loads a model:
`engine_config` (an EngineConfig from the flags), `check` (what is wrong, before anything loads),
`build_engine` (in-process, or over a remote vLLM / SGLang engine)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, Callable

from onepass import hardware, models
from onepass.config import EngineConfig, from_args
from onepass.errors import ConfigError

__all__ = ["engine_config", "check", "build_engine", "build_remote_engine", "hardware_line", "check_flags"]


def engine_config(args: argparse.Namespace, **extra) -> EngineConfig:
    """The EngineConfig the flags describe (flags not given keep EngineConfig's defaults)."""
    return from_args(EngineConfig, args, **extra)


def check(config: EngineConfig) -> str | None:
    """What would stop this config from loading, found before the model loads; None when it works."""
    if config.calibration not in (None, "auto", "none", "off") and not Path(config.calibration).is_file():
        return f"--calibration {config.calibration!r} is not a file; give a profile path, 'auto' or 'none'"
    if config.backend == "embedded":
        try:
            models.resolve(config.model)
            hardware.choose_dtype(config.dtype, hardware.choose_device(config.device).value)
        except (models.ModelError, ValueError) as error:
            return str(error)
    return None


def check_flags(args: argparse.Namespace, **extra) -> str | None:
    """`check` on the flags' config, with a bad flag value reported the same way; keeps the config in args."""
    try:
        args.engine_config = engine_config(args, **extra)
    except ConfigError as error:
        return str(error)
    return check(args.engine_config)


def hardware_line(config: EngineConfig) -> tuple[EngineConfig, str]:
    """`config` with --device / --dtype auto made concrete, and a line saying what was chosen and why."""
    device = hardware.choose_device(config.device)
    dtype = hardware.choose_dtype(config.dtype, device.value)
    chosen = config.replace(device=device.value, dtype=dtype.value)
    return chosen, f"device {device.value} ({device.reason}), dtype {dtype.value} ({dtype.reason})"


def build_engine(config: EngineConfig, log: Callable[[str], None] = print):
    """The engine `config` describes: the model in this process, or a remote engine's client."""
    if config.backend == "embedded":
        from onepass.engine import Engine

        return Engine(config=config, log=log)
    return build_remote_engine(config, log=log)


def _from_config(config) -> tuple[str, str | None, str | None, str | None, str | None, dict]:
    """(backend, url, model, key, tokenizer path, backend options) an EngineConfig's remote fields describe."""
    from onepass.backends.engine_client import RetryPolicy

    options: dict[str, Any] = {"timeout_s": config.backend_timeout_s, "retry": RetryPolicy(retries=config.backend_retries)}
    if config.backend == "vllm" and config.backend_dp_size:
        options["data_parallel_size"] = config.backend_dp_size
    return config.backend, config.backend_url, config.model, config.backend_key, config.tokenizer, options


def build_remote_engine(backend, url: str | None = None, model: str | None = None, key: str | None = None,
                        tokenizer_path: str | None = None, *, readout: str = "slot", engine_kwargs: dict | None = None,
                        log: Callable[[str], None] = print, **options):
    """An Engine reading label log-probabilities from `backend` ("vllm" or "sglang") at `url`.

    backend: "vllm" or "sglang"; or an EngineConfig, whose remote fields (backend, backend_url, model,
    backend_key, tokenizer, backend_timeout_s, backend_retries, backend_dp_size) say the same and whose other
    fields configure the Engine (then `url` ... `tokenizer_path`, `readout` and `engine_kwargs` are not given).
    model: the engine's served model name (what its /v1/models lists); also the id onepass answers with.
    key: the engine's API key (default: $ONEPASS_BACKEND_KEY); sent as a Bearer token, never logged.
    tokenizer_path: registry name, .gguf file or tokenizer directory; default: `model` itself when that is a
    registry name or a local path.
    engine_kwargs: more Engine settings (EngineConfig fields: abstain thresholds, debias_*, ...).
    options: timeout_s, connect_timeout_s, retry (RetryPolicy), on_missing ("flag" | "error"),
    max_prompts_per_call, affinity_header, and backend specifics (vLLM: mode, fallback_top_k,
    data_parallel_size; SGLang: route, max_label_ids).
    """
    from onepass.backends.engine_client import display_url
    from onepass.backends.remote import (
        BACKENDS,
        KEY_ENV,
        RemoteConfigError,
        build_backend,
        load_tokenizer,
    )
    from onepass.engine import Engine

    config = None
    if not isinstance(backend, str):  # an EngineConfig
        config = backend
        backend, url, model, key, tokenizer_path, configured = _from_config(config)
        options = {**configured, **options}
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {list(BACKENDS)}")
    if not url or not model:
        raise ValueError(f"backend {backend} needs a URL and the engine's served model name")
    key = key or os.environ.get(KEY_ENV) or None
    source = tokenizer_path or model
    try:
        tokenizer = load_tokenizer(source)
    except RemoteConfigError:
        if tokenizer_path:
            raise
        raise RemoteConfigError(
            f"model {model!r} is neither a registry name nor a local path, so onepass cannot load its tokenizer: "
            "pass --tokenizer with the served model's tokenizer directory (or .gguf file)"
        ) from None
    shown = display_url(url)
    remote = build_backend(backend, url, model, key, tokenizer, **options)
    settings = {} if config is not None else {"readout": readout, **(engine_kwargs or {})}
    engine = Engine(None, config=config, backend=remote, tokenizer=tokenizer, model_id=model, log=log, **settings)
    engine.info.description = f"{model}, served by {remote.client.engine}"
    probed = "probed" if remote.probed else "not reachable yet; probing on first use"
    log(f"onepass on {remote.client.engine} at {shown}: model {model} ({probed}; tokenizer from {source})")
    return engine
