/**
 * Hosts described in the config file instead of code. A `kind: cli` entry becomes a {@linkcode HostRunner}
 * whose argv comes from per-golden-path templates ({@linkcode fillArgv}: `{prompt}`, `{model}`, `{agent}` …), and
 * whose `capabilityMarkers` say which argv elements prove each claimed capability. A
 * `kind: web` entry becomes a web host driven through the selectors it gives (`hosts/web/yaml_host.ts`).
 *
 * @module
 */
import type { CliHostConfig, Config } from "../src/config.ts";
import {
  CAPABILITY_FLAGS,
  type HostCapabilities,
  type HostRunner,
  type InvocationRequest,
  type MockModelSetup,
  type MockModelTarget,
  NO_CAPABILITIES,
} from "../src/exec/host_runner.ts";
import type { CliHostEntry, HostEntry } from "../src/host.ts";
import { findExecutable } from "../src/exec/find_executable.ts";
import { ARGV_PLACEHOLDERS, type ArgvPlaceholder } from "../src/config_problems.ts";
import { yamlHostEntry } from "./web/yaml_host.ts";
import { type ArgvPlan, cliRunner } from "./cli/_runner.ts";

/** Registry entries for every host in the config file. */
export function configHosts(config: Config): HostEntry[] {
  return config.hosts.map((host): HostEntry =>
    host.kind === "cli" ? cliEntry(host) : yamlHostEntry(host, config.source)
  );
}

function cliEntry(host: CliHostConfig): CliHostEntry {
  const capabilities: HostCapabilities = Object.freeze(Object.fromEntries(
    CAPABILITY_FLAGS.map((flag) => [flag, host.capabilities[flag] ?? NO_CAPABILITIES[flag]]),
  ) as unknown as HostCapabilities);
  const runner: HostRunner = cliRunner({
    name: host.id,
    binary: host.binary,
    dialect: host.dialect,
    capabilities,
    streamShape: host.streamShape,
    capabilityMarkers: Object.freeze(Object.fromEntries(
      Object.entries(host.capabilityMarkers).flatMap(([flag, markers]) =>
        markers ? [[flag, Object.freeze([...markers])]] : []
      ),
    )),
    detect: () => findExecutable(host.binary, host.id),
    ...mockModelOf(host),
    env: host.env,
    envAllow: host.envAllow,
    missingPath: (path) => `Host "${host.id}" has no argv for golden path "${path}" in its config`,
    paths: Object.fromEntries(
      Object.entries(host.paths).flatMap(([path, template]) =>
        template
          ? [[path, (request: InvocationRequest): ArgvPlan => ({ args: argvOf(template, request) })]]
          : []
      ),
    ),
  });
  return {
    id: host.id,
    kind: "cli",
    summary: host.summary ?? `${host.binary} (${host.dialect} dialect, from config)`,
    capabilities: CAPABILITY_FLAGS.filter((flag) => capabilities[flag]),
    runner,
  };
}

function argvOf(template: readonly string[], request: InvocationRequest): string[] {
  const values: Record<ArgvPlaceholder, string> = {
    prompt: request.prompt,
    model: request.model ?? "",
    cwd: request.workingDir ?? "",
    agent: request.agent ?? "",
    tools: (request.tools ?? []).join(","),
    jsonSchema: request.jsonSchema ?? "",
    workspace: request.workspaceRoot ?? "",
  };
  return fillArgv(template, values);
}

/** The mock-model setup a config host describes (`{url}` and `{home}` filled in), or why it has none. */
function mockModelOf(host: CliHostConfig): Pick<HostRunner, "mockModel" | "mockModelUnsupported"> {
  const spec = host.mockModel;
  if (spec === undefined) {
    return { mockModelUnsupported: `its config entry has no mockModel: { env, files } saying how` };
  }
  return {
    mockModel(target: MockModelTarget): MockModelSetup {
      const fill = (text: string) => text.replaceAll("{url}", target.url).replaceAll("{home}", target.home);
      const filled = (record: Readonly<Record<string, string>>) =>
        Object.fromEntries(Object.entries(record).map(([key, value]) => [fill(key), fill(value)]));
      return {
        env: filled(spec.env),
        files: filled(spec.files),
        ...(spec.model ? { model: spec.model } : {}),
      };
    },
  };
}

const PLACEHOLDER = new RegExp(`\\{(${ARGV_PLACEHOLDERS.join("|")})\\}`, "g");
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source);

/**
 * A template with its placeholders filled in. An argument whose placeholders all have no value (no model
 * asked for, say) is left out, and so is the flag just before it (`--model {model}` → nothing): a flag
 * without its value would swallow the next argument.
 *
 * @example
 * ```ts
 * import { fillArgv } from "./from_config.ts";
 * fillArgv(["-p", "{prompt}", "--model", "{model}"], { prompt: "hi", model: "" }); // ["-p", "hi"]
 * ```
 */
export function fillArgv(template: readonly string[], values: Readonly<Record<string, string>>): string[] {
  const args: string[] = [];
  template.forEach((arg, index) => {
    const names = [...arg.matchAll(PLACEHOLDER)].map((match) => match[1]!);
    if (names.length > 0 && names.every((name) => values[name] === "")) {
      const flag = template[index - 1];
      if (flag?.startsWith("-") && !HAS_PLACEHOLDER.test(flag) && args.at(-1) === flag) args.pop();
      return;
    }
    args.push(arg.replace(PLACEHOLDER, (_, name: string) => values[name] ?? ""));
  });
  return args;
}
