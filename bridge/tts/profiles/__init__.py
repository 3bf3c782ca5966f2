"""Game profiles for TTS tables, one JSON file per game key (data only)."""
