/**
 * Run under the harness's permission set by permissions_test.ts: tries what the set refuses and prints
 * `explainRefusal`'s line for each, one JSON object per line.
 */
import { explainRefusal } from "../../src/permissions.ts";

const [outsider, outsideFile] = Deno.args as [string, string];
const attempts: Record<string, () => unknown> = {
  run: () =>
    new Deno.Command(outsider, { detached: true, stdin: "null", stdout: "null", stderr: "null" })
      .outputSync(),
  write: () => Deno.writeTextFileSync(outsideFile, "refused"),
  listen: () => Deno.listen({ hostname: "0.0.0.0", port: 0 }).close(),
  kill: () => Deno.kill(-2_000_000_000, "SIGCONT"),
  env: () => Deno.env.get("GH_TOKEN"),
  listEnv: () => Deno.env.toObject(),
};
for (const [name, attempt] of Object.entries(attempts)) {
  try {
    attempt();
    console.log(JSON.stringify({ name, allowed: true }));
  } catch (error) {
    console.log(JSON.stringify({ name, allowed: false, explained: explainRefusal(error) }));
  }
}
