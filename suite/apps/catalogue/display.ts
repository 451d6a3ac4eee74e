/**
 * Dimensions and display modes. The View declares `availableDisplayModes: ["inline",
 * "fullscreen"]`, so `pip` is an undeclared mode the host must not switch to.
 *
 * @module
 */
import type { McpUiDisplayMode } from "@modelcontextprotocol/ext-apps";
import type { SuiteEnv } from "../harness/env.ts";
import { suiteDeadline } from "../harness/timing.ts";
import { brief, Failure, type TestContext } from "../harness/test_api.ts";
import type { SuiteTest } from "./_shared.ts";

const MODES: readonly string[] = ["inline", "fullscreen", "pip"];

/** The height the View grows to in `dimensions/listen-size-changed` (less when the host declares a maxHeight). */
const GROWN_HEIGHT = 900;

async function requestMode(
  t: TestContext,
  env: SuiteEnv,
  mode: McpUiDisplayMode,
): Promise<string | undefined> {
  try {
    const result = await env.app.requestDisplayMode({ mode }, { timeout: suiteDeadline(5_000) });
    return (result as { mode?: unknown }).mode as string | undefined;
  } catch (error) {
    return t.fail(`ui/request-display-mode {mode: "${mode}"} failed: ${String(error)}`);
  }
}

async function backToInline(env: SuiteEnv): Promise<void> {
  if (env.app.getHostContext()?.displayMode !== "inline") {
    await env.app.requestDisplayMode({ mode: "inline" }).catch(() => undefined);
  }
}

/** Waits (at most 3 s) until the View's height has not changed for 300 ms. */
async function settledHeight(t: TestContext): Promise<void> {
  let height = innerHeight;
  let since = Date.now();
  await t.waitFor(
    () => {
      if (innerHeight !== height) {
        height = innerHeight;
        since = Date.now();
        return undefined;
      }
      return Date.now() - since >= 300 ? height : undefined;
    },
    3_000,
    50,
  );
}

/** The display tests. */
export const DISPLAY: SuiteTest[] = [
  {
    id: "dimensions/listen-size-changed",
    name: "The host resizes the View when its content grows (flexible height)",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const dims = (env.app.getHostContext()?.containerDimensions ?? {}) as {
        height?: number;
        maxHeight?: number;
      };
      if (typeof dims.height === "number") {
        t.skip("The host gives the View a fixed height: nothing to resize");
      }
      // The frame may start at a default height and only then apply the size the View already asked for:
      // measured before that lands, the filler would be sized against a height that is about to change.
      await settledHeight(t);
      const before = innerHeight;
      const limit = dims.maxHeight ?? Infinity;
      if (before >= limit - 10) t.skip(`The View is already at its maximum height (${limit}px)`);
      // At least 900 px: a host that caps the frame at some fixed height without declaring maxHeight (a
      // container of its own) is then caught whatever height the View happens to have reached.
      const target = Math.min(Math.max(before + 240, GROWN_HEIGHT), limit);
      const filler = env.doc.createElement("div");
      filler.style.cssText = `height:${
        Math.max(0, Math.ceil(target + 20 - document.documentElement.scrollHeight))
      }px`;
      env.doc.body.append(filler);
      try {
        const grown = await t.waitFor(() => innerHeight >= target - 2 ? innerHeight : undefined, 4_000, 50);
        t.observe("heights", { before, after: innerHeight, target });
        t.assert(
          grown !== undefined,
          innerHeight > before
            ? `The View grew from ${before}px only to ${innerHeight}px after its content grew (wanted ${target}px): ` +
              "a cap the host did not declare as containerDimensions.maxHeight"
            : `The View stayed ${innerHeight}px high after its content grew (wanted ${target}px)`,
        );
        t.assert(innerHeight <= limit + 1, `The View grew past maxHeight ${limit}px`);
      } finally {
        filler.remove();
      }
    },
  },
  {
    id: "display/return-resulting-mode",
    name: "ui/request-display-mode returns the resulting mode",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const mode = await requestMode(t, env, "inline");
      t.assert(
        mode !== undefined && MODES.includes(mode),
        `The result carries no valid mode: ${String(mode)}`,
      );
    },
  },
  {
    id: "display/no-undeclared-mode",
    name: "The host does not switch to a mode the View did not declare (pip)",
    clause: "MUST NOT",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      // A MUST NOT *switch*: an error or an answer without a mode is another test's concern
      // (return-resulting-mode, unavailable-returns-current); only a switch to pip fails this one.
      const since = performance.now();
      try {
        let answer: string;
        try {
          const result = await env.app.requestDisplayMode({ mode: "pip" }, { timeout: suiteDeadline(5_000) });
          const mode = (result as { mode?: unknown }).mode;
          t.assert(mode !== "pip", "The host granted the undeclared mode pip");
          answer = mode === undefined ? "an answer without a mode" : `mode ${JSON.stringify(mode)}`;
        } catch (error) {
          if (error instanceof Failure) throw error;
          answer = `an error (${brief(String(error))})`;
        }
        await t.sleep(150);
        const switched = env.recorder.events.hostcontextchanged.find((event) =>
          event.at >= since && event.params.displayMode === "pip"
        );
        t.assert(switched === undefined, "The host told the View it switched to pip (host-context-changed)");
        const now = env.app.getHostContext()?.displayMode;
        t.assert(now !== "pip", "The host context switched to pip");
        t.observe("answer", answer);
        t.observe("displayModeAfter", now ?? null);
      } finally {
        await backToInline(env);
      }
    },
  },
  {
    id: "display/unavailable-returns-current",
    name: "A request for an unavailable mode returns the current mode",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    async run(t: TestContext, env: SuiteEnv) {
      const current = env.app.getHostContext()?.displayMode ?? "inline";
      try {
        const mode = await requestMode(t, env, "pip");
        t.assertEqual(mode, current, "The mode returned for an unavailable request");
      } finally {
        await backToInline(env);
      }
    },
  },
  {
    id: "display/change-notifies-context",
    name: "An accepted display mode change is followed by host-context-changed",
    clause: "SHOULD",
    vantage: "in-view",
    manual: true,
    async run(t: TestContext, env: SuiteEnv) {
      const since = performance.now();
      const requested = t.bindTrigger(() =>
        env.app.requestDisplayMode({ mode: "fullscreen" }, { timeout: suiteDeadline(5_000) })
      );
      await t.host({ kind: "clickTrigger" });
      const result = await requested.catch((error: unknown) =>
        t.fail(`The request failed: ${String(error)}`)
      );
      if ((result as { mode?: unknown }).mode !== "fullscreen") {
        t.skip(`The host did not grant fullscreen (it answered ${JSON.stringify(result)})`);
      }
      const got = await env.recorder.next("hostcontextchanged", {
        since,
        timeoutMs: 3_000,
        accept: (patch) => patch.displayMode === "fullscreen",
      });
      t.assert(got, "No host-context-changed with displayMode fullscreen after the switch");
    },
  },
];
