/**
 * The ACP board as data: one row per agent that ran the `cli/acp/*` tier, with what its `initialize` answer
 * claimed (the negotiated protocol version, the agent's name and version, `loadSession`, the prompt, MCP and
 * session capabilities, the auth methods) and a mark per ACP case. The markdown board and report.html both
 * render it; the JSON report carries the same facts as the `claims` of each agent's `cli/acp/initialize`
 * result (suite/cli/acp_checks.ts) and its results.
 *
 * A claim is read only from a `cli/acp/initialize` result that observed it: an agent whose initialize failed,
 * timed out or did not run shows "not observed", never a guess.
 *
 * @module
 */
import type { TestResult } from "../outcome.ts";
import { markOf } from "./board_grid.ts";
import { redact } from "./redact.ts";
import type { ReportHost, RunReport } from "./schema.ts";
import { judge, type Verdict } from "./verdict.ts";

/** The prefix of the ACP tier's ids. */
export const ACP_PREFIX = "cli/acp/";
/** The case whose details carry the agent's claims. */
export const ACP_INITIALIZE = `${ACP_PREFIX}initialize`;

/** What an agent's `initialize` answer claimed, as the board shows it. */
export interface AcpClaims {
  /** The version the agent answered to ours. */
  readonly protocolVersion: number | null;
  /** `agentInfo` name and version, or "(no agentInfo)". */
  readonly agent: string;
  /** The capabilities it claims, as short names: `loadSession`, `prompt.image`, `mcp.http`, `session.list`… */
  readonly capabilities: readonly string[];
  /** The ids of its auth methods. */
  readonly authMethods: readonly string[];
}

/** One ACP case's mark for one agent. */
export interface AcpCell {
  /** The result, as the report holds it (the caller redacts the report). */
  readonly result: TestResult;
  /** ✓ ✗ ◷ ⚠ ! i –. */
  readonly mark: string;
  /** How it stands against the agent's expectations; an unexpected or stale cell is set apart. */
  readonly verdict: Verdict;
}

/** One agent's row. */
export interface AcpRow {
  readonly host: ReportHost;
  /** `null` when no passing `cli/acp/initialize` result observed them. */
  readonly claims: AcpClaims | null;
  /** One per {@linkcode AcpBoard.cases}, absent where the case did not run. */
  readonly cells: readonly (AcpCell | undefined)[];
  /** PASS results among the cells, and cells. */
  readonly passed: number;
  readonly ran: number;
}

/** The board: the ACP cases that ran (short names, sorted) and a row per agent, in report order. */
export interface AcpBoard {
  readonly cases: readonly string[];
  readonly rows: readonly AcpRow[];
}

/**
 * Lays out the ACP results of a report.
 *
 * @param report The run report.
 * @param options Test-only hosts kept (the HTML report keeps them; the markdown board does not), secrets.
 * @returns The board; no rows when no `cli/acp/*` result is in the report.
 * @example
 * ```ts
 * import { acpBoard } from "./acp_board.ts";
 * import type { RunReport } from "./schema.ts";
 * declare const report: RunReport;
 * for (const row of acpBoard(report).rows) console.log(row.host.id, row.claims?.protocolVersion);
 * ```
 */
export function acpBoard(
  report: RunReport,
  options: { readonly includeTestOnly?: boolean; readonly secrets?: readonly string[] } = {},
): AcpBoard {
  const secrets = options.secrets ?? [];
  const acp = report.results.filter((result) => result.test.startsWith(ACP_PREFIX));
  const cases = [...new Set(acp.map((result) => result.test.slice(ACP_PREFIX.length)))].sort();
  const rows: AcpRow[] = [];
  for (const host of report.hosts) {
    if (host.testOnly && !options.includeTestOnly) continue;
    const mine = acp.filter((result) => result.host === host.id);
    if (mine.length === 0) continue;
    const cells = cases.map((name) => {
      const found = mine.find((result) => result.test === `${ACP_PREFIX}${name}`);
      if (found === undefined) return undefined;
      return { result: found, mark: markOf(found), verdict: judge(found).verdict };
    });
    const initialize = mine.find((result) => result.test === ACP_INITIALIZE);
    rows.push({
      host,
      claims: initialize?.status === "PASS" ? claimsOf(initialize, secrets) : null,
      cells,
      passed: mine.filter((result) => result.status === "PASS").length,
      ran: mine.length,
    });
  }
  return { cases, rows };
}

/** The claims a passing initialize result recorded, or `null` when its details carry none. */
function claimsOf(result: TestResult, secrets: readonly string[]): AcpClaims | null {
  const claims = result.details?.claims;
  if (!isRecord(claims)) return null;
  const capabilities: string[] = [];
  if (claims.loadSession === true) capabilities.push("loadSession");
  for (const [group, short] of [["promptCapabilities", "prompt"], ["mcpCapabilities", "mcp"]] as const) {
    const value = claims[group];
    if (!isRecord(value)) continue;
    for (const [name, on] of Object.entries(value)) if (on === true) capabilities.push(`${short}.${name}`);
  }
  if (Array.isArray(claims.sessionCapabilities)) {
    for (const name of claims.sessionCapabilities) capabilities.push(`session.${String(name)}`);
  }
  return {
    protocolVersion: typeof claims.protocolVersion === "number" ? claims.protocolVersion : null,
    agent: redact(typeof claims.agent === "string" ? claims.agent : "(no agentInfo)", secrets),
    capabilities: capabilities.map((name) => redact(name, secrets)),
    authMethods: Array.isArray(claims.authMethods)
      ? claims.authMethods.map((id) => redact(String(id), secrets))
      : [],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
