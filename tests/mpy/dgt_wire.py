"""DGT's messages as a host reads them, for the tests/mpy checks (check_dgt_game.py, check_ble_game.py)."""


def messages(raw, at):
    """(messages [(id, data)], where the next starts) in ``raw`` (the board's bytes) from ``at``: each
    message a header byte ``0x80 | id``, a 14-bit length counting the 3 header bytes, then data."""
    out = []
    while at < len(raw):
        size = (raw[at + 1] << 7) | raw[at + 2]
        out.append((raw[at], bytes(raw[at + 3:at + size])))
        at += size
    return out, at
