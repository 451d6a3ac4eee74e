/**
 * The capability protocol: the one contract between the in-iframe MCP Apps suite (`suite/apps/`, bundled into
 * the app View) and the Runner (`src/runner/`), which drives the host page from outside the browser.
 *
 * The suite pulls and the Runner polls. A test that needs the host to do something physical (a real click, a
 * theme switch, a look at the host's DOM) parks one {@linkcode CapabilityRequest} in the single pending slot
 * of {@linkcode InIframeChannel}; the Runner sees it in {@linkcode SuitePoll}, services it against its
 * `Host`, and answers with {@linkcode CapabilityResult} through `resolve`.
 *
 * Wire-compatible with the public upstream proposal (modelcontextprotocol/ext-apps PR #726, and the
 * alpic-ai/mcp-app-conformance suite it came from): the same channel name, method names, statuses, clauses,
 * vantages and request kinds, and answers that mean what upstream reads them to mean. Everything this file
 * adds is optional on the wire (`requestSeq`, `progress`, `launcher`, `draft`, the `consent` hint, the
 * local-only request kinds, the extra fields of an answer's `value`), so an upstream Runner can drive this
 * suite and this Runner can drive an upstream suite.
 *
 * What each answer means, kind by kind ({@linkcode CapabilityResult}; `unsupported: true` always means the
 * host cannot do it at all, and an `error` always means the host tried and could not tell):
 *
 * - `clickTrigger`, `toggleTheme`, `resetIsolation`, `triggerTeardown`, `cancelTool`, `streamPartialInput`:
 *   `ok` says the host did it.
 * - `confirmDialog`: `ok` says the host showed the consent and accepted it (for `link`, and its older
 *   upstream name `open-link`: that the link opened); a download's `value` is a {@linkcode DownloadReceipt}.
 *   A dialog kind the host does not know answers `unsupported`.
 * - `checkLinkOpen`: `ok` says a tab opened the URL.
 * - `conversationContains`: `ok` IS the answer, *found* (upstream negates it to test an absence); `value` is
 *   a {@linkcode ConversationMatch} with the details. A miss is `ok: false` without `error`.
 * - `readConsole`: `ok` IS the answer, *a line matched*; `value` is a {@linkcode ConsoleMatch}. A miss is
 *   `ok: false` without `error`.
 * - `readModelToolList`: `value` is the array of tool names the model sees ({@linkcode ModelToolList}).
 * - `inspectFrame`: `value` is a {@linkcode FrameInspection}: upstream's `total`, `sandboxed`,
 *   `firstSandbox`, `viewSandboxed`, `viewSandbox`, `viewChainDepth`, and this project's `allow`, `frames`.
 * - Any request kind a host does not know: `unsupported`, never a thrown error.
 *
 * How it is tested: `tests/suite/upstream_shaped_test.ts` drives a small suite of this project's own, written
 * the way upstream suites read these answers (`tests/suite/upstream_shaped/view.ts`: upstream's channel
 * without this file's additions, one test per request kind, positive and negative), through the Runner on the
 * reference host (every verdict PASS) and the MCP Inspector (SKIPs where it has no control);
 * `tests/protocol_test.ts` checks each answer's shape and `tests/runner/runner_loop_test.ts` the unknown kinds
 * and dialog aliases. Our catalogue reads the same shapes. `tests/suite/suite_server_test.ts` serves that
 * suite from an MCP server of its own, in another process, and runs it with `conformance run --suite-server`
 * on the reference host and the MCP Inspector (src/runner/suite_server.ts: its tests reported under its own
 * ids, namespaced by the server's name).
 *
 * Pure types and tiny pure helpers only: importable from the browser bundle and from Deno alike.
 *
 * @module
 */

/**
 * The verdict of one in-view test, as it crosses the wire (upstream statuses). NOTRUN also carries a test that
 * ran but could not test, with the reason (a control outside the host was unreachable): the run's ERROR.
 */
export type SuiteStatus = "PASS" | "FAIL" | "TIMEOUT" | "SKIP" | "NOTRUN";

/** Every {@linkcode SuiteStatus}. */
export const SUITE_STATUSES: readonly SuiteStatus[] = ["PASS", "FAIL", "TIMEOUT", "SKIP", "NOTRUN"];

/** The spec keyword a test checks. It decides what a failed check means (see {@linkcode outcomeStatusOf}). */
export type Clause = "MUST" | "MUST NOT" | "SHOULD" | "SHOULD NOT" | "MAY" | "REQUIRED";

/** Where an obligation is observable: inside the View, on the host surface, or at the MCP server. */
export type Vantage = "in-view" | "host" | "server";

/** The launcher tools; each renders the suite under a different resource (and so a different CSP). */
export type LauncherName = "run_conformance" | "run_conformance_nocsp" | "run_conformance_precedence";

/** A test as the suite lists it (upstream `TestMeta`, plus optional extras). */
export interface TestMeta {
  /** `<area>/<name>`, e.g. `visibility/app-tool-hidden`; the run reports it as `apps/<area>/<name>`. */
  id: string;
  /** The test's human name. */
  name: string;
  /** Where the test observes from. */
  vantage: Vantage;
  /** Needs the Runner (a click, a dialog, a theme switch…); runs after the automatic tests. */
  manual: boolean;
  /** The specification clause it checks. */
  clause?: Clause;
  /** What the verdict does not cover, shown next to it in reports. */
  caveat?: string;
  /** The launcher whose render runs this test; `run_conformance` when absent. */
  launcher?: LauncherName;
  /** Rests on draft spec text (SEP-1865), not the stable 2026-01-26 specification. */
  draft?: boolean;
  /** The suite's own deadline for the test, in milliseconds before the timeout multiplier. */
  timeoutMs?: number;
}

/** One test's result as the suite reports it (upstream `SubtestResult`). */
export interface SubtestResult {
  /** `<area>/<name>`. */
  id: string;
  /** The test's human name. */
  name: string;
  /** The verdict. */
  status: SuiteStatus;
  /** Where the test observed from. */
  vantage: Vantage;
  /** Whether it needed the Runner. */
  manual: boolean;
  /** The specification clause it checks. */
  clause?: Clause;
  /** What the verdict does not cover. */
  caveat?: string;
  /** Why: set for everything but PASS, and for informational passes. */
  message?: string;
  /** What was observed, for the report's details. JSON-serialisable. */
  value?: unknown;
  /** How long the test took. */
  durationMs: number;
}

/** The dialogs `confirmDialog` can accept. `link` is this project's alias of `checkLinkOpen`. */
export type DialogKind = "download" | "sampling" | "link";

/** Every {@linkcode DialogKind}. */
export const DIALOG_KINDS: readonly DialogKind[] = ["download", "sampling", "link"];

/** The older upstream names of a {@linkcode DialogKind} that still arrive on the wire. */
export const DIALOG_ALIASES: Readonly<Record<string, DialogKind>> = Object.freeze({ "open-link": "link" });

/**
 * The {@linkcode DialogKind} a `confirmDialog` names, its upstream alias resolved (`open-link` → `link`), or
 * `null` when it names none this protocol knows (the host answers `unsupported`).
 *
 * @example
 * ```ts
 * import { dialogKindOf } from "./protocol.ts";
 * dialogKindOf("open-link"); // "link"
 * dialogKindOf("camera"); // null
 * ```
 */
export function dialogKindOf(dialog: unknown): DialogKind | null {
  if (typeof dialog !== "string") return null;
  if ((DIALOG_KINDS as readonly string[]).includes(dialog)) return dialog as DialogKind;
  return Object.hasOwn(DIALOG_ALIASES, dialog) ? DIALOG_ALIASES[dialog]! : null;
}

/**
 * One thing a host can physically do, requested by a test. The first nine kinds are upstream's; the last three
 * are hooks only the local reference host offers (real hosts answer `unsupported`, which SKIPs the test).
 */
export type CapabilityRequest =
  /** A real, user-activating click on the View's `data-testid="conformance-trigger"` button. */
  | {
    kind: "clickTrigger";
    commitDraftedMessage?: boolean;
    /**
     * The consent this click makes the View ask for (the `confirmDialog` or `checkLinkOpen` that follows):
     * a host whose consent is a browser dialog (`confirm()`) must be ready before the click, since that
     * dialog opens during it and blocks the page until answered.
     */
    consent?: DialogKind;
  }
  /**
   * Accept a host-native permission dialog raised by the triggered action. `open-link` is upstream's older
   * name of `link` (see {@linkcode dialogKindOf}); the Runner resolves it before a host sees the request.
   */
  | { kind: "confirmDialog"; dialog: DialogKind; url?: string }
  /** Verify that a `ui/open-link` opened this URL (a new tab), accepting a consent dialog if one shows. */
  | { kind: "checkLinkOpen"; url: string }
  /** Poll the host conversation for a marker until the deadline; `ok`: found; value: {@linkcode ConversationMatch}. */
  | { kind: "conversationContains"; marker: string; timeoutMs: number }
  /** Switch the host's theme (a browser host emulates the OS colour scheme). */
  | { kind: "toggleTheme"; to: "light" | "dark" }
  /** The tool names the model can see; value: {@linkcode ModelToolList}. */
  | { kind: "readModelToolList" }
  /** The host page's iframe attributes, which the View cannot see about itself; value: {@linkcode FrameInspection}. */
  | { kind: "inspectFrame" }
  /** Scan the host's console for a line matching `pattern` (a RegExp source); `ok`: matched; value: {@linkcode ConsoleMatch}. */
  | { kind: "readConsole"; pattern: string; timeoutMs: number }
  /** Per-manual-test isolation, sent by the suite before each manual test (never by test authors). */
  | { kind: "resetIsolation" }
  /** Local only: the host tears the View down (`ui/resource-teardown`, then removal). */
  | { kind: "triggerTeardown"; reason?: string }
  /** Local only: the host cancels the launching tool call (`ui/notifications/tool-cancelled`). */
  | { kind: "cancelTool"; reason?: string }
  /** Local only: the host sends these `tool-input-partial` argument snapshots, in order. */
  | { kind: "streamPartialInput"; arguments: Record<string, unknown>[] };

/** Every request kind, in declaration order. */
export const CAPABILITY_KINDS = [
  "clickTrigger",
  "confirmDialog",
  "checkLinkOpen",
  "conversationContains",
  "toggleTheme",
  "readModelToolList",
  "inspectFrame",
  "readConsole",
  "resetIsolation",
  "triggerTeardown",
  "cancelTool",
  "streamPartialInput",
] as const satisfies readonly CapabilityRequest["kind"][];

/** One of {@linkcode CAPABILITY_KINDS}. */
export type CapabilityKind = CapabilityRequest["kind"];

/** The Runner's answer to one request. `unsupported` means the host cannot do it at all. */
export interface CapabilityResult {
  /** Whether the request was carried out. */
  ok: boolean;
  /** The answer, for requests that return one. */
  value?: unknown;
  /** Why it failed. */
  error?: string;
  /** `true`: the host cannot do this at all. */
  unsupported?: boolean;
}

/**
 * The `value` of a `conversationContains` answer, whose `ok` is `found` (see
 * {@linkcode conversationAnswer}).
 */
export interface ConversationMatch {
  /** Whether a turn matched. */
  found: boolean;
  /** The role of the matching turn, when the host shows one. */
  role?: "user" | "assistant";
  /** The matching turn's text, trimmed. */
  text?: string;
}

/** The `value` of a `readModelToolList` answer: the tool names, from every server the host has connected. */
export type ModelToolList = string[];

/** The answer to `conversationContains`: `ok` is whether a turn matched, the details in `value`. */
export function conversationAnswer(match: ConversationMatch): CapabilityResult {
  return { ok: match.found, value: match };
}

/** The answer to `readConsole`: `ok` is whether a line matched, the details in `value`. */
export function consoleAnswer(match: ConsoleMatch): CapabilityResult {
  return { ok: match.matched, value: match };
}

/**
 * Reads a `conversationContains` or `readConsole` answer the upstream way: `true` found, `false` not found,
 * or, when the host could not tell (it failed, or cannot do it), the answer itself.
 *
 * @example
 * ```ts
 * import { answerFound } from "./protocol.ts";
 * answerFound({ ok: false }); // false: looked, and not found
 * answerFound({ ok: false, error: "no page" }); // the answer: could not look
 * ```
 */
export function answerFound(answer: CapabilityResult): boolean | CapabilityResult {
  if (answer.ok) return true;
  return answer.unsupported || answer.error !== undefined ? answer : false;
}

/**
 * One document on the way from the host page down to the View, as the browser shows it from outside: depth 0
 * is the host page itself, depth 1 the frame in it that holds the app (the sandbox proxy of a double iframe),
 * and the deepest entry is the View's own frame.
 */
export interface FrameLink {
  /** 0 for the host page, one more per frame down to the View. */
  depth: number;
  /** The frame element's `sandbox` attribute, or `null` when absent (always `null` at depth 0). */
  sandbox: string | null;
  /** The frame element's `allow` attribute, or `null` when absent (always `null` at depth 0). */
  allow: string | null;
  /** The document's origin (`"null"` when opaque), when the host could read it. */
  origin?: string;
}

/** The `value` of an `inspectFrame` answer, read from the host page's DOM. */
export interface FrameInspection {
  /** How many iframes the host page has. */
  total: number;
  /** How many of them carry a `sandbox` attribute. */
  sandboxed: number;
  /** The `sandbox` attribute of the outermost app frame, or `null` when absent. */
  firstSandbox: string | null;
  /** The `allow` attribute of the outermost app frame, or `null` when absent. */
  allow: string | null;
  /**
   * Upstream: whether any frame element between the host page and the View (the View's own included)
   * carries a `sandbox` attribute; sandbox flags are inherited downwards, so any of them confines the View.
   * Present whenever {@linkcode FrameInspection.frames} is.
   */
  viewSandboxed?: boolean;
  /** Upstream: the `sandbox` attribute of the sandboxed frame nearest the View, or `null` when none is. */
  viewSandbox?: string | null;
  /** Upstream: how many frame elements lie between the host page and the View (1: the View's own only). */
  viewChainDepth?: number;
  /** Upstream: which of them is the nearest sandboxed one, 1 being the View's own; `null` when none is. */
  viewSandboxDepth?: number | null;
  /**
   * Additive: every document from the host page (depth 0) down to the View, so a test can judge the frame a
   * rule names (the proxy, or the View's own). Absent from Runners that predate it.
   */
  frames?: FrameLink[];
}

/**
 * Completes an {@linkcode FrameInspection} with the frame chain and upstream's `view*` fields read from it.
 *
 * @example
 * ```ts
 * import { withFrameChain } from "./protocol.ts";
 * const frames = [
 *   { depth: 0, sandbox: null, allow: null },
 *   { depth: 1, sandbox: "allow-scripts", allow: null },
 *   { depth: 2, sandbox: null, allow: null },
 * ];
 * withFrameChain({ total: 1, sandboxed: 1, firstSandbox: "allow-scripts", allow: null }, frames).viewSandboxDepth; // 2
 * ```
 */
export function withFrameChain(inspection: FrameInspection, frames: FrameLink[]): FrameInspection {
  const outward = frames.filter((link) => link.depth > 0).sort((a, b) => b.depth - a.depth);
  const nearest = outward.findIndex((link) => link.sandbox !== null);
  return {
    ...inspection,
    viewSandboxed: nearest >= 0,
    viewSandbox: nearest >= 0 ? outward[nearest]!.sandbox : null,
    viewChainDepth: outward.length,
    viewSandboxDepth: nearest >= 0 ? nearest + 1 : null,
    frames,
  };
}

/** The `value` of a `readConsole` answer, whose `ok` is `matched` (see {@linkcode consoleAnswer}). */
export interface ConsoleMatch {
  /** Whether a line matched. */
  matched: boolean;
  /** The matching line. */
  line?: string;
  /** Where the line was found: the browser console, or the host's own log pane (a YAML host's `log:`). */
  source?: "console" | "log";
}

/** The `value` of a `confirmDialog{dialog: "download"}` answer: what the browser saved. */
export interface DownloadReceipt {
  /** The suggested file name of the download. */
  filename: string;
  /** The file's text, when the Runner read it. */
  content?: string;
}

/** How far the suite has got, for progress lines and the stall guard. */
export interface SuiteProgress {
  /** Tests finished. */
  done: number;
  /** Tests selected. */
  total: number;
}

/** What the Runner sees when it polls (upstream `SuitePoll`; `requestSeq` and `progress` are additive). */
export type SuitePoll =
  | { state: "idle" }
  | {
    state: "running";
    runningId: string;
    request: CapabilityRequest | null;
    /** Numbers each parked request; pass it back to `resolve` so a late answer cannot hit a newer request. */
    requestSeq?: number;
    results: SubtestResult[];
    progress?: SuiteProgress;
  }
  | { state: "done"; results: SubtestResult[] };

/** Which tests `start` runs. `null` (what `frame.evaluate` makes of `undefined`) means every test. */
export interface StartFilter {
  /** Only manual (`true`) or only automatic (`false`) tests. */
  manual?: boolean;
  /** One test id. */
  id?: string;
  /** Additive: several ids, run in catalogue order. */
  ids?: string[];
  /**
   * Local: run the selected tests in an order shuffled by this seed, each phase still after the one before
   * (automatic, manual, last), to show that order does not change a verdict. Absent: catalogue order.
   */
  shuffleSeed?: number;
  /**
   * The run's `--timeout-multiplier`: the suite scales its own deadlines by it (each test's, and the waits
   * inside the tests), as the Runner scales its. Absent, or not a positive number: 1.
   */
  timeoutMultiplier?: number;
}

/** The property the suite installs on the View's `window`. */
export const CHANNEL = "__mcpConformance" as const;

/** The control seam the suite installs at `window.__mcpConformance`; the Runner calls it via `frame.evaluate`. */
export interface InIframeChannel {
  /** The catalogue, in order. */
  listTests(): TestMeta[];
  /** Starts a run; a second call while running is ignored. Accepts `null` (see {@linkcode StartFilter}). */
  start(filter?: StartFilter | null): void;
  /** Where the run is, and any request waiting for the Runner. */
  poll(): SuitePoll;
  /** Answers the pending request. A `seq` that is not the pending request's is ignored. */
  resolve(result: CapabilityResult, seq?: number): void;
}

/** The `data-testid` of the View's trigger button, which `clickTrigger` clicks. */
export const TRIGGER_TEST_ID = "conformance-trigger";

/** The `data-testid` of the View's "back to inline" button, which `resetIsolation` may click. */
export const RESET_INLINE_TEST_ID = "reset-inline";

/** What a failed check means per clause: MUST → FAIL, SHOULD → WARN, MAY → informational. */
export type Severity = "fail" | "warn" | "info";

/** The severity of a clause; a test without a clause counts as a MUST. */
export function severityOf(clause: Clause | undefined): Severity {
  switch (clause) {
    case "SHOULD":
    case "SHOULD NOT":
      return "warn";
    case "MAY":
      return "info";
    default:
      return "fail";
  }
}

/** The run's status names (mirrors `src/outcome.ts` without importing it, so the bundle stays small). */
export type OutcomeStatus = "PASS" | "FAIL" | "WARN" | "INFO" | "SKIP" | "TIMEOUT" | "ERROR";

/**
 * Maps a suite result onto the run's outcome model: a failed SHOULD becomes WARN; a failed MAY becomes INFO
 * (the test ran and saw the host not take the optional behaviour, which is worth showing but breaks nothing;
 * it is not a SKIP, which says the test could not apply); NOTRUN is an ERROR, because the suite stopped
 * before the test (the driver may know better and override it).
 *
 * @example
 * ```ts
 * import { outcomeStatusOf } from "./protocol.ts";
 * outcomeStatusOf({ status: "FAIL", clause: "SHOULD" }); // "WARN"
 * outcomeStatusOf({ status: "FAIL", clause: "MAY" }); // "INFO"
 * ```
 */
export function outcomeStatusOf(result: Pick<SubtestResult, "status" | "clause">): OutcomeStatus {
  switch (result.status) {
    case "PASS":
    case "SKIP":
    case "TIMEOUT":
      return result.status;
    case "NOTRUN":
      return "ERROR";
    case "FAIL": {
      const severity = severityOf(result.clause);
      return severity === "fail" ? "FAIL" : severity === "warn" ? "WARN" : "INFO";
    }
  }
}

/** The run's test id for a suite test id: `apps/<area>/<name>`. */
export function runTestId(suiteId: string): string {
  return suiteId.startsWith("apps/") ? suiteId : `apps/${suiteId}`;
}

/** Whether a test belongs to a render of `launcher`. */
export function runsUnder(meta: Pick<TestMeta, "launcher">, launcher: LauncherName): boolean {
  return (meta.launcher ?? "run_conformance") === launcher;
}

/** Whether `value` looks like a {@linkcode CapabilityResult} (a Runner answer crossing `frame.evaluate`). */
export function isCapabilityResult(value: unknown): value is CapabilityResult {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.ok === "boolean" &&
    (record.error === undefined || typeof record.error === "string") &&
    (record.unsupported === undefined || typeof record.unsupported === "boolean");
}

/** The answer a host gives for a capability it lacks. */
export const UNSUPPORTED: Readonly<CapabilityResult> = Object.freeze({ ok: false, unsupported: true });

declare global {
  var __mcpConformance: InIframeChannel | undefined;
}
