"""SGLang backend: label reads through `/v1/score`, or `/generate` with `max_new_tokens: 0`.

/v1/score: `query` = the state prefix (token ids), `items` = each read's suffix, `label_token_ids` = the
labels of all reads in the call, `apply_softmax: false`. Each item is one prefill of query + item with no
decode step; the shared query is served from the radix cache. With apply_softmax false the scores are the
labels' full-vocabulary probabilities, so the mass outside the labels stays visible (x_label_mass). Newer
servers also return the log-probabilities themselves (`return_token_logprobs: true` -> `token_logprobs`);
the probe asks for them and uses them when present, otherwise log(score). A score of exactly 0 (the engine's
-inf) becomes ZERO_LOGPROB, vLLM's own floor for -inf: the same probability, 0. That label came back, so it
is a number, not NaN; only a label absent from the answer is NaN (flagged).

/generate (route="generate", or automatically when /v1/score is absent): `input_ids` = one list per read,
`sampling_params: {"max_new_tokens": 0}`, `return_logprob: true`, `token_ids_logprob: [labels]`,
`logprob_start_len: -1`; `meta_info.output_token_ids_logprobs[0]` holds [logprob, token_id, text] per label.

The read loop, grouping and missing-label handling are `RemoteBackend`'s; this module supplies the probe
and one call on either route.
"""

from __future__ import annotations

import logging
import math

from onepass.backends.base import Read
from onepass.backends.engine_client import EngineClient, EngineHTTPError, engine_error
from onepass.backends.remote import RemoteBackend
from onepass.errors import APIError

__all__ = ["ZERO_LOGPROB", "SGLangBackend"]

log = logging.getLogger("onepass.backends")

# The log-probability of a label the engine returned with probability 0 (its -inf): vLLM's floor for -inf,
# so both engines give the same finite number. exp(ZERO_LOGPROB) is exactly 0.0 in float64.
ZERO_LOGPROB = -9999.0


def _logprob(value) -> float:
    if value is None:
        return ZERO_LOGPROB
    value = float(value)
    if math.isnan(value):
        raise ValueError("NaN log-probability")
    return max(value, ZERO_LOGPROB)


class SGLangBackend(RemoteBackend):
    """Label reads from SGLang's /v1/score, or /generate with max_new_tokens 0 (route picked by the probe)."""

    name = "sglang"

    def __init__(self, client: EngineClient, model: str, tokenizer=None, *, route: str = "auto",
                 max_label_ids: int = 1024, **kw):
        if route not in ("auto", "score", "generate"):
            raise ValueError("route must be 'auto', 'score' or 'generate'")
        self.requested_route = route
        self.route: str | None = None
        self.token_logprobs = False  # /v1/score returns token_logprobs (newer SGLang)
        self.max_label_ids = max_label_ids
        super().__init__(client, model, tokenizer, **kw)

    # -- start-up probe ----------------------------------------------------------------------------------
    def _probe(self) -> None:
        prompt = self.tokenizer.encode("Probe", add_special_tokens=False) if self.tokenizer is not None else [0]
        prompt = prompt or [0]
        ids = [prompt[-1]]
        if self.requested_route in ("auto", "score"):
            try:
                body = self._probe_post("/v1/score", self._score_body(prompt[:-1], [prompt[-1:]], ids),
                                        keep=lambda error: self.requested_route == "auto" and error.status in (404, 405))
            except EngineHTTPError:  # no /v1/score on this server: /generate below
                pass
            else:
                scored = self._parse_score(body, 1, ids)[0]  # raises 502 on a shape onepass cannot read
                self.token_logprobs = isinstance(body.get("token_logprobs"), list)
                if self.requested_route == "score" or self._same_as_generate(prompt, ids, scored):
                    self.route = "score"
                    log.info("SGLang at %s: reading labels with /v1/score (%s)", self.client.shown_url,
                             "token_logprobs" if self.token_logprobs else "log of scores")
                    return
                log.warning("SGLang at %s: /v1/score does not read query + item as one prompt (multi-item scoring "
                            "is on?); reading labels with /generate instead", self.client.shown_url)
        self._parse_generate(self._probe_post("/generate", self._generate_body([prompt], ids)), 1)
        self.route = "generate"
        log.info("SGLang at %s: reading labels with /generate (max_new_tokens 0)", self.client.shown_url)

    def _same_as_generate(self, prompt: list[int], ids: list[int], scored: dict[int, float]) -> bool:
        """Whether /v1/score's number is the plain read of query + item. A server started with multi-item
        scoring (--enable-mis, a delimiter) inserts delimiter tokens and reads elsewhere: different numbers."""
        try:
            plain = self._parse_generate(self.client.post("/generate", self._generate_body([prompt], ids)), 1)[0]
        except (EngineHTTPError, APIError):
            return True  # /generate not reachable here (a router that only forwards /v1/score): trust /v1/score
        return all(abs(plain.get(i, ZERO_LOGPROB) - scored[i]) < 1e-3 for i in ids)

    # -- /v1/score -----------------------------------------------------------------------------------------
    def _score_body(self, query: list[int], items: list[list[int]], ids: list[int]) -> dict:
        return {
            "model": self.model,
            "query": query,
            "items": items,
            "label_token_ids": ids,
            "apply_softmax": False,  # full-vocabulary probabilities: the mass outside the labels stays visible
            "item_first": False,
            "return_token_logprobs": True,  # ignored by older servers; then log(score) is used
        }

    def _parse_score(self, body, n: int, ids: list[int]) -> list[dict[int, float]]:
        try:
            rows = body.get("token_logprobs") if isinstance(body.get("token_logprobs"), list) else None
            logs = rows is not None
            rows = rows if logs else body["scores"]
            if not isinstance(rows, list) or len(rows) != n:
                raise ValueError(f"{len(rows) if isinstance(rows, list) else 'no'} rows for {n} items")
            out = []
            for row in rows:
                if not isinstance(row, list) or len(row) != len(ids):
                    raise ValueError(f"a row has {len(row) if isinstance(row, list) else 'no'} values for {len(ids)} labels")
                if logs:
                    values = [_logprob(v) for v in row]
                else:
                    values = [math.log(float(v)) if v and float(v) > 0 else ZERO_LOGPROB for v in row]
                out.append(dict(zip(ids, values)))
            return out
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise engine_error(self.client.engine, f"/v1/score answer cannot be read: {error}") from None

    # -- /generate -------------------------------------------------------------------------------------------
    def _generate_body(self, prompts: list[list[int]], ids: list[int]) -> dict:
        return {
            "model": self.model,
            "input_ids": prompts,
            "sampling_params": {"max_new_tokens": 0},
            "return_logprob": True,
            "token_ids_logprob": ids,
            "logprob_start_len": -1,  # only the read position; the prefix stays in the radix cache
        }

    def _parse_generate(self, body, n: int) -> list[dict[int, float]]:
        items = body if isinstance(body, list) else [body]
        if len(items) != n:
            raise engine_error(self.client.engine, f"/generate returned {len(items)} results for {n} prompts")
        out = []
        try:
            for item in items:
                position = item["meta_info"]["output_token_ids_logprobs"][0]
                out.append({int(entry[1]): _logprob(entry[0]) for entry in position})
        except (KeyError, IndexError, TypeError, ValueError):
            raise engine_error(self.client.engine, "a /generate result has no readable meta_info.output_token_ids_logprobs[0]") from None
        return out

    # -- reads -----------------------------------------------------------------------------------------------
    def _ids_per_call(self) -> int:
        return self.max_label_ids

    def _score(self, prefix: list[int], reads: list[Read], ids: list[int], headers: dict[str, str] | None) -> list[dict[int, float]]:
        if self.route == "score":
            body = self.client.call("/v1/score", self._score_body(prefix, [list(read.suffix) for read in reads], ids), headers)
            return self._parse_score(body, len(reads), ids)
        body = self.client.call("/generate", self._generate_body([prefix + list(read.suffix) for read in reads], ids), headers)
        return self._parse_generate(body, len(reads))
