/**
 * A `--config` CLI host planted in a temporary folder: a shell script as its binary, and the config file that
 * declares it with the Claude dialect, a streaming path and a version check. Each test writes the script's
 * behaviour (what it counts, when it fails); the folder goes when the host is disposed.
 *
 * @module
 */
import { join } from "node:path";

/** The Claude stream of a run that answers "OK": an init, one assistant message, a successful result. */
export const OK_STREAM: readonly string[] = [
  '{"type":"system","subtype":"init","session_id":"s","model":"m","tools":[]}',
  '{"type":"assistant","message":{"content":[{"type":"text","text":"OK"}]}}',
  '{"type":"result","subtype":"success","is_error":false,"result":"OK"}',
];

/** What {@linkcode plantCliHost} writes. */
export interface PlantCliHostOptions {
  /** The host's id: also the script's file name, and `<id>.yaml` the config's. */
  readonly id: string;
  /** The temporary folder's name prefix. */
  readonly prefix: string;
  /** The script's lines after `#!/bin/sh`, given the folder it lives in. */
  readonly script: (dir: string) => readonly string[];
}

/** A planted host; disposing it removes its folder. */
export interface PlantedCliHost extends AsyncDisposable {
  /** The temporary folder holding the script and the config. */
  readonly dir: string;
  /** The config file declaring the host, for `--config`. */
  readonly config: string;
}

/**
 * Writes an executable host script and the config that declares it, in a fresh temporary folder.
 *
 * @param options The host's id, the folder's prefix and the script's body.
 * @returns The folder and the config path.
 * @example
 * ```ts ignore
 * await using host = await plantCliHost({
 *   id: "agent",
 *   prefix: "conformance-example-",
 *   script: () => OK_STREAM.map((line) => `echo '${line}'`),
 * });
 * ```
 */
export async function plantCliHost(options: PlantCliHostOptions): Promise<PlantedCliHost> {
  const dir = await Deno.makeTempDir({ prefix: options.prefix });
  const script = join(dir, options.id);
  await Deno.writeTextFile(script, ["#!/bin/sh", ...options.script(dir), ""].join("\n"));
  await Deno.chmod(script, 0o755);
  const config = join(dir, `${options.id}.yaml`);
  await Deno.writeTextFile(
    config,
    [
      "hosts:",
      `  - id: ${options.id}`,
      "    kind: cli",
      `    binary: ${script}`,
      "    dialect: claude",
      "    streamShape: { init: required, terminal: event }",
      "    paths:",
      '      streaming: ["-p", "{prompt}"]',
      '      version-check: ["--version"]',
      "",
    ].join("\n"),
  );
  return { dir, config, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}
