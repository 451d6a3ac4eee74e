/**
 * Dialect lookup: dialect id → its {@linkcode NormalizerFactory} and its blocking-JSON reader. A host runner
 * names its dialect; the executor's callers get the factory here. Adding a dialect is one file
 * `src/normalize/<dialect>.ts` (its normaliser, and its blocking-JSON reader when the document is not claude's
 * `result` object) and one line in `BUILT_IN`, then `deno task permissions`, which writes the fake host's
 * dialect list (fake_host/dialect_names.ts); the fake host must then speak it (fake_host/dialects.ts does not
 * type-check until it does).
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
import { copilotNormalizer } from "./copilot.ts";
import { clineNormalizer } from "./cline.ts";
import { readGeminiBlocking } from "./gemini.ts";
import { readQwenBlocking } from "./qwen.ts";
import { droidNormalizer, readDroidBlocking } from "./droid.ts";
import { continueNormalizer, readContinueBlocking } from "./continue.ts";
import { grokNormalizer } from "./grok.ts";
import type { NormalizerFactory } from "./events.ts";
import {
  type BlockingReader,
  type BlockingResult,
  readBlockingJson,
  readResultObject,
} from "./blocking_json.ts";

/** One wire dialect: how its stream is normalised and how its blocking document is read. */
export interface Dialect {
  readonly normalizer: NormalizerFactory;
  readonly blockingJson: BlockingReader;
}

const BUILT_IN = {
  claude: { normalizer: claudeNormalizer, blockingJson: readResultObject },
  codex: { normalizer: codexNormalizer, blockingJson: readResultObject },
  gemini: { normalizer: geminiNormalizer, blockingJson: readGeminiBlocking },
  opencode: { normalizer: opencodeNormalizer, blockingJson: readResultObject },
  pi: { normalizer: piNormalizer, blockingJson: readResultObject },
  kimi: { normalizer: kimiNormalizer, blockingJson: readResultObject },
  qwen: { normalizer: qwenNormalizer, blockingJson: readQwenBlocking },
  copilot: { normalizer: copilotNormalizer, blockingJson: readResultObject },
  cline: { normalizer: clineNormalizer, blockingJson: readResultObject },
  droid: { normalizer: droidNormalizer, blockingJson: readDroidBlocking },
  continue: { normalizer: continueNormalizer, blockingJson: readContinueBlocking },
  grok: { normalizer: grokNormalizer, blockingJson: readResultObject },
} as const satisfies Record<string, Dialect>;

/** The name of a built-in dialect. */
export type DialectName = keyof typeof BUILT_IN;

/** Every built-in dialect. */
export const DIALECTS: Readonly<Record<string, Dialect>> = BUILT_IN;

/** Every built-in dialect's normaliser factory. */
export const NORMALIZERS: Readonly<Record<string, NormalizerFactory>> = Object.fromEntries(
  Object.entries(BUILT_IN).map(([name, dialect]) => [name, dialect.normalizer]),
);

/**
 * Reads a blocking call's stdout in `dialect`'s shape (claude's `result` object for a dialect without its
 * own). Throws `SyntaxError` when stdout is not one JSON document of that shape, quoting what was printed.
 *
 * @example
 * ```ts
 * import { parseBlockingJson } from "./mod.ts";
 * parseBlockingJson("claude", '{"type":"result","is_error":false,"result":"OK"}');
 * // { status: "success", result: "OK" }
 * ```
 */
export function parseBlockingJson(dialect: string, stdout: string): BlockingResult {
  const reader = Object.hasOwn(DIALECTS, dialect) ? DIALECTS[dialect]?.blockingJson : undefined;
  return readBlockingJson(stdout, reader ?? readResultObject);
}

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
