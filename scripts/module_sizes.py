"""Lines per module under onepass/ at a git revision (default: the working tree), largest first.

    python scripts/module_sizes.py            # the working tree
    python scripts/module_sizes.py 89a92a6    # a past commit
Used for docs/architecture.md's before/after table; exits 1 when a module reaches --max lines (default
MAX_LINES, 400: tests/test_module_sizes.py holds every module under it).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 400  # a module this long is split (tests/test_module_sizes.py)


def sizes(rev: str | None) -> dict[str, int]:
    if rev is None:
        return {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in sorted((ROOT / "onepass").rglob("*.py"))}
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "onepass"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    return {n: len(subprocess.run(["git", "show", f"{rev}:{n}"], cwd=ROOT, check=True, capture_output=True,
                                  text=True).stdout.splitlines()) for n in names if n.endswith(".py")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rev", nargs="?", default=None)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--max", type=int, default=MAX_LINES)
    args = parser.parse_args()
    table = sizes(args.rev)
    for name, n in sorted(table.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{n:5d}  {name}")
    over = [n for n, lines in table.items() if lines >= args.max]
    print(f"{len(table)} modules, {sum(table.values())} lines; at or over {args.max}: {len(over)} {over}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
