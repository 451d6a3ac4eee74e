import assert from "node:assert/strict";
import {
  controlFixture,
  cspAuditPattern,
  FIXTURE_TOOLS,
  INJECTION_DOMAIN,
  judgeTeardown,
  resourceMeta,
  SUITE_CONFIG_ELEMENT_ID,
  TEARDOWN_MARKS,
  withSuiteConfig,
} from "../src/fixtures.ts";

const CONTROLS = { declared: "http://127.0.0.1:4001", undeclared: "http://127.0.0.1:4002" };
const EMPTY = `<head><script id="${SUITE_CONFIG_ELEMENT_ID}" type="application/json">{}</script></head>`;

Deno.test("withSuiteConfig fills the config element and cannot close the script element", () => {
  const html = withSuiteConfig(EMPTY, {
    launcher: "run_conformance",
    resourceUri: "ui://conformance/runner</script><script>alert(1)",
    controls: CONTROLS,
  });
  assert.equal(html.split("</script>").length, 2, "exactly one closing tag: the element's own");
  const body = html.match(/type="application\/json">(.*)<\/script>/)?.[1] ?? "";
  assert.equal(JSON.parse(body).resourceUri, "ui://conformance/runner</script><script>alert(1)");
  assert.throws(() => withSuiteConfig("<p>no config</p>", JSON.parse(body)), /buildSuiteHtml/);
});

Deno.test("fixture tools: unique names, the visibilities the catalogue relies on", () => {
  const names = FIXTURE_TOOLS.map((tool) => tool.name);
  assert.equal(new Set(names).size, names.length);
  const visibility = Object.fromEntries(FIXTURE_TOOLS.map((tool) => [tool.name, tool.visibility]));
  assert.deepEqual(visibility.conformance_probe, ["app"]);
  assert.deepEqual(visibility.model_only_probe, ["model"]);
  assert.deepEqual(visibility.empty_visibility_probe, []);
  assert.equal(visibility.default_visibility_probe, undefined);
  assert.deepEqual(visibility.conformance_server_log, ["app"]);
  assert.ok(visibility.second_server_probe?.includes("model"), "second_server_probe is the RMT control");
});

Deno.test("resource metadata: the CSP launcher declares A plus the injection, precedence disagrees, nocsp none", () => {
  const runner = resourceMeta("run_conformance", CONTROLS);
  assert.deepEqual(runner.content?.csp?.resourceDomains, [CONTROLS.declared, INJECTION_DOMAIN]);
  assert.deepEqual(runner.listing, runner.content);
  const precedence = resourceMeta("run_conformance_precedence", CONTROLS);
  assert.deepEqual(precedence.listing?.csp?.connectDomains, [CONTROLS.declared]);
  assert.deepEqual(precedence.content?.csp?.connectDomains, [CONTROLS.undeclared]);
  assert.deepEqual(resourceMeta("run_conformance_nocsp", CONTROLS), {
    listing: undefined,
    content: undefined,
  });
});

Deno.test("control fixtures answer by file name in any directory", () => {
  const script = controlFixture(new URL("http://x/conformance/flag.js?name=__flag1"));
  assert.equal(script.status, 200);
  assert.equal(script.body, "globalThis.__flag1 = true;\n");
  assert.equal(controlFixture(new URL("http://x/flag.js?name=a;alert(1)")).status, 400);
  const pixel = controlFixture(new URL("http://x/a/b/pixel.png"));
  assert.ok(pixel.body instanceof Uint8Array);
  assert.deepEqual([...pixel.body.slice(1, 4)].map((c) => String.fromCharCode(c)).join(""), "PNG");
  assert.match(String(controlFixture(new URL("http://x/frame.html")).body), /conformanceFrame/);
  assert.equal(controlFixture(new URL("http://x/ok.txt")).body, "ok");
  assert.equal(controlFixture(new URL("http://x/secret")).status, 404);
});

Deno.test("judgeTeardown: notify and await verdicts from the server's markers", () => {
  const marks = (...names: string[]) => ({ markers: names.map((marker, at) => ({ marker, at: 100 + at })) });
  const verdict = (log: ReturnType<typeof marks>, removed: boolean, since = 0) =>
    judgeTeardown(log, removed, since).map((v) => v.status);
  assert.deepEqual(verdict(marks(TEARDOWN_MARKS.received, TEARDOWN_MARKS.acked), true), ["PASS", "PASS"]);
  assert.deepEqual(verdict(marks(TEARDOWN_MARKS.received), true), ["PASS", "FAIL"]);
  assert.deepEqual(verdict(marks(), true), ["FAIL", "SKIP"]);
  // The View cannot tell "not sent" from "sent as the frame was removed": the message claims only what it saw.
  const [notify] = judgeTeardown(marks(), true);
  assert.match(
    notify?.message ?? "",
    /^The View never received ui\/resource-teardown before the host removed it/,
  );
  assert.match(
    notify?.message ?? "",
    /cannot tell a request never sent from one sent as the frame was removed/,
  );
  assert.doesNotMatch(notify?.message ?? "", /without sending/);
  assert.deepEqual(verdict(marks(), false), ["SKIP", "SKIP"]);
  assert.deepEqual(verdict(marks(TEARDOWN_MARKS.received, TEARDOWN_MARKS.acked), true, 500), [
    "FAIL",
    "SKIP",
  ]);
});

Deno.test("the CSP audit pattern matches a host's log line in any format, not Chromium's violation report", () => {
  const pattern = new RegExp(cspAuditPattern("ui://conformance/runner", ["http://127.0.0.1:4000"]));
  assert.ok(pattern.test("CSP for ui://conformance/runner: default-src 'none'; connect-src 'self'"));
  assert.ok(pattern.test('[sandbox] applying CSP {"connectDomains":["http://127.0.0.1:4000"]}'));
  assert.ok(
    pattern.test("policy: connect-src 'self' http://127.0.0.1:4000; frame-src http://127.0.0.1:4000"),
  );
  assert.ok(pattern.test("Content-Security-Policy set for ui://conformance/runner"));
  assert.ok(
    !pattern.test(
      `Connecting to 'x' violates the following Content Security Policy directive: "connect-src http://127.0.0.1:4000"`,
    ),
  );
  assert.ok(!pattern.test("Refused to load the image 'x' because of img-src http://127.0.0.1:4000"));
  assert.ok(!pattern.test("CSP for ui://conformance/runner-nocsp… no policy"), "another resource");
  assert.ok(
    !pattern.test('[{"uri":"ui://conformance/runner-nocsp"},{"uri":"ui://conformance/runner"}]'),
    "a resource URI ending in nocsp is not a line about a CSP",
  );
  assert.ok(pattern.test('resources/read ui://conformance/runner { "_meta": { "ui": { "csp": {} } } }'));
  assert.ok(!pattern.test("CSP connect-src http://127.0.0.1:40001"), "another origin");
  assert.ok(!pattern.test("Rendering ui://conformance/runner"), "not about a CSP");
});
