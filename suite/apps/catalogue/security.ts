/**
 * Security (catalogue §6.8): the sandbox proxy and the iframe's sandbox attribute. The CSP checks live in
 * `csp.ts`.
 *
 * @module
 */
import type { TestContext } from "../harness/test_api.ts";
import type { FrameInspection } from "../../../src/protocol.ts";
import type { SuiteTest } from "./_shared.ts";

/** The View's window (this module only runs in a browser). */
const view = globalThis as unknown as Window;

/** Sandbox tokens that let the View escape its frame. */
const DANGEROUS_TOKENS = ["allow-top-navigation", "allow-popups-to-escape-sandbox"];

function throws(probe: () => unknown): boolean {
  try {
    probe();
    return false;
  } catch {
    return true;
  }
}

/** The sandbox tests. */
export const SECURITY: SuiteTest[] = [
  {
    id: "security/sandbox-isolation",
    name: "The View runs in a proxy frame on an origin distinct from the host",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    run(t: TestContext) {
      const problems: string[] = [];
      if (view.parent === view.top) {
        problems.push("(a) no sandbox proxy: the View's parent is the top window");
      } else if (!throws(() => view.top?.location.href)) {
        problems.push("(b) the host page's location is readable: host and sandbox share an origin");
      }
      // self.origin, not location.origin: a srcdoc View keeps its parent's origin (location.origin reads
      // "null" for any srcdoc document), and only a sandbox without allow-same-origin makes it opaque.
      if (self.origin === "null") {
        problems.push("(c) the View has an opaque origin (no allow-same-origin)");
      }
      if (view.top !== view && !throws(() => view.top?.document.body)) {
        problems.push("(d) the host page's DOM is reachable");
      }
      t.observe("origin", self.origin);
      t.assert(problems.length === 0, problems.join("; "));
      return Promise.resolve();
    },
  },
  {
    id: "security/iframe-sandboxed",
    name: "The app iframe has a sandbox attribute without escape tokens",
    clause: "MUST",
    vantage: "host",
    manual: false,
    async run(t: TestContext) {
      const frame = await t.host({ kind: "inspectFrame" }) as FrameInspection | undefined;
      t.assert(frame && typeof frame.total === "number", "Not testable: inspectFrame gave no answer", frame);
      t.observe("frame", frame);
      t.assert(frame.firstSandbox !== null, "The app iframe has no sandbox attribute");
      const tokens = frame.firstSandbox.split(/\s+/).filter(Boolean);
      t.assert(tokens.includes("allow-scripts"), `The sandbox lacks allow-scripts: "${frame.firstSandbox}"`);
      const dangerous = tokens.filter((token) => DANGEROUS_TOKENS.includes(token));
      t.assert(dangerous.length === 0, `The sandbox grants ${dangerous.join(" ")}`);
    },
  },
];
