/** The sandbox a real CLI runs in, and the mock-model invocation built in it. */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { amp } from "../../hosts/cli/amp.ts";
import { auggie } from "../../hosts/cli/auggie.ts";
import { claudeCode } from "../../hosts/cli/claude_code.ts";
import { gemini } from "../../hosts/cli/gemini.ts";
import { projectEnv } from "../../src/exec/env.ts";
import { createSandbox, mockInvocation } from "../../src/mock_model/sandbox.ts";

Deno.test("a sandbox is a temporary HOME with a git repository as cwd, removed on dispose", async () => {
  let home = "";
  {
    await using sandbox = await createSandbox();
    home = sandbox.home;
    assert.ok(sandbox.work.startsWith(`${home}/`));
    assert.ok(Deno.statSync(`${sandbox.work}/.git`).isDirectory, "git init ran");
    const head = await new Deno.Command("git", {
      detached: true,
      stdin: "null",
      args: ["rev-parse", "HEAD"],
      cwd: sandbox.work,
      stdout: "piped",
    })
      .output();
    assert.ok(head.success, "the repository has a commit");
  }
  assert.equal(existsSync(home), false);
});

Deno.test("mockInvocation writes the runner's files into the sandbox and cuts off the parent's credentials", async () => {
  await using sandbox = await createSandbox();
  const invocation = await mockInvocation({
    runner: gemini.runner,
    path: "streaming",
    request: { prompt: "Reply with exactly: OK" },
    sandbox,
    url: "http://127.0.0.1:1234",
  });
  const settings = JSON.parse(Deno.readTextFileSync(`${sandbox.home}/.gemini/settings.json`));
  assert.equal(settings.security.auth.selectedType, "gemini-api-key");
  assert.equal(invocation.cwd, sandbox.work);
  assert.equal(invocation.env.HOME, sandbox.home);
  assert.equal(invocation.env.GOOGLE_GEMINI_BASE_URL, "http://127.0.0.1:1234");
  assert.ok(invocation.args.includes("gemini-2.5-flash"), "the runner's mock model name is requested");
  const env = projectEnv(invocation, { HOME: "/root", GEMINI_API_KEY: "real-key", PATH: "/bin" });
  assert.equal(env.HOME, sandbox.home, "the sandbox HOME wins over the user's");
  assert.equal(env.GEMINI_API_KEY, "mock-conformance", "the user's key never reaches the host");
  assert.equal(env.PATH, "/bin");
});

Deno.test("without a url the invocation has no model endpoint at all (the no-credentials case)", async () => {
  await using sandbox = await createSandbox();
  const invocation = await mockInvocation({
    runner: claudeCode.runner,
    path: "streaming",
    request: { prompt: "x" },
    sandbox,
    url: null,
  });
  const env = projectEnv(invocation, { ANTHROPIC_API_KEY: "real", ANTHROPIC_BASE_URL: "https://x" });
  assert.equal(env.ANTHROPIC_API_KEY, undefined);
  assert.equal(env.ANTHROPIC_BASE_URL, undefined);
});

Deno.test("a runner without mockModel is refused with its stated reason", async () => {
  await using sandbox = await createSandbox();
  const { mockModel: _drop, ...rest } = claudeCode.runner;
  const runner = { ...rest, mockModelUnsupported: "no base-URL setting" };
  await assert.rejects(
    () =>
      mockInvocation({
        runner,
        path: "streaming",
        request: { prompt: "x" },
        sandbox,
        url: "http://127.0.0.1:1",
      }),
    /cannot be pointed at a mock model: no base-URL setting/,
  );
});

Deno.test("a vendor-only host reaches an unreachable port through vendorEndpoint, never the mock model", async () => {
  await using sandbox = await createSandbox();
  const url = "http://127.0.0.1:9";
  for (const runner of [amp.runner, auggie.runner]) {
    assert.equal(runner.mockModel, undefined, runner.name);
    const options = { runner, path: "streaming" as const, request: { prompt: "x" }, sandbox, url };
    await assert.rejects(
      () => mockInvocation(options),
      /cannot be pointed at a mock model: signs in to its own/,
    );
    const invocation = await mockInvocation({ ...options, unreachable: true });
    assert.equal(invocation.env.HOME, sandbox.home);
    assert.ok(Object.values(invocation.env).some((value) => value.includes(url)), runner.name);
  }
  const ampRun = await mockInvocation({
    runner: amp.runner,
    path: "streaming",
    request: { prompt: "x" },
    sandbox,
    url,
    unreachable: true,
  });
  assert.equal(ampRun.env.AMP_URL, url);
  const session = JSON.parse(
    (await mockInvocation({
      runner: auggie.runner,
      path: "streaming",
      request: { prompt: "x" },
      sandbox,
      url,
      unreachable: true,
    }))
      .env.AUGMENT_SESSION_AUTH ?? "{}",
  );
  assert.equal(session.tenantURL, `${url}/`);
  assert.ok(Array.isArray(session.scopes), "auggie drops a session without scopes");
});
