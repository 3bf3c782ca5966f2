#!/usr/bin/env bash
# Fetches the vendored browser code from the npm registry (`npm pack`, no build step) and checks
# each file against the hash recorded in bridge/web/static/vendor/README.md. The files are
# committed; run this to verify them (`--check`, the default) or to refresh them (`--write`).
set -euo pipefail
mode="${1:---check}"
here="$(cd "$(dirname "$0")/.." && pwd)"
vendor="$here/bridge/web/static/vendor"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# package@version  file-in-package  name-in-vendor  sha256
files=(
  "socket.io-client@4.8.4 dist/socket.io.min.js socket.io.min.js d5d79a35039e860b32bdef4795528b05c2f788d4b2d9dacc913120e2878f7b3f"
  "uplot@1.6.32 dist/uPlot.iife.min.js uPlot.iife.min.js 19c8d4c6ad88929a79f4ae49d6f7161566dfd0ba3d15cc495e974f787eb78f1f"
  "uplot@1.6.32 dist/uPlot.min.css uPlot.min.css df630c6a8d6f8eeaff264b50f73ce5b114f646ffd9a0bb74f049b0a00135fa04"
  "uplot@1.6.32 LICENSE uPlot.LICENSE 8f989229699b4fe2f1a0432d0e9edc338a8a911e250e2d1b01ecd770a5f5b1bd"
  "fast-json-patch@3.1.1 dist/fast-json-patch.min.js fast-json-patch.min.js 648f0ec7fa90867a0ba4727c849dd70d2aeb77c34f498cda10795c28d2bc6771"
  "fast-json-patch@3.1.1 LICENSE.txt fast-json-patch.LICENSE 26593d78926902a82eb9bc7e40d1811fc381055f23516b92fe48ca8399bf02df"
  "@json-editor/json-editor@2.17.2 dist/jsoneditor.js jsoneditor.min.js c7a7278bf93d75e3de8b02a914ed36bd879a3e76105a87b6aa286a5a7885f4fc"
  "@json-editor/json-editor@2.17.2 LICENSE jsoneditor.LICENSE 2c3d6f6bad4123d4f2abf92666e17adc3fc30a956e3b03c78b108c2a29630252"
)
status=0
for row in "${files[@]}"; do
  read -r pkg inner name sum <<<"$row"
  dir="$tmp/${pkg%@*}"; dir="${dir//@/}"
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "$pkg" >/dev/null && tar xzf ./*.tgz)
  fi
  got="$(sha256sum "$dir/package/$inner" | cut -d' ' -f1)"
  if [ "$got" != "$sum" ]; then
    echo "$pkg $inner: sha256 $got, expected $sum" >&2
    status=1
    continue
  fi
  if [ "$mode" = "--write" ]; then
    cp "$dir/package/$inner" "$vendor/$name"
  elif ! cmp -s "$dir/package/$inner" "$vendor/$name"; then
    echo "$name differs from $pkg's $inner (run: $0 --write)" >&2
    status=1
  fi
done
exit $status
