/**
 * One ACP test's agent: a sandbox (temporary HOME, a git repository `work/` as the session's cwd), the mock
 * model when the host has a model, and the agent spawned over ACP in the sandbox's HOME, a folder other than
 * the session's cwd, so a `cwd` the agent ignores shows. Disposing it ends the agent's group, proves it gone,
 * and stops the mock model and removes the sandbox.
 *
 * @module
 */
import { AcpConnection, type JsonRpcMessage, type TranscriptEntry } from "../../src/acp/connection.ts";
import { type HostInvocation, type HostRunner, NO_CAPABILITIES } from "../../src/exec/host_runner.ts";
import { type MockFault, startMockModel } from "../../src/mock_model/server.ts";
import { type ModelScript, type ScriptedRequest, startScriptedModel } from "../../src/mock_model/script.ts";
import { createSandbox, type Sandbox, sandboxEnv } from "../../src/mock_model/sandbox.ts";
import { dirname, join } from "node:path";

/** The protocol version the client asks for: v1 (v2 is a draft). */
export const CLIENT_PROTOCOL_VERSION = 1;

/** What the client advertises: no `fs` and no `terminal` unless told. */
export interface ClientCapabilities {
  readonly fs: { readonly readTextFile: boolean; readonly writeTextFile: boolean };
  readonly terminal: boolean;
}

/** A client that advertises no `fs` and no `terminal`. */
export const NO_CLIENT_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: false, writeTextFile: false },
  terminal: false,
};

/** The `initialize` params of a client that advertises `capabilities` (none by default). */
export function initializeParams(
  protocolVersion: number = CLIENT_PROTOCOL_VERSION,
  capabilities: ClientCapabilities = NO_CLIENT_CAPABILITIES,
): Record<string, unknown> {
  return {
    protocolVersion,
    clientCapabilities: capabilities,
    clientInfo: { name: "conformance", title: "conformance harness", version: "0.1.0" },
  };
}

/** The model an ACP run's agent talks to (the plain or the scripted mock model). */
export interface AcpModel {
  readonly url: string;
  /** Every request a scripted model served, with the conversation it carried (the plain mock keeps none). */
  readonly journal?: () => readonly ScriptedRequest[];
  stop(): Promise<void>;
}

/** What model the agent gets: the plain mock (`OK`), a slow one, one with a fault, or a script. */
export interface AcpModelOptions {
  /** Streams a long reply slowly, so a cancel lands mid-turn. */
  readonly slow?: boolean;
  /** Every model request answers with this fault. */
  readonly fault?: MockFault;
  /** A scripted model (tool calls), its script written for the run's sandbox. */
  readonly script?: (sandbox: Sandbox) => ModelScript;
}

/** A running ACP agent in its sandbox. */
export interface AcpRun extends AsyncDisposable {
  /** The host it runs. */
  readonly runner: HostRunner;
  /** The current agent process (a new one after {@linkcode respawn}). */
  readonly connection: AcpConnection;
  readonly sandbox: Sandbox;
  readonly mock: AcpModel | null;
  /** Scales every wait of the test (`--timeout-multiplier`). */
  readonly k: number;
  /** Sends `initialize` (v1 unless told) and waits for its answer. */
  initialize(
    protocolVersion?: number,
    capabilities?: ClientCapabilities,
  ): Promise<JsonRpcMessage | "timeout" | "exited">;
  /** Opens a session with the sandbox's `work/` as cwd; its id, or why there is none. */
  newSession(): Promise<{ sessionId: string } | { problem: string; response: unknown }>;
  /**
   * Ends the agent (its stdin closed, then its group ended and proven gone) and starts it again in the same
   * sandbox and against the same model, as a client does that comes back to a session later. Resolves
   * `false` when the old group could not be proven gone.
   */
  respawn(): Promise<boolean>;
}

/** How long an agent may take to answer `initialize` (a Node CLI on a loaded machine), before the multiplier. */
export const INITIALIZE_MS = 60_000;
/** How long one request may take to be answered, before the multiplier. */
export const REQUEST_MS = 30_000;
/** How long a cancelled turn may take to answer, and a short request to be answered, before the multiplier. */
export const CANCEL_MS = 10_000;
/** How long a text turn against the mock model may take, before the multiplier. */
export const PROMPT_MS = 90_000;

/**
 * Starts the host's agent in a fresh sandbox, pointed at the mock model when it has one (`slowModel`: one that
 * streams for half a minute). Throws `TypeError` when the host declares no ACP launch.
 */
export async function startAcpRun(
  runner: HostRunner,
  options: { readonly k: number; readonly signal: AbortSignal; readonly model?: AcpModelOptions },
): Promise<AcpRun> {
  const launch = runner.acp;
  if (!launch) throw new TypeError(`Host "${runner.name}" has no ACP launch`);
  const sandbox = await createSandbox();
  let mock: AcpModel | null = null;
  try {
    let modelEnv: Record<string, string> = {};
    let model: string | undefined;
    if (runner.mockModel) {
      const wanted = options.model ?? {};
      mock = wanted.script ? await startScriptedModel(wanted.script(sandbox)) : await startMockModel({
        ...(wanted.slow ? { slow: true } : {}),
        ...(wanted.fault ? { fault: wanted.fault } : {}),
      });
      const setup = runner.mockModel({ url: mock.url, home: sandbox.home });
      for (const [relative, content] of Object.entries(setup.files)) {
        const path = join(sandbox.home, relative);
        await Deno.mkdir(dirname(path), { recursive: true });
        await Deno.writeTextFile(path, content);
      }
      modelEnv = { ...setup.env };
      model = setup.model;
    }
    const command = launch.command(model);
    const invocation: HostInvocation = {
      binary: command.binary,
      args: command.args,
      env: { ...launch.env, ...sandboxEnv(sandbox), ...modelEnv },
      envAllow: [],
      capabilities: NO_CAPABILITIES,
      cleanupPaths: [],
      cwd: sandbox.home,
    };
    let connection = AcpConnection.spawn(invocation);
    const onAbort = () => void connection.stop(200);
    options.signal.addEventListener("abort", onAbort, { once: true });
    const k = options.k;
    const dispose = async () => {
      options.signal.removeEventListener("abort", onAbort);
      await connection[Symbol.asyncDispose]();
      await mock?.stop();
      await sandbox.dispose();
    };
    return {
      get connection() {
        return connection;
      },
      runner,
      sandbox,
      mock,
      k,
      async respawn() {
        await connection.closeStdin();
        await connection.waitExit(5_000 * k);
        const gone = await connection.stop();
        await connection[Symbol.asyncDispose]();
        connection = AcpConnection.spawn(invocation);
        return gone;
      },
      async initialize(protocolVersion, capabilities) {
        const { response } = await connection.request(
          "initialize",
          initializeParams(protocolVersion, capabilities),
          INITIALIZE_MS * k,
        );
        return response;
      },
      async newSession() {
        const { response } = await connection.request(
          "session/new",
          { cwd: sandbox.work, mcpServers: [] },
          REQUEST_MS * k,
        );
        if (typeof response === "string") return { problem: `session/new: ${response}`, response };
        const id = (response.result as { sessionId?: unknown } | undefined)?.sessionId;
        if (typeof id !== "string" || id === "") {
          return { problem: "session/new answered without a string sessionId", response };
        }
        return { sessionId: id };
      },
      [Symbol.asyncDispose]: dispose,
    };
  } catch (error) {
    await mock?.stop();
    await sandbox.dispose();
    throw error;
  }
}

/** The last entries of a transcript, for a FAIL's details (raw lines cut to 300 characters). */
export function transcriptTail(entries: readonly TranscriptEntry[], count = 30): unknown[] {
  return entries.slice(-count).map((entry) => ({
    dir: entry.dir,
    at: entry.at,
    raw: entry.raw.length > 300 ? `${entry.raw.slice(0, 300)}…` : entry.raw,
  }));
}

/** `session/update` notifications received for `sessionId`, with their transcript index. */
export function updatesOf(entries: readonly TranscriptEntry[], sessionId: string): number[] {
  return entries.flatMap((entry, index) =>
    entry.dir === "recv" && entry.message?.method === "session/update" &&
      (entry.message.params as { sessionId?: unknown } | undefined)?.sessionId === sessionId
      ? [index]
      : []
  );
}

/** Transcript indexes of the responses with `id`. */
export function responsesTo(entries: readonly TranscriptEntry[], id: unknown): number[] {
  return entries.flatMap((entry, index) =>
    entry.dir === "recv" && entry.message !== null && entry.message.method === undefined &&
      entry.message.id === id
      ? [index]
      : []
  );
}

/** The `sessionUpdate` kind of a `session/update` entry. */
export function updateKind(entry: TranscriptEntry): string {
  const update = (entry.message?.params as { update?: { sessionUpdate?: unknown } } | undefined)?.update;
  return typeof update?.sessionUpdate === "string" ? update.sessionUpdate : "?";
}
