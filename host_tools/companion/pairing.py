"""The phone beside a real board: the page on the LAN, for browsers paired with a one-time key.

``--lan`` makes the server listen on the machine's LAN address too (loopback stays, and stays the
only address without it). A request that came in on the LAN socket must name that address in
``Host`` (and ``Origin``), and carry the cookie a browser gets by opening the pairing link
(``/pair?key=...``: printed with a QR code on the terminal, shown on the desktop page); anything
else gets 401 (403 for a wrong Host or Origin). The key works once: the next phone needs the next
key, which the desktop page shows. The desktop page (loopback only) can revoke every paired browser:
its open pages are cut at once (``watch``), and each of their actions checks the pairing again.
What decides "came in on the LAN" is the address the connection was accepted on, never a header.
"""

import hmac
import secrets
import socket
import threading

COOKIE = "scacchiera_pair"


def lan_address():
    """This machine's address on its LAN (the one its default route leaves by), or None. A UDP
    socket's connect sends nothing: it only asks the kernel which interface it would use."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))          # TEST-NET-1: never reached, nothing is sent
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def token_of(cookie_header):
    """The pairing token in a request's Cookie header, or None."""
    token = None
    for part in (cookie_header or "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            token = value
    return token or None


class Pairing:
    """The LAN side's keys: one pairing key at a time, and the tokens of the browsers it paired."""

    def __init__(self, address, port, names=()):
        self.address = address
        self.port = port
        self.hosts = set("%s:%d" % (name, port) for name in (address,) + tuple(names))
        self.origins = set("http://" + h for h in self.hosts)
        self._lock = threading.Lock()
        self._tokens = set()
        self._key = secrets.token_urlsafe(12)
        self._watchers = set()         # f() called when every pairing is revoked: an open page's cut

    def link(self):
        """The pairing link a phone opens (its QR code: ``qr``)."""
        with self._lock:
            return "http://%s:%d/pair?key=%s" % (self.address, self.port, self._key)

    def redeem(self, key):
        """A browser's token for the current key (which is then used up), or None for any other key."""
        with self._lock:
            if not isinstance(key, str) or not hmac.compare_digest(key.encode(), self._key.encode()):
                return None
            token = secrets.token_urlsafe(32)
            self._tokens.add(token)
            self._key = secrets.token_urlsafe(12)
            return token

    def admits(self, cookie_header):
        """Whether a request's Cookie header holds a paired browser's token."""
        return self.holds(token_of(cookie_header))

    def holds(self, token):
        """Whether ``token`` is a paired browser's, now (an open page asks before each action)."""
        if not token:
            return False
        with self._lock:
            return any(hmac.compare_digest(token.encode(), t.encode()) for t in self._tokens)

    def watch(self, cut):
        """``cut()`` is called (from the revoking thread) when every pairing is revoked; ``unwatch``
        when the page has gone."""
        with self._lock:
            self._watchers.add(cut)

    def unwatch(self, cut):
        with self._lock:
            self._watchers.discard(cut)

    def revoke(self):
        """Every paired browser is out, and the key changes: the desktop page's button. Open pages
        are cut (their WebSockets closed)."""
        with self._lock:
            self._tokens.clear()
            self._key = secrets.token_urlsafe(12)
            watchers = list(self._watchers)
        for cut in watchers:
            cut()

    def paired(self):
        with self._lock:
            return len(self._tokens)

    def qr(self, kind="svg"):
        """The pairing link's QR code: an SVG for the desktop page, or text for a terminal."""
        import io

        import segno
        code = segno.make(self.link(), error="m")
        if kind == "svg":
            out = io.BytesIO()
            code.save(out, kind="svg", scale=4, border=2, xmldecl=False, svgns=True)
            return out.getvalue().decode()
        out = io.StringIO()
        code.terminal(out=out, compact=True, border=2)
        return out.getvalue()
