/**
 * `cli/composition/*`: the executor is host-agnostic. `fake` and `fake-minimal` build deliberately different
 * invocations (argv shape, environment, capabilities) over the same fake host; run through the unmodified
 * executor against the same scripts they must give identical observations, and each the observation the case
 * expects: agreement alone would pass two hosts that fail the same way (neither can spawn, both are stopped).
 * Each case runs the script on the host under test and every other scripted host of the registry (not its
 * broken variants), holds the host under test to the case's expected observation, and compares it with each
 * peer, spawn errors, stops and kills included.
 *
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import type { GoldenPath } from "../../src/exec/host_runner.ts";
import type { Observation } from "../../src/exec/observation.ts";
import type { CliHostEntry } from "../../src/host.ts";
import { fail, type Outcome } from "../../src/outcome.ts";
import type { RunSettings, TestCase } from "../../src/suite.ts";
import { HOSTS } from "../../hosts/registry.ts";
import { passed, streamSeen } from "./evidence.ts";
import { observe, scriptPrompt } from "./observe.ts";
import { mismatches } from "./scripted.ts";
import type { ExpectedObservation } from "./scripted_cases.ts";
import type { CliTier } from "./tier.ts";

/** One composition script and what every host must agree on. */
export interface CompositionCase {
  readonly name: string;
  /** What every host must agree on, in words: the test's title in reports. */
  readonly title: string;
  readonly script: readonly string[];
  readonly path: GoldenPath;
  /** What the executor must observe of the script, on every host. */
  readonly expect: ExpectedObservation;
  /** For blocking JSON: the structured result every host must yield. */
  readonly structured?: unknown;
}

const CLEAN = { stopped: null, killed: false, violations: [] } as const;

/** The composition cases. */
export const COMPOSITION_CASES: readonly CompositionCase[] = [
  {
    name: "happy-path",
    title: "Every host reads a happy-path stream the same way",
    path: "streaming",
    script: ["init model=m session=s", "text a", "result in=1 out=1"],
    expect: {
      kinds: ["init", "text", "usage", "terminal"],
      text: ["a"],
      stderr: [],
      exitCode: 0,
      resultSeen: true,
      terminalStatus: "success",
      ...CLEAN,
    },
  },
  {
    name: "result-error",
    title: "Every host reads an error result the same way",
    path: "streaming",
    script: ["init model=m session=s", "result error=boom in=1 out=1"],
    expect: {
      kinds: ["init", "usage", "terminal"],
      text: [],
      stderr: ["[result] boom"],
      exitCode: 0,
      resultSeen: true,
      terminalStatus: "error",
      ...CLEAN,
    },
  },
  {
    name: "exit-before-terminal",
    title: "Every host reads an exit before the terminal event the same way",
    path: "streaming",
    script: ["init model=m session=s", "text a", "exit 3"],
    expect: { kinds: ["init", "text"], text: ["a"], stderr: [], exitCode: 3, resultSeen: false, ...CLEAN },
  },
  {
    name: "blocking-json-structured",
    title: "Every host yields the same structured result from a blocking JSON call",
    path: "blocking-json",
    script: ["init model=m session=s", 'result in=1 out=1 structured={"key":"value"}'],
    expect: {
      kinds: ["usage", "terminal"],
      stderr: [],
      exitCode: 0,
      resultSeen: true,
      terminalStatus: "success",
      ...CLEAN,
    },
    structured: { key: "value" },
  },
];

/** What two hosts must agree on. */
export function projection(observation: Observation): Record<string, unknown> {
  const terminal = observation.events.findLast((event) => event.kind === "terminal");
  return {
    kinds: observation.kinds,
    text: observation.text,
    stderr: observation.stderr,
    exitCode: observation.exitCode,
    signal: observation.signal,
    resultSeen: observation.resultSeen,
    spawnError: observation.spawnError,
    stopped: observation.stopped,
    killed: observation.killed,
    terminal: terminal?.kind === "terminal"
      ? { status: terminal.status, structured: terminal.structured }
      : null,
    violations: observation.violations.map((violation) => violation.kind),
  };
}

/** The composition tier. */
export const compositionTier: CliTier = {
  name: "composition",
  timeoutMs: 30_000,
  list(entry: CliHostEntry): TestCase[] {
    return entry.runner.scripted
      ? COMPOSITION_CASES.map((row) => ({ id: `cli/composition/${row.name}`, title: row.title }))
      : [];
  },
  async run(entry, test, settings: RunSettings, signal): Promise<Outcome> {
    const row = COMPOSITION_CASES.find((candidate) => `cli/composition/${candidate.name}` === test.id);
    if (!row) throw new RangeError(`No composition case "${test.id}": see suite/cli/composition.ts`);
    const peers = HOSTS.filter((host): host is CliHostEntry =>
      host.kind === "cli" && host.runner.scripted === true && host.id !== entry.id && !host.variantOf
    );
    const hosts = [entry, ...peers];
    const observations = await Promise.all(hosts.map((host) =>
      observe({
        runner: host.runner,
        path: row.path,
        request: { prompt: scriptPrompt(row.script) },
        timeoutMultiplier: settings.timeoutMultiplier,
        signal,
      })
    ));
    const projections = observations.map(projection);
    const mine = projections[0]!;
    const details = Object.fromEntries(hosts.map((host, index) => [host.id, projections[index]]));
    if (peers.length === 0) return fail("no other scripted host in the registry to compose with", details);
    const problems = mismatches(row.expect, observations[0]!);
    peers.forEach((peer, index) => {
      const theirs = projections[index + 1]!;
      for (const key of Object.keys(mine)) {
        if (!isDeepStrictEqual(mine[key], theirs[key])) {
          problems.push(
            `${key} differs: ${entry.id} ${JSON.stringify(mine[key])}, ${peer.id} ${
              JSON.stringify(theirs[key])
            }`,
          );
        }
      }
    });
    observations.slice(1).forEach((observation, index) => {
      const deviations = mismatches(row.expect, observation);
      if (deviations.length > 0) {
        problems.push(`the peer ${peers[index]!.id} deviates: ${deviations.join("; ")}`);
      }
    });
    if (row.structured !== undefined) {
      const terminal = mine.terminal as { structured?: unknown } | null;
      if (!isDeepStrictEqual(terminal?.structured, row.structured)) {
        problems.push(
          `structured result: expected ${JSON.stringify(row.structured)}, got ${
            JSON.stringify(terminal?.structured)
          }`,
        );
      }
    }
    if (problems.length > 0) return fail(problems.join("; "), details);
    return passed({
      ...streamSeen(observations[0]!),
      agreedWith: peers.map((peer) => peer.id),
      ...(row.structured === undefined ? {} : { structured: row.structured }),
    }, details);
  },
};
