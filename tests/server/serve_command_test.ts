/**
 * `conformance serve` as a person runs it: a real subprocess (in its own process group) that prints its URL,
 * answers a real MCP client (@modelcontextprotocol/client) with the suite as the app resource, and is gone,
 * group and all, after SIGTERM.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { RESOURCE_URIS, SUITE_CONFIG_ELEMENT_ID } from "../../src/fixtures.ts";
import { groupAlive, signalGroup, waitGroupGone } from "../../src/exec/process_group.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-sys",
  "--allow-run",
  "--allow-net=127.0.0.1,localhost,[::1]",
];

Deno.test({
  name: "conformance serve answers a real MCP client and leaves no process behind",
  sanitizeResources: false,
  fn: async () => {
    const child = spawn(Deno.execPath(), ["run", ...PERMISSIONS, MAIN, "serve", "--listen", "127.0.0.1:0"], {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const pid = child.pid!;
    let output = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`serve printed no URL within 60 s:\n${output}`)),
          60_000,
        );
        const onData = (chunk: Uint8Array) => {
          output += new TextDecoder().decode(chunk);
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
          if (match) {
            clearTimeout(timer);
            resolve(new URL(match[1]!));
          }
        };
        child.stdout!.on("data", onData);
        child.stderr!.on("data", onData);
      });
      const client = new Client({ name: "serve-test", version: "1.0.0" }, {
        capabilities: {
          extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
        },
      });
      await client.connect(new StreamableHTTPClientTransport(url));
      try {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        assert.ok(names.includes("run_conformance"), `tools: ${names.join(", ")}`);
        const read = await client.readResource({ uri: RESOURCE_URIS.run_conformance });
        const html = (read.contents[0] as { text: string }).text;
        assert.match(
          html,
          new RegExp(`<script id="${SUITE_CONFIG_ELEMENT_ID}" type="application/json">\\{"launcher"`),
        );
      } finally {
        await client.close();
      }
    } finally {
      signalGroup(pid, "SIGTERM");
      assert.ok(
        await waitGroupGone(pid, 15_000) || !(await groupAlive(pid)),
        `serve's group survived:\n${output}`,
      );
      await exited;
    }
  },
});
