/**
 * A library program (one that imports `mod.ts`, calls `execute()` and does not call `Deno.exit`) ends as soon
 * as its work is done: `execute()` leaves no timer, reader or process behind. `main.ts` exits explicitly, so
 * only a program of its own shows a leak: a timer left running kept such a program alive for seconds.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fakeHostCommand } from "../../src/exec/self.ts";
import { killGroup } from "../../src/exec/process_group.ts";

const ROOT = decodeURIComponent(new URL("../../", import.meta.url).pathname);
/**
 * From the result line to the program's exit, a bound against a hang only: what keeps a program alive is read
 * from the program itself (`process.getActiveResourcesInfo()` once `execute()` returned), not timed. A leaked
 * timer of the executor once held such a program 5 s.
 */
const EXIT_WITHIN_MS = 30_000;

/** A library program that runs one fake-host script with `execute()` and prints when it has its result. */
function program(script: readonly string[], options: string): string {
  const fake = fakeHostCommand();
  return `import process from "node:process";
import { execute, NO_CAPABILITIES, normalizerFor } from ${JSON.stringify(join(ROOT, "mod.ts"))};
const observation = await execute(
  {
    binary: ${JSON.stringify(fake.binary)},
    args: ${JSON.stringify([...fake.args, ["@@fake", ...script, "@@end"].join("\n")])},
    env: {}, envAllow: [], cleanupPaths: [], capabilities: NO_CAPABILITIES,
  },
  {
    host: "fake",
    normalizer: normalizerFor("claude")({ argv: [] }),
    streamShape: { init: "required", terminal: "event" },
    ${options}
  },
);
const holding = process.getActiveResourcesInfo();
console.log("RESULT " + JSON.stringify({ kinds: observation.kinds, stopped: observation.stopped, holding }));
`;
}

/** Runs `source` as a program in its own process group; returns what it printed and the ms from result to exit. */
async function runProgram(source: string): Promise<{ result: string; lingerMs: number; code: number }> {
  const dir = await Deno.makeTempDir({ prefix: "library-exit-" });
  const file = join(dir, "program.ts");
  await Deno.writeTextFile(file, source);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--quiet",
      `--config=${join(ROOT, "deno.json")}`,
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-sys",
      "--allow-run",
      "--allow-net=127.0.0.1,localhost,[::1]",
      file,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const stderr = new Response(child.stderr).text();
  try {
    let text = "";
    let resultAt: number | undefined;
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      if (resultAt === undefined && text.includes("\n")) resultAt = performance.now();
    }
    const status = await child.status;
    const exitedAt = performance.now();
    assert.ok(resultAt !== undefined, `the program printed no result: ${await stderr}`);
    return { result: text.trim(), lingerMs: exitedAt - resultAt, code: status.code };
  } finally {
    await killGroup(child.pid, { graceMs: 0, verifyMs: 2_000 });
    await stderr.catch(() => "");
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a program that calls execute() from mod.ts exits as soon as it has its result", async () => {
  const run = await runProgram(program(["init model=m", "text hello", "result in=1 out=1"], ""));
  assert.equal(run.code, 0);
  assert.match(run.result, /^RESULT .*"kinds":\["init","text","usage","terminal"\]/);
  assert.match(run.result, /"holding":\[\]/, "execute() left something that keeps the program alive");
  assert.ok(
    run.lingerMs < EXIT_WITHIN_MS,
    `the program lived ${Math.round(run.lingerMs)} ms after its result`,
  );
});

Deno.test("a program whose execute() stopped a hanging host at its wall timeout exits at once too", async () => {
  const run = await runProgram(program(["init model=m", "hang"], "wallTimeoutMs: 1_000,"));
  assert.equal(run.code, 0);
  assert.match(run.result, /"stopped":"wall"/);
  assert.match(run.result, /"holding":\[\]/, "execute() left something that keeps the program alive");
  assert.ok(
    run.lingerMs < EXIT_WITHIN_MS,
    `the program lived ${Math.round(run.lingerMs)} ms after its result`,
  );
});
