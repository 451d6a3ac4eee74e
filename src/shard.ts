/**
 * Sharding: `--shard I/N` runs a deterministic 1/N of the (host, test) pairs. Every pair lands in exactly one
 * shard, so the union of all N shard reports is the unsharded result set.
 *
 * @module
 */
import { UsageError } from "./errors.ts";

/** One shard of N, 1-based. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** The whole run as one shard. */
export const WHOLE: Shard = Object.freeze({ index: 1, count: 1 });

/**
 * Parses `I/N` (1 ≤ I ≤ N).
 *
 * @example
 * ```ts
 * import { parseShard } from "./shard.ts";
 * parseShard("2/3"); // { index: 2, count: 3 }
 * ```
 */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) {
    throw new UsageError(`Invalid --shard "${text}": expected I/N with whole numbers, e.g. --shard 1/4`);
  }
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > 10_000) {
    throw new UsageError(`Invalid --shard "${text}": N must be between 1 and 10000`);
  }
  if (index < 1 || index > count) {
    throw new UsageError(`Invalid --shard "${text}": I must be between 1 and ${count}`);
  }
  return { index, count };
}

/** `I/N` for reports. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** FNV-1a, 32 bit: stable across runs, platforms and orderings. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * Whether the (host, test) pair belongs to the shard. Assignment hashes the pair, so it does not depend on
 * which other hosts or tests are in the run: the same pair always lands in the same shard.
 */
export function inShard(shard: Shard, host: string, test: string): boolean {
  if (shard.count === 1) return true;
  return hash(`${host}\u0000${test}`) % shard.count === shard.index - 1;
}
