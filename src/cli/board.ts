/**
 * `conformance board REPORT.json… [--diff OLD.json] [--out FILE]`: merges shard and host reports into one
 * board and lists what changed since an older report.
 *
 * @module
 */
import { EXIT } from "../errors.ts";
import { type CommandSpec, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";
import { buildBoard } from "../report/board.ts";
import { secretsFromEnv } from "../report/redact.ts";
import { readableEnv } from "../exec/env.ts";

const SPEC: CommandSpec = {
  name: "board",
  flags: { diff: { type: "string" }, out: { type: "string" } },
  positionals: { min: 1, max: Infinity, what: "one or more REPORT.json files" },
};

/** The `board` subcommand. */
export async function boardCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.board}\n`);
    return EXIT.ok;
  }
  const diff = stringFlag(parsed, "diff");
  const out = stringFlag(parsed, "out");
  const board = await buildBoard({
    reports: parsed.positionals,
    ...(diff !== undefined ? { diff } : {}),
    ...(out !== undefined ? { out } : {}),
    secrets: secretsFromEnv(readableEnv()),
  });
  if (board.written) io.err(`conformance: wrote ${board.written}\n`);
  else io.out(board.text.endsWith("\n") ? board.text : `${board.text}\n`);
  return EXIT.ok;
}
