/**
 * Child of atomic_write_test: writes a report checkpoint to `path` in pieces and stops half-way through, with
 * the temporary file written to and the rename not done, printing `mid-checkpoint`. It finishes the write
 * once `release` exists (a test that SIGKILLs it there never creates it), then prints `written`.
 */
import { writeFileAtomic } from "../../src/report/atomic_write.ts";

const [path, release, label] = Deno.args as [string, string, string];
const report = JSON.stringify({
  incomplete: true,
  writer: label,
  results: Array(2000).fill({ status: "PASS" }),
});
const half = Math.floor(report.length / 2);
await writeFileAtomic(path, async (sink) => {
  await sink.write(report.slice(0, half));
  console.log("mid-checkpoint");
  while (!(await Deno.stat(release).then(() => true, () => false))) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await sink.write(report.slice(half));
});
console.log("written");
