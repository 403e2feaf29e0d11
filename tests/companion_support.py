"""Shared by the companion's tests: a board served by the real uvicorn on a loopback port, in a thread."""

import contextlib
import threading
import time

from host_tools.companion.server import bind, make_server


@contextlib.contextmanager
def served(board, port=0, timeout=10):
    """``board``'s page on 127.0.0.1; yields the base URL ("http://127.0.0.1:PORT")."""
    sock = bind(port)
    server = make_server(board, sock)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    try:
        yield "http://127.0.0.1:%d" % sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()
