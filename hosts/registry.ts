/**
 * The one list of hosts. Adding a host is one file in `hosts/cli/`, `hosts/web/` or `hosts/desktop/` plus one
 * line here; every tier is parametrised over this list.
 *
 * @module
 */
import type { HostEntry } from "../src/host.ts";
import { fakeHost } from "./cli/fake.ts";
import { fakeMinimalHost } from "./cli/fake_minimal.ts";
import { claudeCode } from "./cli/claude_code.ts";
import { codex } from "./cli/codex.ts";
import { gemini } from "./cli/gemini.ts";
import { opencode } from "./cli/opencode.ts";
import { pi } from "./cli/pi.ts";
import { omp } from "./cli/omp.ts";
import { kimiCode } from "./cli/kimi_code.ts";
import { qwen } from "./cli/qwen.ts";
import { REFERENCE_HOST, REFERENCE_VARIANT_HOSTS } from "./web/reference.ts";
import { MCP_UI_HOST } from "./web/mcp_ui.ts";
import { MCP_INSPECTOR_HOST } from "./web/mcp_inspector.ts";
import { CHATGPT_HOST } from "./web/chatgpt.ts";
import { CLAUDE_AI_HOST } from "./web/claude_ai.ts";
import { MISTRAL_HOST } from "./web/mistral.ts";
import { VSCODE_HOST } from "./desktop/vscode.ts";
import { GOOSE_HOST } from "./desktop/goose.ts";
import { CURSOR_HOST } from "./desktop/cursor.ts";

/** Every built-in host, in listing order. */
export const HOSTS: readonly HostEntry[] = [
  fakeHost,
  fakeMinimalHost,
  claudeCode.entry,
  codex.entry,
  gemini.entry,
  opencode.entry,
  pi.entry,
  omp.entry,
  kimiCode.entry,
  qwen.entry,
  REFERENCE_HOST,
  MCP_UI_HOST,
  MCP_INSPECTOR_HOST,
  CHATGPT_HOST,
  CLAUDE_AI_HOST,
  MISTRAL_HOST,
  VSCODE_HOST,
  GOOSE_HOST,
  CURSOR_HOST,
  ...REFERENCE_VARIANT_HOSTS,
];

/** Hosts a plain `conformance run` uses when none is named. */
export const DEFAULT_HOSTS: readonly string[] = ["fake", "fake-minimal", "reference"];
