/**
 * `conformance serve` as a person runs it: a real subprocess (in its own process group) that prints its
 * addresses, answers a real MCP client (@modelcontextprotocol/client) with the suite as the app resource,
 * serves the CSP control origins on loopback (or names the public ones), starts the second server when asked,
 * and is gone, group and all, after SIGTERM.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  CONTROL_FILES,
  PUBLIC_CONTROLS,
  RESOURCE_URIS,
  SUITE_CONFIG_ELEMENT_ID,
} from "../../src/fixtures.ts";
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

/** A running `conformance serve`, its banner read; dispose to SIGTERM its group and prove the group gone. */
interface ServeProcess extends AsyncDisposable {
  readonly banner: string;
  /** The first URL on the banner line that starts with `prefix`. */
  url(prefix: string): URL;
  /** Every `http://…` on the banner line that starts with `prefix`. */
  origins(prefix: string): string[];
}

async function startServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(Deno.execPath(), ["run", ...PERMISSIONS, MAIN, "serve", ...args], {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid!;
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const stop = async () => {
    signalGroup(pid, "SIGTERM");
    assert.ok(
      await waitGroupGone(pid, 15_000) || !(await groupAlive(pid)),
      `serve's group survived:\n${output}`,
    );
    await exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`serve printed no banner within 60 s:\n${output}`)),
        60_000,
      );
      const onData = (chunk: Uint8Array) => {
        output += new TextDecoder().decode(chunk);
        if (output.includes("Press Ctrl-C to stop.")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.on("exit", () => {
        clearTimeout(timer);
        reject(new Error(`serve exited before its banner:\n${output}`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  const line = (prefix: string) => {
    const found = output.split("\n").find((candidate) => candidate.startsWith(prefix));
    if (found === undefined) throw new Error(`No banner line starts with "${prefix}":\n${output}`);
    return found;
  };
  return {
    banner: output,
    url: (prefix) => new URL(/https?:\/\/\S+/.exec(line(prefix))![0].replace(/,$/, "")),
    origins: (prefix) => [...line(prefix).matchAll(/https?:\/\/[^\s,]+/g)].map((match) => match[0]),
    [Symbol.asyncDispose]: stop,
  };
}

async function toolNames(url: URL): Promise<string[]> {
  const client = new Client({ name: "serve-test", version: "1.0.0" }, {
    capabilities: {
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
    },
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

Deno.test({
  name: "conformance serve answers a real MCP client and leaves no process behind",
  sanitizeResources: false,
  fn: async () => {
    await using serve = await startServe(["--listen", "127.0.0.1:0"]);
    const url = serve.url("conformance MCP server listening on");
    assert.match(url.href, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
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
  },
});

Deno.test({
  name:
    "conformance serve serves the CSP control origins on loopback by default, and the second server when asked; all close with it",
  sanitizeResources: false,
  fn: async () => {
    let endpoints: string[];
    {
      await using serve = await startServe(["--second-listen", "127.0.0.1:0"]);
      const [declared, undeclared] = serve.origins("CSP control origins (local):");
      assert.ok(declared && undeclared && declared !== undeclared, serve.banner);
      for (const origin of [declared, undeclared]) {
        assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/);
        const response = await fetch(`${origin}/${CONTROL_FILES.text}`);
        assert.equal(await response.text(), "ok");
        assert.equal(response.headers.get("access-control-allow-origin"), "*");
      }
      const main = serve.url("conformance MCP server listening on");
      const second = serve.url("second MCP server");
      assert.notEqual(main.port, second.port);
      assert.ok((await toolNames(second)).includes("second_server_probe"), "the second server's probe");
      assert.ok(!(await toolNames(main)).includes("second_server_probe"), "the main server has no probe");
      endpoints = [declared, undeclared, main.origin, second.origin];
    }
    for (const origin of endpoints) {
      await assert.rejects(
        fetch(`${origin}/${CONTROL_FILES.text}`),
        `${origin} still answers after serve stopped`,
      );
    }
  },
});

Deno.test({
  name:
    "conformance serve --csp-origins public names the public control origins and starts no second server unasked",
  sanitizeResources: false,
  fn: async () => {
    await using serve = await startServe(["--csp-origins", "public"]);
    assert.deepEqual(serve.origins("CSP control origins (public):"), [
      PUBLIC_CONTROLS.declared,
      PUBLIC_CONTROLS.undeclared,
    ]);
    assert.doesNotMatch(serve.banner, /second MCP server/);
  },
});

Deno.test("conformance serve refuses bad values in one line with exit code 2", async () => {
  const cases: [string[], RegExp][] = [
    [
      ["--csp-origins", "lokal"],
      /Invalid --csp-origins "lokal": did you mean "local"\? Choose one of: local, public/,
    ],
    [["--second-listen", "nowhere"], /Invalid --second-listen "nowhere": use HOST:PORT/],
    [["--listen", "127.0.0.1:99999"], /Invalid --listen "127\.0\.0\.1:99999"/],
    [
      ["--listen", "127.0.0.1:8765", "--second-listen", "8765"],
      /--second-listen "8765" is the --listen address/,
    ],
    // Refused before binding: the child may not bind beyond loopback anyway (--allow-net above).
    [
      ["--listen", "0.0.0.0:8765"],
      /--listen "0\.0\.0\.0:8765" is not a loopback address: add --allow-remote/,
    ],
    [
      ["--second-listen", "192.0.2.7:8766"],
      /--second-listen "192\.0\.2\.7:8766" is not a loopback address: add --allow-remote/,
    ],
  ];
  for (const [args, pattern] of cases) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...PERMISSIONS, MAIN, "serve", ...args],
      detached: true,
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 2, `${args.join(" ")}: ${stderr}`);
    assert.match(stderr, pattern);
    assert.equal(stderr.trim().split("\n").length, 1, `one line: ${stderr}`);
  }
});
