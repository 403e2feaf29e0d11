"""A uvicorn server run in a thread for the length of a ``with`` block: the benches, the tests and
their fake servers (Lichess, a broadcast) all serve this way; the companion itself serves in the
main thread (host_tools/companion/__main__.py)."""

import contextlib
import threading
import time

START_SECONDS = 10


@contextlib.contextmanager
def in_thread(server, sockets=None, what="the server"):
    """``server`` (a uvicorn.Server) serving ``sockets`` (None: the ones its config binds) from a
    thread until the block ends; yields the port it listens on (its first socket's). RuntimeError,
    naming ``what``, when it does not start."""
    thread = threading.Thread(target=server.run, kwargs={"sockets": sockets}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("%s did not start" % what)
        time.sleep(0.01)
    try:
        yield (sockets[0] if sockets else server.servers[0].sockets[0]).getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(START_SECONDS)
