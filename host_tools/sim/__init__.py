"""The desktop simulator: the real firmware application with simulated switches, LEDs and clock.

``python -m host_tools.sim`` serves the board as a web page on 127.0.0.1 (the
companion app, host_tools/companion, with the simulated hands);
``python -m host_tools.sim --script FILE`` runs a script of hand actions in
simulated time (see host_tools/hands.py for the steps).
"""
