"""The link to Lichess: berserk's HTTP session with the token, a timeout on every request, and a
way to cut the streams it opened; and the refusal Lichess gives in words. (lichess.py uses it; the
back-off and the token's checks are lichess_api.py's.)"""

import socket
import threading

from urllib.parse import urlsplit

import requests

from host_tools.companion.lichess_lines import check_for, checked_lines


class Refused(Exception):
    """Lichess said no (4xx other than 401/429): the message is Lichess's own; ``status`` its HTTP code."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class Session(requests.Session):
    """berserk's session: the token as a bearer header, a timeout on every request (a read that
    waits longer means a dead link: Lichess's streams send keep-alive newlines), streams read as
    checked lines (lichess_lines.py: capped, linear, a line of the wrong shape skipped), and
    ``cut()``, which shuts the sockets of the streams it opened (to cancel a seek, to re-read a game)."""

    def __init__(self, token, timeout, skipped=None):
        super().__init__()
        self.headers["Authorization"] = "Bearer " + token
        self.timeout = timeout
        self.skipped = skipped or (lambda reason: None)   # told each stream line skipped (lichess_lines)
        self._streams = []
        self._lock = threading.Lock()
        self._cut = False

    def __repr__(self):
        return "<lichess session>"       # never the token

    def request(self, method, url, **kwargs):
        with self._lock:
            if self._cut:                    # a cut session sends nothing more (its token may be old)
                raise requests.ConnectionError("the session was cut")
        kwargs.setdefault("timeout", self.timeout)
        response = super().request(method, url, **kwargs)
        if kwargs.get("stream"):
            check = check_for(urlsplit(url).path)
            response.iter_lines = lambda *args, **kw: checked_lines(response, check, self.skipped)
            with self._lock:
                self._streams = [r for r in self._streams if not r.raw.closed] + [response]
                cut = self._cut
            if cut:                          # cut while its answer was on the way
                self.cut()
                raise requests.ConnectionError("the stream was cut")
        return response

    def cut(self):
        with self._lock:
            self._cut = True
            streams, self._streams = self._streams, []
        for response in streams:
            sock = getattr(getattr(response.raw, "_connection", None), "sock", None)
            try:
                if sock is not None:
                    sock.shutdown(socket.SHUT_RDWR)
                response.close()
            except (OSError, AttributeError):
                pass
