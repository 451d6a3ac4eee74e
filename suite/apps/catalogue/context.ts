/**
 * Host context and theming.
 *
 * @module
 */
import type { McpUiHostContext } from "@modelcontextprotocol/ext-apps";
import type { SuiteEnv } from "../harness/env.ts";
import type { TestContext } from "../harness/test_api.ts";
import { jsonEqual } from "../harness/test_api.ts";
import { STANDARD_STYLE_KEYS, type SuiteTest } from "./_shared.ts";

/** Keys a theme change may legitimately carry in its patch. */
const THEME_PATCH_KEYS = new Set(["theme", "styles"]);

/** The hostContext fields `context/shape-valid` checks. */
const SHAPE_FIELDS = [
  "theme",
  "displayMode",
  "availableDisplayModes",
  "platform",
  "containerDimensions",
  "locale",
  "timeZone",
  "safeAreaInsets",
] as const satisfies readonly (keyof McpUiHostContext)[];

function initialContext(t: TestContext, env: SuiteEnv): McpUiHostContext {
  return env.initialHostContext ??
    t.skip("The host sent no hostContext (see context/initialize-hostcontext)");
}

function colourVariables(context: McpUiHostContext): [string, string][] {
  const variables = (context.styles?.variables ?? {}) as Record<string, string | undefined>;
  return Object.entries(variables).filter((entry): entry is [string, string] =>
    entry[0].startsWith("--color-") && typeof entry[1] === "string"
  );
}

/** Toggles the host theme and returns the host-context-changed patch that carried the new theme. */
async function toggleTheme(t: TestContext, env: SuiteEnv) {
  const current = env.app.getHostContext()?.theme ?? "light";
  const to = current === "dark" ? "light" : "dark";
  const since = performance.now();
  await t.host({ kind: "toggleTheme", to });
  // The wait ends as soon as the patch arrives; the long limit only costs time on a host that never sends it,
  // and keeps a busy machine (a browser and a driven host page on two cores) from reading as a missing patch.
  const got = await env.recorder.next("hostcontextchanged", {
    since,
    timeoutMs: 10_000,
    accept: (patch) => patch.theme === to,
  });
  return { to, patch: got?.params };
}

/** The context tests. */
export const CONTEXT: SuiteTest[] = [
  {
    id: "context/initialize-hostcontext",
    name: "ui/initialize carries a hostContext",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    run(t: TestContext, env: SuiteEnv) {
      const context = env.initialHostContext;
      t.assert(context && Object.keys(context).length > 0, "The ui/initialize result has no hostContext");
      return Promise.resolve();
    },
  },
  {
    id: "context/shape-valid",
    name: "hostContext values are valid (enums, dimensions, locale, timeZone, insets)",
    clause: "MUST",
    vantage: "in-view",
    manual: false,
    run(t: TestContext, env: SuiteEnv) {
      const context = initialContext(t, env);
      const problems: string[] = [];
      if (context.theme !== undefined && !["light", "dark"].includes(context.theme)) problems.push("theme");
      const modes = ["inline", "fullscreen", "pip"];
      if (context.displayMode !== undefined && !modes.includes(context.displayMode)) {
        problems.push("displayMode");
      }
      if (context.availableDisplayModes?.some((mode) => !modes.includes(mode))) {
        problems.push("availableDisplayModes");
      }
      if (context.platform !== undefined && !["web", "desktop", "mobile"].includes(context.platform)) {
        problems.push("platform");
      }
      const dims = context.containerDimensions as Record<string, unknown> | undefined;
      for (const [key, value] of Object.entries(dims ?? {})) {
        if (typeof value !== "number" || !(value > 0)) problems.push(`containerDimensions.${key}`);
      }
      if (context.locale !== undefined) {
        try {
          new Intl.Locale(context.locale);
        } catch {
          problems.push(`locale ${JSON.stringify(context.locale)}`);
        }
      }
      if (context.timeZone !== undefined) {
        try {
          new Intl.DateTimeFormat("en", { timeZone: context.timeZone });
        } catch {
          problems.push(`timeZone ${JSON.stringify(context.timeZone)}`);
        }
      }
      for (const [key, value] of Object.entries(context.safeAreaInsets ?? {})) {
        if (typeof value !== "number") problems.push(`safeAreaInsets.${key}`);
      }
      t.assert(problems.length === 0, `Invalid hostContext fields: ${problems.join(", ")}`, context);
      // A PASS names what it checked: an empty context holds nothing invalid, and nothing valid either.
      const checked = SHAPE_FIELDS.filter((key) => context[key] !== undefined);
      if (checked.length === 0) {
        t.skip(
          `The initial hostContext has none of the fields this test checks (${SHAPE_FIELDS.join(", ")})`,
        );
      }
      t.observe("checked", checked);
      return Promise.resolve();
    },
  },
  {
    id: "context/display-mode-consistent",
    name: "displayMode is one of availableDisplayModes",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    run(t: TestContext, env: SuiteEnv) {
      const { displayMode, availableDisplayModes } = initialContext(t, env);
      if (displayMode === undefined || availableDisplayModes === undefined) {
        t.skip("The host context lacks displayMode or availableDisplayModes");
      }
      t.assert(availableDisplayModes.includes(displayMode), `displayMode ${displayMode} is not available`);
      return Promise.resolve();
    },
  },
  {
    id: "context/toolinfo-matches",
    name: "toolInfo.tool is the launching tool",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    run(t: TestContext, env: SuiteEnv) {
      const context = initialContext(t, env);
      const config = env.config();
      if (config.source === "host-context" || config.source === "default") {
        t.skip("The launching tool is unknown apart from the host context itself");
      }
      t.assert(context.toolInfo, "hostContext has no toolInfo");
      t.assertEqual(context.toolInfo.tool.name, config.launcher, "toolInfo.tool.name");
      return Promise.resolve();
    },
  },
  {
    id: "context/style-variables",
    name: "styles.variables use the standard keys, colours use light-dark()",
    clause: "SHOULD",
    vantage: "in-view",
    manual: false,
    run(t: TestContext, env: SuiteEnv) {
      const context = initialContext(t, env);
      const variables = context.styles?.variables;
      t.assert(variables && Object.keys(variables).length > 0, "hostContext has no styles.variables");
      const unknown = Object.keys(variables).filter((key) => !STANDARD_STYLE_KEYS.has(key));
      t.assert(unknown.length === 0, `Non-standard style keys: ${unknown.join(", ")}`);
      const plain = colourVariables(context).filter(([, value]) => !value.includes("light-dark("));
      t.assert(plain.length === 0, `${plain.length} colours do not use light-dark(), e.g. ${plain[0]?.[0]}`);
      t.note(context.styles?.css?.fonts ? "fonts are provided" : "no css.fonts");
      return Promise.resolve();
    },
  },
  {
    id: "context/theme-change-notify",
    name: "A host theme change sends host-context-changed with the new theme",
    clause: "MAY",
    vantage: "in-view",
    manual: true,
    async run(t: TestContext, env: SuiteEnv) {
      const { to, patch } = await toggleTheme(t, env);
      t.assert(patch, `No host-context-changed with theme "${to}" after the theme switch`);
    },
  },
  {
    id: "context/partial-merge",
    name: "A theme change sends only changed keys, and the merged context keeps the rest",
    clause: "SHOULD",
    vantage: "in-view",
    manual: true,
    async run(t: TestContext, env: SuiteEnv) {
      const before = env.app.getHostContext() ?? t.skip("The host sent no hostContext");
      const { patch } = await toggleTheme(t, env);
      if (!patch) t.skip("No host-context-changed arrived (see context/theme-change-notify)");
      const extra = Object.keys(patch).filter((key) => !THEME_PATCH_KEYS.has(key));
      t.assert(extra.length === 0, `The theme patch re-sent unchanged keys: ${extra.join(", ")}`, patch);
      const after = env.app.getHostContext() ?? {};
      const lost = Object.keys(before).filter((key) =>
        !THEME_PATCH_KEYS.has(key) &&
        !jsonEqual((after as Record<string, unknown>)[key], before[key as never])
      );
      t.assert(lost.length === 0, `The merged context changed ${lost.join(", ")}`);
    },
  },
  {
    id: "context/palette-follows-theme",
    name: "Colours that do not use light-dark() follow a theme change (re-sent with new values)",
    clause: "SHOULD",
    vantage: "in-view",
    manual: true,
    caveat: "A colour that is the same in both themes needs no re-send, and a partial patch rightly leaves " +
      "it out, so only a palette none of whose plain colours changed fails; the others are noted",
    async run(t: TestContext, env: SuiteEnv) {
      const context = env.app.getHostContext() ?? t.skip("The host sent no hostContext");
      const colours = colourVariables(context);
      if (colours.length === 0) t.skip("The host sends no colour variables (see context/style-variables)");
      const plain = colours.filter(([, value]) => !value.includes("light-dark("));
      if (plain.length === 0) return t.note("Every colour uses light-dark(): nothing needs re-sending");
      const { to, patch } = await toggleTheme(t, env);
      if (!patch) t.skip("No host-context-changed arrived (see context/theme-change-notify)");
      const sent = (patch.styles?.variables ?? {}) as Record<string, string | undefined>;
      const followed = plain.filter(([key, value]) => sent[key] !== undefined && sent[key] !== value);
      t.assert(
        followed.length > 0,
        `The palette did not follow the theme: none of the ${plain.length} plain colours was re-sent with a ` +
          `new value for "${to}", e.g. ${plain[0]?.[0]}`,
        sent,
      );
      const unchanged = plain.filter(([key, value]) => sent[key] === undefined || sent[key] === value)
        .map(([key]) => key);
      t.observe("followed", followed.map(([key]) => key));
      t.observe("notResent", unchanged);
      if (unchanged.length > 0) {
        t.note(
          `${followed.length} of ${plain.length} plain colours followed the theme; not re-sent with a new ` +
            `value, so possibly the same in both themes: ${unchanged.join(", ")}`,
        );
      }
    },
  },
];
