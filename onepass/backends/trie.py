"""Likelihood options as a token trie: options that share leading tokens share nodes, so the embedded
engine computes each shared prefix once (docs/readouts.md)."""

from __future__ import annotations

import numpy as np
import torch

__all__ = ["OptionTrie"]


class OptionTrie:
    """Options' token sequences as a trie: node k holds one token; options sharing leading tokens share
    nodes. Nodes are numbered in insertion order, so every ancestor precedes its descendants."""

    def __init__(self, options: list[list[int]]):
        self.token: list[int] = []
        self.parent: list[int] = []
        self.depth: list[int] = []
        self.children: list[list[int]] = []
        self.paths: list[list[int]] = []  # per option: its nodes, root first
        index: dict[tuple[int, int], int] = {}  # (parent, token) -> node
        for option in options:
            node, path = -1, []
            for token in option:
                key = (node, token)
                if key not in index:
                    index[key] = len(self.token)
                    self.token.append(token)
                    self.parent.append(node)
                    self.depth.append(len(path))
                    self.children.append([])
                    if node >= 0:
                        self.children[node].append(index[key])
                node = index[key]
                path.append(node)
            self.paths.append(path)

    def chunks(self, max_nodes: int, max_rows: int):
        """Groups of whole root subtrees, in node order, each within the bounds where possible (a single
        subtree larger than the bounds is split at depth: a node travels with its ancestors re-run)."""
        roots = [k for k, p in enumerate(self.parent) if p < 0]
        chunk: list[int] = []
        for root in roots:
            subtree = self._subtree(root)
            rows = sum(1 for k in subtree if self.children[k])
            if chunk and (len(chunk) + len(subtree) > max_nodes or
                          sum(1 for k in chunk if self.children[k]) + rows > max_rows):
                yield chunk
                chunk = []
            if len(subtree) > max_nodes or rows > max_rows:
                yield from self._split(subtree, max_nodes, max_rows)
                continue
            chunk += subtree
        if chunk:
            yield chunk

    def _subtree(self, root: int) -> list[int]:
        out, stack = [], [root]
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(reversed(self.children[node]))
        return sorted(out)

    def _split(self, subtree: list[int], max_nodes: int, max_rows: int):
        """An oversized subtree: groups of its inner nodes, each with its ancestors (a node scored in a
        chunk needs its ancestors in the same sequence to see them)."""
        inner = [k for k in subtree if self.children[k]]
        group: set[int] = set()
        rows = 0
        for node in inner:
            line, k = [], node
            while k >= 0:
                line.append(k)
                k = self.parent[k]
            grown = group | set(line)
            if group and (len(grown) > max_nodes or rows + 1 > max_rows):
                yield sorted(group)
                group, rows, grown = set(), 0, set(line)
            group, rows = grown, rows + 1
        if group:
            yield sorted(group)

    def option_logprobs(self, first: torch.Tensor, per_node: dict[int, torch.Tensor]) -> list[np.ndarray]:
        """Per option, the log-probability of each of its tokens: the first from the context's last position,
        every later one from its parent node's row."""
        first_values = first.double().cpu().numpy()
        out = []
        for path in self.paths:
            values = [first_values[self.token[path[0]]]]
            for parent, node in zip(path, path[1:]):
                values.append(float(per_node[parent][self.children[parent].index(node)]))
            out.append(np.array(values, dtype=np.float64))
        return out
