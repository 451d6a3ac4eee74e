#!/bin/sh
# Exits 0 when the esbuild assets in dist/ (tools/build_assets.ts ASSETS) are all there and none of the sources
# they are built from (the MCP Apps suite, the web host pages, src/, the lock) is newer than any of them; else 1.
# `deno task conformance` rebuilds them only then, so a start pays no second or so for work already done;
# `deno task assets` always rebuilds. Run from the repository root (deno task runs there).
set -u
sources="suite/apps hosts/web src deno.json deno.lock tools/build_assets.ts"
for asset in dist/suite_apps.html dist/reference_host_page.js dist/mcp_ui_host_page.js; do
  [ -f "$asset" ] || exit 1
  newer=$(find $sources -newer "$asset" -print 2>/dev/null | head -n 1)
  [ -z "$newer" ] || exit 1
done
exit 0
