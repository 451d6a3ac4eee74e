/**
 * The bench row "catalogue on each new apps host within 3× reference" (tests/bench/apps_hosts.ts), without
 * running a browser: which hosts it measures, what it says of one it cannot, the ratio against its target, and
 * which results keep a run from giving a figure.
 */
import assert from "node:assert/strict";
import { MCP_USE_HOST } from "../../hosts/web/mcp_use.ts";
import { parseExpectations } from "../../src/expectations.ts";
import {
  appsHostsRows,
  figureOf,
  NEW_APPS_HOSTS,
  RATIO_TARGET,
  ratioRow,
  unexpectedOf,
} from "./apps_hosts.ts";

Deno.test("every apps host of issue 27 has a row; one not in the registry says so, with no figure", async () => {
  assert.deepEqual(NEW_APPS_HOSTS, ["mcp-use", "mcp-use-chat", "copilotkit"]);
  const rows = await appsHostsRows(1, []);
  assert.deepEqual(rows.map((row) => row.figure), NEW_APPS_HOSTS.map(figureOf));
  for (const row of rows) {
    assert.equal(row.value, "not measured");
    assert.equal(row.met, null);
    assert.match(row.note, /is not a built-in host yet/);
  }
});

Deno.test("a host not installed is not measured and says how to install it", async () => {
  const entry = { ...MCP_USE_HOST, program: "conformance-bench-no-such-program" };
  const [row] = await appsHostsRows(1, [entry]);
  assert.equal(row?.value, "not measured");
  assert.match(
    row?.note ?? "",
    /"conformance-bench-no-such-program" is not installed: run deno task hosts:install/,
  );
});

Deno.test("the ratio is host ÷ reference, met up to 3× and not past it", () => {
  assert.equal(RATIO_TARGET, 3);
  const within = ratioRow("mcp-use", 30_000, 10_000, "n");
  assert.equal(within.value, "3.00×");
  assert.equal(within.met, true);
  const over = ratioRow("mcp-use", 30_100, 10_000, "n");
  assert.equal(over.value, "3.01×");
  assert.equal(over.met, false);
  assert.match(over.note, /^30\.1 s on mcp-use, 10\.0 s on reference; n$/);
});

Deno.test("a result its expectations do not allow is named; listed ones, SKIP and WARN are not", () => {
  const set = parseExpectations(
    [
      "schema: conformance-expectations/1",
      "host: mcp-use",
      "tests:",
      "  apps/a/listed:",
      "    status: FAIL",
      "    reason: the host sends it three times",
    ].join("\n"),
    "mcp-use.yaml",
  );
  const sets = new Map([["mcp-use", set]]);
  const statuses = new Map([
    ["apps/a/listed", "FAIL" as const],
    ["apps/a/skipped", "SKIP" as const],
    ["apps/a/warned", "WARN" as const],
    ["apps/a/passed", "PASS" as const],
    ["apps/a/failed", "FAIL" as const],
    ["apps/a/errored", "ERROR" as const],
  ]);
  const named = unexpectedOf("mcp-use", statuses, sets).map((line) => line.split(":")[0]);
  assert.deepEqual(named, ["apps/a/failed", "apps/a/errored"]);
  // A listed failure that now passes is a stale entry: not as expected either.
  assert.equal(unexpectedOf("mcp-use", new Map([["apps/a/listed", "PASS" as const]]), sets).length, 1);
});
