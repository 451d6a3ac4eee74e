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
import { type MockModel, startMockModel } from "../../src/mock_model/server.ts";
import { createSandbox, type Sandbox, sandboxEnv } from "../../src/mock_model/sandbox.ts";
import { dirname, join } from "node:path";

/** The protocol version the client asks for: v1 (v2 is a draft). */
export const CLIENT_PROTOCOL_VERSION = 1;

/** The `initialize` params of a client that advertises no `fs` and no `terminal`. */
export function initializeParams(protocolVersion: number = CLIENT_PROTOCOL_VERSION): Record<string, unknown> {
  return {
    protocolVersion,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "conformance", title: "conformance harness", version: "0.1.0" },
  };
}

/** A running ACP agent in its sandbox. */
export interface AcpRun extends AsyncDisposable {
  readonly connection: AcpConnection;
  readonly sandbox: Sandbox;
  readonly mock: MockModel | null;
  /** Scales every wait of the test (`--timeout-multiplier`). */
  readonly k: number;
  /** Sends `initialize` (v1 unless told) and waits for its answer. */
  initialize(protocolVersion?: number): Promise<JsonRpcMessage | "timeout" | "exited">;
  /** Opens a session with the sandbox's `work/` as cwd; its id, or why there is none. */
  newSession(): Promise<{ sessionId: string } | { problem: string; response: unknown }>;
}

/** How long an agent may take to answer `initialize` (a Node CLI on a loaded machine), before the multiplier. */
export const INITIALIZE_MS = 60_000;
/** How long one request may take to be answered, before the multiplier. */
export const REQUEST_MS = 30_000;
/** How long a text turn against the mock model may take, before the multiplier. */
export const PROMPT_MS = 90_000;

/**
 * Starts the host's agent in a fresh sandbox, pointed at the mock model when it has one (`slowModel`: one that
 * streams for half a minute). Throws `TypeError` when the host declares no ACP launch.
 */
export async function startAcpRun(
  runner: HostRunner,
  options: { readonly k: number; readonly signal: AbortSignal; readonly slowModel?: boolean },
): Promise<AcpRun> {
  const launch = runner.acp;
  if (!launch) throw new TypeError(`Host "${runner.name}" has no ACP launch`);
  const sandbox = await createSandbox();
  let mock: MockModel | null = null;
  try {
    let modelEnv: Record<string, string> = {};
    let model: string | undefined;
    if (runner.mockModel) {
      mock = await startMockModel(options.slowModel ? { slow: true } : {});
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
    const connection = AcpConnection.spawn(invocation);
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
      connection,
      sandbox,
      mock,
      k,
      async initialize(protocolVersion) {
        const { response } = await connection.request(
          "initialize",
          initializeParams(protocolVersion),
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
