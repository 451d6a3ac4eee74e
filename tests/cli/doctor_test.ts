import assert from "node:assert/strict";
import { join } from "node:path";
import { pinnedStatus, probeVersion } from "../../cli/doctor.ts";
import { chromiumPath } from "../../src/runner/chromium.ts";
import { runHarness } from "../robustness/_harness.ts";
import { packagePrefix, shimPath } from "../../hosts/installed.ts";
import { pinFor, PINNED_HOSTS } from "../../hosts/registry.ts";
import { PINNED_APPS_HOSTS, printedVersion } from "../../hosts/installed.ts";

function doctor(args: string[], env: Record<string, string>) {
  return runHarness(["doctor", ...args], { env });
}

Deno.test("pinnedStatus reads the version hosts:install recorded, and tells absent, mismatched and stale apart", async () => {
  const cache = await Deno.makeTempDir({ prefix: "conformance-doctor-" });
  try {
    const pin = pinFor("gemini")!;
    assert.equal((await pinnedStatus(pin, cache)).state, "absent");
    const shim = shimPath(pin.binary, cache);
    await Deno.mkdir(join(cache, "bin"), { recursive: true });
    await Deno.writeTextFile(shim, "#!/bin/sh\nexec gemini\n");
    assert.match((await pinnedStatus(pin, cache)).note ?? "", /no recorded version/);
    const proof = join(packagePrefix(pin.pkg, cache), ".conformance-verified");
    await Deno.mkdir(packagePrefix(pin.pkg, cache), { recursive: true });
    await Deno.writeTextFile(proof, `#!/bin/sh\nexec gemini\n\n---\n${pin.pkg.version}\n`);
    assert.deepEqual(await pinnedStatus(pin, cache), {
      host: "gemini",
      binary: "gemini",
      pinned: pin.pkg.version,
      installed: pin.pkg.version,
      state: "ok",
    });
    await Deno.writeTextFile(proof, "#!/bin/sh\nexec gemini\n\n---\n0.0.1\n");
    const mismatch = await pinnedStatus(pin, cache);
    assert.equal(mismatch.state, "mismatch");
    assert.equal(mismatch.installed, "0.0.1");
    await Deno.writeTextFile(proof, `#!/bin/sh\nexec other\n\n---\n${pin.pkg.version}\n`);
    assert.match((await pinnedStatus(pin, cache)).note ?? "", /stale proof/);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("doctor exits 1 when the default run's browser is missing, naming the fix", async () => {
  const { code, stdout, stderr } = await doctor([], { CONFORMANCE_CHROMIUM: "/usr/bin/chromium-nope" });
  assert.equal(code, 1, stderr);
  assert.match(stdout, /^browser: missing: /m);
  assert.match(stderr, /needs a browser: CONFORMANCE_CHROMIUM="\/usr\/bin\/chromium-nope"/);
  assert.doesNotMatch(stderr, /\n\s+at /);
});

/** A hosts:install cache with every pinned program installed at its pin, or at `versions`' where given. */
async function installedCache(dir: string, versions: Record<string, string> = {}): Promise<void> {
  for (const pin of [...PINNED_HOSTS, ...PINNED_APPS_HOSTS]) {
    const shim = shimPath(pin.binary, dir);
    const text = `#!/bin/sh\nexec ${pin.binary}-real "$@"\n`;
    await Deno.mkdir(join(dir, "bin"), { recursive: true });
    await Deno.writeTextFile(shim, text, { mode: 0o755 });
    await Deno.mkdir(packagePrefix(pin.pkg, dir), { recursive: true });
    const version = versions[pin.host] ?? printedVersion(pin);
    await Deno.writeTextFile(
      join(packagePrefix(pin.pkg, dir), ".conformance-verified"),
      `${text}\n---\n${version}\n`,
    );
  }
}

Deno.test({
  name: "doctor --json: the harness, Deno, the browser and every pinned program with its version; exit 0",
  ignore: chromiumPath() === null,
}, async () => {
  const cache = await Deno.makeTempDir({ prefix: "conformance-doctor-all-" });
  try {
    await installedCache(cache);
    const { code, stdout, stderr } = await doctor(["--json"], { CONFORMANCE_HOSTS_DIR: cache });
    assert.equal(code, 0, stderr);
    const report = JSON.parse(stdout) as {
      harness: string;
      deno: string;
      browser: string;
      browserVersion: string | null;
      hosts: { id: string; path: string | null }[];
      pinned: { host: string; pinned: string; installed: string | null; state: string }[];
      problems: string[];
    };
    assert.deepEqual(report.problems, []);
    assert.match(report.harness, /^conformance \S+ \(suite \S+\)$/);
    assert.equal(report.deno, Deno.version.deno);
    assert.ok((await Deno.stat(report.browser)).isFile);
    assert.match(report.browserVersion ?? "", /\d+\.\d+/, "the browser's version");
    for (const host of report.hosts) {
      if (host.path?.startsWith("/") && !host.path.startsWith("/proc/")) {
        assert.ok((await Deno.stat(host.path)).isFile, host.id);
      }
    }
    assert.equal(report.pinned.length, PINNED_HOSTS.length + PINNED_APPS_HOSTS.length);
    const pins = new Map([...PINNED_HOSTS, ...PINNED_APPS_HOSTS].map((pin) => [pin.host, pin]));
    for (const pin of report.pinned) {
      // What the program prints: its pin, or the number it hard-codes (grok-cli prints 1.0.1).
      assert.deepEqual(
        [pin.host, pin.state, pin.installed],
        [pin.host, "ok", printedVersion(pins.get(pin.host)!)],
        "every version shown",
      );
      assert.equal(pin.pinned, pins.get(pin.host)!.pkg.version);
    }
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("doctor exits 1 when a pinned program is not installed, or drifted from its pin, naming each", async () => {
  const cache = await Deno.makeTempDir({ prefix: "conformance-doctor-drift-" });
  try {
    await installedCache(cache, { gemini: "0.0.1" });
    await Deno.remove(shimPath(pinFor("codex")!.binary, cache));
    const { code, stderr } = await doctor([], { CONFORMANCE_HOSTS_DIR: cache });
    assert.equal(code, 1, stderr);
    assert.match(stderr, /^conformance doctor: codex: "codex" is not installed \(pinned [\d.]+\): run /m);
    assert.match(stderr, /^conformance doctor: gemini: 0\.0\.1 is installed, not its pin [\d.]+: reinstall/m);
    assert.equal(stderr.trim().split("\n").length, 2, stderr);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("probeVersion: the first line a program prints (stdout or stderr), null when it fails or is absent", async () => {
  assert.equal(await probeVersion("sh", ["-c", "echo; echo '1.2.3 (x)'; echo more"]), "1.2.3 (x)");
  assert.equal(await probeVersion("sh", ["-c", "echo 'v9' >&2"]), "v9");
  assert.equal(await probeVersion("sh", ["-c", "echo 1.0; exit 3"]), null);
  assert.equal(await probeVersion("conformance-no-such-program", ["--version"]), null);
});
