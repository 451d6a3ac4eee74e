/**
 * Free loopback ports for a test that names them in a YAML host's `server:`, as a user would.
 *
 * @module
 */

/**
 * Two distinct free ports below the kernel's ephemeral range (Linux: 32768 and up), as a user would name them:
 * a port the kernel handed out and took back could be handed out again to the first server's internal listener
 * (src/server/front_door.ts binds one on port 0) before the second server binds it.
 *
 * @returns Two ports, each free when picked.
 * @example
 * ```ts
 * const [main, second] = freePorts();
 * console.assert(main !== second && main < 32_768);
 * ```
 */
export function freePorts(): [number, number] {
  const ports: number[] = [];
  while (ports.length < 2) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    try {
      Deno.listen({ hostname: "127.0.0.1", port }).close();
      if (!ports.includes(port)) ports.push(port);
    } catch {
      // Taken: try another.
    }
  }
  return [ports[0]!, ports[1]!];
}
