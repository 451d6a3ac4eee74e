/**
 * Secret redaction for everything a report writes: results never carry credentials, so anything shaped like
 * one (API keys, bearer tokens, cookie values, JWTs, and the values of secret-named fields) becomes
 * `[REDACTED]`. Redaction is idempotent: redacting twice gives the same text.
 *
 * @module
 */
import type { TestResult } from "../outcome.ts";

/** What a secret is replaced with. */
export const REDACTED = "[REDACTED]";

/** Shapes that are secrets wherever they appear. Order matters: the more specific shapes come first. */
const SECRET_SHAPES: readonly RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g, // Anthropic
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g, // OpenAI and look-alikes
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, // JWTs
];

/** An `Authorization:` header or field: the scheme stays, the credentials go. */
const AUTH_HEADER =
  /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(Bearer|Basic|Digest|Token)\s+)?(?!\[REDACTED\]|(?:Bearer|Basic|Digest|Token)\s)([^\s"',;]+)/gi;

/** `Bearer <token>` anywhere; a token has 8+ characters and at least one that is not a letter. */
const BEARER = /\b(Bearer)(\s+)(?!\[REDACTED\])(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/gi;

/** A `Cookie:` or `Set-Cookie:` header line: every `name=value` pair keeps its name and loses its value. */
const COOKIE_HEADER = /\b((?:set-)?cookie\s*:[ \t]*)([^\r\n]*)/gi;
const COOKIE_PAIR = /([^\s=;,]+)=(?!\[REDACTED\])[^;,\r\n]*/g;

/** `api_key=…`, `"password": "…"`, `x-api-key: …`: a secret-named field followed by its value. */
const NAMED_SECRET =
  /\b((?:x-)?api[-_]?key|apikey|access[-_]?token|refresh[-_]?token|auth[-_]?token|client[-_]?secret|secret[-_]?key|password|passwd)(["']?\s*[:=]\s*["']?)(?!\[REDACTED\])([^\s"',;&}]+)/gi;

/** A cheap superset of every pattern above: text without any of these has nothing to redact. */
const MAYBE_SECRET =
  /sk-|AIza|gh[pousr]_|github_pat_|glpat-|xox[abposr]-|AKIA|eyJ|bearer|authoriz|cookie|api[-_]?key|token|secret|passw/i;

/** Object keys whose string values are always secrets (`apiKey`, `ANTHROPIC_API_KEY`, `GH_TOKEN`, …). */
const SECRET_KEY =
  /(?:api[-_]?key|apikey|token|secret|password|passwd|credentials?|cookie|authorization|x-api-key)$/i;

/**
 * Replaces every secret-shaped substring of `text` with `[REDACTED]`.
 *
 * @param text Any text a report is about to write.
 * @param literals Exact secret values to remove too (e.g. from {@linkcode secretsFromEnv}).
 * @example
 * ```ts
 * import { redact } from "./redact.ts";
 * redact("Authorization: Bearer abc.def.ghi"); // "Authorization: Bearer [REDACTED]"
 * ```
 */
export function redact(text: string, literals: readonly string[] = []): string {
  let out = text;
  for (const literal of literals) {
    if (literal.length >= 8 && out.includes(literal)) out = out.split(literal).join(REDACTED);
  }
  // One scan rules out nearly every string; only a possible secret pays for the full set of patterns.
  if (!MAYBE_SECRET.test(out)) return out;
  for (const shape of SECRET_SHAPES) out = out.replace(shape, REDACTED);
  out = out.replace(COOKIE_HEADER, (_, head: string, pairs: string) => {
    return head + pairs.replace(COOKIE_PAIR, (_pair, name: string) => `${name}=${REDACTED}`);
  });
  out = out.replace(AUTH_HEADER, (_, head: string, scheme: string | undefined) => {
    return `${head}${scheme ? `${scheme} ` : ""}${REDACTED}`;
  });
  out = out.replace(BEARER, (_, scheme: string, space: string) => `${scheme}${space}${REDACTED}`);
  out = out.replace(NAMED_SECRET, (_, name: string, sep: string) => `${name}${sep}${REDACTED}`);
  return out;
}

/**
 * Redacts every string inside a JSON-like value; string values under secret-named keys (`authorization`,
 * `cookie`, `apiKey`, `token`, `password`, …) are replaced whole.
 *
 * @example
 * ```ts
 * import { redactValue } from "./redact.ts";
 * redactValue({ headers: { cookie: "sid=1" } }); // { headers: { cookie: "[REDACTED]" } }
 * ```
 */
export function redactValue(value: unknown, literals: readonly string[] = []): unknown {
  if (typeof value === "string") return redact(value, literals);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, literals));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = typeof item === "string" && SECRET_KEY.test(key) && item !== ""
        ? REDACTED
        : redactValue(item, literals);
    }
    return out;
  }
  return value;
}

/** A result with every text field (message, title, reasons, …) and its details redacted. */
export function redactResult(result: TestResult, literals: readonly string[] = []): TestResult {
  const out: Record<string, unknown> = { ...result };
  for (const [key, value] of Object.entries(result)) {
    if (typeof value === "string") out[key] = redact(value, literals);
  }
  out.details = redactValue(result.details, literals);
  return out as unknown as TestResult;
}

/** Environment variable names whose values are credentials. */
const SECRET_ENV = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|COOKIE|AUTH)(?:_|$)/i;

/**
 * The values of secret-named environment variables (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, …), so that a host
 * echoing its own environment cannot leak them into a report. The caller reads the environment (`readableEnv`
 * in src/exec/env.ts): src/report reads nothing but the reports it is given.
 *
 * @example
 * ```ts
 * import { redact, secretsFromEnv } from "./redact.ts";
 * redact("key is hunter22-long", secretsFromEnv({ MY_TOKEN: "hunter22-long" })); // "key is [REDACTED]"
 * ```
 */
export function secretsFromEnv(env: Readonly<Record<string, string>>): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_ENV.test(name) && value.length >= 8)
    .map(([, value]) => value)
    .sort((a, b) => b.length - a.length);
}
