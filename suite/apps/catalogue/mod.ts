/**
 * The MCP Apps catalogue, in declaration order by area; the engine runs automatic tests first, then manual
 * ones (each after `resetIsolation`), then the teardown tests.
 *
 * @module
 */
import type { SuiteTest } from "./_shared.ts";
import { ACTIONS } from "./actions.ts";
import { CONTEXT } from "./context.ts";
import { CSP } from "./csp.ts";
import { DISPLAY } from "./display.ts";
import { LIFECYCLE } from "./lifecycle.ts";
import { SECURITY } from "./security.ts";
import { TOOLS } from "./tools.ts";
import { VISIBILITY } from "./visibility.ts";

/** Every test of the in-iframe suite. */
export const CATALOGUE: readonly SuiteTest[] = [
  ...LIFECYCLE,
  ...TOOLS,
  ...VISIBILITY,
  ...CONTEXT,
  ...DISPLAY,
  ...ACTIONS,
  ...SECURITY,
  ...CSP,
];
