/**
 * The reference agent's sessions and settings, under `$HOME/.reference-agent/`: `config.json` says where the
 * model is (the harness's host file writes it into the sandbox's HOME, as a real CLI's config is written);
 * `sessions/<folder>.json` keeps the latest conversation of each working folder for `--continue`; agents are
 * `<working folder>/.reference-agent/agents/<name>.md`, their text the system prompt.
 *
 * @module
 */
import type { ChatMessage, ModelConfig } from "./model.ts";

/** A conversation kept for `--continue`. */
export interface Session {
  readonly id: string;
  readonly messages: readonly ChatMessage[];
}

/** The agent's own folder in HOME. */
export function agentHome(): string {
  const home = Deno.env.get("HOME");
  if (!home) throw new Error("HOME is not set: the reference agent keeps its config and sessions there");
  return `${home}/.reference-agent`;
}

/** Reads `config.json`; throws with what to do when it is missing or incomplete. */
export async function readConfig(): Promise<ModelConfig & { maxRetries: number; retryDelayMs: number }> {
  const path = `${agentHome()}/config.json`;
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    throw new Error(`no model configured: ${path} (${error instanceof Error ? error.message : error})`);
  }
  if (typeof config.baseUrl !== "string") throw new Error(`${path} has no "baseUrl"`);
  return {
    baseUrl: config.baseUrl.replace(/\/+$/, ""),
    apiKey: typeof config.apiKey === "string" ? config.apiKey : "",
    model: typeof config.model === "string" ? config.model : "reference-model",
    maxRetries: typeof config.maxRetries === "number" ? config.maxRetries : 2,
    retryDelayMs: typeof config.retryDelayMs === "number" ? config.retryDelayMs : 500,
  };
}

async function sessionPath(cwd: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(cwd));
  const name = [...new Uint8Array(digest).slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join(
    "",
  );
  return `${agentHome()}/sessions/${name}.json`;
}

/** The latest session of `cwd`, or `null`. */
export async function latestSession(cwd: string): Promise<Session | null> {
  try {
    return JSON.parse(await Deno.readTextFile(await sessionPath(cwd))) as Session;
  } catch {
    return null;
  }
}

/** Keeps `session` as the latest of `cwd`. */
export async function saveSession(cwd: string, session: Session): Promise<void> {
  const path = await sessionPath(cwd);
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, JSON.stringify(session));
}

/** The instructions of agent `name`: its file's text. Throws naming the file when there is none. */
export async function agentInstructions(cwd: string, name: string): Promise<string> {
  const path = `${cwd}/.reference-agent/agents/${name}.md`;
  try {
    return await Deno.readTextFile(path);
  } catch {
    throw new Error(`no agent "${name}": ${path} does not exist`);
  }
}

/** The instructions of every agent of `cwd`, joined (the `loads-every-agent` flaw). */
export async function everyAgent(cwd: string): Promise<string> {
  const folder = `${cwd}/.reference-agent/agents`;
  const texts: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.isFile) texts.push(await Deno.readTextFile(`${folder}/${entry.name}`));
    }
  } catch {
    // No agents folder: nothing to load.
  }
  return texts.join("\n");
}
