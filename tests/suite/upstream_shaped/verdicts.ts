/**
 * The verdicts each host deserves from the upstream-shaped suite (tests/suite/upstream_shaped/view.ts), by the
 * suite's own test ids: shared by the test that drives it through the Runner and the one that runs it from a
 * server of its own through `conformance run --suite-server`.
 *
 * @module
 */

/** Its test ids, in the View's order. */
export const UPSTREAM_SHAPED_IDS: readonly string[] = [
  "upstream/click-trigger",
  "upstream/conversation-contains",
  "upstream/read-console",
  "upstream/model-tool-list",
  "upstream/inspect-frame",
  "upstream/toggle-theme",
  "upstream/confirm-download",
  "upstream/open-link",
  "upstream/unknown-kind",
];

/**
 * The verdicts the MCP Inspector deserves: it has no conversation and no model tool list (SKIP), and sends
 * the theme change or not by timing (tests/hosts/web/mcp_inspector_test.ts says the same of the catalogue).
 */
export const INSPECTOR_VERDICTS: Readonly<Record<string, readonly string[]>> = {
  "upstream/click-trigger": ["PASS"],
  "upstream/conversation-contains": ["SKIP"],
  "upstream/read-console": ["PASS"],
  "upstream/model-tool-list": ["SKIP"],
  "upstream/inspect-frame": ["PASS"],
  "upstream/toggle-theme": ["PASS", "FAIL"],
  "upstream/confirm-download": ["PASS"],
  "upstream/open-link": ["PASS"],
  "upstream/unknown-kind": ["PASS"],
};
