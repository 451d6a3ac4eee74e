/**
 * `auggie` (`auggie`, @augmentcode/auggie 0.36.0). Pitfalls handled here, from the installed binary: headless
 * is `--print` (one-shot); `--output-format` is `text` or `json`, and `json` is one claude-style `result`
 * object printed when the agent loop completes (`{type:"result", result, is_error, subtype, session_id,
 * num_turns, request_id}`), so the machine-readable path is not incremental and the stream has no init.
 * `--continue` resumes the latest session (the result carries the first run's `session_id`).
 * On an error nothing is printed to stdout: the reason goes to stderr (`❌ …`) with exit 1. Auto-update is off
 * through `AUGMENT_DISABLE_AUTO_UPDATE`. It signs in to its Augment tenant only: the session
 * (`AUGMENT_SESSION_AUTH` or ~/.augment/session.json) names a `tenantURL`, which it calls with Augment's own
 * protocol (`POST /get-models`, `/agents/list-remote-tools`, `/chat-stream`); bring-your-own-key settings are
 * forwarded to the tenant, so there is no model-provider base URL and the mock model cannot be reached.
 *
 * @module
 */
import type { InvocationRequest } from "../../src/exec/host_runner.ts";
import { capabilities, defineRealHost, opt } from "./_real_host.ts";

const json = (request: InvocationRequest, resume: boolean) => ({
  args: [
    "--print",
    // One argv element: the bare `--output-format` and `json` are other hosts' streaming markers, and auggie's
    // JSON is not a stream.
    "--output-format=json",
    ...(resume ? ["--continue"] : []),
    ...opt("--model", request.model),
    request.prompt,
  ],
});

/** The auggie host. */
export const auggie = defineRealHost({
  id: "auggie",
  binary: "auggie",
  install: { package: "@augmentcode/auggie", version: "0.36.0" },
  acp: { args: ["--acp"] },
  envPrefixes: ["AUGMENT_*"],
  summary: "Augment Code Auggie CLI (--print --output-format json, one claude-style result)",
  dialect: "claude",
  capabilities: capabilities(),
  capabilityMarkers: {},
  streamShape: { init: "none", terminal: "event" },
  env: { AUGMENT_DISABLE_AUTO_UPDATE: "1" },
  stderrNoise: [/^Warning: Could not fetch (tenant|user) MCP server configurations: /],
  envAllow: ["AUGMENT_SESSION_AUTH", "AUGMENT_API_TOKEN", "AUGMENT_API_URL"],
  paths: {
    // No streaming output at 0.36.0: the path the tiers parse is the one JSON result, printed at the end.
    "streaming": (request) => json(request, false),
    "blocking-json": (request) => json(request, false),
    "resume": (request) => json(request, true),
    "detached": (request) => ({
      args: ["--print", "--quiet", ...opt("--model", request.model), request.prompt],
    }),
    "version-check": () => ({ args: ["--version"] }),
  },
  mockModelUnsupported: "signs in to its own Augment tenant only (tenantURL of AUGMENT_SESSION_AUTH: POST " +
    "/get-models, /chat-stream in Augment's protocol); no model-provider base URL at 0.36.0",
  vendorEndpoint: ({ url }) => ({
    env: {
      AUGMENT_SESSION_AUTH: JSON.stringify({
        accessToken: "augment-bogus-conformance",
        tenantURL: `${url}/`,
        scopes: ["email"],
      }),
    },
    files: {},
  }),
});
