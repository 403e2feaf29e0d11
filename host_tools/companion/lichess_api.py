"""Lichess for one token: requests and streams through berserk, each retried as Lichess asks.

HTTP 429 waits ``rate_limit_wait`` (Lichess: a full minute) before the next request; 5xx and
network errors retry with a growing wait; a 401 ends the token (TokenError); another 4xx is
Lichess's refusal in its own words (lichess_link.Refused). A stream's reader started with one
token gives way (Stop) once another token replaced it.
"""

import berserk
import berserk.exceptions
import requests

from host_tools.companion import lichess_token
from host_tools.companion.lichess_link import Refused, Session
from host_tools.companion.lichess_token import TokenError

TOKEN_REFUSED = ("Lichess refused the token (401): it is wrong, expired or revoked. Make a new one with "
                 "the scope board:play at %s" % lichess_token.CREATE_URL)


class Stop(Exception):
    """The client is stopping (or the stream was cut on purpose)."""


class LichessApi:
    """The requests of one Lichess client. ``stopped`` (an Event) ends every wait; the client hears
    through ``waiting(text, seconds)`` of a back-off, ``token_refused(problem)`` of a 401, and
    ``skipped(reason)`` of a stream's line of the wrong shape."""

    def __init__(self, token, base_url, rate_limit_wait, stream_timeout, retry, stopped,
                 waiting, token_refused, skipped):
        self.token = token
        self.base_url = base_url
        self.rate_limit_wait = rate_limit_wait
        self.stream_timeout = stream_timeout
        self.retry = retry                # backoff: first and longest wait between attempts (s)
        self.generation = 0               # a new token's streams replace the old token's
        self.waits = []                   # (reason, seconds) of every back-off (the tests read them)
        self._stopped = stopped
        self._waiting = waiting
        self._token_refused = token_refused
        self._skipped = skipped

    def client(self, timeout=None):
        """(berserk client, its Session): a stream's session can be cut."""
        session = Session(self.token, timeout or (5.0, self.stream_timeout), self._skipped)
        return berserk.Client(session=session, base_url=self.base_url), session

    def renew(self):
        """A new token is in use: the running streams' readers give way (``alive_while_token``)."""
        self.generation += 1

    def alive_while_token(self):
        """A test for a stream's reader: false once a new token replaced the one it started with."""
        mine = self.generation
        return lambda: mine == self.generation

    def login(self):
        """The token's account, {"id", "username"}, once Lichess says the token has board:play;
        TokenError saying why not."""
        client, _ = self.client((5.0, 10.0))
        tested = self.call("checking the token", client.oauth.test_tokens, self.token) or {}
        info = tested.get(self.token)
        if not info:
            self._token_refused(TOKEN_REFUSED)
            raise TokenError(TOKEN_REFUSED)
        scopes = [s.strip() for s in (info.get("scopes") or "").split(",")]
        if lichess_token.SCOPE not in scopes:
            raise TokenError("the token lacks the scope board:play (it has: %s): make one with board:play at %s"
                             % (", ".join(s for s in scopes if s) or "none", lichess_token.CREATE_URL))
        account = self.call("reading the account", client.account.get)
        return {"id": account.get("id"), "username": account.get("username")}

    def open(self, what, fn, *args, alive=None, network_retry=True):
        """A stream (berserk's generator) opened through ``call``: its request is made, and its
        first line read, inside the retries; then its lines as they come. A reader that opens its
        stream again itself passes ``network_retry=False``: its session may have been cut (the
        page's re-read), and a cut session would refuse every retry."""
        def first():
            lines = fn(*args)
            for line in lines:
                return line, lines
            return None, iter(())
        head, lines = self.call(what, first, alive=alive, network_retry=network_retry)
        if head is not None:
            yield head
        yield from lines

    def call(self, what, fn, *args, network_retry=True, alive=None, **kwargs):
        """``fn(*args)`` until it answers: 429 waits rate_limit_wait, 5xx and network errors retry
        with a growing wait; 401 raises TokenError, other 4xx Refused (Lichess's words).
        ``alive()`` false: the caller was replaced (an event stream of an older token): Stop."""
        delay = self.retry[0]
        while True:
            if self._stopped.is_set() or alive is not None and not alive():
                raise Stop()
            try:
                return fn(*args, **kwargs)
            except berserk.exceptions.ResponseError as e:
                code = e.status_code
                if code == 401:
                    if alive is not None and not alive():
                        raise Stop()           # the old token's 401, after a new token replaced it
                    self._token_refused(TOKEN_REFUSED)
                    raise TokenError(TOKEN_REFUSED)
                if code == 429:
                    self._back_off("Lichess asks to slow down (429) while %s: waiting %g s" % (what, self.rate_limit_wait),
                                   self.rate_limit_wait)
                    continue
                if code >= 500:
                    self._back_off("Lichess answered %d while %s: trying again in %g s" % (code, what, delay), delay)
                    delay = min(delay * 2, self.retry[1])
                    continue
                raise Refused(_lichess_words(e), code)
            except (berserk.exceptions.ApiError, requests.RequestException) as e:
                if not network_retry:
                    raise
                if alive is not None and not alive():
                    raise Stop()               # no "no answer" notice from a reader that gave way
                self._back_off("no answer from Lichess while %s (%s): trying again in %g s"
                               % (what, type(getattr(e, "error", e)).__name__, delay), delay)
                delay = min(delay * 2, self.retry[1])

    def _back_off(self, text, seconds):
        self.waits.append((text, seconds))
        self._waiting(text, seconds)
        if self._stopped.wait(seconds):
            raise Stop()


def _lichess_words(e):
    cause = e.cause
    if isinstance(cause, dict):
        return str(cause.get("error") or cause.get("message") or cause)
    return "HTTP %d" % e.status_code
