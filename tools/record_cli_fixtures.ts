/**
 * Records the fixtures of the real agent CLIs into `tests/fixtures/cli/<host>/<case>/`: each CLI run with
 * stdin closed, in its own process group, under a temporary HOME with a fresh git repository as cwd, bounded
 * by a timeout, never against a real network model. Cases: no credentials; an unreachable model endpoint
 * (a bogus key and no network); the mock model answering `OK`; the three mock-model faults; and, for hosts
 * that declare their tools (`toolBehavior`), the scripted model asking for the host's read tool
 * (`mock-tool-call`).
 *
 * Each case folder holds `argv.json`, `stdout.jsonl`, `stderr.txt` and `meta.json` (exit code, signal, whether
 * the timeout ended it, duration, mock requests), with machine paths scrubbed.
 *
 * Usage: `deno task record:fixtures [--host claude-code,qwen] [--case mock-ok] [--timeout-multiplier 2]`
 * (install the CLIs first: `deno task hosts:install`).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { HOSTS } from "../hosts/registry.ts";
import { hostsCacheDir } from "../hosts/installed.ts";
import type { HostRunner } from "../src/exec/host_runner.ts";
import { killGroup } from "../src/exec/process_group.ts";
import { projectEnv } from "../src/exec/env.ts";
import { type MockFault, startMockModel } from "../src/mock_model/server.ts";
import { createSandbox, mockInvocation } from "../src/mock_model/sandbox.ts";
import { type ScriptedModel, startScriptedModel } from "../src/mock_model/script.ts";

/** The recorded cases: how the model is reached, and how long the run may take. */
export const RECORDED_CASES: readonly {
  id: string;
  model: "none" | "unreachable" | "mock" | "scripted";
  fault?: MockFault;
  timeoutMs: number;
}[] = [
  { id: "no-credentials", model: "none", timeoutMs: 25_000 },
  { id: "unreachable-endpoint", model: "unreachable", timeoutMs: 20_000 },
  { id: "mock-ok", model: "mock", timeoutMs: 60_000 },
  { id: "mock-http-500", model: "mock", fault: "http-500", timeoutMs: 60_000 },
  { id: "mock-malformed", model: "mock", fault: "malformed", timeoutMs: 60_000 },
  { id: "mock-disconnect", model: "mock", fault: "disconnect", timeoutMs: 60_000 },
  // The scripted model asks for the host's read tool on a file in the workspace, then answers DONE.
  { id: "mock-tool-call", model: "scripted", timeoutMs: 90_000 },
];

/** The file the `mock-tool-call` case has the model read, and its content. */
export const TOOL_CALL_FILE = { name: "conformance-probe.txt", content: "conformance probe cnf-fixture\n" };

/** The prompt of the `mock-tool-call` case. */
export const TOOL_CALL_PROMPT = `Read the file ${TOOL_CALL_FILE.name}, then reply DONE.`;

/** The prompt every recorded run sends. */
export const RECORD_PROMPT = "Reply with exactly: OK";

/** A TCP port nothing listens on (the discard service, never running here): connections are refused. */
const UNREACHABLE_URL = "http://127.0.0.1:9";

const decoder = new TextDecoder();

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return decoder.decode(await new Blob(chunks as BlobPart[]).arrayBuffer());
}

function scrubber(home: string, port: number | null): (text: string) => string {
  const pairs: [string, string][] = [[home, "$HOME"], [hostsCacheDir(), "$HOSTS_CACHE"], [
    Deno.cwd(),
    "$REPO",
  ]];
  const realHome = Deno.env.get("HOME");
  if (realHome && realHome.length > 1) pairs.push([realHome, "$USER_HOME"]);
  return (text) => {
    let out = text;
    for (const [from, to] of pairs) out = out.split(from).join(to);
    if (port !== null) out = out.split(`127.0.0.1:${port}`).join("127.0.0.1:$MOCK_PORT");
    // A streamed tool call's partial arguments can cut the sandbox path mid-way: the fragment goes too.
    out = out.replace(/\/tmp\/conformance-home-[0-9a-f]*/g, "$HOME");
    return out;
  };
}

/** The scripted model of `mock-tool-call`, with the file it has the host read written into `work`. */
async function scriptedToolCall(runner: HostRunner, work: string): Promise<ScriptedModel> {
  const read = runner.toolBehavior?.tools.read;
  if (!read) {
    throw new TypeError(`Host "${runner.name}" declares no read tool (toolBehavior in its host file)`);
  }
  const path = join(work, TOOL_CALL_FILE.name);
  await Deno.writeTextFile(path, TOOL_CALL_FILE.content);
  return await startScriptedModel({
    toolCall: { name: read.name, arguments: read.args({ path }) },
    finalText: "DONE",
  });
}

/** Records one case of one host. */
async function recordCase(
  runner: HostRunner,
  kase: typeof RECORDED_CASES[number],
  outDir: string,
  timeoutMultiplier = 1,
) {
  const timeoutMs = Math.round(kase.timeoutMs * timeoutMultiplier);
  await using sandbox = await createSandbox();
  await using mock = kase.model === "mock"
    ? await startMockModel(kase.fault ? { fault: kase.fault } : {})
    : kase.model === "scripted"
    ? await scriptedToolCall(runner, sandbox.work)
    : null;
  const url = kase.model === "none" ? null : kase.model === "unreachable" ? UNREACHABLE_URL : mock!.url;
  const prompt = kase.model === "scripted" ? TOOL_CALL_PROMPT : RECORD_PROMPT;
  const invocation = await mockInvocation({
    runner,
    path: "streaming",
    request: { prompt },
    sandbox,
    url,
    unreachable: kase.model === "unreachable",
  });
  const started = performance.now();
  const child = new Deno.Command(invocation.binary, {
    args: [...invocation.args],
    env: projectEnv(invocation, Deno.env.toObject()),
    clearEnv: true,
    cwd: sandbox.work,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid, { graceMs: 1_000, verifyMs: 5_000 }).catch(() => {});
  }, timeoutMs);
  const [stdout, stderr, status] = await Promise.all([
    readAll(child.stdout),
    readAll(child.stderr),
    child.status,
  ]);
  clearTimeout(timer);
  // Whatever the host left behind in its group goes too.
  await killGroup(child.pid, { graceMs: 0, verifyMs: 5_000 }).catch(() => {});
  const scrub = scrubber(sandbox.home, mock?.port ?? null);
  const dir = join(outDir, runner.name, kase.id);
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(join(dir, "argv.json"), scrub(JSON.stringify(invocation.args, null, 2)) + "\n");
  await Deno.writeTextFile(join(dir, "stdout.jsonl"), scrub(stdout));
  await Deno.writeTextFile(join(dir, "stderr.txt"), scrub(stderr));
  const meta = {
    host: runner.name,
    version: runner.pinnedVersion ?? null,
    case: kase.id,
    prompt,
    model: kase.model,
    fault: kase.fault ?? null,
    exitCode: timedOut ? null : status.code,
    signal: timedOut ? "SIGTERM" : status.signal,
    timedOut,
    timeoutMs,
    durationMs: Math.round(performance.now() - started),
    mockRequests: mock ? mock.requests().map((r) => `${r.method} ${r.path.split("?")[0]} ${r.status}`) : [],
  };
  await Deno.writeTextFile(join(dir, "meta.json"), JSON.stringify(meta, null, 2) + "\n");
  return meta;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      host: { type: "string" },
      case: { type: "string" },
      out: { type: "string", default: "tests/fixtures/cli" },
      concurrency: { type: "string", default: "4" },
      // Scales every case's timeout, like `conformance run --timeout-multiplier` (a heavily loaded machine).
      "timeout-multiplier": { type: "string", default: "1" },
    },
  });
  const hosts = values.host?.split(",");
  const cases = values.case?.split(",");
  const runners = HOSTS.flatMap((entry) =>
    entry.kind === "cli" && entry.runner.pinnedVersion && (!hosts || hosts.includes(entry.id))
      ? [entry.runner]
      : []
  );
  const jobs = runners.flatMap((runner) =>
    RECORDED_CASES.filter((kase) =>
      (!cases || cases.includes(kase.id)) &&
      (kase.model !== "scripted" || runner.toolBehavior !== undefined) &&
      // A host that cannot reach the mock model (mockModelUnsupported says why) has no mock-model cases.
      (kase.model !== "mock" || runner.mockModel !== undefined)
    ).map((kase) => ({ runner, kase }))
  );
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const meta = await recordCase(job.runner, job.kase, values.out!, Number(values["timeout-multiplier"]));
      console.log(
        `${job.runner.name.padEnd(12)} ${
          job.kase.id.padEnd(22)
        } exit=${meta.exitCode} timedOut=${meta.timedOut} ` +
          `${meta.durationMs} ms, ${meta.mockRequests.length} mock requests`,
      );
    }
  };
  await Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
}
