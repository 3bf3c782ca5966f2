"""What Herald knows about each table device: online, battery, last seq, error counts.

The registry is the device-health view for the table display and operators. It only records;
it decides nothing about the game. Listeners get a copy of a device's record on every change
so a server can push it to the table room without polling.

It is bounded: paired devices are the host's choice and always kept, but records of unpaired
ids (anything on the LAN can invent them) are capped at ``max_unpaired``, the least recently
heard forgotten first, and each is forgotten after ``unpaired_ttl`` seconds unheard. Removal
listeners hear of every record that goes.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

LOW_BATTERY = 15
"""Percent at or below which a device-health warning is raised."""


@dataclass(frozen=True)
class DeviceRecord:
    """A snapshot of one device's health (immutable: listeners may keep it)."""

    device: str
    device_kind: str | None = None
    fw: str | None = None
    transport: str | None = None
    online: bool = False
    battery: int | None = None
    last_seq: int | None = None
    last_seen: float | None = None
    accepted: int = 0
    duplicates: int = 0
    errors: int = 0
    last_error: str | None = None
    last_error_text: str | None = None
    paired: str | None = None
    """``seat:<seat>`` or ``table`` once paired; None for an unpaired device."""
    boot: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for the table display."""
        return {
            "device": self.device,
            "device_kind": self.device_kind,
            "fw": self.fw,
            "transport": self.transport,
            "online": self.online,
            "battery": self.battery,
            "low_battery": self.battery is not None and self.battery <= LOW_BATTERY,
            "last_seq": self.last_seq,
            "last_seen": self.last_seen,
            "accepted": self.accepted,
            "duplicates": self.duplicates,
            "errors": self.errors,
            "last_error": self.last_error,
            "last_error_text": self.last_error_text,
            "paired": self.paired,
            "boot": self.boot,
        }


Listener = Callable[[DeviceRecord], None]
RemoveListener = Callable[[str], None]

MAX_UNPAIRED = 16
UNPAIRED_TTL = 600.0


class DeviceRegistry:
    """Thread-safe map of device id → :class:`DeviceRecord`.

    Errors that cannot be pinned on a device (line noise on a port, JSON without a readable
    ``device``) are counted per source in :attr:`source_errors`, so a noisy cable shows up too.

    Args:
        clock: Wall-clock seconds for ``last_seen``; injected so tests need no sleeping.
        max_unpaired: Records of unpaired devices kept at most.
        unpaired_ttl: Seconds after which an unheard unpaired device's record goes.
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        *,
        max_unpaired: int = MAX_UNPAIRED,
        unpaired_ttl: float = UNPAIRED_TTL,
    ) -> None:
        self._clock = clock
        self.max_unpaired = max_unpaired
        self.unpaired_ttl = unpaired_ttl
        self._lock = threading.Lock()
        self._records: dict[str, DeviceRecord] = {}
        self._unpaired: OrderedDict[str, float] = OrderedDict()  # id → last touched
        self._listeners: list[Listener] = []
        self._removed: list[RemoveListener] = []
        self.source_errors: dict[str, int] = {}

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` with the new record after every change."""
        self._listeners.append(listener)

    def subscribe_removed(self, listener: RemoveListener) -> None:
        """Call ``listener`` with the id of every record forgotten (an unpaired one aged out)."""
        self._removed.append(listener)

    def __len__(self) -> int:
        with self._lock:
            return len(self._records)

    def get(self, device: str) -> DeviceRecord | None:
        with self._lock:
            return self._records.get(device)

    def snapshot(self) -> list[DeviceRecord]:
        """All records, sorted by device id."""
        with self._lock:
            return [self._records[k] for k in sorted(self._records)]

    def update(self, device: str, *, seen: bool = True, **changes: Any) -> DeviceRecord:
        """Apply ``changes`` to a device's record (creating it) and notify listeners."""
        with self._lock:
            now = self._clock()
            old = self._records.get(device) or DeviceRecord(device=device)
            if seen:
                changes.setdefault("last_seen", now)
            new = replace(old, **changes)
            self._records[device] = new
            gone = self._bound(new, now)
        for listener in list(self._listeners):
            listener(new)
        for device_id in gone:
            for removed in list(self._removed):
                removed(device_id)
        return new

    def _bound(self, record: DeviceRecord, now: float) -> list[str]:
        """Keep unpaired records within their cap and age; returns the ids forgotten."""
        self._unpaired.pop(record.device, None)
        if record.paired is None:
            self._unpaired[record.device] = now
        gone = []
        while self._unpaired:
            oldest, touched = next(iter(self._unpaired.items()))
            if len(self._unpaired) <= self.max_unpaired and now - touched < self.unpaired_ttl:
                break
            del self._unpaired[oldest]
            self._records.pop(oldest, None)
            gone.append(oldest)
        return gone

    def forget(self, device: str) -> None:
        """Drop a device's record (unpaired by the host)."""
        with self._lock:
            self._unpaired.pop(device, None)
            found = self._records.pop(device, None) is not None
        if found:
            for removed in list(self._removed):
                removed(device)

    def sweep(self) -> None:
        """Forget unpaired records past their age (also done on every update)."""
        with self._lock:
            gone = []
            now = self._clock()
            while self._unpaired:
                oldest, touched = next(iter(self._unpaired.items()))
                if now - touched < self.unpaired_ttl:
                    break
                del self._unpaired[oldest]
                self._records.pop(oldest, None)
                gone.append(oldest)
        for device_id in gone:
            for removed in list(self._removed):
                removed(device_id)

    def count(self, device: str, counter: str, **changes: Any) -> DeviceRecord:
        """Add one to ``counter`` (``accepted``, ``duplicates``, ``errors``) with ``changes``."""
        with self._lock:
            old = self._records.get(device) or DeviceRecord(device=device)
            value = getattr(old, counter) + 1
        return self.update(device, **{counter: value, **changes})

    def source_error(self, source: str) -> None:
        """Count an error that names no device against its source (port or broker)."""
        with self._lock:
            self.source_errors[source] = self.source_errors.get(source, 0) + 1

    def offline_all(self, transport: str) -> list[str]:
        """Mark every device last reached through ``transport`` offline; returns their ids."""
        with self._lock:
            ids = [d for d, r in self._records.items() if r.transport == transport and r.online]
        for device in ids:
            self.update(device, seen=False, online=False)
        return ids
