/**
 * `cli/scripted/*`: the scripted fault tier. Every row of {@linkcode SCRIPTED_CASES} runs on every scripted
 * host (the fakes) through the unmodified executor and must produce exactly the expected observation. Never
 * skipped: it needs nothing but the harness itself. Rows that stop the run also prove the process group is
 * gone.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import type { Observation } from "../../src/exec/observation.ts";
import { kindsMismatch, summarizeObservation } from "../../src/exec/observation.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { fail, type Outcome } from "../../src/outcome.ts";
import { passed, streamSeen } from "./evidence.ts";
import type { RunSettings, TestCase } from "../../src/suite.ts";
import { observe, scriptPrompt } from "./observe.ts";
import { type ExpectedObservation, SCRIPTED_CASES, type ScriptedCase } from "./scripted_cases.ts";
import type { CliTier } from "./tier.ts";

/** The scripted tier. */
export const scriptedTier: CliTier = {
  name: "scripted",
  // A guard against a hang, not a speed bound: each case's own limits say when the host is late. The 100 MB
  // flood needs over 30 s on a two-core machine at load 40 (a fresh clone's CI beside other jobs).
  timeoutMs: 120_000,
  list(entry: CliHostEntry): TestCase[] {
    return entry.runner.scripted
      ? SCRIPTED_CASES.map((row) => ({ id: `cli/scripted/${row.name}`, title: row.title }))
      : [];
  },
  async run(entry, test, settings: RunSettings, signal): Promise<Outcome> {
    const row = SCRIPTED_CASES.find((candidate) => `cli/scripted/${candidate.name}` === test.id);
    if (!row) throw new RangeError(`No scripted case "${test.id}": see suite/cli/scripted_cases.ts`);
    const observation = await runCase(entry, row, settings.timeoutMultiplier, signal);
    const problems = mismatches(row.expect, observation);
    const details = { ...summarizeObservation(observation), expected: row.expect };
    if (problems.length > 0) return fail(problems.join("; "), details);
    return passed(
      { ...streamSeen(observation), groupGone: observation.groupGone, matched: row.expect },
      details,
    );
  },
};

/** Runs one row on a host. */
export function runCase(
  entry: CliHostEntry,
  row: ScriptedCase,
  timeoutMultiplier: number,
  signal: AbortSignal,
): Promise<Observation> {
  return observe({
    runner: entry.runner,
    path: row.path ?? "streaming",
    request: { prompt: scriptPrompt(row.script) },
    timeoutMultiplier,
    signal,
    ...row.limits,
    ...(row.speaks ? { speaks: row.speaks } : {}),
    ...(row.abortOnText === undefined ? {} : {
      onEvent: (event, control) => {
        if (event.kind === "text" && event.text === row.abortOnText) control.abort();
      },
    }),
  });
}

/**
 * Every way `observation` differs from `expected`, as messages; empty when it matches. A run the executor
 * stopped or killed must also have left no process behind.
 */
export function mismatches(expected: ExpectedObservation, observation: Observation): string[] {
  const problems: string[] = [];
  const kinds = kindsMismatch(expected.kinds, observation.kinds);
  if (kinds) problems.push(kinds);
  const same = (field: string, want: unknown, got: unknown) => {
    if (want !== undefined && !isDeepStrictEqual(want, got)) {
      problems.push(`${field}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  };
  same("text", expected.text, observation.text);
  same("stderr", expected.stderr, observation.stderr);
  same("exitCode", expected.exitCode, observation.exitCode);
  same("signal", expected.signal, observation.signal);
  same("resultSeen", expected.resultSeen, observation.resultSeen);
  same("stopped", expected.stopped, observation.stopped);
  same("killed", expected.killed, observation.killed);
  same("violations", expected.violations, observation.violations.map((violation) => violation.kind));
  const terminal = observation.events.findLast((event) => event.kind === "terminal");
  same(
    "terminal status",
    expected.terminalStatus,
    terminal?.kind === "terminal" ? terminal.status : undefined,
  );
  if (expected.minStdoutBytes !== undefined && observation.stdoutBytes < expected.minStdoutBytes) {
    problems.push(
      `stdout bytes: expected at least ${expected.minStdoutBytes}, got ${observation.stdoutBytes}`,
    );
  }
  if (observation.spawnError) problems.push(observation.spawnError);
  if (!observation.groupGone) problems.push(`process group ${observation.pgid} is still alive after the run`);
  return problems;
}
