/**
 * The configuration file (`--config conformance.yaml`): hosts described without code and user-defined golden
 * paths. Schema-checked; every problem of a malformed file is reported at once, one line each naming the
 * file and the field (src/config_problems.ts finds what the schema cannot see).
 *
 * ```yaml
 * hosts:
 *   - id: my-agent
 *     kind: cli
 *     binary: my-agent
 *     dialect: claude
 *     streamShape: { init: required, terminal: event }
 *     capabilities: { streaming: true, permissionSkip: true }
 *     capabilityMarkers: { streaming: ["stream-json"], permissionSkip: ["--yolo"] }
 *     envAllow: [MY_AGENT_API_KEY]
 *     paths:
 *       streaming: ["--yolo", "-p", "{prompt}", "--output-format", "stream-json"]
 *       version-check: ["--version"]
 * goldenPaths:
 *   - name: plan-step
 *     mode: streaming
 *     prompt: "Reply with exactly: OK"
 *     options: { model: small }
 * ```
 *
 * @module
 */
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { UsageError, UsageProblems } from "./errors.ts";
import { isPermissionRefusal } from "./permissions.ts";
import { oneLine, yamlErrorDetail } from "./file_errors.ts";
import { InputTooLargeError, readTextBounded } from "./read_bounded.ts";
import { byPlace, schemaProblems, semanticProblems } from "./config_problems.ts";
import { CAPABILITY_FLAGS } from "./exec/host_runner.ts";
import { isLoopback, parseListen } from "./server/listen_address.ts";
// Only the step schema (zod and a type import of Playwright): the config file checks steps as it reads them.
import { LaunchSteps, placeholdersOf } from "./runner/launch_steps.ts";

const HostId = z.string().regex(
  /^[a-z0-9][a-z0-9._-]*(:[a-z0-9._-]+)?$/,
  "host ids are lower-case letters, digits, '.', '_' and '-'",
);

const Capabilities = z.object({
  streaming: z.boolean().optional(),
  permissionSkip: z.boolean().optional(),
  agentSelect: z.boolean().optional(),
  toolAllowlist: z.boolean().optional(),
  structuredOutput: z.boolean().optional(),
  workspaceSandboxed: z.boolean().optional(),
}).strict();

const CliHost = z.object({
  id: HostId,
  kind: z.literal("cli"),
  summary: z.string().optional(),
  binary: z.string().min(1, "binary must name an executable"),
  dialect: z.string().min(1),
  streamShape: z.object({
    init: z.enum(["required", "synthetic", "none"]),
    terminal: z.enum(["event", "eof"]),
  }).strict().default({ init: "required", terminal: "event" }),
  capabilities: Capabilities.default({}),
  /**
   * The argv elements (or `NAME=value` env entries) that prove each claimed capability in the streaming
   * invocation (`cli/capabilities/*`), e.g. `permissionSkip: ["--yolo"]`.
   */
  capabilityMarkers: z.object(
    Object.fromEntries(CAPABILITY_FLAGS.map((flag) => [flag, z.array(z.string().min(1)).min(1).optional()])),
  ).strict().default({}),
  /**
   * How to point the host at the local mock model (`--mock-model`): variables and files (by path relative to
   * the run's temporary HOME) where `{url}` is the mock's origin and `{home}` that HOME, and the model to ask
   * for. Without it the mock-model tier SKIPs the host.
   */
  mockModel: z.object({
    env: z.record(z.string(), z.string()).default({}),
    files: z.record(z.string().min(1), z.string()).default({}),
    model: z.string().min(1).optional(),
  }).strict().optional(),
  env: z.record(z.string(), z.string()).default({}),
  envAllow: z.array(z.string()).default([]),
  /** argv templates per golden path, placeholders filled in (`ARGV_PLACEHOLDERS` in src/config_problems.ts). */
  paths: z.record(z.string(), z.array(z.string())).refine(
    (paths) => Object.keys(paths).length > 0,
    "give argv for at least one golden path (e.g. streaming)",
  ),
}).strict();

const Step = z.object({ selector: z.string().min(1), key: z.string().optional() }).strict();

const Labels = z.array(z.string().min(1)).default([]);

const ListenAddress = z.string().refine((value) => {
  try {
    parseListen(value);
    return true;
  } catch {
    return false;
  }
}, "use HOST:PORT, e.g. 127.0.0.1:6280");

const Origin = z.url().refine(
  (value) => new URL(value).origin === value,
  "give an origin such as http://127.0.0.1:6274",
);

/** Whether a listen address binds loopback only; a malformed one is `ListenAddress`'s to report. */
function listensOnLoopback(value: string): boolean {
  try {
    return isLoopback(parseListen(value).hostname);
  } catch {
    return true;
  }
}

/** The conformance MCP server the harness starts for the run, where the host's own configuration expects it. */
const ServerSpec = z.object({
  listen: ListenAddress.optional(),
  /**
   * Instead of `listen`: another conformance MCP server, already running, the host is pointed at (as
   * `--suite-server URL`). The harness starts no server, `{serverUrl}` is this URL, and the run reports that
   * server's suite under its own ids (docs/hosts.md, "Run an upstream suite").
   */
  url: z.url().refine((value) => /^https?:$/.test(new URL(value).protocol), "give an http(s) URL").optional(),
  /** The second server (`visibility/cross-server-blocked`). */
  second: ListenAddress.optional(),
  /** `local` (default): CSP control origins on loopback; `public`: the public ones. */
  cspOrigins: z.enum(["local", "public"]).default("local"),
  /** Browser origins allowed to call besides loopback and the host's `url`. */
  allowOrigins: z.array(Origin).default([]),
  /**
   * Listen beyond loopback, as `conformance serve --allow-remote` does; a non-loopback `listen` or `second`
   * is refused without it. The Host/Origin guard still applies to every peer.
   */
  allowRemote: z.boolean().optional(),
}).strict().superRefine((server, ctx) => {
  if ((server.listen === undefined) === (server.url === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: server.listen === undefined ? ["listen"] : ["url"],
      message:
        "give listen (the harness starts the server) or url (another server, already running), not both",
    });
  }
  if (server.url !== undefined && (server.second !== undefined || server.allowRemote !== undefined)) {
    ctx.addIssue({
      code: "custom",
      path: ["url"],
      message: "a server given by url is not started by the harness: second and allowRemote do not apply",
    });
  }
  for (const key of ["listen", "second"] as const) {
    const value = server[key];
    if (value === undefined || server.allowRemote || listensOnLoopback(value)) continue;
    ctx.addIssue({
      code: "custom",
      path: [key],
      message: `"${value}" is not a loopback address: add allowRemote: true to listen beyond this machine`,
    });
  }
});

/**
 * A web host: how to start a render (launch steps, a prompt, or both), read its conversation, commit a drafted
 * message, switch its theme, and press its own close and cancel controls.
 */
const WebHost = z.object({
  id: HostId,
  kind: z.literal("web"),
  summary: z.string().optional(),
  url: z.url(),
  /** Steps that start one render (before the prompt, when both are given); see src/runner/launch_steps.ts. */
  launch: LaunchSteps.optional(),
  /** The composer; `text` is the launch prompt, `{launcher}` becomes the launcher tool's name. */
  prompt: Step.extend({
    text: z.string().includes("{launcher}", { message: 'the prompt text must name "{launcher}"' })
      .default("Call the {launcher} tool now."),
  }).optional(),
  /** The conversation turns (their text is searched for markers); without it, conversation checks SKIP. */
  conversation: z.object({ selector: z.string().min(1) }).strict().optional(),
  /** Steps that press the host's own control closing the View (`triggerTeardown`). */
  teardown: LaunchSteps.optional(),
  /** Steps that press the host's own control cancelling the launching tool call (`cancelTool`). */
  cancel: LaunchSteps.optional(),
  /**
   * `listen`: the harness starts the conformance MCP server here for the run, and stops it at the end. `url`:
   * another conformance MCP server, already running, whose suite the run reports (`--suite-server`).
   */
  server: ServerSpec.optional(),
  /** What sends a message the app drafted into the composer. */
  commit: Step.optional(),
  /** The theme control; `{to}` in the selector becomes `light` or `dark`. Absent: the page follows the OS. */
  themeToggle: Step.optional(),
  /** Button labels of banners to dismiss, of tool-call approvals, and of consent dialogs. */
  dismiss: Labels,
  approve: Labels,
  dialogs: z.object({
    download: Labels,
    sampling: Labels,
    link: Labels,
    /** Each View's consent dialog is in its own panel: accept the one nearest the View under test's frame. */
    ofView: z.boolean().optional(),
  }).strict().default({
    download: [],
    sampling: [],
    link: [],
  }),
  /**
   * The consents that are the browser's own dialog (`confirm()`): accepted while the harness services that
   * consent (from the click asking for it to its confirmDialog), any other browser dialog dismissed.
   */
  nativeDialogs: z.array(z.enum(["download", "link", "sampling"])).default([]).refine(
    (kinds) => new Set(kinds).size === kinds.length,
    "name each consent once",
  ),
  /**
   * The host's own visible log or monitor pane: `readConsole` (`security/csp-audit-log`) searches its text as
   * well as the browser console. `entry` (inside the pane) makes each matching element one line, its text on
   * one line (a message shown as pretty-printed JSON); without it, each text line of the pane is one.
   * `reveal` steps run before each read (expanding collapsed entries, say), `conceal` steps after it (putting
   * the pane back: a revealed pane can slow the host down).
   */
  log: z.object({
    selector: z.string().trim().min(1, "a selector must not be empty"),
    entry: z.string().trim().min(1, "a selector must not be empty").optional(),
    reveal: LaunchSteps.optional(),
    conceal: LaunchSteps.optional(),
  }).strict().optional(),
  /** A selector present only when signed in. */
  signedIn: z.string().min(1).optional(),
  /** Milliseconds between interactions; 1500 for live hosts, 0 otherwise, when absent. */
  paceMs: z.number().int().min(0).max(60_000).optional(),
  /** A real product: runs only with --live, on a persistent, signed-in profile. */
  live: z.boolean().default(true),
}).strict().superRefine((host, ctx) => {
  if (host.launch === undefined && host.prompt === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["launch"],
      message: "give launch steps or a prompt: how does a render start?",
    });
  }
  if (host.launch === undefined && host.conversation === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["conversation"],
      message: "a host launched by prompt alone needs conversation: { selector } (where its turns are read)",
    });
  }
  for (const kind of host.nativeDialogs) {
    if (host.dialogs[kind].length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["dialogs", kind],
        message: `the ${kind} consent is a browser dialog (nativeDialogs): it has no buttons to label`,
      });
    }
  }
  if (host.server === undefined) {
    const lists = [
      ...(["launch", "teardown", "cancel"] as const).map((field) => ({ path: [field], steps: host[field] })),
      ...(["reveal", "conceal"] as const).map((field) => ({
        path: ["log", field],
        steps: host.log?.[field],
      })),
    ];
    for (const { path, steps } of lists) {
      if (steps !== undefined && placeholdersOf(steps).has("serverUrl")) {
        ctx.addIssue({
          code: "custom",
          path,
          message:
            '{serverUrl} has a value only when the harness starts the server: add server: { listen: "127.0.0.1:PORT" }',
        });
      }
    }
  }
});

const GoldenPathSpec = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "golden path names are lower-case words joined by '-'"),
  mode: z.enum(["streaming", "blocking-json", "resume", "detached"]),
  prompt: z.string().min(1),
  options: z.object({
    model: z.string().optional(),
    agent: z.string().optional(),
    tools: z.array(z.string()).optional(),
    jsonSchema: z.string().optional(),
  }).strict().default({}),
}).strict();

/** The schema of a whole config file (`schemas/config.schema.json` is generated from it). */
export const ConfigFile = z.object({
  hosts: z.array(z.discriminatedUnion("kind", [CliHost, WebHost])).default([]),
  goldenPaths: z.array(GoldenPathSpec).default([]),
}).strict();

/** A CLI host described in the config file. */
export type CliHostConfig = z.infer<typeof CliHost>;
/** A web host described in the config file. */
export type WebHostConfig = z.infer<typeof WebHost>;
/** A user-defined golden path. */
export type GoldenPathConfig = z.infer<typeof GoldenPathSpec>;
/**
 * What a config file's CLI hosts need that the harness's permission set does not permit: the programs they run
 * and the variables they are handed, per host. The file is sound; only a run of those hosts needs a wider set
 * (`deno task conformance:config` from source, a binary built with `--also-run`/`--also-env`).
 */
export interface NotPermitted {
  /** The hosts that need something, in file order. */
  readonly hosts: readonly string[];
  /** Programs (a `binary:` value) to add to the run permission. */
  readonly run: readonly string[];
  /** Variables (an `envAllow:` name) to add to the env permission. */
  readonly env: readonly string[];
}

/** A whole, validated config file. */
export type Config = z.infer<typeof ConfigFile> & {
  readonly source: string | null;
  /** What its hosts need beyond the permission set; absent when nothing. */
  readonly notPermitted?: NotPermitted;
};

/** The config used when no file is given. */
export const EMPTY_CONFIG: Config = { hosts: [], goldenPaths: [], source: null };

/**
 * Parses and validates config text. Every problem is reported at once; what the permission set alone does not
 * permit is no problem of the file: it comes back as `notPermitted`, for the run to refuse or permit.
 */
export function parseConfig(text: string, source: string): Config {
  let data: unknown;
  try {
    // Warnings (e.g. an unknown !tag) would print as Node process warnings; errors carry what matters.
    data = parseYaml(text, { logLevel: "error" }) ?? {};
  } catch (error) {
    const detail = yamlErrorDetail(error, text);
    throw new UsageError(`Config file "${source}" is not valid YAML: ${detail}`);
  }
  const parsed = ConfigFile.safeParse(data);
  // Every problem at once, the schema's and those it cannot see, so one edit fixes the file.
  const problems = [
    ...(parsed.success ? [] : schemaProblems(parsed.error.issues, ConfigFile, data)),
    ...semanticProblems(data),
  ].sort(byPlace);
  const malformed = problems.filter((problem) => problem.needs === undefined);
  if (malformed.length > 0 || !parsed.success) {
    throw new UsageProblems(problems.map(({ path, message, needs }) => {
      // A key that is not a plain word (a typo with a space, say) is quoted, so the place stays readable.
      const segment = (key: PropertyKey) =>
        /^[\w-]+$/.test(String(key)) ? String(key) : JSON.stringify(String(key));
      const where = path.length ? path.map(segment).join(".") : "(top level)";
      const what = needs === undefined ? "is malformed at" : "at";
      return `Config file "${source}" ${what} ${oneLine(where)}: ${oneLine(message)}`;
    }));
  }
  const needs = problems.flatMap((problem) => problem.needs ? [problem.needs] : []);
  if (needs.length === 0) return { ...parsed.data, source };
  const unique = (values: (string | undefined)[]) => [...new Set(values.filter((v) => v !== undefined))];
  const notPermitted: NotPermitted = {
    hosts: unique(needs.map((need) => need.host)),
    run: unique(needs.map((need) => need.run)),
    env: unique(needs.map((need) => need.env)),
  };
  return { ...parsed.data, source, notPermitted };
}

/** Reads and validates a config file. */
export async function loadConfig(path: string): Promise<Config> {
  let text: string;
  try {
    text = await readTextBounded(path, { label: `Config file "${path}"`, hint: "check the --config path" });
  } catch (error) {
    // Outside the permission set: the refusal itself is explained, with its way out (cli/failure.ts).
    if (isPermissionRefusal(error) || error instanceof InputTooLargeError) throw error;
    const why = error instanceof Deno.errors.NotFound ? "does not exist" : "cannot be read";
    throw new UsageError(`Config file "${path}" ${why}: check the --config path`);
  }
  return parseConfig(text, path);
}
