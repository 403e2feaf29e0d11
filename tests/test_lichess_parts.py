"""The Lichess client's parts on their own (host_tools/companion: lichess_api.py's retries and refusals,
lichess_seeks.py's challenges): no network, no board. test_lichess.py plays whole online games
through them against a fake Lichess."""

import json
import threading

import berserk.exceptions
import pytest
import requests

from host_tools.companion.lichess_api import TOKEN_REFUSED, LichessApi, Stop
from host_tools.companion.lichess_link import Refused
from host_tools.companion.lichess_seeks import Matchmaking
from host_tools.companion.lichess_token import TokenError


def http_error(code, body=None):
    response = requests.Response()
    response.status_code = code
    response.reason = "reason"
    response._content = json.dumps(body).encode() if body is not None else b""
    return berserk.exceptions.ResponseError(response)


class Heard:
    """What the API told its client: back-offs and a refused token."""

    def __init__(self):
        self.waits, self.refused, self.skipped = [], [], []


@pytest.fixture
def api():
    heard = Heard()
    stopped = threading.Event()
    a = LichessApi("lip_token", "https://lichess.example", 0.02, 5.0, (0.001, 0.004), stopped,
                   lambda text, seconds: heard.waits.append((text, seconds)), heard.refused.append,
                   heard.skipped.append)
    a.heard, a.stopped = heard, stopped
    return a


def answers(*outcomes):
    """A request that fails with each of ``outcomes`` in turn (an exception), then answers."""
    left = list(outcomes)

    def fn():
        if left:
            raise left.pop(0)
        return "answer"
    return fn


def test_429_waits_as_lichess_asks_and_5xx_and_no_answer_wait_longer_each_time(api):
    fn = answers(http_error(429), http_error(503), http_error(502), requests.ConnectionError("down"))
    assert api.call("reading", fn) == "answer"
    assert [seconds for _, seconds in api.waits] == [0.02, 0.001, 0.002, 0.004]
    assert "429" in api.waits[0][0] and "503" in api.waits[1][0] and "ConnectionError" in api.waits[3][0]
    assert api.heard.waits == api.waits


def test_a_401_ends_the_token_and_another_4xx_is_lichesss_refusal_in_its_words(api):
    with pytest.raises(TokenError, match="401"):
        api.call("reading", answers(http_error(401)))
    assert api.heard.refused == [TOKEN_REFUSED]
    with pytest.raises(Refused, match="No such game") as refused:
        api.call("moving", answers(http_error(400, {"error": "No such game"})))
    assert refused.value.status == 400 and not api.waits


def test_a_reader_of_an_old_token_gives_way_and_a_stopped_client_waits_no_more(api):
    alive = api.alive_while_token()
    api.renew()                                        # a new token pasted
    with pytest.raises(Stop):
        api.call("streaming", answers(http_error(401)), alive=alive)
    assert api.heard.refused == []                     # the old token's 401 says nothing
    api.stopped.set()
    with pytest.raises(Stop):
        api.call("reading", answers())


class Online:
    """What Matchmaking asks of the client: its requests, its news, its threads."""

    def __init__(self, api):
        self.api, self.notice, self.changes = api, None, 0

    def changed(self):
        self.changes += 1


def test_challenges_come_and_go_with_the_event_stream(api):
    m = Matchmaking(Online(api))
    mine = {"id": "c1", "destUser": {"id": "me"}, "challenger": {"name": "Bob", "rating": 1500},
            "variant": {"key": "standard"}, "timeControl": {"show": "10+5"}}
    m.on_event("challenge", mine, "me")
    m.on_event("challenge", dict(mine, id="c2", destUser={"id": "someone else"}), "me")
    m.on_event("challenge", dict(mine, id="c3", variant={"key": "atomic"}), "me")
    d = m.describe()
    assert [c["id"] for c in d["challenges"]] == ["c1", "c3"] and d["challenges"][0]["from"] == "Bob"
    assert d["challenges"][0]["playable"] and not d["challenges"][1]["playable"]
    m.outgoing = "c9"
    m.on_event("challengeDeclined", {"id": "c9", "destUser": {"name": "Carla"}}, "me")
    assert m.outgoing is None and m.online.notice == "Carla declined the challenge"
    m.game_started("c1")
    assert [c["id"] for c in m.describe()["challenges"]] == ["c3"]


@pytest.mark.parametrize("fields, error", [
    ({"op": "seek", "variant": "atomic"}, "the board plays standard and chess960"),
    ({"op": "seek", "minutes": 3, "increment": 0}, "Rapid or Classical"),
    ({"op": "challenge", "user": "bob smith", "minutes": 10, "increment": 0}, "letters, digits"),
    ({"op": "ai", "level": 9, "minutes": 10, "increment": 0}, "from 1 to 8"),
    ({"op": "accept", "challenge": "nope"}, "no such challenge"),
])
def test_what_cannot_be_asked_of_lichess_is_refused_before_a_request(api, fields, error):
    with pytest.raises(ValueError, match=error):
        Matchmaking(Online(api)).act(fields)
