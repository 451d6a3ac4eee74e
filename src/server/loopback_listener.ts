/**
 * One HTTP listener on a free `127.0.0.1` port, in this process: what the CSP control origins and the web
 * hosts' host pages and sandbox proxies each serve from.
 *
 * @module
 */

/** A listening loopback server; dispose it (or `close()`) to stop it. */
export interface LoopbackListener extends AsyncDisposable {
  /** The port it listens on. */
  readonly port: number;
  /**
   * Its origin under `hostname`: `127.0.0.1` by default; `localhost` names the same listener as another
   * origin and site (a sandbox proxy's).
   */
  origin(hostname?: string): string;
  /** Stops listening and waits until the server is finished. */
  close(): Promise<void>;
}

/**
 * Serves `handler` on a free `127.0.0.1` port; resolves once it listens, rejects when it cannot bind.
 *
 * @param handler Answers each request.
 * @returns The listener.
 * @example
 * ```ts
 * import { listenLoopback } from "./loopback_listener.ts";
 * await using listener = await listenLoopback(() => new Response("ok"));
 * console.log(await (await fetch(listener.origin())).text()); // "ok"
 * ```
 */
export function listenLoopback(
  handler: (request: Request) => Response | Promise<Response>,
): Promise<LoopbackListener> {
  const abort = new AbortController();
  const { promise, resolve, reject } = Promise.withResolvers<LoopbackListener>();
  try {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      signal: abort.signal,
      onListen: ({ port }) => {
        const close = async () => {
          abort.abort();
          await server.finished;
        };
        resolve({
          port,
          origin: (hostname = "127.0.0.1") => `http://${hostname}:${port}`,
          close,
          [Symbol.asyncDispose]: close,
        });
      },
    }, handler);
  } catch (error) {
    reject(error);
  }
  return promise;
}
