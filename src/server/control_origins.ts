/**
 * The two CSP control origins served on loopback: one the launchers' CSP declares (loads from it must
 * succeed), one it leaves undeclared (loads from it must be blocked). Two listeners on `127.0.0.1` with
 * ports of their own are two origins, so a run needs no network beyond this machine; the public origins
 * ({@linkcode PUBLIC_CONTROLS}) are for a host reached through a tunnel, whose browser cannot see loopback.
 *
 * @module
 */
import { controlFixture, type ControlOrigins } from "../fixtures.ts";
import { listenLoopback, type LoopbackListener } from "./loopback_listener.ts";

/** The control origins while they listen; dispose to stop both. */
export interface LocalControlOrigins extends AsyncDisposable {
  readonly controls: ControlOrigins;
  /** Stops both listeners and waits until they are closed. */
  close(): Promise<void>;
}

/**
 * The response of a control origin to `request` ({@linkcode controlFixture}), readable from any origin.
 *
 * @example
 * ```ts
 * import { controlResponse } from "./control_origins.ts";
 * const response = controlResponse(new Request("http://127.0.0.1:9/ok.txt"));
 * console.log(await response.text()); // "ok"
 * ```
 */
export function controlResponse(request: Request): Response {
  const fixture = controlFixture(new URL(request.url));
  return new Response(fixture.body as BodyInit, {
    status: fixture.status,
    headers: {
      "content-type": fixture.contentType,
      "access-control-allow-origin": "*",
      "cache-control": "no-store",
    },
  });
}

/**
 * Starts the two control origins on free loopback ports.
 *
 * @example
 * ```ts
 * import { startControlOrigins } from "./control_origins.ts";
 * await using origins = await startControlOrigins();
 * console.log(origins.controls.declared); // e.g. http://127.0.0.1:40123
 * ```
 */
export async function startControlOrigins(): Promise<LocalControlOrigins> {
  const started = await Promise.allSettled([
    listenLoopback(controlResponse),
    listenLoopback(controlResponse),
  ]);
  const listeners = started.flatMap((result) => result.status === "fulfilled" ? [result.value] : []);
  const close = async () => {
    await Promise.allSettled(listeners.map((listener) => listener.close()));
  };
  const failed = started.find((result) => result.status === "rejected");
  if (failed !== undefined) {
    await close();
    throw failed.reason;
  }
  const [declared, undeclared] = listeners as [LoopbackListener, LoopbackListener];
  return {
    controls: { declared: declared.origin(), undeclared: undeclared.origin() },
    close,
    [Symbol.asyncDispose]: close,
  };
}
