"""The phone-camera routes (issue #17, part 3): for the host's token only, one bounded JPEG per
POST into the ``PhoneSource``, the referee's pace in every answer, refusals that change nothing."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
from srv_support import open_referee

from bridge.web.app import WebConfig, WebTable
from vision.sources import PHONE_MAX_BYTES, PhoneSource, open_source


def _jpeg(shade: int = 90, size: tuple[int, int] = (320, 240)) -> bytes:
    ok, buf = cv2.imencode(".jpg", np.full((size[1], size[0], 3), shade, np.uint8))
    assert ok
    return bytes(buf.tobytes())


def test_frames_posted_by_the_page_reach_the_source(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "t.db")
    source = open_source("phone", fps=3.0)
    assert isinstance(source, PhoneSource)
    web = WebTable(referee, WebConfig(), camera=SimpleNamespace(source=source, profile_path=None))
    client = web.app.test_client()
    host = referee.row.tokens.host
    seat = next(iter(referee.row.tokens.seats.values()))
    assert client.get(f"/phone/{host}").status_code == 200
    assert client.get(f"/phone/{seat}").status_code == 403
    asked = client.get(f"/api/phone/{host}").get_json()
    assert asked["ok"] and asked["fps"] == 3.0 and asked["frames"] == 0
    got: list[float] = []
    reader = threading.Thread(target=lambda: got.extend(float(f.image.mean()) for f in source))
    reader.start()
    reply = client.post(f"/api/phone/{host}/frame", data=_jpeg(90), content_type="image/jpeg")
    assert reply.status_code == 200 and reply.get_json()["fps"] == 3.0
    assert reply.get_json()["index"] == 0
    # refused: another token, not a picture, too many bytes, too many pixels; nothing changes
    assert client.post(f"/api/phone/{seat}/frame", data=_jpeg()).status_code == 403
    bad = client.post(f"/api/phone/{host}/frame", data=b"not a picture")
    assert bad.status_code == 400 and bad.get_json()["code"] == "vision/phone-bad-frame"
    huge = client.post(f"/api/phone/{host}/frame", data=b"\xff\xd8" + bytes(PHONE_MAX_BYTES))
    assert huge.status_code == 413 and huge.get_json()["code"] == "vision/phone-too-large"
    wide = client.post(f"/api/phone/{host}/frame", data=_jpeg(size=(2400, 100)))
    assert wide.status_code == 400 and wide.get_json()["code"] == "vision/phone-too-big"
    assert source.frames == 1
    assert "phone_url" in web.host_payload() and "phone_qr_svg" in web.host_payload()
    source.close()
    reader.join(timeout=10)
    assert not reader.is_alive() and len(got) == 1 and abs(got[0] - 90) < 3


def test_without_a_phone_source_the_routes_say_so(tmp_path: Path) -> None:
    referee = open_referee(tmp_path / "t.db")
    web = WebTable(referee, WebConfig())
    client = web.app.test_client()
    host = referee.row.tokens.host
    reply = client.post(f"/api/phone/{host}/frame", data=_jpeg())
    assert reply.status_code == 409 and "--camera phone" in reply.get_json()["message"]
    assert "phone_url" not in web.host_payload()


def test_herald_serve_camera_phone_prints_the_page_and_takes_frames(tmp_path: Path) -> None:
    import json
    import urllib.request

    from srv_support import serve

    served = serve(tmp_path / "p.db", "--camera", "phone", "--virtual-devices", "off", table=None)
    try:
        assert "Phone camera: open" in served.output
        assert f"/phone/{served.host_token}" in served.output
        api = f"{served.base}/api/phone/{served.host_token}"
        post = urllib.request.Request(f"{api}/frame", data=_jpeg(120), method="POST",
                                      headers={"Content-Type": "image/jpeg"})  # fmt: skip
        with urllib.request.urlopen(post, timeout=10) as r:
            assert json.loads(r.read())["ok"] is True
        with urllib.request.urlopen(api, timeout=10) as r:
            status = json.loads(r.read())
        assert status["phone"] is True and status["frames"] == 1 and status["fps"] == 8.0
    finally:
        served.stop()
    # SIGTERM ends it: the camera loop waiting for the phone's next frame held the exit until
    # the test's bound ran out and killed it (-9), its store never closed
    assert served.proc.returncode == 0, served.log


def test_herald_serve_over_https_for_the_phones_camera(tmp_path: Path) -> None:
    """A phone's browser opens its camera only on a secure page: ``--tls-cert``/``--tls-key``
    serve HTTPS, and the printed links (the phone-camera page's too) say ``https``."""
    import json
    import shutil
    import ssl
    import subprocess
    import time
    import urllib.request

    from srv_support import _start, _until_serving

    openssl = shutil.which("openssl")
    if openssl is None:
        import pytest

        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)  # fmt: skip
    args = ("--camera", "phone", "--virtual-devices", "off", "--tls-cert", str(cert),
            "--tls-key", str(key), "--public-url", "https://127.0.0.1:1")  # fmt: skip
    proc, port = _start(tmp_path / "s.db", args, None, None)
    try:
        serving, output = _until_serving(proc, 30)
        assert serving, output
        assert "https://127.0.0.1:1/phone/" in output
        trust = ssl.create_default_context(cafile=str(cert))
        trust.check_hostname = False
        health = None
        deadline = time.monotonic() + 30
        while health is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"https://127.0.0.1:{port}/healthz", timeout=5,
                                            context=trust) as r:  # fmt: skip
                    health = json.loads(r.read())
            except OSError:
                time.sleep(0.2)  # not listening yet: the next try waits for the socket
        assert health is not None and health["ok"] is True
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_half_a_tls_pair_is_refused(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from bridge.cli import main

    pem = tmp_path / "cert.pem"
    pem.write_text("-----BEGIN CERTIFICATE-----\n")
    args = ["serve", "--db", str(tmp_path / "x.db"), "--game", "glory", "--tls-cert", str(pem)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "--tls-cert and --tls-key go together" in result.output
    assert not (tmp_path / "x.db").exists()


def test_a_slow_reader_gets_the_newest_frame_not_a_queue() -> None:
    source = PhoneSource(fps=4.0)
    for shade in (10, 20, 30):
        source.push(_jpeg(shade))
    frames = iter(source)
    newest = next(frames)
    assert newest.index == 2 and newest.time == 0.5 and abs(float(newest.image.mean()) - 30) < 3
    source.push(_jpeg(40))
    assert next(frames).index == 3
    source.close()
    assert list(frames) == []


def test_a_reader_waiting_for_the_next_frame_is_interrupted_and_the_source_stays_open() -> None:
    """A camera table that stops or switches games ends its loop at once, not at the phone's
    next frame (which may never come); the source then serves the next loop."""
    source = PhoneSource(fps=4.0)
    source.push(_jpeg(10))
    got: list[int] = []
    reader = threading.Thread(target=lambda: got.extend(f.index for f in source), daemon=True)
    reader.start()
    try:
        source.interrupt()
        reader.join(timeout=30)
        assert not reader.is_alive() and got in ([], [0])  # it may have read the frame first
        frames = iter(source)
        source.push(_jpeg(20))
        assert next(frames).index == 1  # still open: the next loop reads on
    finally:
        source.close()
    assert list(frames) == []


def test_stopping_a_phone_camera_table_ends_its_loop(tmp_path: Path) -> None:
    from bridge.camera import CameraConfig, CameraTable, TableReader, _pipeline, load_board_profile
    from bridge.game_files import face_map_path
    from vision.faces import face_map_for

    referee = open_referee(tmp_path / "t.db")
    key = referee.game.info.key
    profile, _ = load_board_profile(key, None)
    faces = face_map_for(face_map_path(key), None)
    config = CameraConfig(mode="off", fps=4.0)
    reader = TableReader(referee, profile, faces, config.min_confidence, False)
    source = PhoneSource(fps=4.0)
    camera = CameraTable(referee, _pipeline(profile, None, faces), reader, config, source=source)
    camera.start()
    loops = [t for t in threading.enumerate() if t.name == "herald-camera"]
    assert loops  # waiting for the phone's first frame
    camera.stop()
    for loop in loops:  # joined by ``stop``: a loop still waiting for a frame would be alive
        assert not loop.is_alive()
