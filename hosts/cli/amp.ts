/**
 * `amp` (`amp`, @ampcode/cli 0.0.1790142911-g7618fb). `@sourcegraph/amp` was renamed `@ampcode/cli` and is now a
 * wrapper depending on it; the pin is the real package, at the newest version whose Linux x64 native package
 * (`@ampcode/cli-linux-x64`) is on the registry (the two newer `@ampcode/cli` releases name a native package
 * the registry does not have), which is also the newest `@sourcegraph/amp`. The entry point is that native
 * Bun binary itself, so the install does not depend on the package's postinstall linking it into `bin/`.
 *
 * Pitfalls handled here, from the installed binary: headless is `-x PROMPT` (`--execute`), `--stream-json`
 * is its claude-compatible stream; the permission bypass is the hidden `--dangerously-allow-all` (unknown
 * options are refused, this one is not); resume is `threads continue --last`. Without `AMP_API_KEY` it starts
 * a browser login and waits for a pasted code even with stdin closed, so it never exits by itself. With any key
 * it first calls its own server (`AMP_URL`, default https://ampcode.com/, `POST /api/internal?getUserInfo`):
 * there is no model-provider base URL, so the mock model cannot be reached.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost } from "./_real_host.ts";

const BYPASS = "--dangerously-allow-all";

const streaming = (request: InvocationRequest, resume: boolean) => ({
  args: [...(resume ? ["threads", "continue", "--last"] : []), "-x", request.prompt, "--stream-json", BYPASS],
});

/** The amp host. */
export const amp = defineRealHost({
  id: "amp",
  binary: "amp",
  install: {
    package: "@ampcode/cli",
    version: "0.0.1790142911-g7618fb",
    entry: "node_modules/@ampcode/cli-linux-x64/amp",
  },
  acpUnsupported: "amp has no ACP mode (no ACP strings in its binary) and no ACP adapter on npm",
  envPrefixes: ["AMP_*"],
  summary: "Sourcegraph Amp CLI (-x --stream-json, claude-compatible stream)",
  dialect: "claude",
  capabilities: capabilities("streaming", "permissionSkip"),
  capabilityMarkers: { streaming: ["--stream-json"], permissionSkip: [BYPASS] },
  streamShape: { init: "required", terminal: "event" },
  envAllow: ["AMP_API_KEY", "AMP_URL", "AMP_SETTINGS_FILE"],
  paths: {
    "streaming": (request) => streaming(request, false),
    "resume": (request) => streaming(request, true),
    "detached": (request) => ({ args: ["-x", request.prompt, BYPASS] }),
    "version-check": () => ({ args: ["--version"] }),
  },
  unsupportedPaths: {
    "blocking-json": "no JSON document output: --stream-json is its only structured output",
  },
  mockModelUnsupported:
    "signs in to its own Amp server only (AMP_URL, POST /api/internal?getUserInfo first); " +
    "no model-provider base URL at 0.0.1790142911-g7618fb",
  vendorEndpoint: ({ url }) => ({ env: { AMP_URL: url, AMP_API_KEY: "amp-bogus-conformance" }, files: {} }),
});
