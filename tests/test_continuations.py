"""Likelihood continuations as a packed option trie: the same per-token log-probabilities as reading every
token alone, whatever the chunk bounds, with shared leading tokens computed once."""

from __future__ import annotations

import numpy as np
import pytest

from onepass.backends.base import Continuation, continuations_via_reads
from onepass.backends.trie import OptionTrie

NAMES = ["Account access", "Account", "Account access and login", "Billing", "Billing disputes", "Shipping", "Ship", "x"]


def items_for(engine):
    r = engine.renderer
    end = [r.tokenizer.eos_token_id]
    options = [r.encode(" " + name) + end for name in NAMES]
    return r.prefix("Hello there, my parcel is lost and I was charged twice."), [
        Continuation(r.encode("Question: which team?"), options), Continuation(r.encode("Another context"), options[:3])]


def test_trie_shares_leading_tokens_and_keeps_ancestors_first():
    trie = OptionTrie([[1, 2, 3], [1, 2], [1, 4], [5], [1, 2, 3]])
    assert trie.token == [1, 2, 3, 4, 5]  # 9 option tokens, 5 nodes
    assert trie.paths == [[0, 1, 2], [0, 1], [0, 3], [4], [0, 1, 2]]
    assert all(p < k for k, p in enumerate(trie.parent))
    assert trie.depth == [0, 1, 2, 1, 0]
    whole = list(trie.chunks(max_nodes=100, max_rows=100))
    assert whole == [[0, 1, 2, 3, 4]]
    # A subtree too big for the bounds is split, each piece carrying the ancestors its nodes attend to.
    pieces = list(trie.chunks(max_nodes=2, max_rows=1))
    assert all(trie.parent[k] in piece or trie.parent[k] < 0 for piece in pieces for k in piece)
    assert {k for piece in pieces for k in piece if trie.children[k]} == {0, 1}


@pytest.mark.parametrize("bounds", [(256, 1024), (2, 3), (1, 2)])
def test_packed_trie_equals_reading_every_token_alone(smol, bounds):
    backend = smol.backend
    prefix, items = items_for(smol)
    reference = continuations_via_reads(backend, prefix, items)
    saved = backend.max_logit_rows, backend.continuation_max_tokens
    backend.max_logit_rows, backend.continuation_max_tokens = bounds
    try:
        got = backend.continuations(prefix, items)
    finally:
        backend.max_logit_rows, backend.continuation_max_tokens = saved
    for per_item, ref_item in zip(got, reference):
        assert [len(x) for x in per_item] == [len(x) for x in ref_item]
        assert max(float(np.abs(x - y).max()) for x, y in zip(per_item, ref_item)) <= 1e-4
