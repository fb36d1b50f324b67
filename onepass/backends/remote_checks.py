"""Start-up checks of a remote engine: it serves the model onepass was told to read, accepts the key, and
tokenises like the local tokenizer. A failure is a `RemoteConfigError` naming the flag to fix.
"""

from __future__ import annotations

import logging

from onepass.backends.engine_client import EngineClient, EngineHTTPError, engine_error
from onepass.errors import APIError, ConfigError

__all__ = ["RemoteConfigError", "check_tokenizer", "pick_model", "probe_text", "served_models"]

log = logging.getLogger("onepass.backends")


class RemoteConfigError(ConfigError, RuntimeError):
    """The engine answers, but not in a way onepass can use (wrong model, tokenizer, version)."""


def served_models(client: EngineClient) -> list[dict]:
    """The engine's /v1/models cards (vLLM and SGLang both serve the OpenAI shape)."""
    try:
        body = client.get("/v1/models")
    except EngineHTTPError as error:
        if error.status in (401, 403):
            raise RemoteConfigError(
                f"the {client.engine} engine at {client.shown_url} refused onepass (HTTP {error.status}: {error.message}); "
                "check --backend-key / $ONEPASS_BACKEND_KEY"
            ) from None
        raise engine_error(client.engine, f"GET /v1/models answered HTTP {error.status}: {error.message}") from None
    cards = body.get("data") if isinstance(body, dict) else None
    if not isinstance(cards, list):
        raise engine_error(client.engine, "GET /v1/models did not return a model list")
    return [c for c in cards if isinstance(c, dict)]


def pick_model(client: EngineClient, model: str) -> dict:
    """The card of `model`; a clear start-up error when the engine serves something else."""
    cards = served_models(client)
    for card in cards:
        if card.get("id") == model:
            return card
    names = [c.get("id") for c in cards]
    raise RemoteConfigError(
        f"the {client.engine} engine at {client.shown_url} does not serve model {model!r}; it serves {names}. "
        "Pass --model with the engine's served model name (vLLM: --served-model-name)."
    )


def probe_text(tokenizer) -> str:
    """A text with the chat template's markers and the labels: if it tokenises alike on both sides, prompts do."""
    body = "Probe: Does the content match? Answer with Yes or No. Options: A. one B. two. Levels 0 1 2 3 9."
    if getattr(tokenizer, "chat_template", None):
        try:
            text = tokenizer.apply_chat_template(
                [{"role": "system", "content": "You are a decision model."}, {"role": "user", "content": body}],
                tokenize=False, add_generation_prompt=True, enable_thinking=False,
            )
            return text + "Yes"
        except Exception:  # a template that needs other roles: the plain text still checks the vocabulary
            pass
    return body + "\nAnswer: Yes"


def check_tokenizer(client: EngineClient, model: str, tokenizer) -> bool:
    """Compare the local tokenizer with the served one on a probe text. False when the engine cannot say."""
    text = probe_text(tokenizer)
    local = tokenizer.encode(text, add_special_tokens=False)
    remote = None
    for path in ("/tokenize", "/v1/tokenize"):
        try:
            body = client.post(path, {"model": model, "prompt": text, "add_special_tokens": False}, retry=False)
        except (EngineHTTPError, APIError):
            continue
        tokens = body.get("tokens") if isinstance(body, dict) else None
        if isinstance(tokens, list) and all(isinstance(t, int) for t in tokens):
            remote = tokens
            break
    if remote is None:
        log.warning("%s engine: no /tokenize; cannot check that the local tokenizer matches the served model", client.engine)
        return False
    if remote != local:
        at = next((i for i, (a, b) in enumerate(zip(local, remote)) if a != b), min(len(local), len(remote)))
        raise RemoteConfigError(
            f"the local tokenizer does not match the one model {model!r} is served with at {client.shown_url}: "
            f"a probe text tokenises differently from token {at} on (local {local[at:at + 5]}, engine "
            f"{remote[at:at + 5]}). Point --tokenizer at the served model's tokenizer."
        )
    return True
