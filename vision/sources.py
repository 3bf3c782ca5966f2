"""Frame sources behind one small iterator interface: camera, video file or stream, image folder,
and the simulated table.

Every source yields ``Frame(index, image, time)`` (BGR ``uint8``, time in seconds on the source's
clock) and can be closed; ``open_source(spec)`` picks one from a command-line style spec:

- ``"0"``, ``"1"``: a camera device index (``cv2.VideoCapture``);
- ``"rtsp://…"``, ``"http://…"``, ``"https://…"``: a network stream;
- a video file path; a directory of images (sorted by name, optionally looping);
- ``"sim"`` or ``"sim:SEED"``: the seeded simulated table (``vision.sim.SimulatedTable``).

A source that cannot be opened raises ``SourceError`` with a message-catalog code
(``engine/i18n/en/vision.json``) and its parameters; ``SourceError.text()`` is the sentence.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from engine.i18n import CodedError
from vision.calibration import BoardProfile

Image = NDArray[np.uint8]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
URL_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://", "udp://", "tcp://")


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
        max_failures: Consecutive failed reads tolerated on a live device or stream before the
            source ends (a file ends at its first failed read).

    Raises:
        SourceError: the device, file or stream cannot be opened.
    """

    def __init__(self, target: int | str | Path, fps: float = 30.0, max_failures: int = 5) -> None:
        self.target = target
        self.live = isinstance(target, int) or str(target).lower().startswith(URL_SCHEMES)
        self.name = f"camera:{target}" if isinstance(target, int) else str(target)
        if not isinstance(target, int) and not self.live and not Path(target).is_file():
            raise SourceError("vision/source-no-file", path=str(target))
        self._cap = cv2.VideoCapture(target if isinstance(target, int) else str(target))
        if not self._cap.isOpened():
            self._cap.release()
            if isinstance(target, int):
                raise SourceError("vision/source-no-device", index=target)
            if self.live:
                raise SourceError("vision/source-no-stream", url=str(target))
            raise SourceError("vision/source-bad-video", path=str(target))
        reported = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = reported if 0 < reported < 1000 else fps
        self.max_failures = max_failures

    def __iter__(self) -> Iterator[Frame]:
        index = failures = 0
        while self._cap.isOpened():
            ok, image = self._cap.read()
            if not ok or image is None:
                failures += 1
                if not self.live or failures > self.max_failures:
                    break
                continue
            failures = 0
            yield Frame(index, np.asarray(image, dtype=np.uint8), index / self.fps)
            index += 1

    def close(self) -> None:
        self._cap.release()


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
    spec: str | int, loop: bool = False, profile: BoardProfile | None = None
) -> FrameSource:
    """The source a command-line ``spec`` names (see the module docstring); ``sim`` films a
    random table on ``profile``'s board.

    Raises:
        SourceError: nothing can be opened for ``spec``.
    """
    if isinstance(spec, int):
        return CaptureSource(spec)
    text = spec.strip()
    if text.isdigit():
        return CaptureSource(int(text))
    if text == "sim" or text.startswith("sim:"):
        seed = text.partition(":")[2]
        if seed and not seed.isdigit():
            raise SourceError("vision/source-bad-spec", spec=spec)
        if profile is None:
            raise SourceError("vision/source-sim-profile", spec=spec)
        return SimulatedSource(int(seed or 0), profile=profile)
    if text.lower().startswith(URL_SCHEMES):
        return CaptureSource(text)
    path = Path(text)
    if path.is_dir():
        return FolderSource(path, loop=loop)
    if not path.exists():
        raise SourceError("vision/source-no-file", path=text)
    return CaptureSource(path)
