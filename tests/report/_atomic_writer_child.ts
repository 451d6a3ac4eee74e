/** Child of atomic_write_test: rewrites a file with alternating large contents, as fast as it can. */
import { writeFileAtomic } from "../../src/report/atomic_write.ts";

const [path, rounds] = Deno.args as [string, string];
const a = `${"A".repeat(400_000)}\n`;
const b = `${"B".repeat(600_000)}\n`;
for (let round = 0; round < Number(rounds); round++) {
  // In pieces, so that a non-atomic write would be visible half-done.
  await writeFileAtomic(path, async (sink) => {
    const text = round % 2 === 0 ? a : b;
    for (let offset = 0; offset < text.length; offset += 50_000) {
      await sink.write(text.slice(offset, offset + 50_000));
    }
  });
}
console.log("done");
