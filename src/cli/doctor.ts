/**
 * `conformance doctor`: what is installed and configured. Credentials are reported by presence only.
 *
 * @module
 */
import { EXIT } from "../errors.ts";
import { booleanFlag, type CommandSpec, parseCommandLine } from "./args.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";
import { HOSTS } from "../../hosts/registry.ts";

const SPEC: CommandSpec = {
  name: "doctor",
  flags: { json: { type: "boolean" } },
  positionals: { min: 0, max: 0, what: "no arguments" },
};

/** Credential variables the real hosts read; only their presence is ever reported. */
const CREDENTIALS = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "MOONSHOT_API_KEY",
  "DASHSCOPE_API_KEY",
  "OPENROUTER_API_KEY",
];

const BROWSERS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The `doctor` subcommand. */
export async function doctorCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.doctor}\n`);
    return EXIT.ok;
  }
  const hosts = await Promise.all(
    HOSTS.filter((e) => e.kind === "cli").map(async (e) => ({
      id: e.id,
      binary: e.kind === "cli" ? e.runner.binary : "",
      path: e.kind === "cli" ? await e.runner.detect() : null,
    })),
  );
  const override = Deno.env.get("CONFORMANCE_CHROMIUM");
  const browser = override ?? BROWSERS.find((path) => {
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  }) ?? null;
  const credentials = CREDENTIALS.map((name) => ({ name, present: Boolean(Deno.env.get(name)) }));
  if (booleanFlag(parsed, "json")) {
    io.out(`${JSON.stringify({ hosts, browser, credentials }, null, 2)}\n`);
    return EXIT.ok;
  }
  io.out(`browser: ${browser ?? "not found (apt-get install chromium, or set CONFORMANCE_CHROMIUM)"}\n`);
  io.out("agent CLIs:\n");
  for (const host of hosts) io.out(`  ${host.id.padEnd(14)} ${host.path ?? `not found (${host.binary})`}\n`);
  io.out("credentials (presence only):\n");
  for (const c of credentials) io.out(`  ${c.name.padEnd(20)} ${c.present ? "set" : "-"}\n`);
  return EXIT.ok;
}
