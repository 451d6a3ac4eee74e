/**
 * Run by find_executable_test.ts with read access that excludes the PATH folder holding its probe program:
 * prints what findExecutable answers for a present program, an absent one and one outside the run permission.
 */
import { findExecutable } from "../../src/exec/find_executable.ts";

const [present, absent, outsider] = Deno.args as [string, string, string];
console.log(JSON.stringify({
  present: await findExecutable(present, "probe"),
  absent: await findExecutable(absent, "probe"),
  outsider: await findExecutable(outsider, "probe"),
}));
