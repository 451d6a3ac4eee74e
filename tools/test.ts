/**
 * `deno task test`: every test file, as many at once as the machine has cores (`deno test --parallel`), then the
 * files that time the harness itself ({@linkcode ALONE}) on their own, and one JUnit file of both in
 * `dist/junit.xml`. The suite mostly waits (on hosts, browsers and timers: 0.84 of two cores over a 21-minute
 * serial run), so two files at once take about a quarter off; the interrupt soak holds stop times to 1 s at
 * the p90, which a neighbouring file's load breaks (p90 1.5 s at load 17), so it runs alone after the rest.
 * With arguments (`deno task test tests/foo_test.ts`), one plain `deno test` of just those, as before.
 *
 * Both runs go on whatever the first found, so the summary counts every test; the exit code is non-zero when
 * either failed. Each `deno test` is its own process group with stdin closed; SIGINT and SIGTERM are passed on
 * to it.
 *
 * @module
 */

/** The test files that must not share the machine with another file. */
export const ALONE: readonly string[] = ["tests/robustness/interrupt_soak_test.ts"];

const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-sys",
  "--allow-run",
  "--allow-net=127.0.0.1,localhost,[::1]",
];
const JUNIT = "dist/junit.xml";

/** Runs `deno test ARGS…` in its own process group, passing on SIGINT and SIGTERM; its exit code. */
async function denoTest(args: readonly string[]): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", ...PERMISSIONS, ...args],
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
    detached: true,
  }).spawn();
  const forward = (signal: Deno.Signal) => () => {
    try {
      Deno.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const handlers = (["SIGINT", "SIGTERM"] as const).map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) Deno.addSignalListener(signal, handler);
  try {
    return (await child.status).code;
  } finally {
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  }
}

/**
 * One `<testsuites>` document of the `<testsuite>` elements of `documents` (Deno's JUnit files), its counts
 * and time the sums of theirs.
 *
 * @example
 * ```ts
 * const one = '<testsuites name="deno test" tests="1" failures="0" errors="0" time="1.5">\n<testsuite name="a"/>\n</testsuites>';
 * console.assert(mergeJunit([one, one]).includes('tests="2"'));
 * ```
 */
export function mergeJunit(documents: readonly string[]): string {
  const sum = (name: string) =>
    documents.reduce((total, xml) => {
      const head = xml.match(/<testsuites\b[^>]*>/)?.[0] ?? "";
      return total + Number(head.match(new RegExp(`\\b${name}="([0-9.]+)"`))?.[1] ?? 0);
    }, 0);
  const suite = /<testsuite\b[^>]*?\/>|<testsuite\b[^>]*>[\s\S]*?<\/testsuite>/g;
  const suites = documents.flatMap((xml) => [...xml.matchAll(suite)].map((match) => match[0]));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="deno test" tests="${sum("tests")}" ` +
    `failures="${sum("failures")}" errors="${sum("errors")}" time="${sum("time").toFixed(3)}">\n` +
    `${suites.map((suite) => `  ${suite}`).join("\n")}\n</testsuites>\n`;
}

async function main(): Promise<number> {
  if (Deno.args.length > 0) return await denoTest([`--junit-path=${JUNIT}`, ...Deno.args]);
  await Deno.mkdir("dist", { recursive: true });
  const parts = ["dist/junit-parallel.xml", "dist/junit-alone.xml"];
  for (const part of [JUNIT, ...parts]) await Deno.remove(part).catch(() => {});
  const together = await denoTest([
    "--parallel",
    ...ALONE.map((file) => `--ignore=${file}`),
    `--junit-path=${parts[0]}`,
  ]);
  const alone = await denoTest([`--junit-path=${parts[1]}`, ...ALONE]);
  const documents = await Promise.all(parts.map((part) => Deno.readTextFile(part).catch(() => "")));
  if (documents.some((xml) => xml !== "")) await Deno.writeTextFile(JUNIT, mergeJunit(documents));
  for (const part of parts) await Deno.remove(part).catch(() => {});
  return together !== 0 ? together : alone;
}

if (import.meta.main) Deno.exit(await main());
