/**
 * Every real CLI's recorded streams (tests/fixtures/cli/<host>/<case>/, captured from the pinned binaries by
 * tools/record_cli_fixtures.ts) through its normaliser, plus the gate: a registered real host without a
 * fixture set, a stream-shape row or a known dialect fails here.
 */
import assert from "node:assert/strict";
import { CLI_HOSTS, HOSTS, pinFor } from "../../hosts/registry.ts";
import type { HostRunner } from "../../src/exec/host_runner.ts";
import type { NormalizedEvent, TerminalEvent } from "../../src/normalize/events.ts";
import { NORMALIZERS } from "../../src/normalize/mod.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const FIXTURES = new URL("../fixtures/cli/", import.meta.url);
const REQUIRED_CASES = [
  "no-credentials",
  "unreachable-endpoint",
  "mock-ok",
  "mock-http-500",
  "mock-malformed",
  "mock-disconnect",
];

interface Recording {
  argv: string[];
  stdout: string;
  stderr: string;
  meta: { exitCode: number | null; signal: string | null; timedOut: boolean; mockRequests: string[] };
}

const realRunners: HostRunner[] = HOSTS.flatMap((entry) =>
  entry.kind === "cli" && !entry.testOnly ? [entry.runner] : []
);

/**
 * Why a host has no recordings, or `null` when it must have them. The one declared exemption: a host whose pin
 * says its binary is downloaded by a postinstall from outside npm (`binaryDownloadFrom`, crush from github.com)
 * and of which nothing was recorded, because that binary could not be fetched where the recordings were made.
 * Once any recording of it exists, its full set is required like any other host's.
 */
function unrecordedBecause(runner: HostRunner): string | null {
  const from = pinFor(runner.name)?.binaryDownloadFrom;
  if (from === undefined) return null;
  try {
    Deno.statSync(new URL(`${runner.name}/`, FIXTURES));
    return null;
  } catch {
    return `its binary is downloaded from ${from} by its postinstall, and it was not fetched where these ` +
      `recordings were made: record it with deno task record:fixtures --host ${runner.name} where ${from} is reachable`;
  }
}

/** The real hosts with recordings (every one but those {@linkcode unrecordedBecause} exempts). */
const recordedRunners = realRunners.filter((runner) => unrecordedBecause(runner) === null);

/** The hosts that reach the mock model; the others (`mockModelUnsupported`) have no mock-model recordings. */
const mockRunners = recordedRunners.filter((runner) => runner.mockModel !== undefined);

/** The cases recorded for `runner`: the mock-model ones only when it can be pointed at the mock model. */
const casesOf = (runner: HostRunner): string[] =>
  unrecordedBecause(runner) !== null
    ? []
    : REQUIRED_CASES.filter((kase) => runner.mockModel !== undefined || !kase.startsWith("mock-"));

/**
 * Plain-text lines a host itself writes on its JSON stdout, by `host/case`: they stay `unparsed` (the host's
 * finding, not the normaliser's), and must be exactly these. amp without a key starts its browser login on stdout.
 */
const HOST_TEXT_ON_STDOUT: Readonly<Record<string, RegExp>> = {
  "amp/no-credentials":
    /^(No API key found\. Starting login flow\.\.\.|If your browser does not open automatically, visit:|https:\/\/ampcode\.com\/auth\/cli-login\?authToken=[0-9a-f]+|When prompted, paste your code here: |)$/,
};

function read(host: string, kase: string): Recording {
  const dir = new URL(`${host}/${kase}/`, FIXTURES);
  return {
    argv: JSON.parse(Deno.readTextFileSync(new URL("argv.json", dir))),
    stdout: Deno.readTextFileSync(new URL("stdout.jsonl", dir)),
    stderr: Deno.readTextFileSync(new URL("stderr.txt", dir)),
    meta: JSON.parse(Deno.readTextFileSync(new URL("meta.json", dir))),
  };
}

function normalise(runner: HostRunner, recording: Recording): NormalizedEvent[] {
  return parseStream(runner, recording.stdout, {
    argv: recording.argv,
    exitCode: recording.meta.exitCode,
    signal: recording.meta.signal,
    stderr: recording.stderr,
  });
}

const terminals = (events: NormalizedEvent[]) =>
  events.filter((event): event is TerminalEvent => event.kind === "terminal");

Deno.test("gate: every real CLI host has a stream-shape row, a known dialect and a full fixture set", () => {
  // Every real CLI of the registry (CLI_HOSTS) is held here, none filtered out.
  assert.deepEqual(realRunners.map((runner) => runner.name), CLI_HOSTS.map((host) => host.entry.id));
  for (const runner of realRunners) {
    assert.ok(
      ["required", "synthetic", "none"].includes(runner.streamShape.init),
      `${runner.name}: init row`,
    );
    assert.ok(["event", "eof"].includes(runner.streamShape.terminal), `${runner.name}: terminal row`);
    assert.ok(
      Object.hasOwn(NORMALIZERS, runner.dialect),
      `${runner.name}: unknown dialect "${runner.dialect}"`,
    );
    const unrecorded = unrecordedBecause(runner);
    if (unrecorded !== null) {
      console.log(`${runner.name}: no recordings: ${unrecorded}`);
      continue;
    }
    for (const kase of casesOf(runner)) {
      const dir = new URL(`${runner.name}/${kase}/`, FIXTURES);
      for (const file of ["argv.json", "stdout.jsonl", "stderr.txt", "meta.json"]) {
        assert.ok(
          Deno.statSync(new URL(file, dir)).isFile,
          `${runner.name} has no fixture ${kase}/${file}: record it with deno task record:fixtures --host ${runner.name}`,
        );
      }
    }
  }
});

Deno.test("fixtures are scrubbed of machine paths", () => {
  const home = Deno.env.get("HOME") ?? "/nonexistent-home";
  for (const runner of realRunners) {
    for (const kase of casesOf(runner)) {
      const { argv, stdout, stderr } = read(runner.name, kase);
      for (const text of [JSON.stringify(argv), stdout, stderr]) {
        assert.ok(!text.includes("/tmp/conformance-home-"), `${runner.name}/${kase} leaks a sandbox path`);
        if (home.length > 1) {
          assert.ok(!text.includes(`${home}/`), `${runner.name}/${kase} leaks the user's HOME`);
        }
      }
    }
  }
});

Deno.test("every recorded line is understood: zero unparsed events, seq in order, raw kept", () => {
  for (const runner of realRunners) {
    for (const kase of casesOf(runner)) {
      const events = normalise(runner, read(runner.name, kase));
      const text = HOST_TEXT_ON_STDOUT[`${runner.name}/${kase}`];
      const unparsed = events.filter((event) => event.kind === "unparsed" && !text?.test(event.raw ?? ""));
      if (text) {
        assert.ok(events.some((event) => event.kind === "unparsed"), `${runner.name}/${kase}: no text`);
      }
      assert.deepEqual(unparsed.map((event) => event.raw?.slice(0, 120)), [], `${runner.name}/${kase}`);
      events.forEach((event, index) => {
        assert.equal(event.seq, index);
        assert.equal(event.host, runner.name);
        if (!event.synthetic) {
          assert.equal(typeof event.raw, "string", `${runner.name}/${kase} #${index} lost its raw`);
        }
      });
      assert.ok(terminals(events).length <= 1, `${runner.name}/${kase}: more than one terminal`);
    }
  }
});

Deno.test("mock-ok: init first (where the shape has one), one success terminal last, the reply OK", () => {
  for (const runner of mockRunners) {
    const recording = read(runner.name, "mock-ok");
    assert.equal(recording.meta.exitCode, 0, `${runner.name} exited ${recording.meta.exitCode}`);
    const events = normalise(runner, recording);
    const kinds = events.map((event) => event.kind);
    if (runner.streamShape.init !== "none") assert.equal(kinds[0], "init", `${runner.name}: [${kinds}]`);
    if (runner.streamShape.init === "synthetic") assert.equal(events[0]?.synthetic, true);
    assert.equal(kinds.at(-1), "terminal", `${runner.name}: [${kinds}]`);
    assert.equal(terminals(events)[0]?.status, "success", runner.name);
    assert.ok(
      events.some((event) => event.kind === "text" && event.text.trim() === "OK"),
      `${runner.name}: no "OK" text in [${kinds}]`,
    );
    assert.ok(recording.meta.mockRequests.length > 0, `${runner.name} never called the mock`);
  }
});

Deno.test("usage totals: every host but kimi and copilot reports usage on success, with non-negative figures", () => {
  for (const runner of mockRunners) {
    const usage = normalise(runner, read(runner.name, "mock-ok")).filter((event) => event.kind === "usage");
    // kimi's stream carries no usage; copilot's JSON stream has no token counts (no assistant.usage at 1.0.102);
    // continue (cn -p) prints only the reply; grok -p prints the conversation's messages, without usage.
    if (["kimi", "copilot", "continue", "grok"].includes(runner.dialect)) {
      assert.equal(usage.length, 0, `${runner.dialect}'s stream carries no usage`);
      continue;
    }
    assert.ok(usage.length > 0, `${runner.name} reported no usage`);
    for (const event of usage) {
      if (event.kind !== "usage") continue;
      for (const figure of [event.input, event.output, event.cacheRead, event.cacheWrite]) {
        assert.ok(figure >= 0);
      }
    }
  }
});

Deno.test("failures are never normalised as success, except where the host itself claims success", () => {
  // continue exits 0 and prints nothing when the model body is malformed (an empty reply, no error).
  // pi reports a malformed model body as an empty reply with stopReason "stop": the normaliser must say what
  // the host said (success), and the mock-model fault tier turns that into a FAIL with its reason.
  // grok catches a failed model call and prints it as its reply with exit 0 (and its requests are not streamed,
  // so the mock's disconnect fault, which cuts a streamed answer, leaves it the whole reply).
  const hostClaimsSuccess = new Set([
    "continue/mock-malformed",
    "pi/mock-malformed",
    "grok/unreachable-endpoint",
    "grok/mock-http-500",
    "grok/mock-malformed",
    "grok/mock-disconnect",
  ]);
  for (const runner of realRunners) {
    for (const kase of casesOf(runner).filter((kase) => kase !== "mock-ok")) {
      const terminal = terminals(normalise(runner, read(runner.name, kase)))[0];
      if (hostClaimsSuccess.has(`${runner.name}/${kase}`)) {
        assert.equal(terminal?.status, "success");
        continue;
      }
      assert.notEqual(terminal?.status, "success", `${runner.name}/${kase} normalised as success`);
    }
  }
});

Deno.test("per-host failure shapes from the recordings", () => {
  const claude = normalise(runnerOf("claude-code"), read("claude-code", "no-credentials"));
  assert.deepEqual(claude.map((e) => e.kind), ["init", "error", "usage", "terminal"]);
  assert.equal(terminals(claude)[0]?.status, "error");

  const codex = normalise(runnerOf("codex"), read("codex", "mock-http-500"));
  assert.equal(codex[0]?.kind, "init");
  assert.ok(codex.filter((e) => e.kind === "retry").length >= 2, "codex reconnects are retries");
  assert.equal(terminals(codex)[0]?.status, "error");

  const gemini = read("gemini", "no-credentials");
  assert.equal(gemini.meta.exitCode, 41);
  assert.equal(gemini.stdout, "", "gemini fails before the stream starts");
  assert.deepEqual(
    terminals(normalise(runnerOf("gemini"), gemini)),
    [],
    "no terminal is invented for gemini",
  );

  const pi = normalise(runnerOf("pi"), read("pi", "mock-http-500"));
  assert.ok(pi.filter((e) => e.kind === "retry").length >= 3, "pi auto-retries are retries");
  assert.equal(terminals(pi).length, 1, "several agent_end lines, one terminal");
  assert.equal(terminals(pi)[0]?.status, "error");
  assert.ok(pi.filter((e) => e.kind === "usage").length >= 4, "usage per attempt survives the retries");

  const kimi = normalise(runnerOf("kimi-code"), read("kimi-code", "no-credentials"));
  assert.deepEqual(kimi.map((e) => e.kind), ["init", "terminal"]);
  assert.equal(kimi[1]?.synthetic, true);
  assert.match((kimi[1] as TerminalEvent).reason ?? "", /No model configured/);

  const opencode = normalise(runnerOf("opencode"), read("opencode", "mock-ok"));
  assert.equal(opencode[0]?.synthetic, true, "opencode's init is synthetic");
  assert.equal(opencode.at(-1)?.synthetic, true, "opencode's terminal is synthetic at EOF");
  assert.equal(opencode.at(-1)?.raw, null);
});

function runnerOf(id: string): HostRunner {
  const runner = realRunners.find((candidate) => candidate.name === id);
  assert.ok(runner, `host ${id} is not registered`);
  return runner;
}
