"""A group's own box as one file: the game's data, what the camera needs to read that box, a format
version and a digest, packed so that it can be exported, shared, checked and imported.

The file is a zip archive (``.herald-box``) read defensively (``archive``), its manifest and
digest in ``file``, the boxes a table has imported in ``library``. The core names no game: a box
holds whatever the game's ``data_spec`` parses, and the game's own parse checks it.
"""
