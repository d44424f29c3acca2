"""Request bodies: bounded fields, and unknown fields (e.g. `audience`) refused, since the
audience comes from the key."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from preuve.feedback import ANSWER_LIMIT, COMMENT_LIMIT, MAX_CITATIONS, VERDICTS
from preuve.models import ASK_K, QUERY_LIMIT, QUESTION_LIMIT
from preuve.registry import methods

Method = Literal[methods.names()]  # type: ignore[valid-type]
# path prefixes and kinds a request may filter on: bounded in number and length (a long
# list would otherwise become one huge SQL statement)
PathPrefix = Annotated[str, Field(min_length=1, max_length=500)]
Paths = Annotated[list[PathPrefix], Field(max_length=50)]
Kinds = Annotated[list[Annotated[str, Field(max_length=20)]], Field(max_length=10)]
AsOf = Annotated[str | None, Field(max_length=20)]


class _Body(BaseModel):
    # unknown fields (e.g. `audience`) are an error: the audience comes from the key
    model_config = ConfigDict(extra="forbid")


class _Dated(_Body):
    as_of: AsOf = "today"


class _Filtered(_Dated):
    paths: Paths = []


class SearchRequest(_Filtered):
    query: str = Field(min_length=1, max_length=QUERY_LIMIT)
    method: Method | None = None
    k: int = Field(10, ge=1, le=100)
    kinds: Kinds = []


class WhereRequest(_Filtered):
    subject: str = Field(min_length=1, max_length=QUERY_LIMIT)
    method: Method | None = None  # hybrid when the index has vectors, else bm25
    k: int = Field(10, ge=1, le=100)
    symbol_kinds: list[str] = Field([], max_length=20, description=(
        "Only definitions of these kinds: function (methods too), class, constant, key..."))
    languages: list[str] = Field([], max_length=20, description=(
        "Only files in these languages: go, rust, typescript, python, yaml..."))


class MessageRequest(_Dated):
    question: str = Field(min_length=1, max_length=QUESTION_LIMIT)
    method: Method | None = None
    k: int = Field(ASK_K, ge=1, le=50)
    stream: bool = False


class AskRequest(MessageRequest):
    paths: Paths = []


class CompareRequest(_Dated):
    question: str = Field(min_length=1, max_length=QUESTION_LIMIT)
    k: int = Field(5, ge=1, le=20)


class CitationIn(BaseModel):
    """A citation of the answer the feedback is about (an answer's `citations` entries may
    be sent as they are: their other fields are ignored)."""

    model_config = ConfigDict(extra="ignore")
    label: str | None = Field(None, max_length=500)
    path: str = Field(min_length=1, max_length=500)
    page: int | None = None
    start_line: int | None = None
    end_line: int | None = None
    chunk_id: str | None = Field(None, max_length=500)


class FeedbackRequest(_Body):
    question: str = Field(min_length=1, max_length=QUESTION_LIMIT)
    answer: str = Field("", max_length=ANSWER_LIMIT)
    refused: bool = False
    citations: Annotated[list[CitationIn], Field(max_length=MAX_CITATIONS)] = []
    verdict: Literal[VERDICTS]  # type: ignore[valid-type]
    comment: str = Field("", max_length=COMMENT_LIMIT)
    as_of: AsOf = None
    channel: Literal["http", "web"] = "http"
