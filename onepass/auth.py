"""API keys: the `Authorization: Bearer KEY` check, in constant time; keys are never logged or echoed."""

from __future__ import annotations

import hashlib
import hmac

from onepass.errors import APIError

__all__ = ["Keys"]


class Keys:
    """API keys compared in constant time (hashing first makes every comparison the same length)."""

    def __init__(self, keys: list[str]):
        self._digests = [hashlib.sha256(k.encode()).digest() for k in keys if k]

    @property
    def enabled(self) -> bool:
        return bool(self._digests)

    def check(self, authorization: str | None) -> int | None:
        """The 1-based position of the matching key (for logs), None with auth off; 401 otherwise."""
        if not self.enabled:
            return None
        scheme, _, token = (authorization or "").strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise APIError(401, "authentication_error", "missing API key: send the header 'Authorization: Bearer KEY'")
        digest = hashlib.sha256(token.encode("utf-8")).digest()
        found = 0
        for position, known in enumerate(self._digests, 1):
            # Every key is compared, whatever matches; the first match is kept without branching on the secret.
            found += position * int(hmac.compare_digest(digest, known)) * int(found == 0)
        if not found:
            raise APIError(401, "authentication_error", "invalid API key: check the key sent in 'Authorization: Bearer KEY'")
        return found
