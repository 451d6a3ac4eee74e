/**
 * A web host described in YAML, pointed at the reference host page and driven only through its DOM (composer,
 * conversation, send button, theme setting, close and cancel buttons), must give the same result as the
 * built-in `reference` host for every catalogue test it can service; the tests it cannot service SKIP as
 * unsupported.
 */
import assert from "node:assert/strict";
import { configHosts } from "../../../hosts/from_config.ts";
import { REFERENCE_HOST } from "../../../hosts/web/reference.ts";
import { startReferenceListeners } from "../../../hosts/web/reference/listeners.ts";
import { CHAT_SURFACE } from "../../../hosts/web/reference/chat_surface.ts";
import { YamlWebHost } from "../../../hosts/web/yaml_host.ts";
import { parseConfig } from "../../../src/config.ts";
import type { AppsHostEntry } from "../../../src/host.ts";
import { chromiumPath } from "../../../src/runner/chromium.ts";
import { loadSuiteHtml } from "../../../suite/apps/build.ts";
import { conformanceArgv } from "../../robustness/_harness.ts";
import { runApps } from "./_apps_run.ts";

function referenceYaml(url: string): string {
  return `hosts:
  - id: reference-yaml
    kind: web
    summary: the reference host, described in YAML
    url: ${url}
    prompt: { selector: "${CHAT_SURFACE.composer}", key: Enter, text: "Please call {launcher} now." }
    conversation: { selector: "${CHAT_SURFACE.conversation}" }
    commit: { selector: "${CHAT_SURFACE.send}" }
    themeToggle: { selector: '[data-theme-choice="{to}"]' }
    dialogs: { download: [Download], sampling: [Allow] }
    signedIn: "${CHAT_SURFACE.ready}"
    teardown: [{ click: "${CHAT_SURFACE.close}" }]
    cancel: [{ click: "${CHAT_SURFACE.cancel}" }]
    live: false
`;
}

Deno.test({
  name: "the reference host described in YAML gives the reference host's result for every test it services",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using listeners = await startReferenceListeners({ appHtml: loadSuiteHtml, variant: null });
  const config = parseConfig(referenceYaml(listeners.hostPageUrl.href), "reference.yaml");
  const [entry] = configHosts(config) as AppsHostEntry[];
  assert.ok(entry !== undefined && entry.kind === "web");
  assert.equal(entry.requiresLive, undefined, "live: false needs no --live");
  assert.ok(entry.create() instanceof YamlWebHost);

  const yaml = await runApps(entry);
  const reference = await runApps(REFERENCE_HOST);
  const compared: string[] = [];
  const skipped: string[] = [];
  for (const [test, want] of reference) {
    const got = yaml.get(test)!;
    if (got.status === "SKIP" && want.status !== "SKIP") {
      assert.match(
        got.message ?? "",
        /does not support "(readModelToolList|cancelTool|triggerTeardown|streamPartialInput)"|cannot read the server log/,
        `${test} SKIPs only because the YAML host cannot service it: ${got.message}`,
      );
      skipped.push(test);
      continue;
    }
    assert.equal(
      got.status,
      want.status,
      `${test}: YAML host ${got.status} (${got.message ?? ""}), reference ${want.status} (${
        want.message ?? ""
      })`,
    );
    compared.push(test);
  }
  assert.ok(compared.length >= 40, `most of the catalogue compares (${compared.length}; skipped ${skipped})`);
  for (
    const manual of [
      "apps/messages/add-to-conversation",
      "apps/context/theme-change-notify",
      // Through the page's own "Cancel tool" button (the YAML cancel: steps).
      "apps/lifecycle/tool-cancelled",
    ]
  ) {
    assert.ok(compared.includes(manual), `${manual} runs through the YAML host's DOM steps`);
  }
  assert.ok(
    compared.includes("apps/visibility/cross-server-blocked"),
    "cross-server-blocked runs without the model's tool list: the second server's log is its positive control",
  );
});

Deno.test("a YAML web host's prompt text must name {launcher}", () => {
  assert.throws(
    () =>
      parseConfig(
        `hosts:\n  - id: x\n    kind: web\n    url: https://x.example/\n    prompt: { selector: "#p", text: "hi" }\n    conversation: { selector: ".t" }\n`,
        "bad.yaml",
      ),
    /bad\.yaml.*hosts\.0\.prompt\.text.*\{launcher\}/,
  );
});

Deno.test("a live YAML web host needs --live and a signed-in profile", async () => {
  const config = parseConfig(
    `hosts:\n  - id: acme\n    kind: web\n    url: https://chat.acme.example/\n    prompt: { selector: "#p" }\n    conversation: { selector: ".t" }\n`,
    "acme.yaml",
  );
  const [entry] = configHosts(config) as AppsHostEntry[];
  assert.ok(entry?.requiresLive);
  const dir = await Deno.makeTempDir();
  try {
    const problem = await entry.preflight!({ profileDir: dir });
    assert.match(problem ?? "", new RegExp(`conformance login --host acme" --profile-dir "${dir}"`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "conformance run --config drives the YAML web host under the harness's own permission set",
  ignore: chromiumPath() === null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  await using listeners = await startReferenceListeners({ appHtml: loadSuiteHtml, variant: null });
  const dir = await Deno.makeTempDir({ dir: ".", prefix: ".yaml-host-test-" });
  try {
    await Deno.writeTextFile(`${dir}/hosts.yaml`, referenceYaml(listeners.hostPageUrl.href));
    const wanted = [
      "apps/lifecycle/tool-input",
      "apps/messages/add-to-conversation",
      "apps/security/iframe-sandboxed",
    ];
    const { binary, args } = conformanceArgv([
      "run",
      "--config",
      `${dir}/hosts.yaml`,
      "--host",
      "reference-yaml",
      "--grep",
      `^(${wanted.join("|")})$`,
      "--reporter",
      "json",
      "--out",
      dir,
    ]);
    // As on a CI machine: with CI set, Playwright asks for TRAVIS, CIRCLECI …, names outside the set.
    const env = { CI: "true", TRAVIS: "true" };
    const output = await new Deno.Command(binary, { detached: true, args, env, stdin: "null" }).output();
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`)) as {
      results: { test: string; status: string; host: string }[];
    };
    assert.equal(output.code, 0, JSON.stringify(report.results));
    assert.deepEqual(report.results.map((result) => result.test).sort(), [...wanted].sort());
    for (const result of report.results) assert.equal(result.status, "PASS", JSON.stringify(result));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
