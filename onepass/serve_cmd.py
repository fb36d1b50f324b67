"""`onepass serve`: API keys, the loopback rule, the start-up line, then uvicorn on the app."""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import sys
from pathlib import Path

from onepass import engine_setup, models
from onepass.learn import calibration
from onepass.config import EngineConfig, ServerConfig, add_flags, from_args
from onepass.errors import ConfigError

__all__ = ["register", "serve", "keys_from_env"]


def keys_from_env(api_key_file: str | None) -> list[str]:
    """API keys from ONEPASS_API_KEYS (comma-separated) and from a key file (--api-key-file or
    ONEPASS_API_KEY_FILE: one key per line, blank lines and # comments ignored). Keys are never printed."""
    keys = [k.strip() for k in os.environ.get("ONEPASS_API_KEYS", "").split(",") if k.strip()]
    path = api_key_file or os.environ.get("ONEPASS_API_KEY_FILE")
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(f"the API key file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as error:
            raise ConfigError(f"the API key file {path} cannot be read ({type(error).__name__}: {getattr(error, 'strerror', None) or 'not UTF-8 text'})") from None
        from_file = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
        if not from_file:
            raise ConfigError(f"the API key file {path} has no keys (one key per line; # starts a comment)")
        try:
            if Path(path).stat().st_mode & 0o077:
                print(f"warning: the API key file {path} is readable by other users; chmod 600 it", file=sys.stderr)
        except OSError:
            pass
        keys += from_file
    return keys


def loopback(host: str) -> bool:
    """True only for addresses that cannot be reached from another machine."""
    host = host.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _calibration_note(config: EngineConfig) -> str:
    """The calibration the engine will apply, known before the model loads (for the serve line)."""
    if config.calibration_path is None:
        return "calibration off"
    if config.calibration != "auto":
        return f"calibration {config.calibration}"
    if config.backend != "embedded":
        return "uncalibrated (remote engine)"
    for path in calibration.profile_paths(models.resolve(config.model)[0], config.dtype):
        if path.exists():
            return _profile_note(calibration.Profile.load(path), path.name, config.readout)
    return f"uncalibrated (no profile for this model in {config.dtype})"


def _profile_note(profile, name: str, readout: str) -> str:
    """What a found profile changes: its fitted temperatures (none: uncalibrated), and with --readout auto the
    readout policy it carries (the default model's profile holds only that)."""
    fitted = sorted(family for family, per_type in profile.temperatures.items() if per_type)
    policy = readout == "auto" and bool(profile.readout_policy)
    if fitted:
        return f"calibration {name} ({', '.join(fitted)})" + ("; readout policy from it" if policy else "")
    if policy:
        return f"uncalibrated; readout policy from {name}"
    return f"uncalibrated ({name} has no fitted temperatures)"


def serve(args) -> int:
    def fail(message: str) -> int:
        print(f"onepass serve: {message}", file=sys.stderr)
        return 2

    try:
        keys = keys_from_env(args.api_key_file)
        settings = from_args(ServerConfig, args, api_keys=keys)
    except ConfigError as error:
        return fail(str(error))
    if keys and args.no_auth:
        return fail("--no-auth conflicts with the API keys given (ONEPASS_API_KEYS / --api-key-file); drop one of them")
    if not keys and not loopback(settings.host) and not args.no_auth:
        return fail(f"refusing to listen on {settings.host} without API keys: set ONEPASS_API_KEYS, pass --api-key-file, "
                    "or pass --no-auth to run an open server deliberately")
    problem = engine_setup.check_flags(args)
    if problem:
        return fail(problem)
    config = args.engine_config
    if config.backend == "embedded":
        config, _ = engine_setup.hardware_line(config)
        where = f"{config.dtype} on {config.device}"
    else:
        where = f"{config.backend} engine at {config.backend_url}"

    import uvicorn

    from onepass.listener import uvicorn_config
    from onepass.server import create_app

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    app = create_app(lambda: engine_setup.build_engine(config), settings)
    auth = f"{len(keys)} API key(s)" if keys else ("auth off (--no-auth)" if args.no_auth else "auth off (loopback only)")
    host = f"[{settings.host}]" if ":" in settings.host and not settings.host.startswith("[") else settings.host
    browse = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "[::]", "") else host
    print(f"onepass on http://{host}:{settings.port} · model {config.model or models.DEFAULT_MODEL} · {where} · readout "
          f"{config.readout} · {_calibration_note(config)} · playground http://{browse}:{settings.port}/ · {auth} "
          "(the model loads in the background; GET /readyz says when)", flush=True)
    logging.getLogger("onepass").info(json.dumps({"event": "settings", **settings.describe()}))
    uvicorn.Server(uvicorn_config(app, settings, settings.host, settings.port, log_level="info")).run()
    return 0


def register(sub) -> None:
    p = sub.add_parser("serve", help="run the HTTP server",
                       description="Run the HTTP server. Every limit rejects requests past it (never clamps); "
                                   "defaults and behaviour are in docs/operations.md.")
    add_flags(p, EngineConfig)
    add_flags(p, ServerConfig)
    p.add_argument("--api-key-file", default=None,
                   help="one key per line, # comments (also: ONEPASS_API_KEY_FILE=PATH, ONEPASS_API_KEYS=k1,k2)")
    p.add_argument("--no-auth", action="store_true", help="allow listening on a non-loopback address without keys")
    p.set_defaults(fn=serve)
