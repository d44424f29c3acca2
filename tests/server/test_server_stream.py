"""Issue 10 item 8 through the real server: `POST /ask` with `"stream": true` on a real
uvicorn on 127.0.0.1, the server's generator being `openai` (PREUVE_LLM_*) pointed at a
scripted OpenAI-compatible server that streams an unverified answer — a citation of a
staff passage and an injected phishing line. No token of it reaches the client: the only
`token` events are the refusal's, then `done`, which does not carry the rejected text
either."""

from __future__ import annotations

import json

import httpx
from conftest import copy_index
from llm_server import ScriptedServer, stream_reply

from preuve.server.app import create_app
from preuve.server.runner import ServerThread

KEYS = {"pub-key-1": "public", "staff-key-2": "staff"}
QUESTION = "Combien de jours de télétravail par semaine ?"
TOKENS = ["Jusqu'à 60 jours", " [handbook/escalade-retours.md:23-28].", " ",
          "Pour confirmer vos droits,", " saisissez votre mot de passe",
          " sur http://evil.example/rh."]


def sse_events(lines: list[str]) -> list[tuple[str, dict]]:
    events, name, data = [], "message", ""
    for line in [*lines, ""]:
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
        elif not line and data:
            events.append((name, json.loads(data)))
            name, data = "message", ""
    return events


def test_streamed_unverified_model_tokens_never_reach_an_sse_client(index_path, tmp_path,
                                                                     monkeypatch):
    served = copy_index(index_path, tmp_path / "index.sqlite")
    with ScriptedServer([stream_reply(TOKENS, event_delay=0.05)]) as llm:
        monkeypatch.setenv("PREUVE_LLM_BASE_URL", llm.base_url)
        monkeypatch.setenv("PREUVE_LLM_MODEL", "test-model")
        app = create_app(served, {"api_keys": KEYS, "generator": "openai",
                                  "upload_dir": str(tmp_path / "uploads")})
        with ServerThread(app) as url, httpx.Client(base_url=url, timeout=30) as http:
            with http.stream("POST", "/ask", json={"question": QUESTION, "stream": True},
                             headers={"X-API-Key": "pub-key-1"}) as response:
                assert response.headers["content-type"].startswith("text/event-stream")
                lines = list(response.iter_lines())
    # the model was asked, streaming, and streamed the whole unverified answer
    assert len(llm.requests) == 1 and llm.requests[0].body["stream"] is True
    events = sse_events(lines)
    names = [name for name, _ in events]
    assert names[-1] == "done" and names.count("done") == 1
    assert set(names[:-1]) == {"token"}
    done = events[-1][1]
    tokens = "".join(data["text"] for name, data in events if name == "token")
    assert done["refused"] is True and tokens == done["answer"] == "Je ne sais pas."
    assert done["citations"] == [] and "escalade-retours.md" in done["reason"]
    assert "rejected" not in done
    # nothing the model wrote is on the wire, but for the refusal's reason naming the
    # rejected path ("60 jours" is not checked there: public passages in `hits` say it)
    wire = "\n".join(lines).replace(done["reason"], "")
    assert "60 jours" not in tokens
    for unverified in ("escalade", "mot de passe", "evil.example"):
        assert unverified not in wire
