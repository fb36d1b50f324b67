"""Every module under onepass/ stays under scripts/module_sizes.py's MAX_LINES (400): one that reaches it is
split into coherent pieces (as engine.py's plan running went to plan_runner.py)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "module_sizes.py"


def _script():
    spec = importlib.util.spec_from_file_location("module_sizes", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_module_is_under_400_lines():
    script = _script()
    assert script.MAX_LINES == 400
    table = script.sizes(None)
    assert "onepass/engine.py" in table and len(table) > 30  # it really looked at the package, subpackages too
    assert any(name.startswith("onepass/learn/") for name in table)
    over = {name: lines for name, lines in table.items() if lines >= script.MAX_LINES}
    assert not over, f"split these modules (each must stay under {script.MAX_LINES} lines): {over}"


def test_the_script_fails_on_a_module_that_reaches_the_limit():
    """The check counts a module of exactly --max lines as too long (the CLI agrees with the test above)."""
    biggest = max(_script().sizes(None).values())
    run = lambda limit: subprocess.run([sys.executable, str(SCRIPT), "--max", str(limit)], capture_output=True, text=True)
    assert run(biggest).returncode == 1
    assert run(biggest + 1).returncode == 0
