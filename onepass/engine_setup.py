"""From parsed flags to a running engine, the same way for every subcommand that loads a model:
`engine_config` (an EngineConfig from the flags), `check` (what is wrong, before anything loads),
`build_engine` (in-process, or over a remote vLLM / SGLang engine)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

from onepass import hardware, models
from onepass.config import EngineConfig, from_args
from onepass.errors import ConfigError

__all__ = ["engine_config", "check", "build_engine", "engine_factory", "hardware_line", "check_flags"]


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
    from onepass.backends.remote import build_remote_engine

    return build_remote_engine(config, log=log)


def engine_factory(args: argparse.Namespace, log: Callable[[str], None] = print) -> Callable[[], object]:
    """A zero-argument builder of the flags' engine (the server loads it in the background)."""
    config = getattr(args, "engine_config", None) or engine_config(args)
    return lambda: build_engine(config, log)
