"""Makes this folder's shared test modules (``key_holder``) importable from each game's tests:
pytest puts the folder of every conftest.py on the import path."""
