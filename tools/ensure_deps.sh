#!/bin/sh
# Makes sure what the harness needs outside npm is present: a Chromium for the MCP Apps hosts.
# npm packages come in through deno.json on first run. Installs Debian's chromium when running as root
# with apt; otherwise says what to install and stops.
set -eu
if [ -n "${CONFORMANCE_CHROMIUM:-}" ]; then
  [ -x "$CONFORMANCE_CHROMIUM" ] && exit 0
  echo "conformance: CONFORMANCE_CHROMIUM=\"$CONFORMANCE_CHROMIUM\" is not an executable file" >&2
  exit 1
fi
for candidate in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  [ -x "$candidate" ] && exit 0
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "conformance: installing Debian's chromium (needed for the MCP Apps hosts) ..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq chromium >/dev/null
  [ -x /usr/bin/chromium ] && exit 0
fi
cat >&2 <<'MSG'
conformance: no Chromium found. The MCP Apps hosts need one.
  Debian/Ubuntu: sudo apt-get install -y chromium
  or point CONFORMANCE_CHROMIUM at a Chromium or Chrome binary.
MSG
exit 1
