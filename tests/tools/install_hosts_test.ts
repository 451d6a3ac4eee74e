/**
 * `hosts:install` without the network: packages already in a cache folder (their markers present) are not
 * reinstalled; each CLI (and each apps host, like the MCP Inspector) gets a shim that puts its runtime first on PATH and `exec`s the entry; the version check
 * runs once and is then reused; a wrong version is refused by name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { packagePrefix, PINNED_APPS_HOSTS, RUNTIMES } from "../../hosts/installed.ts";
import { PINNED_HOSTS } from "../../hosts/registry.ts";
import { installHosts } from "../../tools/install_hosts.ts";

const qwen = PINNED_HOSTS.find((pin) => pin.host === "qwen")!;
const kimi = PINNED_HOSTS.find((pin) => pin.host === "kimi-code")!;
const inspector = PINNED_APPS_HOSTS.find((pin) => pin.host === "mcp-inspector")!;

/** Lays out a package as `npm install` would have, with an entry that prints `version` and counts its runs. */
async function fakeInstalled(
  cache: string,
  pkg: { name: string; version: string },
  entry: string,
  version: string,
) {
  const prefix = packagePrefix(pkg, cache);
  await Deno.mkdir(join(prefix, entry, ".."), { recursive: true });
  await Deno.writeTextFile(
    join(prefix, entry),
    `#!/bin/sh\necho run >> "${prefix}/runs"\necho "PATH=$PATH" > "${prefix}/path"\necho "${version}"\n`,
  );
  await Deno.chmod(join(prefix, entry), 0o755);
  await Deno.writeTextFile(join(prefix, ".conformance-installed"), `${pkg.name}@${pkg.version}\n`);
  return prefix;
}

const runs = async (prefix: string) =>
  (await Deno.readTextFile(join(prefix, "runs")).catch(() => "")).split("\n").filter(Boolean).length;

Deno.test("cached packages are reused: shims written, version asserted once, then reused", async () => {
  const cache = await Deno.makeTempDir({ prefix: "conformance-hosts-" });
  try {
    const prefix = await fakeInstalled(cache, qwen.pkg, qwen.entry, qwen.pkg.version);
    const lines: string[] = [];
    const shims = await installHosts({ only: ["qwen"], cacheDir: cache, log: (line) => lines.push(line) });
    assert.equal(shims.get("qwen"), join(cache, "bin", "qwen"));
    assert.match(lines.join("\n"), /cached\s+@qwen-code\/qwen-code@0\.24\.4/);
    assert.equal(await runs(prefix), 1, "the version check ran once");
    const shim = await Deno.readTextFile(join(cache, "bin", "qwen"));
    assert.match(shim, /^#!\/bin\/sh\n/);
    assert.ok(shim.includes(`exec "${join(prefix, qwen.entry)}" "$@"`));

    await installHosts({ only: ["qwen"], cacheDir: cache, log: () => {} });
    assert.equal(await runs(prefix), 1, "a warm run reuses the install-time proof");
    await installHosts({ only: ["qwen"], cacheDir: cache, verify: true, log: () => {} });
    assert.equal(await runs(prefix), 2, "--verify runs the check again");
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("a CLI that needs a runtime gets that runtime's bin folder first on its PATH", async () => {
  const cache = await Deno.makeTempDir({ prefix: "conformance-hosts-" });
  try {
    const prefix = await fakeInstalled(cache, kimi.pkg, kimi.entry, kimi.pkg.version);
    const node = RUNTIMES.node;
    await Deno.mkdir(join(packagePrefix(node, cache), node.bin), { recursive: true });
    await Deno.writeTextFile(join(packagePrefix(node, cache), ".conformance-installed"), "node\n");
    await installHosts({ only: ["kimi-code"], cacheDir: cache, log: () => {} });
    const path = await Deno.readTextFile(join(prefix, "path"));
    assert.ok(path.startsWith(`PATH=${join(packagePrefix(node, cache), node.bin)}:`), path);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("an apps host (the MCP Inspector) installs like a CLI: its own shim, Node first on PATH, version asserted", async () => {
  assert.ok(
    !PINNED_HOSTS.some((pin) => pin.host === inspector.host),
    "the CLI host table lists agent CLIs only",
  );
  const cache = await Deno.makeTempDir({ prefix: "conformance-hosts-" });
  try {
    const prefix = await fakeInstalled(cache, inspector.pkg, inspector.entry, inspector.pkg.version);
    const node = RUNTIMES.node;
    await Deno.mkdir(join(packagePrefix(node, cache), node.bin), { recursive: true });
    await Deno.writeTextFile(join(packagePrefix(node, cache), ".conformance-installed"), "node\n");
    const shims = await installHosts({ only: ["mcp-inspector"], cacheDir: cache, log: () => {} });
    assert.equal(shims.get("mcp-inspector"), join(cache, "bin", "mcp-inspector"));
    assert.equal(await runs(prefix), 1, "its version was asserted");
    const path = await Deno.readTextFile(join(prefix, "path"));
    assert.ok(path.startsWith(`PATH=${join(packagePrefix(node, cache), node.bin)}:`), path);
    await fakeInstalled(cache, inspector.pkg, inspector.entry, "2.11.0");
    await assert.rejects(
      () => installHosts({ only: ["mcp-inspector"], cacheDir: cache, verify: true, log: () => {} }),
      /"mcp-inspector --version" printed "2\.11\.0", not version "2\.12\.0"/,
    );
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("a CLI printing another version is refused, naming what it printed", async () => {
  const cache = await Deno.makeTempDir({ prefix: "conformance-hosts-" });
  try {
    await fakeInstalled(cache, qwen.pkg, qwen.entry, "0.15.10");
    await assert.rejects(
      () => installHosts({ only: ["qwen"], cacheDir: cache, log: () => {} }),
      /"qwen --version" printed "0\.15\.10", not version "0\.24\.4"/,
    );
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("an unknown host id is refused with the list of known ones", async () => {
  await assert.rejects(
    () => installHosts({ only: ["gemeni"], log: () => {} }),
    /Unknown host "gemeni": choose from/,
  );
});

const crush = PINNED_HOSTS.find((pin) => pin.binaryDownloadFrom !== undefined)!;

Deno.test("a CLI whose postinstall downloads its binary: installed from npm, then 'not installed' with the reason where its host is unreachable", async () => {
  // The real package from the npm registry and its real postinstall: where github.com is unreachable (as here)
  // the install goes on and names why; where it is reachable the binary arrives and gets its shim.
  const cache = await Deno.makeTempDir({ prefix: "conformance-hosts-" });
  try {
    const lines: string[] = [];
    const shims = await installHosts({
      only: [crush.host],
      cacheDir: cache,
      log: (line) => lines.push(line),
    });
    const text = lines.join("\n");
    assert.match(text, /installed @charmland\/crush@0\.96\.1/);
    if (text.includes(`${crush.host}: not installed`)) {
      assert.match(
        text,
        /crush: not installed: its postinstall downloads the binary from github\.com, which is unreachable here \(.*github\.com.*\)/,
      );
      assert.equal(shims.has(crush.host), false);
      await assert.rejects(() => Deno.stat(join(cache, "bin", crush.binary)), Deno.errors.NotFound);
    } else {
      assert.equal(shims.get(crush.host), join(cache, "bin", crush.binary));
    }
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("a postinstall download that fails for another reason than an unreachable host fails the install", async () => {
  const cache = await Deno.makeTempDir({ prefix: "conformance-hosts-" });
  try {
    // A package laid out as npm would have (marker present) whose postinstall fails without any network error.
    const prefix = packagePrefix(crush.pkg, cache);
    const dir = join(prefix, "node_modules", crush.pkg.name);
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(join(prefix, "package.json"), JSON.stringify({ private: true }) + "\n");
    await Deno.writeTextFile(
      join(dir, "package.json"),
      JSON.stringify({
        name: crush.pkg.name,
        version: crush.pkg.version,
        scripts: { postinstall: "echo 'sha256 does not match' >&2; exit 3" },
      }),
    );
    await Deno.writeTextFile(
      join(prefix, ".conformance-installed"),
      `${crush.pkg.name}@${crush.pkg.version}\n`,
    );
    await assert.rejects(
      () => installHosts({ only: [crush.host], cacheDir: cache, log: () => {} }),
      /The postinstall of "@charmland\/crush@0\.96\.1" \(its binary, from github\.com\) failed .*sha256 does not match/s,
    );
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});
