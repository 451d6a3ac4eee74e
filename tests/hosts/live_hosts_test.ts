/**
 * `conformance list hosts` shows the real MCP Apps hosts with their kind and capabilities, and every one of
 * them is gated: --live required, a preflight that checks its prerequisite.
 */
import assert from "node:assert/strict";
import { HOSTS } from "../../hosts/registry.ts";
import type { AppsHostEntry } from "../../src/host.ts";
import { conformanceArgv } from "../robustness/_harness.ts";

const LIVE = {
  chatgpt: "web",
  "claude-ai": "web",
  mistral: "web",
  vscode: "desktop",
  goose: "desktop",
  cursor: "desktop",
};

Deno.test("conformance list hosts --json shows every real MCP Apps host with its kind and capabilities", async () => {
  const { binary, args } = conformanceArgv(["list", "hosts", "--json"]);
  const output = await new Deno.Command(binary, { detached: true, args, stdin: "null" }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const rows = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    id: string;
    kind: string;
    capabilities: string[];
  }[];
  for (const [id, kind] of Object.entries(LIVE)) {
    const row = rows.find((candidate) => candidate.id === id);
    assert.ok(row, `${id} is listed`);
    assert.equal(row.kind, kind);
    assert.ok(row.capabilities.includes("clickTrigger") && row.capabilities.includes("conversationContains"));
    assert.ok(!row.capabilities.includes("triggerTeardown"), `${id} claims no reference-only hook`);
  }
});

Deno.test("every real MCP Apps host requires --live and has a preflight", () => {
  for (const id of Object.keys(LIVE)) {
    const entry = HOSTS.find((candidate) => candidate.id === id) as AppsHostEntry | undefined;
    assert.ok(entry?.requiresLive, `${id} requires --live`);
    assert.equal(typeof entry.preflight, "function", `${id} checks its prerequisite before a run`);
    assert.equal(entry.testOnly, undefined, `${id} is on the board (as not run until it runs)`);
  }
});
