/**
 * The shape of an ACP `initialize` result (v1, docs/protocol/v1/initialization.mdx and the schema): what the
 * `cli/acp/initialize` case calls well-formed, and the claims it reports for the board.
 *
 * @module
 */

/** A JSON object as the ACP cases read it. */
export type Json = Record<string, unknown>;

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `where` is absent or an object whose listed fields are absent or booleans. */
function flags(where: string, value: unknown, names: readonly string[]): string[] {
  if (value === undefined) return [];
  if (!isObject(value)) return [`${where} is ${JSON.stringify(value)}, not an object`];
  return names.filter((name) => value[name] !== undefined && typeof value[name] !== "boolean").map((name) =>
    `${where}.${name} is ${JSON.stringify(value[name])}, not a boolean`
  );
}

/**
 * What is malformed in an `initialize` result: `protocolVersion` an integer; `agentCapabilities` and its
 * `promptCapabilities`, `mcpCapabilities`, `sessionCapabilities` objects of booleans where present;
 * `authMethods` a list of objects with a string `id` and `name`; `agentInfo` with a string `name` and `version`
 * when sent. Empty when well-formed.
 *
 * @example
 * ```ts
 * import { capabilityProblems } from "./acp_checks.ts";
 * capabilityProblems({ protocolVersion: 1, agentCapabilities: { loadSession: "yes" } });
 * // ['agentCapabilities.loadSession is "yes", not a boolean']
 * ```
 */
export function capabilityProblems(result: Json): string[] {
  const problems: string[] = [];
  if (typeof result.protocolVersion !== "number" || !Number.isInteger(result.protocolVersion)) {
    problems.push(`protocolVersion is ${JSON.stringify(result.protocolVersion)}, not an integer`);
  }
  const caps = result.agentCapabilities;
  if (caps !== undefined && !isObject(caps)) {
    problems.push(`agentCapabilities is ${JSON.stringify(caps)}, not an object`);
  } else if (caps !== undefined) {
    problems.push(...flags("agentCapabilities", caps, ["loadSession"]));
    problems.push(
      ...flags("agentCapabilities.promptCapabilities", caps.promptCapabilities, [
        "image",
        "audio",
        "embeddedContext",
      ]),
    );
    problems.push(...flags("agentCapabilities.mcpCapabilities", caps.mcpCapabilities, ["http", "sse"]));
    if (caps.sessionCapabilities !== undefined && !isObject(caps.sessionCapabilities)) {
      problems.push(`agentCapabilities.sessionCapabilities is not an object`);
    }
  }
  const auth = result.authMethods;
  if (auth !== undefined) {
    if (!Array.isArray(auth)) problems.push(`authMethods is ${JSON.stringify(auth)}, not a list`);
    else {
      auth.forEach((method, index) => {
        if (!isObject(method) || typeof method.id !== "string" || typeof method.name !== "string") {
          problems.push(`authMethods[${index}] lacks a string id and name: ${JSON.stringify(method)}`);
        }
      });
    }
  }
  const info = result.agentInfo;
  if (
    info !== undefined &&
    (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string")
  ) {
    problems.push(`agentInfo lacks a string name and version: ${JSON.stringify(info)}`);
  }
  return problems;
}

/** What an agent claims in its `initialize` result, for the report and the board. */
export function claims(result: Json): Json {
  const caps = isObject(result.agentCapabilities) ? result.agentCapabilities : {};
  const info = isObject(result.agentInfo) ? result.agentInfo : null;
  return {
    protocolVersion: result.protocolVersion,
    agent: info ? `${String(info.name)} ${String(info.version)}` : "(no agentInfo)",
    loadSession: caps.loadSession === true,
    promptCapabilities: caps.promptCapabilities ?? {},
    mcpCapabilities: caps.mcpCapabilities ?? {},
    sessionCapabilities: isObject(caps.sessionCapabilities) ? Object.keys(caps.sessionCapabilities) : [],
    authMethods: Array.isArray(result.authMethods)
      ? result.authMethods.map((method) => isObject(method) ? method.id : method)
      : [],
  };
}
