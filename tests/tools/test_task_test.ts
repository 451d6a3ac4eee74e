/** `deno task test`'s runner (tools/test.ts): the JUnit files of its two runs merged into one. */
import assert from "node:assert/strict";
import { ALONE, mergeJunit } from "../../tools/test.ts";

const parallel = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="deno test" tests="3" failures="1" errors="0" time="10.5">
    <testsuite name="./a_test.ts" tests="2" disabled="0" errors="0" failures="1">
        <testcase name="one" classname="./a_test.ts" time="1.0"/>
        <testcase name="two" classname="./a_test.ts" time="2.0">
            <failure message="no">no</failure>
        </testcase>
    </testsuite>
    <testsuite name="./b_test.ts" tests="1" disabled="0" errors="0" failures="0">
        <testcase name="three" classname="./b_test.ts" time="0.5"><skipped/></testcase>
    </testsuite>
</testsuites>
`;
const alone = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="deno test" tests="1" failures="0" errors="0" time="2.25">
    <testsuite name="./soak_test.ts" tests="1" disabled="0" errors="0" failures="0">
        <testcase name="soak" classname="./soak_test.ts" time="2.0"/>
    </testsuite>
</testsuites>
`;

Deno.test("the two runs' JUnit files merge into one: every suite whole, the counts and times summed", () => {
  const merged = mergeJunit([parallel, alone]);
  assert.match(merged, /<testsuites name="deno test" tests="4" failures="1" errors="0" time="12\.750">/);
  const suites = [...merged.matchAll(/<testsuite name="([^"]+)"/g)].map((match) => match[1]);
  assert.deepEqual(suites, ["./a_test.ts", "./b_test.ts", "./soak_test.ts"]);
  assert.equal(merged.match(/<testcase\b/g)?.length, 4);
  assert.equal(merged.match(/<\/testsuite>/g)?.length, 3, "no suite cut at a self-closing child");
  assert.match(merged, /<failure message="no">/);
});

Deno.test("a run that wrote no JUnit file (it could not start) leaves the other's suites", () => {
  const merged = mergeJunit([parallel, ""]);
  assert.match(merged, /tests="3" failures="1"/);
  assert.equal(merged.match(/<testcase\b/g)?.length, 3);
});

Deno.test("the files run alone exist", async () => {
  for (const file of ALONE) assert.ok((await Deno.stat(file)).isFile, file);
});
