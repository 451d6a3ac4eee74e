/**
 * The launch vocabulary of a web host: an ordered list of steps, each naming one Playwright selector, that
 * starts a render (`launch:`) or presses the host's own close or cancel control (`teardown:`, `cancel:`). It
 * serves hosts that launch an app by connecting to a server, picking a tool and pressing a button, as well as
 * chat composers.
 *
 * ```yaml
 * launch:
 *   - click: "[role=switch]"
 *     force: true
 *     unless: "text=Connected"
 *   - click: "text='{launcher}'"
 *   - fill: "textarea[name=args]"
 *     text: "{}"
 *   - press: Enter
 *     on: "#composer"
 *   - waitFor: "iframe"
 * ```
 *
 * One key names the step's kind and holds its selector (`press` holds the key; its selector is `on`). Every
 * step also takes `force`, `optional`, `unless` and `timeoutMs`. `{launcher}` and `{serverUrl}` are filled in
 * everywhere.
 *
 * @module
 */
import type { ElementHandle, Locator, Page } from "playwright-core";
import { z } from "zod";
import { closest } from "../suggest.ts";
import { pollUntil, scaled } from "../time.ts";
import { APPS_DEADLINES } from "./deadlines.ts";

/** The placeholders a step may use. */
export const STEP_PLACEHOLDERS = ["launcher", "serverUrl"] as const;

/** How long a step waits for its element, unless it says otherwise (scaled by the timeout multiplier). */
export const STEP_TIMEOUT_MS = APPS_DEADLINES.stepTimeoutMs;

/** How long an `optional` step waits for its element before it is passed over. */
export const OPTIONAL_STEP_TIMEOUT_MS = APPS_DEADLINES.optionalStepTimeoutMs;

const Selector = z.string().trim().min(1, "a selector must not be empty");

const STEP_OPTIONS = {
  /** Act without Playwright's actionability checks (an input covered by its styled track). */
  force: z.boolean().optional(),
  /** Go on when the element does not show. */
  optional: z.boolean().optional(),
  /** Skip the step when this selector is visible (e.g. "already connected"). */
  unless: Selector.optional(),
  /** How long to wait for the element. */
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
  /**
   * The element of the View under test's panel: of the matches, the one nearest the View's frame (in the
   * smallest ancestor of the frame that holds a match), not the first on the page.
   */
  ofView: z.boolean().optional(),
};

const STEP_SCHEMAS = {
  click: z.object({ click: Selector, ...STEP_OPTIONS }).strict(),
  fill: z.object({ fill: Selector, text: z.string(), ...STEP_OPTIONS }).strict(),
  select: z.object({
    select: Selector,
    option: z.string().min(1, "name the option to select"),
    ...STEP_OPTIONS,
  })
    .strict(),
  press: z.object({
    press: z.string().trim().min(1, "name the key to press"),
    on: Selector.optional(),
    ...STEP_OPTIONS,
  })
    .strict(),
  waitFor: z.object({ waitFor: Selector, ...STEP_OPTIONS }).strict(),
} as const;

/** The kinds of step, in the order the docs list them. */
export const STEP_KINDS = Object.keys(STEP_SCHEMAS) as readonly StepKind[];

/** One kind of step. */
export type StepKind = keyof typeof STEP_SCHEMAS;

/** One step, as written in YAML (one key naming its kind). */
export type LaunchStep = { [K in StepKind]: z.infer<(typeof STEP_SCHEMAS)[K]> }[StepKind];

const OPTION_KEYS = Object.keys(STEP_OPTIONS);

/** The kind of a validated step. */
export function stepKind(step: LaunchStep): StepKind {
  return STEP_KINDS.find((kind) => kind in step)!;
}

const LaunchStepSchema: z.ZodType<LaunchStep> = z.unknown().transform((value, ctx): LaunchStep => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: "custom", message: `a step is a map with one of ${STEP_KINDS.join(", ")}` });
    return z.NEVER;
  }
  const keys = Object.keys(value);
  const kinds = STEP_KINDS.filter((kind) => keys.includes(kind));
  if (kinds.length !== 1) {
    const stray = keys.find((key) => !OPTION_KEYS.includes(key) && !["text", "option", "on"].includes(key));
    const hint = stray === undefined ? undefined : closest(stray, STEP_KINDS);
    ctx.addIssue({
      code: "custom",
      message: kinds.length === 0
        ? `a step names its kind: one of ${STEP_KINDS.join(", ")}${
          hint ? ` ("${stray}": did you mean "${hint}"?)` : ""
        }`
        : `a step has one kind, this one has ${kinds.join(" and ")}: split it into ${kinds.length} steps`,
    });
    return z.NEVER;
  }
  const kind = kinds[0]!;
  const schema = STEP_SCHEMAS[kind];
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === "unrecognized_keys") {
        const allowed = Object.keys(schema.shape);
        for (const key of issue.keys) {
          const hint = closest(key, allowed);
          ctx.addIssue({
            code: "custom",
            path: [key],
            message: `a ${kind} step has no "${key}"${hint ? `: did you mean "${hint}"?` : "."} It takes ${
              allowed.join(", ")
            }`,
          });
        }
      } else if (
        issue.code === "invalid_type" && issue.path.length === 1 && !(String(issue.path[0]) in value)
      ) {
        ctx.addIssue({
          code: "custom",
          path: issue.path,
          message: `a ${kind} step needs "${String(issue.path[0])}"`,
        });
      } else {
        ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      }
    }
    return z.NEVER;
  }
  for (const [field, text] of Object.entries(parsed.data)) {
    if (typeof text !== "string") continue;
    const problem = placeholderProblem(text);
    if (problem !== null) ctx.addIssue({ code: "custom", path: [field], message: problem });
  }
  return parsed.data as LaunchStep;
});

/** An ordered list of steps (`launch:`, `teardown:`, `cancel:`). */
export const LaunchSteps: z.ZodType<LaunchStep[], unknown> = z.array(LaunchStepSchema).min(
  1,
  "give at least one step",
);

/** Why `text` names a placeholder that does not exist (e.g. `{launchr}`), or `null`. */
export function placeholderProblem(text: string): string | null {
  for (const match of text.matchAll(/\{([A-Za-z_][\w-]*)\}/g)) {
    const name = match[1]!;
    if ((STEP_PLACEHOLDERS as readonly string[]).includes(name)) continue;
    const hint = closest(name, STEP_PLACEHOLDERS);
    return `unknown placeholder "{${name}}"${hint ? `: did you mean "{${hint}}"?` : "."} Placeholders are ${
      STEP_PLACEHOLDERS.map((known) => `{${known}}`).join(" and ")
    }`;
  }
  return null;
}

/** The placeholders of `steps` (e.g. to check `{serverUrl}` has a value before a run). */
export function placeholdersOf(steps: readonly LaunchStep[]): Set<string> {
  const names = new Set<string>();
  for (const step of steps) {
    for (const text of Object.values(step)) {
      if (typeof text !== "string") continue;
      for (const match of text.matchAll(/\{([A-Za-z_][\w-]*)\}/g)) names.add(match[1]!);
    }
  }
  return names;
}

/** The values of the placeholders. */
export interface StepVars {
  readonly launcher?: string;
  readonly serverUrl?: string;
}

/** How {@linkcode runSteps} runs. */
export interface RunStepsOptions {
  /** Scales every step's timeout (`--timeout-multiplier`). */
  readonly timeoutMultiplier: number;
  /** Stops between steps when aborted. */
  readonly signal: AbortSignal;
  /** What the list is, for messages: `launch`, `teardown`, `cancel`. */
  readonly what: string;
  /** Awaited before each step that runs (a live product's pacing). */
  readonly beforeStep?: () => Promise<void>;
  /**
   * The frame element, on `page`, that holds the View under test (its outermost iframe), for `ofView` steps;
   * `null` when no View is rendered.
   */
  readonly view?: () => Promise<ElementHandle | null>;
}

/**
 * Runs `steps` in order on `page`. A step whose `unless` selector is visible is skipped; an `optional` step
 * whose element does not show is passed over; any other step that cannot act throws an Error naming its
 * number (from 1), kind and selector.
 *
 * @example
 * ```ts ignore
 * await runSteps(page, [{ click: "text='{launcher}'" }, { waitFor: "iframe" }], { launcher: "run_conformance" }, {
 *   timeoutMultiplier: 1,
 *   signal: new AbortController().signal,
 *   what: "launch",
 * });
 * ```
 */
export async function runSteps(
  page: Page,
  steps: readonly LaunchStep[],
  vars: StepVars,
  options: RunStepsOptions,
): Promise<void> {
  for (const [index, step] of steps.entries()) {
    if (options.signal.aborted) {
      throw new Error(`${options.what} stopped before step ${index + 1}: the run was aborted`);
    }
    await runStep(page, step, vars, { ...options, number: index + 1 });
  }
}

async function runStep(
  page: Page,
  step: LaunchStep,
  vars: StepVars,
  options: RunStepsOptions & { readonly number: number },
): Promise<void> {
  const kind = stepKind(step);
  const fill = (text: string) => fillPlaceholders(text, vars, `${options.what} step ${options.number}`);
  const target = fill("press" in step ? step.on ?? "" : (step as Record<StepKind, string>)[kind]);
  const label = `${options.what} step ${options.number} (${describeStep(step, fill)})`;
  if (
    step.unless !== undefined && await page.locator(fill(step.unless)).first().isVisible().catch(() => false)
  ) {
    return;
  }
  await options.beforeStep?.();
  const timeoutMs = scaled(
    step.timeoutMs ?? (step.optional ? OPTIONAL_STEP_TIMEOUT_MS : STEP_TIMEOUT_MS),
    options.timeoutMultiplier,
  );
  const started = Date.now();
  let element: Locator | ElementHandle | null = null;
  if (target !== "" && step.ofView) {
    const frame = await options.view?.();
    if (!frame) throw new Error(`${label} acts on the View's panel (ofView), but no View is rendered`);
    element = await pollUntil(() => nearest(frame, target, step.force ?? false), {
      timeoutMs,
      intervalMs: 100,
      signal: options.signal,
    }) ?? null;
    if (element === null) {
      if (step.optional) return;
      throw new Error(`${label} found nothing around the View's frame within ${seconds(timeoutMs)}`);
    }
  } else if (target !== "") {
    element = page.locator(target).first();
    try {
      await element.waitFor({ state: step.force ? "attached" : "visible", timeout: timeoutMs });
    } catch (error) {
      if (step.optional) return;
      if (page.isClosed()) throw new Error(`${label} could not run: the page was closed`);
      throw new Error(`${label} found nothing within ${seconds(timeoutMs)}${playwrightHint(error)}`);
    }
  }
  const timeout = Math.max(1_000, timeoutMs - (Date.now() - started));
  const force = step.force ?? false;
  try {
    if ("click" in step) await element!.click({ force, timeout });
    else if ("fill" in step) await element!.fill(fill(step.text), { force, timeout });
    else if ("select" in step) await element!.selectOption(fill(step.option), { force, timeout });
    else if ("press" in step) {
      if (element === null) await page.keyboard.press(fill(step.press));
      else await element.press(fill(step.press), { timeout });
    }
  } catch (error) {
    if (step.optional) return;
    throw new Error(`${label} failed: ${firstLine(error)}${coveredHint(error, step)}`);
  }
}

/**
 * The match of `selector` nearest `frame`: in its parent, else its grandparent, and so on up to the document;
 * `undefined` while none is there (or, unless `attached`, none is visible).
 */
async function nearest(
  frame: ElementHandle,
  selector: string,
  attached: boolean,
): Promise<ElementHandle | undefined> {
  let scope = (await frame.evaluateHandle((node) => node.parentElement)).asElement();
  while (scope !== null) {
    for (const match of await scope.$$(selector)) {
      if (attached || await match.isVisible()) return match;
    }
    scope = (await scope.evaluateHandle((node) => node.parentElement)).asElement();
  }
  return undefined;
}

/** `click "#go"`, `press "Enter" on "#composer"`: a step as messages name it. */
export function describeStep(step: LaunchStep, fill: (text: string) => string = (text) => text): string {
  if ("press" in step) {
    return `press ${JSON.stringify(fill(step.press))}${
      step.on === undefined ? "" : ` on ${JSON.stringify(fill(step.on))}`
    }`;
  }
  const kind = stepKind(step);
  return `${kind} ${JSON.stringify(fill((step as Record<StepKind, string>)[kind]))}`;
}

/** `text` with its placeholders filled in; a placeholder without a value is an Error naming `where`. */
export function fillPlaceholders(text: string, vars: StepVars, where = "step"): string {
  return text.replace(/\{(launcher|serverUrl)\}/g, (_, name: keyof StepVars) => {
    const value = vars[name];
    if (value === undefined) {
      throw new Error(
        `${where} uses {${name}}, which has no value here${
          name === "serverUrl" ? ': give the host a "server:" for the harness to start' : ""
        }`,
      );
    }
    return value;
  });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").find((line) => line.trim() !== "")?.trim() ?? message;
}

function playwrightHint(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  return /Timeout \d+ms exceeded/.test(message) ? "" : ` (${firstLine(error)})`;
}

function coveredHint(error: unknown, step: LaunchStep): string {
  const message = error instanceof Error ? error.message : "";
  return !step.force && /intercepts pointer events/.test(message)
    ? ": another element covers it; add force: true to the step"
    : "";
}
