"""Learn Skat (``/learn``): ``POST /api/learn/{lesson}`` answers a guided deal after the learner's actions
(:func:`skat.lessons.step`). Nothing is stored: the page keeps the learner's actions and sends them all again, so
a lesson survives a reload and a server restart, and costs the server no memory between two requests."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field, JsonValue

from skat.lessons import LESSONS, LessonError, step
from skat.server.core import TableError
from skat.server.errors import ErrorCode
from skat.server.messages import Fixed, Incoming, Refusal, Seat, SkatView
from skat.server.routes.bodies import ERRORS, body, documented

__all__ = ["router", "LearnRequest", "LessonAnswer", "MAX_ACTIONS", "LEARN_MODELS"]

MAX_ACTIONS = 80
"""The most actions a learner makes in one deal (a deal has at most about 45)."""

router = APIRouter()


class LearnRequest(Incoming):
    """``POST /api/learn/{lesson}``: the learner's actions so far, in order (action tokens: ``hold``, ``CJ``...)."""

    actions: list[str] = Field(default_factory=list, max_length=MAX_ACTIONS)
    refusals = {"actions": Refusal(ErrorCode.BAD_ACTION, f"actions must be a list of at most {MAX_ACTIONS} action "
                                                         "tokens such as \"hold\", \"pickup\" or \"CJ\"")}


class Explanation(Fixed):
    """One step's reason: a text of the catalogs' ``learn`` section and the values it names."""

    key: str
    params: dict[str, JsonValue]


class LessonEvent(Fixed):
    """An action of the deal (anybody's) and what it means."""

    seat: Seat
    action: str
    explain: list[Explanation]


class Suggestion(Fixed):
    """What a good player does now (the lesson's script, or a computer player's choice off the script), and why."""

    action: str
    source: Literal["script", "computer"]
    why: list[Explanation]


class LessonAnswer(Fixed):
    """A lesson after the learner's actions: the learner's view, every event so far, the decision now or the result."""

    lesson: str
    lessons: list[str]
    topics: list[str]
    seat: Seat
    view: SkatView
    events: list[LessonEvent]
    over: bool
    prompt: list[Explanation] | None = None
    suggestion: Suggestion | None = None
    illegal: dict[str, list[Explanation]] | None = None
    result: list[Explanation] | None = None


LEARN_MODELS: tuple[type[BaseModel], ...] = (LearnRequest, LessonAnswer)
"""The models of this router, for the OpenAPI description and the protocol's schema."""

_STATUS = {"unknown_lesson": 404, "illegal_action": 422, "not_your_turn": 422, "bad_action": 400}


@router.post("/api/learn/{lesson_id}", response_model=LessonAnswer, response_model_exclude_unset=True,
             openapi_extra=documented(LearnRequest), responses={k: v for k, v in ERRORS.items() if k in (400, 404)})
def learn(lesson_id: str, request: Annotated[LearnRequest, Depends(body(LearnRequest))]) -> dict[str, Any]:
    """The lesson ``lesson_id`` (one of ``first-game``, ``defending``, ``overbid``) after ``actions``: ``404
    no_lesson`` for another id, ``422 illegal_action`` (with ``index``: which action) for an action the rules do
    not allow then, ``422 not_your_turn`` for one past the deal's end. A plain function: FastAPI runs it in its
    thread pool, so replaying a deal (a few milliseconds) never holds the event loop."""
    try:
        return step(lesson_id, request.actions)
    except LessonError as exc:
        code = ErrorCode.NO_LESSON if exc.code == "unknown_lesson" else ErrorCode(exc.code)
        message = str(exc) if exc.index is None else f"{exc} (action {exc.index + 1} of {len(request.actions)})"
        raise TableError(code, message, _STATUS[exc.code]) from None


assert set(LESSONS) == {"first-game", "defending", "overbid"}, "the route's docstring names the lessons"
