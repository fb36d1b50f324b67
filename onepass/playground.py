"""The browser pages `onepass serve` ships: the playground at `/`, the labels page at `/labels` and the
calibration page at `/calibration`.

Plain HTML, CSS and JavaScript from `onepass/static/` (package data: nothing to build or download). The
pages call the server's own API from the browser (`GET /v1/models`, `POST /v1/systemone`,
`GET /calibration.json`, `GET /presets.json`), so with keys on they ask for a key and keep it in the tab
(sessionStorage).
The pages themselves hold no data and need no key; everything they show comes from keyed routes.
"""

from __future__ import annotations

from dataclasses import asdict
from importlib import resources
from typing import Any, Callable

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from onepass import presets

STATIC = resources.files("onepass") / "static"
ROUTES = ("/", "/labels", "/calibration", "/calibration.json", "/presets.json")
# Only these files are served, by exact name (no paths, so nothing outside the folder can be reached).
ASSETS = {
    "style.css": "text/css; charset=utf-8",
    "common.js": "text/javascript; charset=utf-8",
    "playground.js": "text/javascript; charset=utf-8",
    "examples.js": "text/javascript; charset=utf-8",
    "calibration.js": "text/javascript; charset=utf-8",
    "labels.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}
# The pages load nothing from elsewhere and run no inline script; a key typed into them stays there.
PAGE_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cache-control": "no-cache",
}


def _read(name: str) -> bytes:
    return (STATIC / name).read_bytes()


def calibration_view(engine: Any) -> dict:
    """What /calibration draws: the served model, its readouts, and its calibration profile (or None)."""
    profile = getattr(engine, "profile", None)
    dtype = getattr(engine, "dtype", None)
    return {
        "model": engine.info.id,
        "description": engine.info.description,
        "dtype": getattr(dtype, "value", None),
        "default_readout": getattr(engine, "default_readout", None),
        "readouts": sorted(getattr(engine, "readouts", {}) or {}),
        "calibrated": profile is not None,
        "summary": profile.summary() if profile is not None else
        "uncalibrated: probabilities are the raw label distribution",
        "profile": asdict(profile) if profile is not None else None,
    }


def register(app: FastAPI, *, keys, ready_engine: Callable[..., Any], json_response: Callable) -> None:
    """Adds the pages, their assets and the calibration data route to `app` (called by create_app)."""

    def page(name: str) -> Response:
        return Response(_read(name), media_type="text/html; charset=utf-8", headers=PAGE_HEADERS)

    @app.get("/")
    async def playground():
        return page("index.html")

    @app.get("/calibration")
    async def calibration_page():
        return page("calibration.html")

    @app.get("/labels")
    async def labels_page():
        return page("labels.html")

    @app.get("/static/{name}")
    async def asset(name: str):
        if name not in ASSETS:
            raise StarletteHTTPException(404, f"no such file: /static/{name[:60]}")
        return Response(_read(name), media_type=ASSETS[name], headers=PAGE_HEADERS)

    @app.get("/favicon.ico")
    async def favicon():
        return Response(_read("favicon.svg"), media_type="image/svg+xml", headers=PAGE_HEADERS)

    @app.get("/calibration.json")
    async def calibration_data(request: Request):
        # Behind the keys like /v1/models: it describes the served model.
        request.scope.setdefault("onepass.log", {})["key"] = keys.check(request.headers.get("authorization"))
        return json_response(200, calibration_view(ready_engine(count=False)))

    @app.get("/presets.json")
    async def presets_data(request: Request):
        # The built-in question sets (`onepass presets`), for the labels page; keyed like the other data routes.
        request.scope.setdefault("onepass.log", {})["key"] = keys.check(request.headers.get("authorization"))
        return json_response(200, {"presets": [p.as_json() for p in presets.builtin().values()]})
