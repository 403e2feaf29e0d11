"""Crash-safe storage on the Pico's flash: the game journal and the archive of finished games.

Both take a filesystem object (``fs.OsFS`` on the device, ``host_tools.fakehw.memfs.MemFS``
in the tests, which can cut the power at any byte), never ``os`` directly.
"""
