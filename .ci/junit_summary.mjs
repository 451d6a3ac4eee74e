// Counts test cases in a JUnit XML file: "N passed, N failed, N skipped".
// A case with <failure> or <error> failed, one with <skipped> was skipped, any other passed.
import { readFileSync } from "node:fs";

const xml = readFileSync(process.argv[2], "utf8");
let passed = 0, failed = 0, skipped = 0;
const cases = xml.matchAll(/<testcase\b[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g);
for (const [, body = ""] of cases) {
  if (/<(failure|error)\b/.test(body)) failed++;
  else if (/<skipped\b/.test(body)) skipped++;
  else passed++;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
