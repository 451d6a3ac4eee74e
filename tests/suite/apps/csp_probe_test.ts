import assert from "node:assert/strict";
import { namesOrigin } from "../../../suite/apps/harness/csp_probe.ts";

Deno.test("a violation names an origin only where the origin ends: a longer port is another origin", () => {
  assert.ok(namesOrigin("http://127.0.0.1:4123/ok.txt", "http://127.0.0.1:4123"));
  assert.ok(namesOrigin("http://127.0.0.1:4123", "http://127.0.0.1:4123"));
  assert.ok(!namesOrigin("http://127.0.0.1:41234/ok.txt", "http://127.0.0.1:4123"));
  assert.ok(!namesOrigin("http://127.0.0.1:4123.evil.example/", "http://127.0.0.1:4123"));
  // Scheme sources: Chromium reports the scheme alone.
  assert.ok(namesOrigin("data", "data"));
  assert.ok(namesOrigin("blob:http://x/1", "blob"));
  assert.ok(!namesOrigin("database", "data"));
});
