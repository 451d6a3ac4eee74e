/**
 * `conformance board REPORT.json… [--diff OLD.json [--fail-on-regression]] [--out FILE]`: merges shard and
 * host reports into one board and lists what changed since an older report; with `--fail-on-regression` it
 * exits 1 when a result got worse (src/report/diff.ts `isRegression`).
 *
 * @module
 */
import { EXIT, UsageError } from "../src/errors.ts";
import { booleanFlag, type CommandSpec, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import type { CliIo } from "./io.ts";
import { buildBoard } from "../src/report/board.ts";
import { secretsFromEnv } from "../src/report/redact.ts";
import { readableEnv } from "../src/exec/env.ts";
import { stripControls } from "../src/report/sanitize.ts";

/** The grammar of `conformance board`. */
export const BOARD_SPEC: CommandSpec = {
  name: "board",
  flags: { diff: { type: "string" }, out: { type: "string" }, "fail-on-regression": { type: "boolean" } },
  positionals: { min: 1, max: Infinity, what: "one or more REPORT.json files" },
};

/** The `board` subcommand. */
export async function boardCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(BOARD_SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.board}\n`);
    return EXIT.ok;
  }
  const diff = stringFlag(parsed, "diff");
  const out = stringFlag(parsed, "out");
  const failOnRegression = booleanFlag(parsed, "fail-on-regression");
  if (failOnRegression && diff === undefined) {
    throw new UsageError('"--fail-on-regression" needs "--diff OLD.json", the report to compare against');
  }
  const board = await buildBoard({
    reports: parsed.positionals,
    ...(diff !== undefined ? { diff } : {}),
    ...(out !== undefined ? { out } : {}),
    secrets: secretsFromEnv(readableEnv()),
  });
  if (board.written) io.err(`conformance: wrote ${board.written}\n`);
  else io.out(board.text.endsWith("\n") ? board.text : `${board.text}\n`);
  const regressions = board.diff?.regressions ?? [];
  if (!failOnRegression || regressions.length === 0) return EXIT.ok;
  const named = regressions.slice(0, 3).map((c) => `${c.host} · ${c.test} ${c.from} → ${c.to}`);
  io.err(
    `conformance: ${regressions.length} regression${regressions.length === 1 ? "" : "s"} since ${diff}: ` +
      `${stripControls(named.join("; "), { singleLine: true })}${regressions.length > 3 ? "; …" : ""}\n`,
  );
  return EXIT.unexpected;
}
