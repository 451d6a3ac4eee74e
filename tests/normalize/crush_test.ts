/**
 * crush (`crush run`, @charmland/crush 0.96.1) has no recordings: its binary is downloaded from github.com by
 * the package's postinstall, which is unreachable here. So these are its argv as its source defines the flags
 * (internal/cmd/run.go, root.go) and the continue plain-text dialect on lines in the shape run.go writes: the
 * reply on stdout, then one newline; a failure as the returned error's text with exit 1 (how fang frames that
 * text on stderr is not verified). Not recordings: a run of the real binary may differ.
 */
import assert from "node:assert/strict";
import { crush } from "../../hosts/cli/crush.ts";
import type { NormalizedEvent, TerminalEvent } from "../../src/normalize/events.ts";
import { parseStream } from "../../src/normalize/parse.ts";

const runner = crush.runner;
const kinds = (events: NormalizedEvent[]) => events.map((event) => event.kind);
const terminal = (events: NormalizedEvent[]) => events.find((e): e is TerminalEvent => e.kind === "terminal");

Deno.test("crush: argv per golden path from its flags; no JSON path; --yolo never passed to run", () => {
  const request = { prompt: "Reply OK", model: "mock/mock-model", workingDir: "/w" };
  assert.deepEqual(
    runner.build("streaming", request).args,
    ["run", "--quiet", "--model", "mock/mock-model", "--cwd", "/w", "Reply OK"],
  );
  assert.deepEqual(runner.build("resume", { prompt: "again" }).args, [
    "run",
    "--quiet",
    "--continue",
    "again",
  ]);
  assert.deepEqual(runner.build("version-check", { prompt: "" }).args, ["--version"]);
  for (const path of runner.goldenPaths) {
    const args = runner.build(path, request).args;
    assert.ok(!args.includes("--yolo") && !args.includes("-y"), `${path}: --yolo is a root-only flag`);
  }
  assert.throws(() => runner.build("blocking-json", request), /no JSON output flag/);
  assert.equal(crush.pin.binaryDownloadFrom, "github.com");
  assert.equal(crush.pin.entry, "node_modules/@charmland/crush/bin/crush");
});

Deno.test("crush: the mock model is an openai-compat provider with its base URL in the HOME's crush.json", () => {
  const setup = runner.mockModel!({ url: "http://127.0.0.1:4010", home: "/tmp/home" });
  const config = JSON.parse(setup.files[".config/crush/crush.json"]!);
  assert.equal(config.providers.mock.type, "openai-compat");
  assert.equal(config.providers.mock.base_url, "http://127.0.0.1:4010/v1");
  assert.deepEqual(config.providers.mock.models.map((m: { id: string }) => m.id), ["mock-model"]);
  assert.equal(setup.model, "mock/mock-model");
});

Deno.test("crush (lines in run.go's shape, not recordings): the reply is text; exit 1 with its error is an error", () => {
  const argv = runner.build("streaming", { prompt: "Reply OK" }).args;
  const ok = parseStream(runner, "OK\n\n", { argv, exitCode: 0, signal: null, stderr: "" });
  assert.deepEqual(kinds(ok), ["init", "text", "terminal"]);
  assert.equal(ok[0]?.synthetic, true);
  assert.equal(terminal(ok)?.status, "success");
  assert.equal(terminal(ok)?.result, "OK");

  const why = "no providers configured - please run 'crush' to set up a provider interactively";
  const failed = parseStream(runner, "", { argv, exitCode: 1, signal: null, stderr: `${why}\n` });
  assert.deepEqual(kinds(failed), ["init", "terminal"]);
  assert.equal(terminal(failed)?.status, "error");
  assert.equal(terminal(failed)?.reason, `${why} (exit 1)`);
});
