"""The USB serial link: the board's events out, the host's bytes in, in its language.

``protocol.py`` (loaded at boot) queues the events and takes the bytes; the rest loads with the
first byte that arrives: ``hosts.py`` tells whose bytes they are, ``framing.py`` cuts a text
host's into lines, ``commands.py`` and ``actions.py`` run its commands (``report.py``: the board's
state in the protocol's words), ``dgt.py`` and ``chesslink.py`` speak the e-board apps'
protocols over the same game. docs/protocol.md and docs/protocols.md.
"""
