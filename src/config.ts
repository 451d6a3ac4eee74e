/**
 * The configuration file (`--config conformance.yaml`): hosts described without code and user-defined golden
 * paths. Schema-checked; a malformed file is a usage error naming the file and the field.
 *
 * ```yaml
 * hosts:
 *   - id: my-agent
 *     kind: cli
 *     binary: my-agent
 *     dialect: claude
 *     streamShape: { init: required, terminal: event }
 *     capabilities: { streaming: true, permissionSkip: true }
 *     envAllow: [MY_AGENT_API_KEY]
 *     paths:
 *       streaming: ["-p", "{prompt}", "--output-format", "stream-json"]
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
import { UsageError } from "./errors.ts";
import { isPermissionRefusal } from "./permissions.ts";
import { oneLine, yamlErrorDetail } from "./file_errors.ts";
import { envAllowProblem } from "./exec/env.ts";

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
  env: z.record(z.string(), z.string()).default({}),
  envAllow: z.array(z.string()).default([]),
  /** argv templates per golden path; `{prompt}`, `{model}`, `{cwd}` are substituted. */
  paths: z.record(z.string(), z.array(z.string())).refine(
    (paths) => Object.keys(paths).length > 0,
    "give argv for at least one golden path (e.g. streaming)",
  ),
}).strict();

const Step = z.object({ selector: z.string().min(1), key: z.string().optional() }).strict();

const Labels = z.array(z.string().min(1)).default([]);

/** A web chat client: how to prompt it, read its conversation, commit a drafted message, switch its theme. */
const WebHost = z.object({
  id: HostId,
  kind: z.literal("web"),
  summary: z.string().optional(),
  url: z.url(),
  /** The composer; `text` is the launch prompt, `{launcher}` becomes the launcher tool's name. */
  prompt: Step.extend({
    text: z.string().includes("{launcher}", { message: 'the prompt text must name "{launcher}"' })
      .default("Call the {launcher} tool now."),
  }),
  /** The conversation turns (their text is searched for markers). */
  conversation: z.object({ selector: z.string().min(1) }).strict(),
  /** What sends a message the app drafted into the composer. */
  commit: Step.optional(),
  /** The theme control; `{to}` in the selector becomes `light` or `dark`. Absent: the page follows the OS. */
  themeToggle: Step.optional(),
  /** Button labels of banners to dismiss, of tool-call approvals, and of consent dialogs. */
  dismiss: Labels,
  approve: Labels,
  dialogs: z.object({ download: Labels, sampling: Labels, link: Labels }).strict().default({
    download: [],
    sampling: [],
    link: [],
  }),
  /** A selector present only when signed in. */
  signedIn: z.string().min(1).optional(),
  /** Milliseconds between interactions; 1500 for live hosts, 0 otherwise, when absent. */
  paceMs: z.number().int().min(0).max(60_000).optional(),
  /** A real product: runs only with --live, on a persistent, signed-in profile. */
  live: z.boolean().default(true),
}).strict();

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

const ConfigFile = z.object({
  hosts: z.array(z.discriminatedUnion("kind", [CliHost, WebHost])).default([]),
  goldenPaths: z.array(GoldenPathSpec).default([]),
}).strict();

/** A CLI host described in the config file. */
export type CliHostConfig = z.infer<typeof CliHost>;
/** A web host described in the config file. */
export type WebHostConfig = z.infer<typeof WebHost>;
/** A user-defined golden path. */
export type GoldenPathConfig = z.infer<typeof GoldenPathSpec>;
/** A whole, validated config file. */
export type Config = z.infer<typeof ConfigFile> & { readonly source: string | null };

/** The config used when no file is given. */
export const EMPTY_CONFIG: Config = { hosts: [], goldenPaths: [], source: null };

/** Parses and validates config text. */
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
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join(".") : "(top level)";
    throw new UsageError(
      `Config file "${source}" is malformed at ${oneLine(where)}: ${
        oneLine(issue.message)
      }. See "Configuration" in the README`,
    );
  }
  const ids = new Set<string>();
  for (const host of parsed.data.hosts) {
    if (ids.has(host.id)) throw new UsageError(`Config file "${source}" defines host "${host.id}" twice`);
    ids.add(host.id);
    // A variable the harness may not read would reach the host as unset: say so now, not as a failed test.
    const problem = host.kind === "cli" ? host.envAllow.map(envAllowProblem).find((found) => found) : null;
    if (problem) throw new UsageError(`Config file "${source}": host "${host.id}" hands on ${problem}`);
  }
  return { ...parsed.data, source };
}

/** Reads and validates a config file. */
export async function loadConfig(path: string): Promise<Config> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    // Outside the permission set: the refusal itself is explained, with its way out (src/cli/failure.ts).
    if (isPermissionRefusal(error)) throw error;
    const why = error instanceof Deno.errors.NotFound ? "does not exist" : "cannot be read";
    throw new UsageError(`Config file "${path}" ${why}: check the --config path`);
  }
  return parseConfig(text, path);
}
