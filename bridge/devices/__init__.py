"""Table devices (dice towers, seat button boxes) over MQTT and serial.

:mod:`.protocol` is the wire contract, :mod:`.hub` the transport-neutral entry point the referee
plugs into, :mod:`.mqtt` and :mod:`.serial_link` the transports, :mod:`.dedup` the durable
duplicate filter and :mod:`.registry` device health. See docs/devices.md.
"""
