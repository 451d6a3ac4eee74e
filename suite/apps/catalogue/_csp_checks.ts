/**
 * The judgements the CSP tests share: an allow/block pair with its evidence (a violation naming the origin
 * tells a load the policy stopped from one the network lost), the applied policy, and the no-network script
 * sources (`data:`, `blob:`, a `blob:` worker).
 *
 * @module
 */
import {
  type LoadEvidence,
  parsePolicy,
  probeBlobWorker,
  probeFetch,
  probeSchemeScript,
  withEvidence,
} from "../harness/csp_probe.ts";
import type { SuiteEnv } from "../harness/env.ts";
import type { TestContext } from "../harness/test_api.ts";
import { controlUrl } from "./_shared.ts";

/**
 * Judges an allow/block pair. A control load from the declared origin that failed with no CSP violation
 * naming it failed on the network: the pair is not testable (ERROR), never a FAIL blamed on the host. The
 * same holds for a block that no violation explains: an unreachable undeclared origin proves nothing.
 */
export function expectPair(t: TestContext, what: string, allow: LoadEvidence, block: LoadEvidence): void {
  t.observe(what, { declared: allow, undeclared: block });
  if (allow.verdict !== "allowed") {
    if (!allow.violation) unreachable(t, what, allow);
    t.fail(`${what}: the policy blocked the declared origin ${allow.origin} (positive control)`);
  }
  t.assert(block.verdict === "blocked", `${what}: the undeclared origin was ${block.verdict}, not blocked`);
  if (!block.violation) {
    t.notTestable(
      `the undeclared control origin ${block.origin} failed to load (${what}) with no CSP violation naming ` +
        "it, so the block may be the network's, not the policy's",
    );
  }
}

/** Ends a test whose positive control failed on the network. */
export function unreachable(t: TestContext, what: string, control: LoadEvidence): never {
  return t.notTestable(
    `the declared control origin ${control.origin} is unreachable: the ${what} load from it was ` +
      `${control.verdict} with no CSP violation naming it, so the check has no positive control`,
  );
}

/**
 * The applied policy, from a violation's report: one seen before, or one provoked here, so the answer does not
 * depend on which tests ran first. First a `data:` script (no network; blocked by any policy whose script-src
 * does not list `data:`), then an undeclared fetch (for a policy that allows `data:` scripts), when the
 * control origins are known.
 */
export async function appliedPolicy(t: TestContext, env: SuiteEnv): Promise<string> {
  return await provokedPolicy(env) ??
    t.fail("No CSP violation could be provoked: the View runs without a CSP");
}

/** {@linkcode appliedPolicy}, or `undefined` when no violation could be provoked. */
export async function provokedPolicy(env: SuiteEnv): Promise<string | undefined> {
  if (!env.violations.appliedPolicy()) {
    const since = performance.now();
    await probeSchemeScript(env.doc, "data", flagName());
    await env.violations.blockedFrom("data", { since, timeoutMs: 1_000 });
  }
  const known = env.config().controls;
  if (!env.violations.appliedPolicy() && known !== null) {
    const since = performance.now();
    await probeFetch(controlUrl(known.undeclared, "ok.txt", "?policy"));
    await env.violations.waitFor("connect-src", { since, timeoutMs: 3_000 });
  }
  return env.violations.appliedPolicy();
}

let flagCount = 0;
export function flagName(): string {
  return `__conformanceFlag${++flagCount}`;
}

/**
 * Tries a `data:` script, a `blob:` script and a `blob:` Worker, none of which needs the network: each must
 * not run, and a CSP violation must name its scheme (the evidence that the policy, not something else,
 * stopped it).
 */
export async function expectSchemeSourcesBlocked(t: TestContext, env: SuiteEnv): Promise<void> {
  const loads = {
    "data: script": await withEvidence(
      env.violations,
      "data",
      () => probeSchemeScript(env.doc, "data", flagName()),
    ),
    "blob: script": await withEvidence(
      env.violations,
      "blob",
      () => probeSchemeScript(env.doc, "blob", flagName()),
    ),
    "blob: worker": await withEvidence(env.violations, "blob", () => probeBlobWorker()),
  };
  t.observe("loads", loads);
  const ran = Object.entries(loads).filter(([, load]) => load.verdict === "allowed").map(([what]) => what);
  t.assert(
    ran.length === 0,
    `The policy let ${ran.join(", ")} run (script-src / worker-src allow the scheme)`,
  );
  const unproven = Object.entries(loads).filter(([, load]) => !load.violation).map(([what]) => what);
  if (unproven.length > 0) {
    t.notTestable(
      `${unproven.join(", ")} did not run, but no CSP violation named the scheme, so the policy was not ` +
        "shown to block it",
    );
  }
}

/** Why a Worker from another origin is not probed. */
export const WORKER_CAVEAT =
  "A Worker from another origin is refused by the same-origin policy whatever the CSP, " +
  "so only a blob: worker is probed (worker-src falls back to script-src)";

/**
 * Whether `policy` lets a script eval: `'unsafe-eval'` (`'wasm-unsafe-eval'` does not count) in script-src,
 * or in default-src when there is no script-src.
 */
export function policyAllowsEval(policy: string): boolean {
  const { directives } = parsePolicy(policy);
  const sources = directives.get("script-src") ?? directives.get("default-src");
  return sources === undefined || sources.includes("'unsafe-eval'");
}
