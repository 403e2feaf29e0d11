"""What the LEDs mean (frame.py) and how each meaning looks (palette.py)."""
