/**
 * Run under the harness's permission set by env_narrow_test.ts: reads the environment the way the harness
 * does, where it cannot be listed, and prints what it saw as one JSON object.
 */
import process from "node:process";
import {
  envAllowProblem,
  guardProcessEnv,
  readableEnv,
  readEnv,
  wholeEnvReadable,
} from "../../src/exec/env.ts";
import { secretsFromEnv } from "../../src/report/redact.ts";

const listBefore = (() => {
  try {
    return Object.keys(process.env).length;
  } catch (error) {
    return (error as Error).name;
  }
})();
guardProcessEnv();
console.log(JSON.stringify({
  whole: wholeEnvReadable(),
  listBefore,
  listed: Object.keys(process.env).sort(),
  outsider: (() => {
    try {
      return process.env["GH_TOKEN"] ?? null;
    } catch (error) {
      return (error as Error).name;
    }
  })(),
  outsiderIn: "TRAVIS" in process.env,
  ciIn: "CI" in process.env,
  read: readEnv(["HOME", "GH_TOKEN", "AWS_*", "ANTHROPIC_API_KEY"]),
  secrets: secretsFromEnv(readableEnv()),
  problems: ["HOME", "AWS_*", "MY_TOKEN", "MY_*"].map(envAllowProblem),
}));
