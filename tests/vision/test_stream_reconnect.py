"""A network stream as the camera: an MJPEG server on loopback (``multipart/x-mixed-replace``,
what IP-webcam phone apps serve) feeds ``CaptureSource``; the server drops the connection and
the source opens it again (issue #17, part 3)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.sources import CaptureSource, open_source

BOUNDARY = "heraldframe"
PER_CONNECTION = 12
"""Frames the server sends on one connection before it drops it."""


def _jpeg(shade: int, k: int) -> bytes:
    img = np.full((120, 160, 3), shade, np.uint8)
    cv2.putText(img, str(k), (10, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (255 - shade,) * 3, 3)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return bytes(buf.tobytes())


class MjpegServer:
    """Serves ``/stream.mjpg``; connection ``n`` (from 0) sends frames of shade 40 + 100 n, then
    closes after ``PER_CONNECTION`` frames; ``refuse`` makes it answer 503 for a while."""

    def __init__(self) -> None:
        self.connections = 0
        self.refuse = 0
        self.only_first = False
        """Refuse every connection after the first (the app was closed for good)."""
        self.refused = 0
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                with outer.lock:
                    if outer.refuse > 0 or (outer.only_first and outer.connections):
                        outer.refuse = max(0, outer.refuse - 1)
                        outer.refused += 1
                        self.send_error(503)
                        return
                    n = outer.connections
                    outer.connections += 1
                self.send_response(200)
                self.send_header("Content-Type", f"multipart/x-mixed-replace;boundary={BOUNDARY}")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                try:
                    for k in range(PER_CONNECTION):
                        body = _jpeg(min(240, 40 + 100 * n), k)
                        head = f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\n"
                        head += f"Content-Length: {len(body)}\r\n\r\n"
                        self.wfile.write(head.encode())
                        self.wfile.write(body + b"\r\n")
                        self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    return
                self.close_connection = True  # the drop

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/stream.mjpg"


@contextmanager
def mjpeg_server() -> Iterator[MjpegServer]:
    server = MjpegServer()
    thread = threading.Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()
        thread.join(timeout=10)


def test_an_mjpeg_stream_is_read_and_reopened_after_a_drop() -> None:
    with mjpeg_server() as server:
        src = open_source(server.url)
        assert isinstance(src, CaptureSource) and src.live
        src.backoff = (0.05, 0.1)  # the test's pauses; the default grows to 8 s
        server.refuse = 2  # the first two reopening tries find the app still away
        shades: list[float] = []
        try:
            for frame in src:
                shades.append(float(frame.image[2:10, 2:10].mean()))
                if len(shades) >= PER_CONNECTION + 4:
                    break
        finally:
            src.close()
    assert src.reconnects >= 1
    assert server.connections >= 2
    first, later = shades[0], shades[-1]
    assert abs(first - 40) < 12  # the first connection's pictures
    assert abs(later - 140) < 12  # after the drop: the second connection's
    assert frame.index == len(shades) - 1  # frame numbers run on across the drop


def test_a_closed_source_stops_reopening() -> None:
    """Closing the source (``herald serve`` stopping) ends a reopening pause at once."""
    with mjpeg_server() as server:
        server.only_first = True
        src = CaptureSource(server.url, backoff=(0.05, 60.0))
        done = threading.Event()
        count: list[int] = []

        def drain() -> None:
            count.extend(1 for _ in src)
            done.set()

        thread = threading.Thread(target=drain, daemon=True)
        thread.start()
        # the first connection's frames, the drop, one refused try: now in the 60 s pause
        assert wait_until(lambda: server.refused >= 1, 30)
        assert not done.is_set()
        src.close()
        assert done.wait(20)
    assert len(count) == PER_CONNECTION and src.reconnects == 0


def wait_until(check: Any, seconds: float) -> bool:
    """Poll ``check`` until it holds or ``seconds`` pass (a condition, not a guess)."""
    import time

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return bool(check())


def test_a_v4l2_device_is_named_by_path(tmp_path: Path) -> None:
    """``/dev/video2`` and the stable ``/dev/v4l/by-id/…`` links open the device's index through
    the V4L2 backend; a missing one is the device sentence, not "no such file"."""
    from vision.sources import SourceError, device_index, is_device_path

    link = tmp_path / "usb-Camera-video-index0"
    link.symlink_to("/dev/video7")
    assert device_index(link) == 7 and device_index("/dev/video12") == 12
    assert device_index("/dev/null") is None
    assert is_device_path("/dev/v4l/by-id/usb-x") and not is_device_path(str(link))
    with pytest.raises(SourceError) as err:
        open_source("/dev/video97")
    assert err.value.code == "vision/source-no-device"
