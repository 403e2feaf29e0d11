"""A club night: many boards on one host (docs/club.md).

``tournament`` keeps the players, the rounds (paired by caissify-pairings) and the standings;
``club`` follows every board's game for its pairing and takes the arbiter's actions; ``feed``
writes each round's games as PGN with their clocks; ``broadcast`` pushes the rounds to a Lichess
broadcast; ``server`` serves the club page, each board's own page and the live feed; ``bench``
measures what it costs the host.
"""
