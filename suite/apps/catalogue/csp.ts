/**
 * The CSP checks (one test per directive). Each block check runs next to its allow control: a block counts
 * only when the matching allow succeeds in the same test, so a dead network or a dead control origin cannot
 * read as a pass; a control the network lost makes the test not testable
 * (`_csp_checks.ts` holds the shared judgements).
 *
 * @module
 */
import { cspAuditPattern } from "../../../src/fixtures.ts";
import { answerFound, type ConsoleMatch } from "../../../src/protocol.ts";
import {
  parsePolicy,
  probeBase,
  probeFetch,
  probeFrame,
  probeImage,
  probeObject,
  probeScript,
  withEvidence,
} from "../harness/csp_probe.ts";
import type { SuiteEnv } from "../harness/env.ts";
import type { TestContext } from "../harness/test_api.ts";
import { controls, controlUrl, type SuiteTest } from "./_shared.ts";
import {
  appliedPolicy,
  expectPair,
  expectSchemeSourcesBlocked,
  flagName,
  policyAllowsEval,
  provokedPolicy,
  unreachable,
  WORKER_CAVEAT,
} from "./_csp_checks.ts";

/** The directives a resource's `resourceDomains` feed, where the hostile entry is declared. */
const RESOURCE_DIRECTIVES = ["script-src", "style-src", "img-src", "font-src", "media-src"];

/** Up to 240 characters of a logged line around its first mention of a CSP (a log entry may be long). */
function excerptAboutCsp(line: string): string {
  const at = Math.max(0, line.search(/\bcsp\b|content-security-policy|[a-z]-src\b|[a-z]Domains\b/i));
  const start = Math.max(0, at - 60);
  return `${start > 0 ? "…" : ""}${line.slice(start, start + 240)}${start + 240 < line.length ? "…" : ""}`;
}

/** The CSP tests. */
export const CSP: SuiteTest[] = [
  {
    id: "security/csp-connect",
    name: "connect-src allows the declared connect domain and blocks others",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { declared, undeclared } = controls(t, env);
      const allow = await withEvidence(
        env.violations,
        declared,
        () => probeFetch(controlUrl(declared, "ok.txt")),
      );
      const block = await withEvidence(
        env.violations,
        undeclared,
        () => probeFetch(controlUrl(undeclared, "ok.txt")),
      );
      expectPair(t, "fetch", allow, block);
    },
  },
  {
    id: "security/csp-resource-img",
    name: "img-src allows the declared resource domain and blocks others",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { declared, undeclared } = controls(t, env);
      const allow = await withEvidence(
        env.violations,
        declared,
        () => probeImage(env.doc, controlUrl(declared, "pixel.png", "?img")),
      );
      const block = await withEvidence(
        env.violations,
        undeclared,
        () => probeImage(env.doc, controlUrl(undeclared, "pixel.png", "?img")),
      );
      expectPair(t, "img", allow, block);
    },
  },
  {
    id: "security/csp-resource-script",
    name: "script-src allows the declared resource domain and blocks others",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { declared, undeclared } = controls(t, env);
      const allowFlag = flagName();
      const blockFlag = flagName();
      const allow = await withEvidence(
        env.violations,
        declared,
        () => probeScript(env.doc, controlUrl(declared, "flag.js", `?name=${allowFlag}`), allowFlag),
      );
      const block = await withEvidence(
        env.violations,
        undeclared,
        () => probeScript(env.doc, controlUrl(undeclared, "flag.js", `?name=${blockFlag}`), blockFlag),
      );
      expectPair(t, "script", allow, block);
    },
  },
  {
    id: "security/csp-frame-src",
    name: "frame-src allows the declared frame domain and blocks others",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { declared, undeclared } = controls(t, env);
      const allow = await withEvidence(
        env.violations,
        declared,
        () => probeFrame(env.doc, controlUrl(declared, "frame.html"), env.violations),
      );
      const block = await withEvidence(
        env.violations,
        undeclared,
        () => probeFrame(env.doc, controlUrl(undeclared, "frame.html"), env.violations),
      );
      expectPair(t, "frame", allow, block);
    },
  },
  {
    id: "security/csp-base-uri",
    name: "base-uri allows the declared base domain and blocks others",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    draft: true,
    async run(t: TestContext, env: SuiteEnv) {
      const { declared, undeclared } = controls(t, env);
      // No load happens: a <base> is judged by the document alone, so there is no network to lose.
      const allow = await probeBase(env.doc, `${declared}/conformance/`, env.violations);
      const block = await probeBase(env.doc, `${undeclared}/conformance/`, env.violations);
      expectPair(
        t,
        "base",
        { origin: declared, verdict: allow, violation: allow === "blocked" },
        { origin: undeclared, verdict: block, violation: block === "blocked" },
      );
    },
  },
  {
    id: "security/csp-object-src",
    name: "object-src is 'none'",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    caveat: "No allow case exists; the violation event itself is the evidence",
    async run(t: TestContext, env: SuiteEnv) {
      const { declared } = controls(t, env);
      const verdict = await probeObject(
        env.doc,
        controlUrl(declared, "pixel.png", "?object"),
        env.violations,
      );
      t.assert(verdict === "blocked", "An <object> from a declared origin raised no object-src violation");
    },
  },
  {
    id: "security/csp-sanitized",
    name: "Declared domain strings cannot inject directives",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { declared, undeclared } = controls(t, env);
      const policy = await appliedPolicy(t, env);
      const { directives, duplicates } = parsePolicy(policy);
      t.observe("policy", policy);
      t.assert(
        !policy.includes("a.test;") && duplicates.length === 0,
        `The policy repeats ${duplicates.join(", ")}`,
      );
      const wildcard = RESOURCE_DIRECTIVES.filter((name) => directives.get(name)?.includes("*"));
      t.assert(wildcard.length === 0, `The hostile resource domain put * into ${wildcard.join(", ")}`);
      const flag = flagName();
      const block = await withEvidence(
        env.violations,
        undeclared,
        () => probeScript(env.doc, controlUrl(undeclared, "flag.js", `?name=${flag}`), flag),
      );
      t.assert(block.verdict === "blocked", "A script from an undeclared origin ran");
      const allow = await withEvidence(
        env.violations,
        declared,
        () => probeImage(env.doc, controlUrl(declared, "pixel.png", "?sanitized")),
      );
      if (allow.verdict !== "allowed" && !allow.violation) unreachable(t, "img", allow);
      t.assert(
        allow.verdict === "allowed",
        "The valid resource domain next to the hostile one was dropped too",
      );
      if (!block.violation) {
        t.notTestable(
          `the undeclared control origin ${undeclared} failed to load (script) with no CSP violation naming ` +
            "it, so the block may be the network's, not the policy's",
        );
      }
    },
  },
  {
    id: "security/csp-applied-policy",
    name: "The applied policy has default-src 'none', object-src 'none' and the declared domains",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const { declared } = controls(t, env);
      const { directives } = parsePolicy(await appliedPolicy(t, env));
      const missing: string[] = [];
      if (!directives.get("default-src")?.includes("'none'")) missing.push("default-src 'none'");
      if (!directives.get("object-src")?.includes("'none'")) missing.push("object-src 'none'");
      if (!directives.get("connect-src")?.includes(declared)) missing.push(`connect-src ${declared}`);
      if (!directives.get("frame-src")?.includes(declared)) missing.push(`frame-src ${declared}`);
      t.assert(missing.length === 0, `The applied policy lacks ${missing.join(", ")}`);
    },
  },
  {
    id: "security/csp-no-unsafe-eval",
    name: "The policy does not allow eval (informational)",
    clause: "MAY",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      // Judged from the applied policy: Chromium enforces a written (document.write) View's eval rule only
      // some time after the View starts, so an eval tried first thing ran where a later one was refused.
      const policy = await provokedPolicy(env);
      let evaluated: boolean;
      try {
        evaluated = new Function("return true")() === true;
      } catch {
        evaluated = false;
      }
      t.observe("policy", policy ?? null);
      t.observe("evalRan", evaluated);
      if (policy === undefined) {
        // No violation to read a policy from: the behaviour is all there is.
        t.assert(
          !evaluated,
          "'unsafe-eval' is allowed (or no CSP applies): eval ran, and no violation showed a policy",
        );
        return;
      }
      t.assert(!policyAllowsEval(policy), "'unsafe-eval' is allowed: the applied policy lets scripts eval");
    },
  },
  {
    id: "security/csp-audit-log",
    name: "The host logs the CSP it applied",
    clause: "SHOULD",
    vantage: "host",
    manual: false,
    caveat:
      "Any format counts: a console line about a CSP that names the resource URI or a declared origin, " +
      "or such an entry of the host's own visible log pane (a log too; a YAML host's log:). A warning that " +
      "one invalid declared entry was dropped shows no configuration (nor the resource or a valid origin), " +
      "so it does not count",
    async run(t: TestContext, env: SuiteEnv) {
      const { resourceUri, controls } = env.config();
      const pattern = cspAuditPattern(resourceUri, controls ? [controls.declared] : []);
      // Read as upstream reads it: `ok` is whether a line matched; the line rides in `value` (a
      // ConsoleMatch here, the bare line from an upstream Runner).
      const answer = await t.hostOptional({ kind: "readConsole", pattern, timeoutMs: 2_000 });
      const found = answerFound(answer);
      if (typeof found !== "boolean") {
        if (found.unsupported) t.skip('The host does not support "readConsole"');
        t.fail(`Not testable: the host failed "readConsole": ${found.error ?? "no reason given"}`);
      }
      const match: Partial<ConsoleMatch> = typeof answer.value === "string"
        ? { line: answer.value }
        : (answer.value ?? {}) as Partial<ConsoleMatch>;
      t.assert(
        found,
        `No console line (nor entry of the host's log pane, when it has one) about a CSP names ` +
          `${resourceUri}${controls ? ` or its declared origin ${controls.declared}` : ""} (/${pattern}/)`,
      );
      if (match.line !== undefined) {
        const where = match.source === "log" ? "in the host's log pane" : "in the console";
        t.note(`Logged ${where}: ${excerptAboutCsp(match.line)}`);
      }
    },
  },
  {
    id: "security/csp-scheme-sources",
    name: "The declared policy runs no data: or blob: script and no blob: worker",
    clause: "SHOULD NOT",
    vantage: "in-view",
    manual: false,
    caveat:
      "SHOULD NOT, not MUST NOT: the spec builds script-src from 'self', 'unsafe-inline' and the declared " +
      "resourceDomains, so data: and blob: are a loosening, but its no-loosening MUST speaks of undeclared " +
      "domains, which schemes are not (and 'unsafe-inline' already runs any inline code); without ui.csp the " +
      `restrictive default is a MUST (security/csp-default-scheme-sources). ${WORKER_CAVEAT}`,
    run: expectSchemeSourcesBlocked,
  },
  {
    id: "security/csp-default-scheme-sources",
    name: "Without declared CSP, no data: or blob: script and no blob: worker runs",
    clause: "MUST NOT",
    vantage: "in-view",
    manual: false,
    launcher: "run_conformance_nocsp",
    caveat: "MUST NOT: when ui.csp is omitted the host MUST use the spec's default, whose script-src is " +
      `'self' 'unsafe-inline' with no data: or blob: (it MAY restrict further, never loosen). ${WORKER_CAVEAT}`,
    run: expectSchemeSourcesBlocked,
  },
  {
    id: "security/csp-default-deny",
    name: "Without declared CSP, the View runs under the restrictive default",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    launcher: "run_conformance_nocsp",
    caveat: "The allow control for the same fetch is security/csp-connect in the CSP launcher's render",
    async run(t: TestContext, env: SuiteEnv) {
      const { declared } = controls(t, env);
      const flag = flagName();
      const inline = env.doc.createElement("script");
      inline.textContent = `globalThis.${flag} = true;`;
      env.doc.head.append(inline);
      inline.remove();
      t.assert(
        (globalThis as Record<string, unknown>)[flag] === true,
        "Inline script does not run (control)",
      );
      const loads = {
        fetch: await withEvidence(
          env.violations,
          declared,
          () => probeFetch(controlUrl(declared, "ok.txt", "?nocsp")),
        ),
        frame: await withEvidence(
          env.violations,
          declared,
          () => probeFrame(env.doc, controlUrl(declared, "frame.html"), env.violations),
        ),
        img: await withEvidence(
          env.violations,
          declared,
          () => probeImage(env.doc, controlUrl(declared, "pixel.png", "?nocsp")),
        ),
      };
      const base = await probeBase(env.doc, `${declared}/conformance/`, env.violations);
      t.observe("verdicts", { ...loads, base });
      const open = [
        ...Object.entries(loads).filter(([, load]) => load.verdict === "allowed").map(([kind]) => kind),
        ...(base === "allowed" ? ["base"] : []),
      ];
      t.assert(open.length === 0, `Without declared domains, ${open.join(", ")} still reached ${declared}`);
      // A load no violation explains may have died on the network: it proves no block.
      const unproven = Object.entries(loads).filter(([, load]) => !load.violation).map(([kind]) => kind);
      if (unproven.length > 0) {
        t.notTestable(
          `${
            unproven.join(", ")
          } from ${declared} failed with no CSP violation naming it (the origin may be ` +
            "unreachable), so the restrictive default is not shown",
        );
      }
    },
  },
];
