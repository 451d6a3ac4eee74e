/**
 * Security: the sandbox proxy and the sandbox attributes of the frames that hold the View
 * (which frame must carry which tokens is in `_sandbox.ts`). The CSP checks live in `csp.ts`.
 *
 * @module
 */
import type { TestContext } from "../harness/test_api.ts";
import type { FrameInspection, FrameLink } from "../../../src/protocol.ts";
import type { SuiteTest } from "./_shared.ts";
import {
  DANGEROUS_TOKENS,
  describeFrame,
  judgeSandboxTokens,
  proxyOriginProblem,
  tokensOf,
} from "./_sandbox.ts";

/** The View's window (this module only runs in a browser). */
const view = globalThis as unknown as Window;

function throws(probe: () => unknown): boolean {
  try {
    probe();
    return false;
  } catch {
    return true;
  }
}

/** The frame chain from `inspectFrame`, or `undefined` when the host cannot or did not report it. */
async function frameChainOf(t: TestContext): Promise<FrameLink[] | undefined> {
  const answer = await t.hostOptional({ kind: "inspectFrame" });
  const frames = (answer.value as FrameInspection | undefined)?.frames;
  return answer.ok && Array.isArray(frames) && frames.length > 0 ? frames : undefined;
}

/** The sandbox tests. */
export const SECURITY: SuiteTest[] = [
  {
    id: "security/sandbox-isolation",
    name: "The View runs in a proxy frame on an origin distinct from the host",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    caveat: "A View more isolated than required (an opaque origin, no allow-same-origin) is no violation; " +
      "then only the host's frame chain (inspectFrame) shows whether the proxy shares the host's origin",
    async run(t: TestContext) {
      const problems: string[] = [];
      // self.origin, not location.origin: a srcdoc View keeps its parent's origin (location.origin reads
      // "null" for any srcdoc document), and only a sandbox without allow-same-origin makes it opaque.
      const opaque = self.origin === "null";
      t.observe("origin", self.origin);
      if (view.parent === view.top) {
        problems.push("(a) no sandbox proxy: the View's parent is the top window");
      } else if (!opaque && !throws(() => view.top?.location.href)) {
        problems.push("(b) the host page's location is readable: host and sandbox share an origin");
      }
      if (!opaque && view.top !== view && !throws(() => view.top?.document.body)) {
        problems.push("(d) the host page's DOM is reachable");
      }
      const frames = await frameChainOf(t);
      const seen = frames === undefined ? undefined : proxyOriginProblem(frames);
      if (frames !== undefined) t.observe("frames", frames);
      if (typeof seen === "string" && !problems.some((problem) => problem.startsWith("(b)"))) {
        problems.push(`(b) ${seen}: host and sandbox share an origin`);
      }
      t.assert(problems.length === 0, problems.join("; "));
      if (opaque && seen === undefined) {
        t.skip(
          "The View's origin is opaque (more isolated than required), so it cannot see whether its proxy " +
            "shares the host page's origin, and the host reported no frame chain (inspectFrame) to show it",
        );
      }
      const judged = frames === undefined
        ? `from inside the View (origin ${self.origin})`
        : `from inside the View (origin ${self.origin}) and on ${
          describeFrame(frames[frames.length - 2] ?? frames[0]!, frames.length - 1)
        } against the host page (origin ${frames[0]?.origin ?? "unknown"})`;
      t.note(`Judged ${judged}`);
    },
  },
  {
    id: "security/iframe-sandboxed",
    name:
      "The View renders in a sandboxed frame, its proxy keeps allow-scripts allow-same-origin, no escape tokens",
    clause: "MUST",
    vantage: "host",
    manual: false,
    caveat: "Judges every frame from the host page down to the View: the View's own frame may be sandboxed " +
      "more tightly than its proxy (no allow-same-origin); an escape token on any of them fails",
    async run(t: TestContext) {
      const frame = await t.host({ kind: "inspectFrame" }) as FrameInspection | undefined;
      t.assert(frame && typeof frame.total === "number", "Not testable: inspectFrame gave no answer", frame);
      t.observe("frame", frame);
      const frames: FrameLink[] | undefined = Array.isArray(frame.frames) && frame.frames.length > 0
        ? frame.frames
        : undefined;
      if (frames === undefined && typeof frame.viewSandboxed === "boolean") {
        // An upstream Runner: no chain, but the sandbox nearest the View (upstream's `view*` fields).
        t.assert(
          frame.viewSandboxed,
          `None of the ${
            frame.viewChainDepth ?? "?"
          } frame(s) from the host page down to the View carries a ` +
            "sandbox attribute",
        );
        const tokens = tokensOf(frame.viewSandbox ?? "");
        t.assert(tokens.includes("allow-scripts"), `The sandbox lacks allow-scripts: "${frame.viewSandbox}"`);
        const dangerous = tokens.filter((token) => DANGEROUS_TOKENS.includes(token));
        t.assert(dangerous.length === 0, `The sandbox nearest the View grants ${dangerous.join(" ")}`);
        t.note(`Judged the sandbox nearest the View only ("${frame.viewSandbox}")`);
        return;
      }
      if (frames === undefined) {
        // A Runner that reports only the outermost frame: judge that one, and say so.
        if (frame.firstSandbox === null) {
          t.skip(
            "The outermost app frame has no sandbox attribute and the host reported no frame chain, so the " +
              "View's own frame (which may carry the sandbox) could not be inspected",
          );
        }
        const tokens = tokensOf(frame.firstSandbox);
        t.assert(
          tokens.includes("allow-scripts"),
          `The sandbox lacks allow-scripts: "${frame.firstSandbox}"`,
        );
        const dangerous = tokens.filter((token) => DANGEROUS_TOKENS.includes(token));
        t.assert(dangerous.length === 0, `The outermost app frame's sandbox grants ${dangerous.join(" ")}`);
        t.note(`Judged the outermost app frame only (sandbox "${frame.firstSandbox}")`);
        return;
      }
      const { problems, inspected } = judgeSandboxTokens(frames);
      t.assert(problems.length === 0, `${problems.join("; ")} (inspected ${inspected.join(", ")})`);
      t.note(`Inspected ${inspected.join(", ")}`);
    },
  },
];
