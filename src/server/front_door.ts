/**
 * The front door of the conformance server: the TCP listener clients connect to, holding every connection to
 * the two deadlines `Deno.serve` does not have (Deno 2.9's `ServeTcpOptions` offer neither a header-read nor
 * an idle timeout, and a connection that sends half its headers is held indefinitely):
 *
 * - a request's head (request line and headers) must arrive whole within {@linkcode HEADER_TIMEOUT_MS} of the
 *   connection opening, and be at most {@linkcode MAX_HEAD_BYTES}; else the client gets 408 (or 431) and the
 *   connection is closed;
 * - a connection on which no byte moves either way for {@linkcode IDLE_TIMEOUT_MS} is closed.
 *
 * A whole head is handed on, with the rest of the connection, to the HTTP server on an internal loopback
 * port. The head is given `Connection: close` (its own `Connection` and `Keep-Alive` lines dropped), so each
 * connection carries one request: the header deadline covers every request, and no kept-alive connection
 * idles between requests. The HTTP server then sees this proxy's socket as the peer; {@linkcode FrontDoor.peerOf}
 * gives back the client's own address, which the remote-aware Host/Origin guard (src/server/request_guard.ts)
 * needs.
 *
 * @module
 */
import { raceDelay } from "../time.ts";

/** How long a connection may take to send its request's whole head. */
export const HEADER_TIMEOUT_MS = 10_000;

/** How long a connection may go without a byte moving either way before it is closed. */
export const IDLE_TIMEOUT_MS = 60_000;

/** The largest request head read (request line and headers). */
export const MAX_HEAD_BYTES = 64 * 1024;

const CHUNK_BYTES = 64 * 1024;
const encoder = new TextEncoder();

/** Where the front door listens and where it hands requests on. */
export interface FrontDoorOptions {
  readonly hostname: string;
  readonly port: number;
  /** The internal HTTP server's port on `127.0.0.1`. */
  readonly backendPort: number;
  /** {@linkcode HEADER_TIMEOUT_MS} by default. */
  readonly headerTimeoutMs?: number;
  /** {@linkcode IDLE_TIMEOUT_MS} by default. */
  readonly idleTimeoutMs?: number;
}

/** A listening front door. */
export interface FrontDoor {
  /** Where it listens. */
  readonly addr: Deno.NetAddr;
  /**
   * The client behind a connection the internal server accepted (its `info.remoteAddr`); an address this door
   * did not open is returned as it is.
   */
  peerOf(remoteAddr: Deno.Addr): Deno.Addr;
  /** Stops listening, closes every connection and waits until each is finished. */
  close(): Promise<void>;
}

/** One client connection and its deadline. */
class Passage {
  readonly client: Deno.TcpConn;
  backend: Deno.TcpConn | null = null;
  /** `head` until the request head is handed on, then `relay`. */
  phase: "head" | "relay" = "head";
  deadline: number;
  #closed = false;

  constructor(client: Deno.TcpConn, headerTimeoutMs: number) {
    this.client = client;
    this.deadline = performance.now() + headerTimeoutMs;
  }

  get closed(): boolean {
    return this.#closed;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const conn of [this.client, this.backend]) {
      try {
        conn?.close();
      } catch {
        // Already closed by its peer.
      }
    }
  }

  /** Answers `status` (the head phase only: nothing has been handed on) and closes. */
  refuse(status: string): void {
    if (this.#closed) return;
    const answer = `HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`;
    // A client that reads nothing cannot hold the close: the answer is one small write, raced with a delay.
    const written = this.client.write(encoder.encode(answer)).catch(() => 0);
    void raceDelay([written], 100).finally(() => this.close());
  }
}

/**
 * Opens the front door on `hostname:port`. Throws as `Deno.listen` does when it cannot bind.
 *
 * @example
 * ```ts ignore
 * import { openFrontDoor } from "./front_door.ts";
 * const door = openFrontDoor({ hostname: "127.0.0.1", port: 0, backendPort: 41234 });
 * console.log(door.addr.port);
 * await door.close();
 * ```
 */
export function openFrontDoor(options: FrontDoorOptions): FrontDoor {
  const headerTimeoutMs = options.headerTimeoutMs ?? HEADER_TIMEOUT_MS;
  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const listener = Deno.listen({ hostname: options.hostname, port: options.port, transport: "tcp" });
  /** The internal server's view of a relayed connection (this door's local port) → the client's address. */
  const peers = new Map<number, Deno.Addr>();
  const passages = new Set<Passage>();
  const handling = new Set<Promise<void>>();
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const passage of passages) {
      if (now < passage.deadline) continue;
      if (passage.phase === "head") passage.refuse("408 Request Timeout");
      else passage.close();
    }
  }, Math.max(20, Math.min(1_000, Math.min(headerTimeoutMs, idleTimeoutMs) / 10)));

  const handle = async (client: Deno.TcpConn) => {
    const passage = new Passage(client, headerTimeoutMs);
    passages.add(passage);
    let backendPort: number | null = null;
    try {
      const head = await readHead(passage);
      if (head === null || passage.closed) return;
      const backend = await Deno.connect({ hostname: "127.0.0.1", port: options.backendPort });
      passage.backend = backend;
      if (passage.closed) return void backend.close();
      backendPort = backend.localAddr.port;
      peers.set(backendPort, client.remoteAddr);
      passage.phase = "relay";
      // An event stream (an MCP server's notifications) may rightly be quiet for minutes: once the answer is one,
      // the idle deadline no longer applies to it.
      let streaming = false;
      const touch = () => passage.deadline = streaming ? Infinity : performance.now() + idleTimeoutMs;
      let answered = false;
      const touchAnswer = (bytes?: Uint8Array) => {
        if (!answered && bytes !== undefined) {
          answered = true;
          streaming = isEventStream(bytes);
        }
        touch();
      };
      touch();
      if (!(await writeAll(backend, head.bytes, touch))) return;
      if (head.rest.length > 0 && !(await writeAll(backend, head.rest, touch))) return;
      // A client that half-closes after its body half-closes the relayed connection too; the answer side
      // ending (the server closes after its one answer) or failing ends the passage.
      const upstream = relay(client, backend, touch);
      await relay(backend, client, touchAnswer);
      passage.close();
      await upstream;
    } catch {
      // A reset or refused connection ends the passage; the client sees its connection close.
    } finally {
      passage.close();
      passages.delete(passage);
      if (backendPort !== null) peers.delete(backendPort);
    }
  };

  const accepting = (async () => {
    try {
      for await (const client of listener) {
        const handled = handle(client);
        handling.add(handled);
        void handled.finally(() => handling.delete(handled));
      }
    } catch {
      // The listener was closed.
    }
  })();

  let closed: Promise<void> | null = null;
  return {
    addr: listener.addr as Deno.NetAddr,
    peerOf: (remoteAddr) =>
      remoteAddr.transport === "tcp" && isLocalIpv4(remoteAddr.hostname)
        ? peers.get(remoteAddr.port) ?? remoteAddr
        : remoteAddr,
    close: () =>
      closed ??= (async () => {
        clearInterval(sweep);
        try {
          listener.close();
        } catch {
          // Already closed.
        }
        await accepting;
        for (const passage of passages) passage.close();
        await Promise.allSettled([...handling]);
      })(),
  };
}

function isLocalIpv4(hostname: string): boolean {
  return hostname === "127.0.0.1";
}

/** A request head, rewritten for one request per connection, and the bytes read after it. */
interface Head {
  readonly bytes: Uint8Array;
  readonly rest: Uint8Array;
}

/** Reads until the head's blank line; `null` when the client closed, timed out or sent too long a head. */
async function readHead(passage: Passage): Promise<Head | null> {
  let buffer = new Uint8Array(0);
  const chunk = new Uint8Array(CHUNK_BYTES);
  for (;;) {
    const read = await passage.client.read(chunk).catch(() => null);
    if (read === null || passage.closed) return null;
    const from = Math.max(0, buffer.length - 3);
    const grown = new Uint8Array(buffer.length + read);
    grown.set(buffer);
    grown.set(chunk.subarray(0, read), buffer.length);
    buffer = grown;
    const end = headEnd(buffer, from);
    if (end === -1) {
      if (buffer.length > MAX_HEAD_BYTES) {
        passage.refuse("431 Request Header Fields Too Large");
        return null;
      }
      continue;
    }
    if (end > MAX_HEAD_BYTES) {
      passage.refuse("431 Request Header Fields Too Large");
      return null;
    }
    return { bytes: oneRequestHead(buffer.subarray(0, end)), rest: buffer.slice(end) };
  }
}

/** The index just past the blank line that ends a head (`\r\n\r\n`, or bare `\n\n`), or -1. */
function headEnd(bytes: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(10, from); at >= 0; at = bytes.indexOf(10, at + 1)) {
    if (bytes[at + 1] === 10) return at + 2;
    if (bytes[at + 1] === 13 && bytes[at + 2] === 10) return at + 3;
  }
  return -1;
}

const DROPPED_HEADERS = ["connection", "keep-alive"];

/** The head without its `Connection`/`Keep-Alive` lines and with `Connection: close` before the blank line. */
function oneRequestHead(head: Uint8Array): Uint8Array {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let at = head.indexOf(10); at >= 0; at = head.indexOf(10, start)) {
    lines.push(head.subarray(start, at + 1));
    start = at + 1;
  }
  const blank = lines.pop()!;
  const kept = lines.filter((line, index) => index === 0 || !DROPPED_HEADERS.includes(headerName(line)));
  kept.push(encoder.encode("Connection: close\r\n"), blank);
  const out = new Uint8Array(kept.reduce((sum, line) => sum + line.length, 0));
  let offset = 0;
  for (const line of kept) {
    out.set(line, offset);
    offset += line.length;
  }
  return out;
}

/** A header line's name, lower-cased (ASCII), or `""`. */
function headerName(line: Uint8Array): string {
  const colon = line.indexOf(58);
  if (colon <= 0 || colon > 64) return "";
  return String.fromCharCode(...line.subarray(0, colon)).trim().toLowerCase();
}

/** Writes all of `bytes`; false when the connection failed. */
async function writeAll(conn: Deno.Conn, bytes: Uint8Array, touch: () => void): Promise<boolean> {
  try {
    for (let offset = 0; offset < bytes.length;) {
      offset += await conn.write(bytes.subarray(offset));
      touch();
    }
    return true;
  } catch {
    return false;
  }
}

/** Copies `from` to `to` until `from` ends (then half-closes `to`, as `from`'s peer did) or either fails. */
async function relay(from: Deno.Conn, to: Deno.Conn, touch: (bytes?: Uint8Array) => void): Promise<void> {
  const chunk = new Uint8Array(CHUNK_BYTES);
  for (;;) {
    const read = await from.read(chunk).catch(() => null);
    if (read === null) return void await to.closeWrite().catch(() => {});
    touch(chunk.subarray(0, read));
    if (!(await writeAll(to, chunk.subarray(0, read), touch))) return;
  }
}

/** Whether an answer's first bytes are the head of an event stream (`Content-Type: text/event-stream`). */
function isEventStream(bytes: Uint8Array): boolean {
  const text = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 8 * 1024)));
  const head = text.split("\r\n\r\n", 1)[0] ?? "";
  return /^content-type:[ \t]*text\/event-stream/im.test(head);
}
