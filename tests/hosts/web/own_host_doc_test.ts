/**
 * docs/hosts.md "Test your own host" walks a vendor through describing a host in YAML, with the MCP Inspector
 * as the worked example. Its YAML must stay the built-in `mcp-inspector` host's description (which
 * tests/hosts/web/mcp_inspector_test.ts runs against a hand-started Inspector), and its commands must parse.
 */
import assert from "node:assert/strict";
import { MCP_INSPECTOR_YAML } from "../../../hosts/web/mcp_inspector.ts";
import { parseConfig } from "../../../src/config.ts";
import { parseRunOptions } from "../../../cli/run_options.ts";

const DOC = new URL("../../../docs/hosts.md", import.meta.url);
const MARKER = "<!-- test-your-own-host.yaml:";

function section(doc: string): string {
  const start = doc.indexOf("## Test your own host\n");
  assert.ok(start >= 0, 'docs/hosts.md has a "Test your own host" section');
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

Deno.test("the walkthrough's YAML is the built-in mcp-inspector description, word for word", async () => {
  const text = section(await Deno.readTextFile(DOC));
  const at = text.indexOf(MARKER);
  assert.ok(at >= 0, "the worked example is marked");
  const block = /```yaml\n([\s\S]*?)```/.exec(text.slice(at));
  assert.ok(block, "a yaml block follows the marker");
  assert.equal(block[1], MCP_INSPECTOR_YAML);
  const [host] = parseConfig(block[1]!, "my-host.yaml").hosts;
  assert.equal(host?.id, "my-inspector");
});

Deno.test("the walkthrough's commands name the host of its YAML and flags the run command has", async () => {
  const text = section(await Deno.readTextFile(DOC));
  const runs = [...text.matchAll(/deno task conformance run ((?:[^\n\\]|\\\n)*)/g)].map((m) =>
    m[1]!.replaceAll("\\\n", " ").trim().split(/\s+/)
  );
  assert.equal(runs.length, 2, "a run and an expectations update");
  for (const argv of runs) {
    const options = parseRunOptions(argv);
    assert.ok(options !== "help");
    assert.deepEqual(options.hosts, ["my-inspector"]);
    assert.equal(options.config, "my-host.yaml");
  }
});
