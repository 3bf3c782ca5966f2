"""Fixtures for the TTS tests: a documented TTS stand-in and a client wired to it (loopback)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tts_standin import TTSStandIn

from bridge.tts.editor_api import EditorClient


@pytest.fixture
def standin() -> Iterator[TTSStandIn]:
    fake = TTSStandIn()
    try:
        yield fake
    finally:
        fake.close()


@pytest.fixture
def client(standin: TTSStandIn) -> Iterator[EditorClient]:
    c = EditorClient(tts_port=standin.port, listen_port=0, read_timeout=2.0)
    c.start()
    standin.editor_port = c.listen_port
    try:
        yield c
    finally:
        c.close()
