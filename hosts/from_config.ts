/**
 * Hosts described in the config file instead of code. A `kind: cli` entry becomes a {@linkcode HostRunner}
 * whose argv comes from per-golden-path templates; `{prompt}`, `{model}` and `{cwd}` are substituted.
 *
 * @module
 */
import type { CliHostConfig, Config } from "../src/config.ts";
import { NotBuiltError } from "../src/errors.ts";
import {
  CAPABILITY_FLAGS,
  type GoldenPath,
  type HostCapabilities,
  type HostInvocation,
  type HostRunner,
  type InvocationRequest,
  NO_CAPABILITIES,
} from "../src/exec/host_runner.ts";
import type { AppsHostEntry, CliHostEntry, HostEntry } from "../src/host.ts";
import { findExecutable } from "../src/exec/find_executable.ts";

/** Registry entries for every host in the config file. */
export function configHosts(config: Config): HostEntry[] {
  return config.hosts.map((host): HostEntry => {
    if (host.kind === "cli") return cliEntry(host);
    const entry: AppsHostEntry = {
      id: host.id,
      kind: "web",
      summary: host.summary ?? `web host at ${host.url} (from ${config.source})`,
      capabilities: ["clickTrigger", "conversationContains", ...(host.themeToggle ? ["toggleTheme"] : [])],
      ...(host.live ? { requiresLive: "it drives a real web product" } : {}),
      create() {
        throw new NotBuiltError(`Web host "${host.id}" from a config file`, "issue 6 (hosts from YAML)");
      },
    };
    return entry;
  });
}

function cliEntry(host: CliHostConfig): CliHostEntry {
  const capabilities: HostCapabilities = Object.freeze(Object.fromEntries(
    CAPABILITY_FLAGS.map((flag) => [flag, host.capabilities[flag] ?? NO_CAPABILITIES[flag]]),
  ) as unknown as HostCapabilities);
  const runner: HostRunner = {
    name: host.id,
    binary: host.binary,
    dialect: host.dialect,
    capabilities,
    streamShape: host.streamShape,
    goldenPaths: Object.keys(host.paths),
    detect: () => findExecutable(host.binary, host.id),
    build(path: GoldenPath, request: InvocationRequest): HostInvocation {
      const template = host.paths[path];
      if (!template) {
        throw new RangeError(`Host "${host.id}" has no argv for golden path "${path}" in its config`);
      }
      const values: Record<string, string> = {
        prompt: request.prompt,
        model: request.model ?? "",
        cwd: request.workingDir ?? "",
      };
      const args = template
        .map((arg) => arg.replace(/\{(prompt|model|cwd)\}/g, (_, key: string) => values[key]!))
        .filter((arg, i) => arg !== "" || template[i] === "");
      return Object.freeze({
        binary: host.binary,
        args: Object.freeze(args),
        env: Object.freeze({ ...host.env }),
        capabilities,
        cleanupPaths: Object.freeze([]),
        envAllow: Object.freeze([...host.envAllow]),
        ...(request.workingDir ? { cwd: request.workingDir } : {}),
      });
    },
  };
  return {
    id: host.id,
    kind: "cli",
    summary: host.summary ?? `${host.binary} (${host.dialect} dialect, from config)`,
    capabilities: CAPABILITY_FLAGS.filter((flag) => capabilities[flag]),
    runner,
  };
}
