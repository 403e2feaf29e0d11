"""Scacchiera: the logic of a DIY electronic chessboard, the same on the Pico and on a PC.

Nothing in this package touches hardware; the board's pins live behind the
hardware layer that ``main.py`` builds and hands in.
"""
