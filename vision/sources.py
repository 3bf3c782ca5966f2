"""Frame sources behind one small iterator interface: camera, video file or stream, image folder,
and the simulated table.

Every source yields ``Frame(index, image, time)`` (BGR ``uint8``, time in seconds on the source's
clock) and can be closed; ``open_source(spec)`` picks one from a command-line style spec:

- ``"0"``, ``"1"``: a camera device index (``cv2.VideoCapture``); ``/dev/video0`` or
  ``/dev/v4l/by-id/…``: a V4L2 device by path;
- ``"rtsp://…"``, ``"http://…"``, ``"https://…"``: a network stream;
- a video file path; a directory of images (sorted by name, optionally looping);
- ``"sim"`` or ``"sim:SEED"``: the seeded simulated table (``vision.sim.SimulatedTable``);
- ``"phone"``: a phone's camera, streamed by the phone-camera page (``PhoneSource``: the web
  server pushes the JPEG frames the page posts).

A live device or stream that stops delivering (the IP-webcam app was closed, the Wi-Fi dropped, the
USB cable was pulled) is reopened with a growing pause (``RECONNECT_BACKOFF_S``) until it
delivers again or the source is closed.

A source that cannot be opened raises ``SourceError`` with a message-catalog code
(``engine/i18n/en/vision.json``) and its parameters; ``SourceError.text()`` is the sentence.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.i18n import CodedError
from vision.calibration import BoardProfile

log = logging.getLogger(__name__)

Image = NDArray[np.uint8]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
URL_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://", "udp://", "tcp://")

RECONNECT_BACKOFF_S = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""Pauses before each reopening of a dropped live device or stream; the last one repeats."""

STREAM_TIMEOUT_MS = 5000
"""How long opening a stream, or waiting for its next frame, may take before it counts as a drop."""

PHONE_SPEC = "phone"

PHONE_MAX_BYTES = 1_000_000
"""Largest JPEG a phone may post as one frame (a 1280x720 table picture is 100-250 kB)."""

PHONE_MAX_SIDE = 1920
"""Largest width or height of a phone frame, in pixels; the page scales down to ``width``."""


class SourceError(CodedError, RuntimeError):
    """A frame source cannot be opened or read. ``code``/``params`` name the catalog sentence."""


@dataclass(frozen=True)
class Frame:
    """One frame: its index in the source, the BGR image, and the time (seconds)."""

    index: int
    image: Image
    time: float


class FrameSource(Protocol):
    """What every source offers: iterate frames, then close."""

    name: str

    def __iter__(self) -> Iterator[Frame]: ...

    def close(self) -> None: ...


class CaptureSource:
    """``cv2.VideoCapture`` over a device index, a video file or a stream URL.

    Args:
        target: Device index (int), file path, or URL.
        fps: Frame rate used for ``Frame.time`` when the backend does not report one.
        max_failures: Consecutive failed reads tolerated on a live device or stream before it
            counts as dropped (a file ends at its first failed read).
        backoff: Pauses before each reopening of a dropped live source (the last repeats);
            empty: a dropped source ends instead.

    Raises:
        SourceError: the device, file or stream cannot be opened (the first time: a source that
            worked once is reopened after a drop instead).
    """

    def __init__(
        self,
        target: int | str | Path,
        fps: float = 30.0,
        max_failures: int = 5,
        backoff: tuple[float, ...] = RECONNECT_BACKOFF_S,
    ) -> None:
        self.target = target
        self.live = isinstance(target, int) or str(target).lower().startswith(URL_SCHEMES)
        self.live = self.live or is_device_path(target)
        self.name = f"camera:{target}" if isinstance(target, int) else str(target)
        if not isinstance(target, int) and not self.live and not Path(target).is_file():
            raise SourceError("vision/source-no-file", path=str(target))
        self.backoff = backoff if self.live else ()
        self.reconnects = 0
        """How many times a dropped live source was opened again."""
        self._closed = threading.Event()
        self._cap = self._open()
        if not self._cap.isOpened():
            self._cap.release()
            if isinstance(target, int) or is_device_path(target):
                raise SourceError("vision/source-no-device", index=target)
            if self.live:
                raise SourceError("vision/source-no-stream", url=str(target))
            raise SourceError("vision/source-bad-video", path=str(target))
        reported = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = reported if 0 < reported < 1000 else fps
        self.max_failures = max_failures

    def _open(self) -> cv2.VideoCapture:
        target = self.target
        if isinstance(target, int):
            return cv2.VideoCapture(target)
        if is_device_path(target):  # a V4L2 device by path: /dev/video2, /dev/v4l/by-id/…
            index = device_index(target)
            return cv2.VideoCapture(index if index is not None else str(target), cv2.CAP_V4L2)
        if self.live:  # a stalled stream must fail a read, not hang the camera thread
            params = [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, STREAM_TIMEOUT_MS,
                      cv2.CAP_PROP_READ_TIMEOUT_MSEC, STREAM_TIMEOUT_MS]  # fmt: skip
            return cv2.VideoCapture(str(target), cv2.CAP_FFMPEG, params)
        return cv2.VideoCapture(str(target))

    def __iter__(self) -> Iterator[Frame]:
        index = failures = 0
        while not self._closed.is_set():
            ok, image = self._cap.read() if self._cap.isOpened() else (False, None)
            if ok and image is not None:
                failures = 0
                yield Frame(index, np.asarray(image, dtype=np.uint8), index / self.fps)
                index += 1
                continue
            failures += 1
            if not self.live:
                break
            if failures > self.max_failures or not self._cap.isOpened():
                if not self._reconnect():
                    break
                failures = 0

    def _reconnect(self) -> bool:
        """Reopen a dropped live source, pausing ``backoff`` between tries; False when closed
        (or no backoff is set)."""
        self._cap.release()
        if not self.backoff:
            return False
        log.warning("frame source %s dropped; reopening", self.name)
        for attempt in itertools.count():
            pause = self.backoff[min(attempt, len(self.backoff) - 1)]
            if self._closed.wait(pause):
                return False
            cap = self._open()
            if cap.isOpened():
                self._cap = cap
                self.reconnects += 1
                log.info("frame source %s reopened (attempt %d)", self.name, attempt + 1)
                return True
            cap.release()
        return False

    def close(self) -> None:
        self._closed.set()
        self._cap.release()


def is_device_path(target: int | str | Path) -> bool:
    """Whether ``target`` names a video device by path (``/dev/video0``, ``/dev/v4l/…``): stable
    across reboots where an index is not (``/dev/v4l/by-id/…``)."""
    return not isinstance(target, int) and str(target).startswith(("/dev/video", "/dev/v4l/"))


def device_index(path: str | Path) -> int | None:
    """The index of a V4L2 device path (``/dev/v4l/by-id/…`` → ``/dev/video2`` → 2): OpenCV's
    V4L2 backend opens devices by index (None: the path is not a ``/dev/videoN`` device)."""
    name = Path(os.path.realpath(path)).name
    return int(name[5:]) if name.startswith("video") and name[5:].isdigit() else None


class PhoneSource:
    """A phone's camera, streamed by the phone-camera page (``bridge.web.phonecam``).

    The web server ``push``es each JPEG the page posts; iterating yields the newest frame not yet
    yielded (a slow reader skips frames rather than queueing them) and blocks until one comes.
    ``fps`` and ``width`` are what the page is asked to send. ``Frame.time`` is ``index / fps``,
    as a camera's: the page already keeps the pace, so a reader that drops frames arriving
    sooner than ``1/fps`` (the camera table) drops none for network jitter.
    """

    live = True

    def __init__(self, fps: float = 4.0, width: int = 1280) -> None:
        self.name = PHONE_SPEC
        self.fps = fps
        self.width = width
        self.frames = 0
        """Frames received so far."""
        self.last_at: float | None = None
        """``time.monotonic()`` of the last frame received (None: none yet)."""
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._closed = False
        self._interrupts = 0

    def push(self, jpeg: bytes) -> Frame:
        """One JPEG from the phone, decoded and made the newest frame.

        Raises:
            SourceError: not a picture, too large in bytes or pixels (nothing changes).
        """
        if len(jpeg) > PHONE_MAX_BYTES:
            raise SourceError("vision/phone-too-large", size=len(jpeg), limit=PHONE_MAX_BYTES)
        data = np.frombuffer(jpeg, dtype=np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if image is None:
            raise SourceError("vision/phone-bad-frame")
        if max(image.shape[:2]) > PHONE_MAX_SIDE:
            raise SourceError("vision/phone-too-big", width=image.shape[1],
                              height=image.shape[0], limit=PHONE_MAX_SIDE)  # fmt: skip
        now = time.monotonic()
        with self._cond:
            frame = Frame(self.frames, np.asarray(image, dtype=np.uint8), self.frames / self.fps)
            self.frames += 1
            self.last_at = now
            self._latest = frame
            self._cond.notify_all()
        return frame

    def latest(self) -> Frame | None:
        with self._cond:
            return self._latest

    def __iter__(self) -> Iterator[Frame]:
        seen = -1
        with self._cond:
            mine = self._interrupts
        while True:
            with self._cond:
                while (
                    not self._closed
                    and self._interrupts == mine
                    and (self._latest is None or self._latest.index <= seen)
                ):
                    self._cond.wait()
                if self._closed or self._interrupts != mine:
                    return
                frame = self._latest
            assert frame is not None
            seen = frame.index
            yield frame

    def interrupt(self) -> None:
        """End the iterations under way, the source staying open for the next one: a reader
        that stops (the camera table switching games, or shutting down) is otherwise held
        until the phone's next frame, which may never come."""
        with self._cond:
            self._interrupts += 1
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()


class FolderSource:
    """The images of a directory in name order, once or looping.

    Raises:
        SourceError: the directory is missing or holds no image; an image that cannot be
            decoded while iterating.
    """

    def __init__(self, folder: str | Path, loop: bool = False, fps: float = 30.0) -> None:
        self.folder = Path(folder)
        self.name = str(self.folder)
        if not self.folder.is_dir():
            raise SourceError("vision/source-no-folder", path=str(self.folder))
        self.files = sorted(
            p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()
        )
        if not self.files:
            raise SourceError("vision/source-empty-folder", path=str(self.folder))
        self.loop = loop
        self.fps = fps

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        while True:
            for path in self.files:
                image = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if image is None:
                    raise SourceError("vision/frame-unreadable", path=str(path))
                yield Frame(index, np.asarray(image, dtype=np.uint8), index / self.fps)
                index += 1
            if not self.loop:
                return

    def close(self) -> None:
        """Nothing to release."""


class SimulatedSource:
    """The seeded simulated table (``vision.sim.SimulatedTable``) as a frame source."""

    def __init__(self, seed: int = 0, frames: int = 120, fps: float = 30.0, **kw: Any) -> None:
        from vision.sim import SimulatedTable

        self.table = SimulatedTable(seed, frames=frames, **kw)
        self.name = f"sim:{seed}"
        self.fps = fps

    def __iter__(self) -> Iterator[Frame]:
        for f in self.table:
            yield Frame(f.index, f.image, f.index / self.fps)

    def close(self) -> None:
        """Nothing to release."""


def open_source(
    spec: str | int, loop: bool = False, profile: BoardProfile | None = None, fps: float = 4.0
) -> FrameSource:
    """The source a command-line ``spec`` names (see the module docstring); ``sim`` films a
    random table on ``profile``'s board; ``phone`` asks the phone for ``fps`` frames a second.

    Raises:
        SourceError: nothing can be opened for ``spec``.
    """
    if isinstance(spec, int):
        return CaptureSource(spec)
    text = spec.strip()
    if text.isdigit():
        return CaptureSource(int(text))
    if text == PHONE_SPEC:
        return PhoneSource(fps=fps)
    if text == "sim" or text.startswith("sim:"):
        seed = text.partition(":")[2]
        if seed and not seed.isdigit():
            raise SourceError("vision/source-bad-spec", spec=spec)
        if profile is None:
            raise SourceError("vision/source-sim-profile", spec=spec)
        return SimulatedSource(int(seed or 0), profile=profile)
    if text.lower().startswith(URL_SCHEMES) or is_device_path(text):
        return CaptureSource(text)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path, loop=loop)
    if not path.exists():
        raise SourceError("vision/source-no-file", path=text)
    return CaptureSource(path)
