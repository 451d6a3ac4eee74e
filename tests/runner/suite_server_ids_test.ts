/**
 * The namespacing of another server's test ids (src/runner/suite_server.ts): `<server name>/<its id>`, the
 * name made id-safe, never one of our own families, so the two suites cannot mix in one report.
 */
import assert from "node:assert/strict";
import { UsageError } from "../../src/errors.ts";
import { tierOf } from "../../src/suite.ts";
import { parseSuiteServerUrl, suiteNamespace, suiteServerTestId } from "../../src/runner/suite_server.ts";

Deno.test("a server's name becomes its namespace: lower case, id-safe, never apps or cli", () => {
  assert.equal(suiteNamespace("upstream-shaped"), "upstream-shaped");
  assert.equal(suiteNamespace("Acme Apps Suite!"), "acme-apps-suite");
  assert.equal(suiteNamespace("alpic/mcp-app-conformance"), "alpic-mcp-app-conformance");
  assert.equal(suiteNamespace("apps"), "suite-apps");
  assert.equal(suiteNamespace("CLI"), "suite-cli");
  assert.equal(suiteNamespace(""), "suite-server");
  assert.equal(suiteNamespace("///"), "suite-server");
});

Deno.test("a test's run id is namespace/its id, and its tier the first segment of its own id", () => {
  const id = suiteServerTestId("upstream-shaped", "upstream/read-console");
  assert.equal(id, "upstream-shaped/upstream/read-console");
  assert.equal(tierOf(id), "upstream");
  assert.ok(!id.startsWith("apps/") && !id.startsWith("cli/"));
});

Deno.test("--suite-server takes an http(s) URL only", () => {
  assert.equal(parseSuiteServerUrl("http://127.0.0.1:6290/mcp"), "http://127.0.0.1:6290/mcp");
  assert.throws(() => parseSuiteServerUrl("127.0.0.1:6290"), UsageError);
  assert.throws(() => parseSuiteServerUrl("ws://127.0.0.1:6290/mcp"), /not an http\(s\) URL/);
});
