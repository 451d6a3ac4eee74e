import assert from "node:assert/strict";
import { buildCsp, isOriginSource } from "../../../hosts/web/reference/csp.ts";
import { INJECTION_DOMAIN } from "../../../src/fixtures.ts";

const A = "http://127.0.0.1:4001";

Deno.test("an omitted CSP gets the spec's restrictive default plus base-uri 'self'", () => {
  const policy = buildCsp(undefined);
  assert.match(policy, /^default-src 'none'; script-src 'self' 'unsafe-inline';/);
  assert.match(policy, /connect-src 'none'/);
  assert.match(policy, /object-src 'none'/);
  assert.match(policy, /base-uri 'self'/);
  assert.doesNotMatch(policy, /unsafe-eval/);
});

Deno.test("a declared CSP is built from the declared domains and drops a hostile entry", () => {
  const policy = buildCsp({
    connectDomains: [A],
    resourceDomains: [A, INJECTION_DOMAIN],
    frameDomains: [A],
  });
  const directives = new Map(policy.split("; ").map((part) => [part.split(" ")[0], part]));
  assert.equal(directives.get("connect-src"), `connect-src 'self' ${A}`);
  assert.equal(directives.get("script-src"), `script-src 'self' 'unsafe-inline' ${A}`);
  assert.equal(directives.get("frame-src"), `frame-src ${A}`);
  assert.equal(directives.get("base-uri"), "base-uri 'self'");
  assert.equal(directives.get("object-src"), "object-src 'none'");
  assert.equal(policy.split("; ").filter((part) => part.startsWith("script-src")).length, 1);
  assert.ok(!policy.includes("a.test"), `the hostile entry leaked into ${policy}`);
});

Deno.test("the loose flaw opens connect-src, the conformant builder never does", () => {
  assert.match(
    buildCsp({ connectDomains: [A] }, { loose: true }),
    /connect-src 'self' http:\/\/127\.0\.0\.1:4001 \*/,
  );
  assert.doesNotMatch(buildCsp({ connectDomains: [A] }), /\*/);
});

Deno.test("only plain origins pass the domain check", () => {
  for (const good of [A, "https://cdn.example.com", "https://*.example.com", "wss://x.test:443"]) {
    assert.ok(isOriginSource(good), good);
  }
  for (const bad of [INJECTION_DOMAIN, "*", "https://a.test/path", "javascript:alert(1)", "'unsafe-eval'"]) {
    assert.ok(!isOriginSource(bad), bad);
  }
});
