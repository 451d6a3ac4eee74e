/**
 * `conformance login` and the gates in front of a real product run: without --live, and with --live but no
 * signed-in profile, `conformance run --host chatgpt` stops with exit 2 and one line saying what to do. The
 * login browser is a stand-in script (no display here, and products are never contacted); it records its
 * argv and creates the profile's cookie store the way Chromium does.
 */
import assert from "node:assert/strict";
import { loginCommand } from "../../cli/login.ts";
import type { CliIo } from "../../cli/io.ts";
import { parseRunOptions } from "../../cli/run_options.ts";
import { planRun } from "../../cli/plan.ts";
import { UsageError } from "../../src/errors.ts";
import { LOGIN_MARKER } from "../../hosts/web/profile.ts";
import { conformanceArgv } from "../robustness/_harness.ts";
import { PERMISSION_FLAGS } from "../../src/permissions.ts";

function captureIo(): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    isTTY: false,
    color: false,
    out: (text: string) => void (io.stdout += text),
    err: (text: string) => void (io.stderr += text),
  };
  return io;
}

/** Runs `fn` with environment variables set, restoring them afterwards. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, Deno.env.get(key)]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) Deno.env.delete(key);
      else Deno.env.set(key, value);
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

Deno.test("login opens the product headful on the host's own profile under the cache dir", async () => {
  const cache = await Deno.makeTempDir();
  const argvFile = `${cache}/argv.txt`;
  const browser = `${cache}/fake-chromium.sh`;
  await Deno.writeTextFile(
    browser,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${argvFile}"\nfor a in "$@"; do case "$a" in --user-data-dir=*) d="\${a#--user-data-dir=}";; esac; done\nmkdir -p "$d/Default" && printf x > "$d/Default/Cookies"\n`,
  );
  await Deno.chmod(browser, 0o755);
  try {
    const io = captureIo();
    const code = await withEnv(
      { XDG_CACHE_HOME: cache, CONFORMANCE_CHROMIUM: browser, DISPLAY: ":99" },
      () => loginCommand(["--host", "chatgpt"], io),
    );
    assert.equal(code, 0);
    const profile = `${cache}/conformance/profiles/chatgpt`;
    const argv = (await Deno.readTextFile(argvFile)).trim().split("\n");
    assert.ok(argv.includes(`--user-data-dir=${profile}`), argv.join(" "));
    assert.ok(argv.includes("https://chatgpt.com/"));
    assert.ok(!argv.some((arg) => arg.startsWith("--headless")), "the sign-in window is visible");
    assert.ok(!argv.some((arg) => arg.startsWith("--remote-debugging")), "nothing drives the sign-in window");
    const marker = JSON.parse(await Deno.readTextFile(`${profile}/${LOGIN_MARKER}`));
    assert.deepEqual(Object.keys(marker).sort(), ["host", "signedInAt"], "the marker holds no secret");
    assert.match(io.stdout, /Add the conformance server: ChatGPT → Settings/);
    assert.match(io.stdout, /conformance run --host chatgpt --live/);

    const options = parseRunOptions(["--host", "chatgpt", "--live"]);
    assert.notEqual(options, "help");
    const planned = await withEnv(
      { XDG_CACHE_HOME: cache },
      () => planRun(options as Exclude<typeof options, "help">),
    );
    assert.equal(planned.plan[0]?.entry.id, "chatgpt", "a signed-in profile lets a live run through");
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("login refuses hosts without a browser profile, and a missing display, in one line", async () => {
  await assert.rejects(() => loginCommand(["--host", "vscode"], captureIo()), /desktop host/);
  await assert.rejects(() => loginCommand(["--host", "reference"], captureIo()), /keeps no browser profile/);
  await withEnv({ DISPLAY: undefined, WAYLAND_DISPLAY: undefined }, async () => {
    await assert.rejects(
      () => loginCommand(["--host", "mistral", "--profile-dir", "/tmp/x-profile"], captureIo()),
      (error: Error) =>
        error instanceof UsageError && /no display/.test(error.message) && !/\n/.test(error.message),
    );
  });
});

Deno.test("with --live but no signed-in profile, a product run stops before anything starts", async () => {
  const cache = await Deno.makeTempDir();
  try {
    const options = parseRunOptions(["--host", "claude-ai", "--live"]);
    assert.notEqual(options, "help");
    await withEnv({ XDG_CACHE_HOME: cache }, async () => {
      await assert.rejects(
        () => planRun(options as Exclude<typeof options, "help">),
        (error: Error) => {
          assert.ok(error instanceof UsageError);
          assert.match(
            error.message,
            /no signed-in browser profile .* run "conformance login --host claude-ai"/,
          );
          assert.doesNotMatch(error.message, /\n/);
          return true;
        },
      );
    });
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

for (const host of ["chatgpt", "claude-ai", "mistral", "vscode", "goose", "cursor"]) {
  Deno.test(`conformance run --host ${host} without --live exits 2 with one line saying what to do`, async () => {
    const { binary, args } = conformanceArgv(["run", "--host", host]);
    const env = { ...Deno.env.toObject() };
    delete env.CONFORMANCE_LIVE;
    const output = await new Deno.Command(binary, {
      detached: true,
      args,
      env,
      clearEnv: true,
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr).trim();
    assert.equal(output.code, 2, stderr);
    assert.equal(stderr.split("\n").length, 1, stderr);
    assert.match(stderr, /runs only with --live/);
    assert.match(
      stderr,
      host === "chatgpt" || host === "claude-ai" || host === "mistral"
        ? new RegExp(`"\\S.* login --host ${host}"`)
        : /DevTools port/,
    );
  });
}

Deno.test("conformance run --host mistral --live with an empty profile exits 2 with one line", async () => {
  const cache = await Deno.makeTempDir();
  try {
    const { binary, args } = conformanceArgv(["run", "--host", "mistral", "--live"]);
    const env = { ...Deno.env.toObject(), XDG_CACHE_HOME: cache };
    const output = await new Deno.Command(binary, {
      detached: true,
      args,
      env,
      clearEnv: true,
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr).trim();
    assert.equal(output.code, 2, stderr);
    assert.equal(stderr.split("\n").length, 1, stderr);
    // The command is named as this harness was started (here `deno run … main.ts`): it runs as printed.
    assert.match(stderr, /run "\S.* login --host mistral" and sign in/);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("under the permission set, a profile the harness may not read is left to the product page", async () => {
  const readable = await Deno.makeTempDir();
  try {
    const child = new URL("./_profile_child.ts", import.meta.url).pathname;
    // The default profile lives under the cache dir in $HOME, outside the set's read list (the working folder
    // and temp); /root/… and /home/… stand for it here whoever runs the test.
    const outside = `${
      Deno.env.get("HOME") === "/root" ? "/home" : "/root"
    }/.cache/conformance/profiles/mistral`;
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...PERMISSION_FLAGS, child, outside, readable],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).output();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const [deferred, empty] = JSON.parse(new TextDecoder().decode(output.stdout)) as (string | null)[];
    assert.equal(deferred, null, "an unreadable profile is not called signed out: the page decides");
    assert.match(empty ?? "", /no signed-in browser profile .* run "conformance login --host mistral"/);
  } finally {
    await Deno.remove(readable, { recursive: true });
  }
});
