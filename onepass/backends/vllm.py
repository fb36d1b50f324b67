"""vLLM backend: label log-probabilities through the OpenAI-compatible `/v1/completions`.

A request's questions go out as one call: `prompt` is a list of token-id lists (prefix + each read's suffix),
`max_tokens: 1`, `temperature: 0`, `logprobs: 1`, `logprob_token_ids: [the labels]` and
`return_tokens_as_token_ids: true`. `choices[i].logprobs.top_logprobs[0]` then holds every requested id with
its full-vocabulary log-probability (vLLM's default `logprobs_mode=raw_logprobs`: before temperature or
penalties). The prompts share the prefix, and vLLM's automatic prefix caching serves it once per call.

vLLM caps `logprob_token_ids` at 128 ids: a larger label union goes out in several calls over the same
prompts (the prefix cache makes the repeats cheap).

Older servers (before 0.32) ignore `logprob_token_ids`. The start-up probe sees that, and the backend falls
back to the top-K list (`logprobs: K`, K as large as the server's `--max-logprobs` allows). A label outside
the top K did not come back: it is NaN in the returned array (the readouts leave it out, so it adds nothing
to x_label_mass, and flag it); with on_missing="error" the request fails with 502 instead.

The read loop, grouping and missing-label handling are `RemoteBackend`'s; this module supplies the probe
and one `/v1/completions` call.
"""

from __future__ import annotations

import logging
import re

from onepass.backends.base import Read
from onepass.backends.engine_client import EngineClient, EngineHTTPError, engine_error
from onepass.backends.remote import RemoteBackend, RemoteConfigError, state_key

__all__ = ["MAX_LOGPROB_TOKEN_IDS", "VLLMBackend"]

log = logging.getLogger("onepass.backends")

MAX_LOGPROB_TOKEN_IDS = 128  # vLLM's SamplingParams.MAX_LOGPROB_TOKEN_IDS
TOKEN_KEY = re.compile(r"^token_id:(-?\d+)$")


class VLLMBackend(RemoteBackend):
    """Label reads from vLLM's /v1/completions: `logprob_token_ids` (vLLM 0.32+), else the top-K list."""

    name = "vllm"

    def __init__(self, client: EngineClient, model: str, tokenizer=None, *, fallback_top_k: int = 1000,
                 mode: str = "auto", data_parallel_size: int | None = None, **kw):
        if mode not in ("auto", "token_ids", "top_k"):
            raise ValueError("mode must be 'auto', 'token_ids' or 'top_k'")
        if data_parallel_size is not None and data_parallel_size < 1:
            raise ValueError("data_parallel_size must be at least 1")
        # vLLM started with --data-parallel-size N balances each prompt of a call on its own; onepass pins
        # all prompts about one state to one rank (X-data-parallel-rank) so that rank prefills it once.
        self.data_parallel_size = data_parallel_size
        self.requested_mode = mode
        self.fallback_top_k = fallback_top_k
        self.mode: str | None = None  # "token_ids" or "top_k", set by the probe
        self.top_k: int | None = None
        super().__init__(client, model, tokenizer, **kw)

    def headers(self, prefix: list[int]) -> dict[str, str] | None:
        headers = super().headers(prefix) or {}
        if self.data_parallel_size and self.data_parallel_size > 1:
            headers["X-data-parallel-rank"] = str(int(state_key(prefix), 16) % self.data_parallel_size)
        return headers or None

    # -- start-up probe ----------------------------------------------------------------------------------
    def _probe_ids(self) -> tuple[list[int], list[int]]:
        """A prompt and two ids to ask for: ids the tokenizer produces, so surely inside the model's vocabulary
        (an out-of-vocabulary id would be refused and look like a missing field)."""
        if self.tokenizer is not None:
            prompt = self.tokenizer.encode("Probe: Yes or No?", add_special_tokens=False) or [0]
            ids = list(dict.fromkeys(prompt))[:2]
            if len(ids) == 2:
                return prompt, ids
        return [0], [1, 2]

    def _probe(self) -> None:
        prompt, ids = self._probe_ids()
        if self.requested_mode != "top_k":
            try:
                body = self._probe_post("/v1/completions", self._body([prompt], ids=ids),
                                        keep=lambda error: error.status == 400 and "logprob_token_ids" in error.message)
                found = self._parse(body, 1, probing=True)[0]
            except EngineHTTPError:  # a server that refuses the field: the top-k fallback
                found = {}
            if all(i in found for i in ids):
                self.mode = "token_ids"
                log.info("vLLM at %s: reading labels with logprob_token_ids", self.client.shown_url)
                return
            if self.requested_mode == "token_ids":
                raise RemoteConfigError(
                    f"the vLLM server at {self.client.shown_url} ignores logprob_token_ids (it needs vLLM 0.32 or "
                    "later); upgrade it, or allow the top-k fallback"
                )
        self.mode = "top_k"
        self.top_k = self._probe_top_k(prompt)
        why = "top-k mode requested" if self.requested_mode == "top_k" else "no logprob_token_ids: vLLM < 0.32"
        log.warning(
            "vLLM at %s (%s): reading labels from the top %d log-probabilities; labels outside them are "
            "flagged as missing (start vLLM with a larger --max-logprobs to widen)",
            self.client.shown_url, why, self.top_k,
        )

    def _probe_top_k(self, prompt: list[int]) -> int:
        k = self.fallback_top_k
        for _ in range(12):
            try:
                self._probe_post("/v1/completions", self._body([prompt], top_k=k), what="top-k probe",
                                 keep=lambda error: error.status == 400)
                return k
            except EngineHTTPError as error:
                # "Requested sample logprobs of 1000, which is greater than max allowed: 20"
                allowed = re.search(r"max(?:imum)?(?: allowed)?[^0-9]{0,12}(\d+)", error.message)
                smaller = int(allowed.group(1)) if allowed else k // 2
                k = min(k - 1, smaller) if smaller < k else k // 2
                if k < 1:
                    break
        raise RemoteConfigError(f"the vLLM server at {self.client.shown_url} accepts no logprobs request onepass can use")

    # -- requests ----------------------------------------------------------------------------------------
    def _body(self, prompts: list[list[int]], *, ids: list[int] | None = None, top_k: int | None = None) -> dict:
        body = {
            "model": self.model,
            "prompt": prompts,
            "max_tokens": 1,  # vLLM rejects 0; the one sampled token is the price of the read
            "temperature": 0,
            "logprobs": top_k if top_k else 1,
            "return_tokens_as_token_ids": True,
            "add_special_tokens": False,
        }
        if ids is not None:
            body["logprob_token_ids"] = ids
        return body

    def _parse(self, body, n: int, probing: bool = False) -> list[dict[int, float]]:
        """id -> logprob for each of the n prompts, in prompt order."""
        choices = body.get("choices") if isinstance(body, dict) else None
        if not isinstance(choices, list) or len(choices) != n:
            got = len(choices) if isinstance(choices, list) else "no"
            raise engine_error(self.client.engine, f"/v1/completions returned {got} choices for {n} prompts")
        out: list[dict[int, float] | None] = [None] * n
        for position, choice in enumerate(choices):
            try:
                index = int(choice.get("index", position))
                top = choice["logprobs"]["top_logprobs"][0]
                found = {}
                for key, value in top.items():
                    match = TOKEN_KEY.match(key)
                    if match is None:
                        why = (f"the vLLM server at {self.client.shown_url} returns token text ({key!r}) instead of "
                               "token ids: it ignores return_tokens_as_token_ids and is too old for onepass")
                        if probing:
                            raise RemoteConfigError(why)
                        raise engine_error(self.client.engine, "an answer has token text instead of token ids (an older vLLM behind the same URL?)")
                    found[int(match.group(1))] = float(value)
            except RemoteConfigError:
                raise
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                raise engine_error(self.client.engine, "a /v1/completions choice has no readable logprobs.top_logprobs[0]") from None
            if not 0 <= index < n or out[index] is not None:
                raise engine_error(self.client.engine, f"/v1/completions returned choice index {index} for {n} prompts")
            out[index] = found
        return out  # type: ignore[return-value]

    def _ids_per_call(self) -> int:
        return MAX_LOGPROB_TOKEN_IDS if self.mode == "token_ids" else 1 << 30

    def _score(self, prefix: list[int], reads: list[Read], ids: list[int], headers: dict[str, str] | None) -> list[dict[int, float]]:
        prompts = [prefix + list(read.suffix) for read in reads]
        if self.mode == "token_ids":
            body = self._body(prompts, ids=ids)
        else:  # the top-K list answers for every label at once
            body = self._body(prompts, top_k=self.top_k)
        return self._parse(self.client.call("/v1/completions", body, headers), len(prompts))

    def _unreturned(self) -> str:
        if self.mode == "token_ids":  # vLLM returns every id asked for: an answer without one is not vLLM 0.32+
            raise engine_error(
                self.client.engine,
                "the answer lacks requested logprob_token_ids (is an older vLLM behind the same URL?)",
            )
        return f"the top {self.top_k} log-probabilities"
