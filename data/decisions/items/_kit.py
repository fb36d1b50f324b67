"""Small helpers for writing items: question shapes and the item record.

A module defines DOMAIN (the corpus domain name), PREFIX (the id prefix) and ITEMS, a list built with it().
Questions are plain dicts in the wire shape; the same question is reused over many states, as a real
deployment would ask it.
"""

from __future__ import annotations


def noul(instructions, true=None, false=None):
    q = {"type": "noul", "instructions": instructions}
    if true is not None or false is not None:
        crit = {}
        if true is not None:
            crit["true"] = true
        if false is not None:
            crit["false"] = false
        q["criteria"] = crit
    return q


def choice(instructions, options):
    return {"type": "choice", "instructions": instructions, "criteria": dict(options)}


def score(instructions, levels):
    return {"type": "score", "instructions": instructions, "criteria": list(levels)}


def it(question, state, gold, amb=False):
    """One item: a question, the state it is asked about, the gold answer, and whether it is borderline."""
    if isinstance(state, str):
        state = _dedent(state)
    return {"question": question, "state": state, "gold": gold, "ambiguous": bool(amb)}


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text).strip("\n")
