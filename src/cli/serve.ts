/**
 * `conformance serve [--listen 127.0.0.1:PORT]`: the conformance MCP server, for adding to a real host.
 * Runs until Ctrl-C.
 *
 * @module
 */
import { EXIT, UsageError } from "../errors.ts";
import { parseListen, serve } from "../server/serve.ts";
import { type CommandSpec, listFlag, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";
import { loadSuiteHtml } from "../../suite/apps/build.ts";

const SPEC: CommandSpec = {
  name: "serve",
  flags: {
    listen: { type: "string" },
    "allow-origin": { type: "string", multiple: true },
    "allow-host": { type: "string", multiple: true },
  },
  positionals: { min: 0, max: 0, what: "no arguments" },
};

/** The `serve` subcommand. */
export async function serveCommand(args: string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const parsed = parseCommandLine(SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.serve}\n`);
    return EXIT.ok;
  }
  const listen = stringFlag(parsed, "listen") ?? "127.0.0.1:0";
  try {
    parseListen(listen);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const allowOrigins = listFlag(parsed, "allow-origin");
  for (const origin of allowOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new UsageError(
        `Invalid --allow-origin "${origin}": give an origin such as https://chat.example.com`,
      );
    }
  }
  const html = await loadSuiteHtml();
  const controller = new AbortController();
  signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const stop = () => controller.abort();
  if (!signal) {
    Deno.addSignalListener("SIGINT", stop);
    Deno.addSignalListener("SIGTERM", stop);
  }
  try {
    await serve({
      listen,
      allowOrigins,
      allowHosts: listFlag(parsed, "allow-host"),
      appHtml: () => html,
      signal: controller.signal,
      onListening: (url) =>
        io.out(
          `conformance MCP server listening on ${url}\n` +
            `Add it to your MCP Apps host as a connector (Streamable HTTP) and ask it to run the "run_conformance" tool.\n` +
            `Press Ctrl-C to stop.\n`,
        ),
    });
  } finally {
    if (!signal) {
      Deno.removeSignalListener("SIGINT", stop);
      Deno.removeSignalListener("SIGTERM", stop);
    }
  }
  return EXIT.ok;
}
