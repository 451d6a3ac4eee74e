/**
 * The README followed top to bottom, as a newcomer would, in a fresh clone with only Node.js's npx: its quick
 * start's commands, its YAML example copied verbatim as `conformance.yaml`, the commands of "Your first
 * failure" run exactly as written (`npx -y deno@…`), the failure they print matching the README's, the rerun
 * line it prints run as printed, `parse --judge`, the dry run and `--rerun-failed`, and `doctor`. The clone is
 * of the committed tree (`git clone` of this repository), so it tests what a fresh clone gets.
 */
import assert from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");
const README = await Deno.readTextFile(join(ROOT, "README.md"));

/** Why this test cannot run here, or `undefined`. */
async function cannotRun(): Promise<string | undefined> {
  for (
    const [program, args] of [["git", ["-C", ROOT, "rev-parse", "HEAD"]], ["npx", ["--version"]]] as const
  ) {
    try {
      const { success } = await new Deno.Command(program, { args: [...args], stdout: "null", stderr: "null" })
        .output();
      if (!success) return `${program} ${args.join(" ")} failed`;
    } catch {
      return `${program} is not installed`;
    }
  }
  return undefined;
}

const NOT_HERE = await cannotRun();

/** The text of the README section under `## heading`, up to the next `## `. */
function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `the README has a "${heading}" section`);
  const end = README.indexOf("\n## ", start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

/** The fenced blocks of `lang` in `text`, each as its lines. */
function blocks(text: string, lang: string): string[][] {
  return [...text.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))]
    .map((match) => match[1]!.trimEnd().split("\n"));
}

/** A README command without its trailing comment. */
function command(line: string): string {
  return line.replace(/\s+#.*$/, "").trim();
}

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The README's `my-agent`: a valid claude stream that answers OK, then exit 3. */
const MY_AGENT = [
  "#!/bin/sh",
  'if [ "$1" = "--version" ]; then echo "my-agent 0.0.1"; exit 0; fi',
  `echo '{"type":"system","subtype":"init","session_id":"s","model":"m","tools":[]}'`,
  `echo '{"type":"assistant","message":{"content":[{"type":"text","text":"OK"}]}}'`,
  `echo '{"type":"result","subtype":"success","is_error":false,"result":"OK"}'`,
  "exit 3",
  "",
].join("\n");

/** A README example line as a pattern: its durations may differ, nothing else. */
function linePattern(line: string): RegExp {
  const escaped = line.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(escaped.replace(/ \d+(?:\\\.\d+)?(?:ms|s) /g, " \\d+(?:\\.\\d+)?(?:ms|s) "));
}

Deno.test({
  name: "the README followed top to bottom in a fresh clone behaves exactly as written",
  ignore: NOT_HERE !== undefined,
  sanitizeResources: false,
  async fn() {
    const temp = await Deno.makeTempDir({ prefix: "conformance-readme-walk-" });
    const clone = join(temp, "conformance");
    const bin = join(temp, "bin");
    try {
      const cloned = await new Deno.Command("git", {
        args: ["clone", "--quiet", ROOT, clone],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.ok(cloned.success, new TextDecoder().decode(cloned.stderr));
      await Deno.mkdir(bin);
      await Deno.writeTextFile(join(bin, "my-agent"), MY_AGENT, { mode: 0o755 });
      const env = {
        PATH: `${bin}:${Deno.env.get("PATH") ?? ""}`,
        MY_AGENT_API_KEY: "readme-walkthrough-key",
        NO_COLOR: "1",
      };
      const sh = async (line: string): Promise<Ran> => {
        const output = await new Deno.Command("sh", {
          args: ["-c", line],
          cwd: clone,
          env,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          detached: true,
        }).output();
        const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
        return { code: output.code, stdout: text(output.stdout), stderr: text(output.stderr) };
      };
      const said = (ran: Ran) => `exit ${ran.code}\n${ran.stdout}\n${ran.stderr}`;

      // Quick start: the commands that pass arguments after "--", and doctor.
      const quick = blocks(section("Quick start"), "sh").flat().map(command);
      const doctor = quick.find((line) => / -- doctor$/.test(line));
      assert.ok(doctor, "the quick start runs doctor");
      const doctorRan = await sh(doctor);
      assert.ok([0, 1].includes(doctorRan.code), said(doctorRan));
      assert.match(doctorRan.stdout, /^harness: conformance \S+ \(suite \S+\), deno [\d.]+$/m);
      assert.match(doctorRan.stdout, /^browser: /m);
      assert.doesNotMatch(doctorRan.stdout, /UNKNOWN/, "from source, doctor knows every installed version");
      if (doctorRan.code === 1) assert.match(doctorRan.stderr, /^conformance doctor: /m, "exit 1 says why");
      for (const line of quick.filter((line) => / -- (--host|list) /.test(line))) {
        const ran = await sh(line);
        assert.equal(ran.code, 0, `${line}\n${said(ran)}`);
      }
      await Deno.stat(join(clone, "reports/report.html"));

      // Configuration: the YAML example, verbatim.
      const [yaml] = blocks(section("Configuration"), "yaml");
      assert.ok(yaml, "the Configuration section shows a config file");
      await Deno.writeTextFile(join(clone, "conformance.yaml"), `${yaml.join("\n")}\n`);

      // Your first failure: the commands in order, as written.
      const first = section("Your first failure");
      const [runBlock, later] = blocks(first, "sh");
      const run = runBlock?.[0];
      assert.ok(run && later, "the section shows the run and what comes after");
      const failed = await sh(command(run));
      assert.equal(failed.code, 1, said(failed));
      const [printed] = blocks(first, "text");
      for (const line of printed!) {
        assert.match(
          failed.stdout,
          linePattern(line),
          `the README's line is what the run printed:\n${said(failed)}`,
        );
      }
      const rerun = /^\s+rerun: (.*cli\/behavior\/streaming.*)$/m.exec(failed.stdout)?.[1];
      assert.ok(rerun, failed.stdout);
      const again = await sh(rerun);
      assert.equal(again.code, 1, said(again));
      assert.match(again.stdout, /^1 result: 0 passed, 1 failed/m);

      const [judge, dry, rerunFailed] = later.map(command);
      const judged = await sh(judge!);
      assert.equal(judged.code, 1, said(judged));
      assert.match(
        judged.stdout,
        /^judged again against the stream contract: FAIL: exit code 3, expected 0$/m,
      );
      assert.match(
        judged.stdout,
        /^the run's verdict \(cli\/behavior\/streaming\): FAIL: exit code 3, expected 0$/m,
      );
      const listed = await sh(dry!);
      assert.equal(listed.code, 0, said(listed));
      assert.equal(listed.stdout, "my-agent\tcli/behavior/streaming\nmy-agent\tcli/behavior/plan-step\n");
      const reran = await sh(rerunFailed!);
      assert.equal(reran.code, 1, said(reran));
      assert.match(reran.stderr, /rerunning 2 test\(s\) of "reports\/report\.json"/);
      assert.match(reran.stderr, /removed the evidence of an earlier run in reports/);
      assert.match(reran.stdout, /^2 results: 0 passed, 2 failed/m);
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});
