"""onepass: a self-hosted System One decision server (yes/no, choice and score answers in one pass).

The public surface: `Engine` (answer requests in-process), `EngineConfig` and `ServerConfig` (every setting),
`create_app` (the HTTP app around an engine), `OnepassError` (the root of every error onepass raises).
"""

from onepass.config import EngineConfig, ServerConfig
from onepass.engine import Engine
from onepass.errors import OnepassError

__version__ = "0.1.0"
__all__ = ["Engine", "EngineConfig", "ServerConfig", "OnepassError", "create_app", "__version__"]


def __getattr__(name: str):
    # The HTTP app pulls in FastAPI and uvicorn's world; `import onepass` for the in-process Engine does not.
    if name == "create_app":
        from onepass.server import create_app

        return create_app
    raise AttributeError(f"module 'onepass' has no attribute {name!r}")
