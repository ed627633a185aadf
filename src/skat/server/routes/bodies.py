"""Request bodies read into their models, refused with the project's own errors.

A route takes its body as a dependency, ``body: Annotated[CreateTableRequest, Depends(body(CreateTableRequest))]``:
the body is read as a JSON object (:func:`json_body`: ``400 bad_json`` for anything else, an empty body is
``{}``), then validated by the model; a field that does not fit is answered with its
:class:`skat.server.messages.Refusal` (``{"error": CODE, "message": ...}``, the code the server has always given
for it), never with FastAPI's default 422 list. :func:`documented` puts the model into the route's OpenAPI
description, :func:`install` the models into the application's OpenAPI components and the project's shape into
the answer to a path or query parameter of the wrong type (422 ``bad_request``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import TypeAdapter, ValidationError

from skat.server.core import TableError
from skat.server.errors import BadJSONError, ErrorCode, json_object
from skat.server.messages import Incoming, refusal_of
from skat.server.routes.models import ErrorAnswer

__all__ = ["body", "parse", "json_body", "documented", "install", "ERRORS"]

M = TypeVar("M", bound=Incoming)

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorAnswer, "description": what} for status, what in (
        (400, "a body or value that cannot be used: bad_json, bad_request and the field's own code"),
        (403, "a key, token or invite that is missing or wrong"),
        (404, "no such table, deal, list or tournament"),
        (409, "the table's state does not allow it"),
        (413, "too_large"), (415, "unsupported_media_type"), (429, "rate_limited"),
        (503, "busy, full or db_unavailable (with Retry-After)"))}
"""The error answers every API route may give (docs/protocol.md, "Errors")."""


async def json_body(request: Request) -> dict[str, Any]:
    """A request's JSON object body; anything else is answered 400 ``bad_json`` saying why."""
    try:
        return json_object(await request.body())
    except BadJSONError as exc:
        raise TableError(ErrorCode.BAD_JSON, str(exc)) from None


def parse(model: type[M], data: Any) -> M:
    """``data`` as a ``model``; a field that does not fit raises the :class:`TableError` of its refusal."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        refusal, message = refusal_of(model, exc)
        raise TableError(refusal.code, message, refusal.status) from None


def body(model: type[M]) -> Callable[[Request], Awaitable[M]]:
    """The dependency that reads a request's body as a ``model``."""

    async def read(request: Request) -> M:
        return parse(model, await json_body(request))

    read.__name__ = f"{model.__name__}_body"
    return read


def documented(model: type[Incoming], required: bool = False) -> dict[str, Any]:
    """A route's ``openapi_extra``: its JSON body is a ``model`` (:func:`install` adds the model's schema)."""
    return {"requestBody": {"required": required, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{model.__name__}"}}}}}


def install(app: FastAPI, models: tuple[type[Incoming], ...]) -> None:
    """The body ``models`` in the app's OpenAPI description, and a path or query parameter that does not fit
    answered ``422 {"error": "bad_request", "message", "detail"}`` (``detail``: FastAPI's list, as before)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description,
                                 routes=app.routes)
            _, defs = TypeAdapter.json_schemas([(m.__name__, "validation", TypeAdapter(m)) for m in models],
                                               ref_template="#/components/schemas/{model}")
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for name, part in defs.get("$defs", {}).items():
                components.setdefault(name, part)
            app.openapi_schema = schema
        return app.openapi_schema

    async def bad_parameter(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        where = ".".join(str(p) for p in errors[0]["loc"]) if errors else "the request"
        message = f"{where}: {errors[0]['msg']}" if errors else "the request does not fit this route"
        return JSONResponse({"error": ErrorCode.BAD_REQUEST, "message": message,
                             "detail": [{k: e[k] for k in ("loc", "msg", "type") if k in e} for e in errors]},
                            status_code=422)

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_exception_handler(RequestValidationError, bad_parameter)
