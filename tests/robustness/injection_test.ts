/**
 * Terminal injection and secrets in everything a host controls: a `--config` host prints planted credentials
 * and escape sequences (a window title, a screen clear, an OSC 8 hyperlink, 8-bit C1 controls) in its version
 * line, its stream (assistant text, an unparsed line, the error result) and its stderr. No report format
 * (JSON, JUnit, markdown, HTML) and nothing the harness prints carries a secret or a raw ESC, BEL or C1 byte.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { plantCliHost } from "../cli/_planted_host.ts";
import { spawnHarness } from "./_harness.ts";

/** A random core no report could contain by chance. */
function core(length = 32): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => alphabet[b % alphabet.length])
    .join("");
}

const SECRETS = { anthropic: core(), github: core(36), bearer: core(40) } as const;
const KEYS =
  `sk-ant-api03-${SECRETS.anthropic} ghp_${SECRETS.github} Authorization: Bearer ${SECRETS.bearer}`;

/**
 * The sequences: OSC 0 title (BEL-ended), screen clear, OSC 8 hyperlink (ST-ended), 8-bit CSI and NEL, and a
 * lone ESC.
 */
const CONTROLS = "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\" +
  "\x9b31m\x85\x1b";

/** One piece of the host's output: the controls and keys around a label. */
function hostile(label: string): string {
  return `${label} ${CONTROLS} ${KEYS}`;
}

/** What the host prints, by file: its version line, its stream (JSON escapes the C0 controls), its stderr. */
const OUTPUT = {
  "version.txt": `${hostile("1.0.0")}\n`,
  "stream.jsonl": [
    { type: "system", subtype: "init", session_id: "s", model: "m", tools: [] },
    { type: "assistant", message: { content: [{ type: "text", text: hostile("assistant") }] } },
    hostile("unparsed"),
    { type: "result", subtype: "error_during_execution", is_error: true, result: hostile("error") },
  ].map((line) => typeof line === "string" ? line : JSON.stringify(line)).join("\n") + "\n",
  "stderr.txt": `${hostile("stderr")}\n`,
} as const;

/** Raw bytes no report or terminal line may carry: ESC, BEL and the C1 controls. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\x07\x1b\u0080-\u009f]/;

function problemsIn(text: string, where: string): string[] {
  const problems = Object.entries(SECRETS).filter(([, secret]) => text.includes(secret))
    .map(([name]) => `${name} secret in ${where}`);
  const raw = RAW_CONTROL.exec(text);
  if (raw) {
    problems.push(
      `raw U+${raw[0].charCodeAt(0).toString(16).padStart(4, "0")} in ${where}: ` +
        JSON.stringify(text.slice(Math.max(0, raw.index - 40), raw.index + 40)),
    );
  }
  return problems;
}

Deno.test("host-controlled text reaches no report or terminal with a secret or a raw control", async () => {
  await using host = await plantCliHost({
    id: "hostile",
    prefix: "conformance-injection-",
    script: (dir) => [
      `if [ "$1" = "--version" ]; then cat '${dir}/version.txt'; exit 0; fi`,
      `cat '${dir}/stream.jsonl'`,
      `cat '${dir}/stderr.txt' >&2`,
      "exit 1",
    ],
  });
  for (const [name, text] of Object.entries(OUTPUT)) await Deno.writeTextFile(join(host.dir, name), text);
  const out = join(host.dir, "out");
  await using harness = spawnHarness(
    [
      "run",
      "--config",
      host.config,
      "--host",
      "hostile",
      "--live",
      "--grep",
      "^cli/behavior/streaming$",
      ...["pretty", "json", "junit", "markdown", "html"].flatMap((name) => ["--reporter", name]),
      "--out",
      out,
    ],
    { alsoRun: [join(host.dir, "hostile")] },
  );
  const exit = await harness.done;
  assert.equal(exit.code, 1, `the hostile host must fail its test; stderr: ${exit.stderr.slice(0, 2000)}`);

  const reports = ["report.json", "junit.xml", "board.md", "report.html"];
  const problems: string[] = [];
  for (const name of reports) problems.push(...problemsIn(await Deno.readTextFile(join(out, name)), name));
  problems.push(...problemsIn(exit.stdout, "the harness's stdout (pretty reporter)"));
  problems.push(...problemsIn(exit.stderr, "the harness's stderr"));
  assert.deepEqual(problems, [], "host-controlled text leaked");

  // The host's text did reach the reports, redacted and marked: else the checks above prove nothing.
  const report = JSON.parse(await Deno.readTextFile(join(out, "report.json")));
  assert.match(String(report.hosts[0]?.version), /^1\.0\.0 ␛.*\[REDACTED\]/, "the version line was not kept");
  assert.match(JSON.stringify(report.results), /\[REDACTED\]/, "no host output reached the results");
  assert.match(await Deno.readTextFile(join(out, "report.html")), /1\.0\.0 ␛/, "no version in the HTML");
});
