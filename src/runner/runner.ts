/**
 * The Runner: the poll → dispatch → resolve loop between the in-iframe suite and a {@linkcode Host}. The suite
 * parks at most one capability request at a time; the Runner sees it in a poll, services it against the host
 * under a per-request deadline, and answers it with the request's sequence number, so a late answer can never
 * land on a newer request. A stall guard ends the run when the suite stops making progress.
 *
 * @module
 */
import {
  CAPABILITY_KINDS,
  type CapabilityRequest,
  type CapabilityResult,
  dialogKindOf,
  type StartFilter,
  type SubtestResult,
  type SuitePoll,
  UNSUPPORTED,
} from "../protocol.ts";
import type { CapabilityContext, Host, PollMark, SuiteBridge } from "./host.ts";
import { pollProblem } from "./poll_check.ts";
import { untilAborted } from "./abort.ts";
import { APPS_DEADLINES } from "./deadlines.ts";
import { delay, scaled } from "../time.ts";

/** Timing and reporting of one {@linkcode Runner}. */
export interface RunnerOptions {
  /** Between polls; 50–100 ms locally, ~800 ms on real hosts. */
  readonly pollIntervalMs?: number;
  /** The run ends when nothing changes for this long (upstream: 5 minutes). */
  readonly stallMs?: number;
  /** Deadline of a request that names none (`readConsole`/`conversationContains` carry their own). */
  readonly requestTimeoutMs?: number;
  /** Scales every deadline (`--timeout-multiplier`). */
  readonly timeoutMultiplier?: number;
  /** Ends the run promptly when aborted. */
  readonly signal?: AbortSignal;
  /** Called when the suite moves on to another test. */
  readonly onTestStart?: (id: string) => void;
  /** Called once per new result, as soon as the suite reports it; the loop waits for it (evidence capture). */
  readonly onResult?: (result: SubtestResult) => void | Promise<void>;
  /** Called before each request is serviced (for progress lines and tracing). */
  readonly onRequest?: (request: CapabilityRequest, runningId: string) => void;
}

/** Why a suite run ended early. */
export class SuiteRunInterrupted extends Error {
  /** The results reported before the interruption. */
  readonly results: SubtestResult[];
  /** The test that was running, if any. */
  readonly runningId: string | null;

  /** Builds the error from its reason and what was collected. */
  constructor(message: string, results: SubtestResult[], runningId: string | null) {
    super(message);
    this.name = "SuiteRunInterrupted";
    this.results = results;
    this.runningId = runningId;
  }
}

/**
 * Drives one suite run against one host.
 *
 * @example
 * ```ts ignore
 * const runner = new Runner(host, { pollIntervalMs: 50 });
 * const results = await runner.run(await host.launch("run_conformance"), null);
 * ```
 */
export class Runner {
  readonly #host: Host;
  readonly #pollIntervalMs: number;
  readonly #stallMs: number;
  readonly #requestTimeoutMs: number;
  readonly #multiplier: number;
  readonly #signal: AbortSignal | undefined;
  readonly #onResult: ((result: SubtestResult) => void | Promise<void>) | undefined;
  readonly #onTestStart: ((id: string) => void) | undefined;
  readonly #onRequest: ((request: CapabilityRequest, runningId: string) => void) | undefined;

  /** A Runner for `host`; see {@linkcode RunnerOptions} for the defaults. */
  constructor(host: Host, options: RunnerOptions = {}) {
    this.#host = host;
    this.#pollIntervalMs = options.pollIntervalMs ?? APPS_DEADLINES.pollIntervalMs;
    this.#multiplier = options.timeoutMultiplier ?? 1;
    this.#stallMs = scaled(options.stallMs ?? APPS_DEADLINES.stallMs, this.#multiplier);
    this.#requestTimeoutMs = scaled(
      options.requestTimeoutMs ?? APPS_DEADLINES.requestTimeoutMs,
      this.#multiplier,
    );
    this.#signal = options.signal;
    this.#onResult = options.onResult;
    this.#onTestStart = options.onTestStart;
    this.#onRequest = options.onRequest;
  }

  /**
   * Starts the suite with `filter` and services it until it reports `done`. Throws
   * {@linkcode SuiteRunInterrupted} (with the partial results) on a stall, an abort, or a View that vanished.
   */
  async run(bridge: SuiteBridge, filter: StartFilter | null): Promise<SubtestResult[]> {
    // The abort ends the run at once, whatever the page is doing (an evaluate in a stuck page, a request
    // being serviced, evidence being captured): the loop is left to stop on its own.
    const progress: Progress = { results: [], runningId: null };
    const aborted = () =>
      new SuiteRunInterrupted("The run was aborted", progress.results, progress.runningId);
    await untilAborted(bridge.start(this.#startMessage(filter)), this.#signal, aborted);
    // A second, independent poll loop for the whole run, so the suite keeps seeing a Runner while this loop
    // services a request or records a result (a suite that sees no polls for a while may answer its own
    // requests, as for a person running it by hand).
    const heartbeat = keepPolling(bridge, HEARTBEAT_MS);
    try {
      return await untilAborted(this.#serve(bridge, progress), this.#signal, aborted);
    } finally {
      // After an abort the heartbeat's poll may hang in a stuck page: it is stopped, not waited for.
      const stopped = heartbeat.stop();
      if (!this.#signal?.aborted) await stopped;
    }
  }

  /** The start message: the filter, and the timeout multiplier for the suite's own deadlines (when not 1). */
  #startMessage(filter: StartFilter | null): StartFilter | null {
    return this.#multiplier === 1 ? filter : { ...filter, timeoutMultiplier: this.#multiplier };
  }

  async #serve(bridge: SuiteBridge, progress: Progress): Promise<SubtestResult[]> {
    let seen = 0;
    let lastChange = Date.now();
    let progressKey = "";
    let answeredSeq: number | null = null;
    let results: SubtestResult[] = [];
    let runningId: string | null = null;
    // The tests during which the harness itself failed to service a request (a driver threw): their verdict
    // rests on that failure, so anything but a PASS is the harness's ERROR, not the host's FAIL or WARN.
    const harnessFailures = new Map<string, string>();
    // Once the suite runs, a bridge that can wait for a change inside the View is asked to, instead of
    // sleeping between polls: each request and result is seen as soon as it appears.
    let mark: PollMark | null = null;
    while (true) {
      if (this.#signal?.aborted) throw new SuiteRunInterrupted("The run was aborted", results, runningId);
      let poll: SuitePoll;
      try {
        poll = mark !== null && bridge.pollChange
          ? await bridge.pollChange(mark, LONG_POLL_MS)
          : await bridge.poll();
      } catch (error) {
        throw new SuiteRunInterrupted(`The View stopped answering: ${messageOf(error)}`, results, runningId);
      }
      const problem = pollProblem(poll);
      if (problem !== null) {
        throw new SuiteRunInterrupted(`The View answered poll() with ${problem}`, results, runningId);
      }
      if (poll.state !== "idle") {
        results = poll.results.map((result) => blamedOnHarness(result, harnessFailures));
        progress.results = results;
        for (; seen < results.length; seen++) await this.#onResult?.(results[seen]!);
      }
      if (poll.state === "done") return results;
      mark = poll.state === "running" ? pollMark(poll) : null;
      if (poll.state === "running") {
        if (poll.runningId !== runningId && poll.runningId !== "") this.#onTestStart?.(poll.runningId);
        runningId = poll.runningId;
        progress.runningId = runningId;
        const key = `${poll.runningId}:${poll.results.length}:${poll.requestSeq ?? ""}:${
          poll.request?.kind ?? ""
        }`;
        if (key !== progressKey) {
          progressKey = key;
          lastChange = Date.now();
        }
        const seq = poll.requestSeq ?? null;
        const fresh = poll.request !== null && (seq === null || seq !== answeredSeq);
        if (fresh && poll.request !== null) {
          this.#onRequest?.(poll.request, poll.runningId);
          const { answer, harnessError } = await this.#service(poll.request);
          if (harnessError !== undefined && !harnessFailures.has(poll.runningId)) {
            harnessFailures.set(poll.runningId, `"${poll.request.kind}": ${harnessError}`);
          }
          answeredSeq = seq;
          lastChange = Date.now();
          try {
            await (seq === null ? bridge.resolve(answer) : bridge.resolve(answer, seq));
          } catch (error) {
            if (!bridge.isDetached()) throw error;
          }
          continue;
        }
      }
      if (Date.now() - lastChange > this.#stallMs) {
        throw new SuiteRunInterrupted(
          `The suite made no progress for ${Math.round(this.#stallMs / 1000)} s (stall guard)`,
          results,
          runningId,
        );
      }
      if (mark === null || !bridge.pollChange) await delay(this.#pollIntervalMs, this.#signal);
    }
  }

  /**
   * Services one request against the host: a kind this protocol does not know, or one the host lacks →
   * unsupported (never a thrown error, and never a host method that is not a capability); a dialog kind
   * known by its older upstream name → the current one (`open-link` → `link`), an unknown one → unsupported;
   * deadline → an error answer.
   */
  async dispatch(request: CapabilityRequest): Promise<CapabilityResult> {
    return (await this.#service(request)).answer;
  }

  /**
   * {@linkcode dispatch}, saying besides the answer whether the harness failed: the host's driver threw (a
   * selector that no longer matches, a page call that failed). A deadline is not counted: the driver may be
   * waiting on the host.
   */
  async #service(received: CapabilityRequest): Promise<{ answer: CapabilityResult; harnessError?: string }> {
    const request = knownRequest(received);
    if (request === null) return { answer: { ...UNSUPPORTED } };
    const method = this.#host[request.kind] as
      | ((request: CapabilityRequest, context: CapabilityContext) => Promise<CapabilityResult>)
      | undefined;
    if (typeof method !== "function") return { answer: { ...UNSUPPORTED } };
    const own = "timeoutMs" in request ? scaled(request.timeoutMs, this.#multiplier) : 0;
    // A request with its own deadline gets it plus a grace period for the host's round trips.
    const timeoutMs = own > 0
      ? Math.max(own + scaled(APPS_DEADLINES.requestGraceMs, this.#multiplier), this.#requestTimeoutMs)
      : this.#requestTimeoutMs;
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const signal = this.#signal ? AbortSignal.any([deadline.signal, this.#signal]) : deadline.signal;
    const { promise: expired, reject } = Promise.withResolvers<never>();
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    expired.catch(() => {});
    try {
      return {
        answer: await Promise.race([
          method.call(this.#host, request, { signal, timeoutMs: own || timeoutMs }),
          expired,
        ]),
      };
    } catch (error) {
      const answer = { ok: false, error: `Host could not do "${request.kind}": ${messageOf(error)}` };
      return signal.aborted ? { answer } : { answer, harnessError: messageOf(error) };
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * `request` as a host may see it, or `null` when it names a kind (or a `confirmDialog` a dialog) this protocol
 * does not know: a request from another suite crossed `frame.evaluate` unchecked.
 */
function knownRequest(request: unknown): CapabilityRequest | null {
  if (typeof request !== "object" || request === null) return null;
  const kind = (request as { kind?: unknown }).kind;
  if (typeof kind !== "string" || !(CAPABILITY_KINDS as readonly string[]).includes(kind)) return null;
  const known = request as CapabilityRequest;
  if (known.kind !== "confirmDialog") return known;
  const dialog = dialogKindOf(known.dialog);
  return dialog === null ? null : { ...known, dialog };
}

/** What a run has seen so far, for the {@linkcode SuiteRunInterrupted} of an abort. */
interface Progress {
  results: SubtestResult[];
  runningId: string | null;
}

/** The longest one `pollChange` waits inside the View (the stall guard and an abort are checked between). */
const LONG_POLL_MS = APPS_DEADLINES.longPollMs;

/** What the Runner last saw of a running suite. */
function pollMark(poll: Extract<SuitePoll, { state: "running" }>): PollMark {
  const request = poll.request === null ? "" : `${poll.requestSeq ?? ""}:${poll.request.kind}`;
  return { results: poll.results.length, runningId: poll.runningId, request };
}

/** Between the heartbeat polls that show the suite a Runner is attached. */
const HEARTBEAT_MS = APPS_DEADLINES.heartbeatMs;

function keepPolling(bridge: SuiteBridge, intervalMs: number): { stop(): Promise<void> } {
  const stopped = new AbortController();
  const loop = (async () => {
    while (!stopped.signal.aborted) {
      await delay(intervalMs, stopped.signal);
      if (stopped.signal.aborted || bridge.isDetached()) return;
      await bridge.poll().catch(() => {});
    }
  })();
  return {
    stop: async () => {
      stopped.abort();
      await loop;
    },
  };
}

/**
 * `result` as the run must report it: a test that did not PASS after the harness failed to service one of its
 * requests is not testable (NOTRUN, the run's ERROR), naming the failure and the verdict it would have had.
 */
function blamedOnHarness(result: SubtestResult, failures: ReadonlyMap<string, string>): SubtestResult {
  const failure = failures.get(result.id);
  if (failure === undefined || result.status === "PASS" || result.status === "NOTRUN") return result;
  return {
    ...result,
    status: "NOTRUN",
    message: `Not testable: the harness failed while servicing ${failure} (the test said ${result.status}` +
      `${result.message ? `: ${result.message}` : ""})`,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
