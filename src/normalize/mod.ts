/**
 * Normaliser lookup: dialect id → {@linkcode NormalizerFactory}. A host runner names its dialect; the
 * executor's callers get the factory here. Adding a dialect is one file `src/normalize/<dialect>.ts` and one
 * line in {@linkcode NORMALIZERS}.
 *
 * @module
 */
import { claudeNormalizer } from "./claude.ts";
import { codexNormalizer } from "./codex.ts";
import { geminiNormalizer } from "./gemini.ts";
import { kimiNormalizer } from "./kimi.ts";
import { opencodeNormalizer } from "./opencode.ts";
import { piNormalizer } from "./pi.ts";
import { qwenNormalizer } from "./qwen.ts";
import type { NormalizerFactory } from "./events.ts";

/** Every built-in dialect. */
export const NORMALIZERS: Readonly<Record<string, NormalizerFactory>> = {
  claude: claudeNormalizer,
  codex: codexNormalizer,
  gemini: geminiNormalizer,
  opencode: opencodeNormalizer,
  pi: piNormalizer,
  kimi: kimiNormalizer,
  qwen: qwenNormalizer,
};

/**
 * The normaliser factory of a dialect. Throws `RangeError` for an unknown dialect.
 *
 * @example
 * ```ts
 * import { normalizerFor } from "./mod.ts";
 * const normalizer = normalizerFor("claude")({ argv: [] });
 * ```
 */
export function normalizerFor(dialect: string): NormalizerFactory {
  const factory = Object.hasOwn(NORMALIZERS, dialect) ? NORMALIZERS[dialect] : undefined;
  if (!factory) {
    throw new RangeError(
      `Unknown normaliser dialect "${dialect}": use one of ${Object.keys(NORMALIZERS).join(", ")}`,
    );
  }
  return factory;
}
