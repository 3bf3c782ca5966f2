#!/usr/bin/env bash
# Installs the real components the tests start themselves (mosquitto for MQTT, chromium for pages,
# PostgreSQL for the venue's event store, node and npm to run the firmware on MicroPython's
# WebAssembly port, openssl for TLS certificates, redis-server for the venue's Socket.IO queue).
# Only as root on Debian and only when missing; otherwise says what is missing and carries on, so
# the tests that need them can report a clear skip reason instead of a confusing failure.
set -euo pipefail
need=()
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need+=(redis-server)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing system packages: ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
    echo "warning: missing system packages (${need[*]}); run as root on Debian to install them" >&2
fi
