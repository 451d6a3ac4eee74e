/**
 * `conformance serve [--listen 127.0.0.1:PORT] [--csp-origins local|public] [--second-listen ADDR]`: the
 * conformance MCP server with its CSP control origins (and the second server, when asked), for adding to a
 * real host. Runs until Ctrl-C.
 *
 * @module
 */
import { EXIT, UsageError } from "../src/errors.ts";
import { CSP_ORIGINS, parseListen, serve, type Serving } from "../src/server/serve.ts";
import { isLoopback } from "../src/server/listen_address.ts";
import { booleanFlag, type CommandSpec, listFlag, oneOf, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";
import { loadSuiteHtml } from "../suite/apps/build.ts";

/** The grammar of `conformance serve`. */
export const SERVE_SPEC: CommandSpec = {
  name: "serve",
  flags: {
    listen: { type: "string" },
    "csp-origins": { type: "string" },
    "second-listen": { type: "string" },
    "allow-origin": { type: "string", multiple: true },
    "allow-host": { type: "string", multiple: true },
    "allow-remote": { type: "boolean" },
  },
  positionals: { min: 0, max: 0, what: "no arguments" },
};

/** The `serve` subcommand. */
export async function serveCommand(args: string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  const parsed = parseCommandLine(SERVE_SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.serve}\n`);
    return EXIT.ok;
  }
  const listen = stringFlag(parsed, "listen") ?? "127.0.0.1:0";
  const second = stringFlag(parsed, "second-listen");
  for (const [flag, value] of [["--listen", listen], ["--second-listen", second]] as const) {
    if (value === undefined) continue;
    try {
      parseListen(value, flag);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (!booleanFlag(parsed, "allow-remote") && !isLoopback(parseListen(value, flag).hostname)) {
      throw new UsageError(
        `${flag} "${value}" is not a loopback address: add --allow-remote to listen beyond this machine`,
      );
    }
  }
  if (second !== undefined && sameAddress(listen, second)) {
    throw new UsageError(
      `--second-listen "${second}" is the --listen address: give the second server its own port`,
    );
  }
  const cspOrigins = oneOf("--csp-origins", stringFlag(parsed, "csp-origins") ?? "local", CSP_ORIGINS);
  const allowOrigins = listFlag(parsed, "allow-origin");
  for (const origin of allowOrigins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new UsageError(
        `Invalid --allow-origin "${origin}": give an origin such as https://chat.example.com`,
      );
    }
  }
  const allowHosts = listFlag(parsed, "allow-host");
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
      ...(second === undefined ? {} : { second }),
      cspOrigins,
      allowOrigins,
      allowHosts,
      appHtml: () => html,
      signal: controller.signal,
      onListening: (_url, serving) =>
        io.out(banner(serving, allowHosts.length > 0 || !isLoopback(parseListen(listen).hostname))),
    });
  } catch (error) {
    const where = second === undefined
      ? `--listen ${listen}`
      : `--listen ${listen} or --second-listen ${second}`;
    if (error instanceof Deno.errors.AddrInUse) {
      throw new UsageError(`Cannot listen on ${where}: the address is in use; pick another port`);
    }
    if (error instanceof Deno.errors.AddrNotAvailable) {
      throw new UsageError(
        `Cannot listen on ${where}: this machine has no such address; give one of its own (127.0.0.1:PORT)`,
      );
    }
    throw error;
  } finally {
    if (!signal) {
      Deno.removeSignalListener("SIGINT", stop);
      Deno.removeSignalListener("SIGTERM", stop);
    }
  }
  return EXIT.ok;
}

/**
 * What `serve` prints once everything listens: every endpoint, then what to do. `reachedFromElsewhere` (a
 * tunnel's host name allowed, or a bind beyond loopback) adds a note when the control origins are local.
 */
export function banner(serving: Serving, reachedFromElsewhere: boolean): string {
  const { controls } = serving;
  const lines = [`conformance MCP server listening on ${serving.server.url}`];
  if (serving.secondServer !== null) {
    lines.push(
      `second MCP server (for visibility/cross-server-blocked) listening on ${serving.secondServer.url}`,
    );
  }
  lines.push(
    `CSP control origins (${serving.localControls ? "local" : "public"}): declared ${controls.declared}, ` +
      `undeclared ${controls.undeclared}`,
  );
  if (serving.localControls && reachedFromElsewhere) {
    lines.push(
      "Note: the control origins listen on this machine's loopback; a host reached through a tunnel cannot " +
        "load them. Use --csp-origins public for it",
    );
  }
  lines.push(
    `Add it to your MCP Apps host as a connector (Streamable HTTP) and ask it to run the "run_conformance" tool.`,
  );
  if (serving.secondServer !== null) lines.push("Add the second server as another connector.");
  lines.push("Press Ctrl-C to stop.");
  return `${lines.join("\n")}\n`;
}

function sameAddress(a: string, b: string): boolean {
  const [first, second] = [parseListen(a), parseListen(b)];
  return first.port !== 0 && first.port === second.port && first.hostname === second.hostname;
}
