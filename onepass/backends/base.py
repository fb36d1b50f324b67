"""The one question every backend answers, so readouts never care where logits come from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np


@dataclass(frozen=True)
class Read:
    """One next-token read: after `prefix + suffix`, the log-probabilities of `token_ids`."""

    suffix: list[int]
    token_ids: list[int]


class Backend(Protocol):
    name: str
    max_context: int

    def logprobs(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        """Full-vocabulary log-probabilities of each read's token ids at the position after its suffix.

        The prefix is shared by every read (prefilled once); results come back in the order of `reads`
        and must not depend on which other reads are in the call, beyond float noise.
        """
        ...
