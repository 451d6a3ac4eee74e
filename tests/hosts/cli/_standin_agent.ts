/**
 * A stand-in agent CLI for the capability-behaviour tier's tests: a small agent, a real program run as a host
 * is, that talks to the scripted mock model over loopback (OpenAI chat), runs its Read, Write and Bash tools,
 * keeps its session in its HOME (`--continue`), reads an agent file (`--agent`), offers only the tools of
 * `--tools` and refuses Bash without `--yolo`. `STANDIN_FAULT` gives it one fault a real CLI could have
 * (tests/hosts/cli/capability_session_test.ts lists them). Every run but `--version` appends its argv as a
 * line to the file `STANDIN_RUNS` names, when set, so a test can count the host's runs; with the fault
 * `fails-first`, the first of those runs exits 1 before it does anything (`<STANDIN_RUNS>.failed` marks it
 * taken, created exclusively, so of two runs at once only one fails).
 *
 * @module
 */
import { capabilities, defineRealHost, opt, type RealHost } from "../../../hosts/cli/_real_host.ts";
import type { InvocationRequest } from "../../../src/exec/host_runner.ts";
import { structuredOutputField } from "../../../src/exec/tool_behavior.ts";

const STAND_IN = `const args = Deno.args;
const has = (flag) => args.includes(flag);
const value = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
if (has("--version")) {
  console.log("1.0.0 (standin-agent)");
  Deno.exit(0);
}
const fault = Deno.env.get("STANDIN_FAULT") ?? "";
const runs = Deno.env.get("STANDIN_RUNS");
if (runs) await Deno.writeTextFile(runs, JSON.stringify(args) + "\\n", { append: true });
if (fault === "fails-first" && runs) {
  const first = await Deno.writeTextFile(runs + ".failed", "", { createNew: true }).then(() => true, () => false);
  if (first) {
    console.error("standin: the first run fails");
    Deno.exit(1);
  }
}
const base = Deno.env.get("STANDIN_BASE_URL");
const store = Deno.env.get("HOME") + "/.standin-session.json";
const document = value("--output-format") === "json";
const agent = value("--agent");
const session = crypto.randomUUID();
const usage = { input_tokens: 0, output_tokens: 0 };
const line = (event) => console.log(JSON.stringify({ ...event, session_id: session }));
const result = (text, error) => ({ type: "result", subtype: error ? "error_during_execution" : "success",
  is_error: error, result: text, usage, ...(structured === undefined ? {} : { structured_output: structured }) });
if (agent && has("--continue") && fault === "agent-breaks-resume") {
  console.error("standin: --agent cannot be given with --continue");
  Deno.exit(3);
}
const history = has("--continue") ? JSON.parse(await Deno.readTextFile(store).catch(() => "[]")) : [];
const agents = Deno.cwd() + "/.standin/agents/";
let system = [];
if (agent) system = [{ role: "system", content: await Deno.readTextFile(agents + agent + ".md") }];
else if (fault === "agent-always") {
  for await (const file of Deno.readDir(agents)) system = [{ role: "system", content: await Deno.readTextFile(agents + file.name) }];
}
const listed = value("--tools")?.split(",");
const allowed = has("--continue") && fault === "allowlist-ignored-on-resume" ? undefined : listed;
const schema = has("--continue") && fault === "schema-ignored-on-resume" ? undefined : value("--json-schema");
const names = ["Read", "Write", "Bash"].filter((name) => !allowed || allowed.includes(name));
if (schema) names.push("StructuredOutput");
const tools = names.map((name) => ({
  type: "function", function: { name, description: name, parameters: { type: "object", properties: {} } } }));
let structured;
async function run(name, input) {
  if (name === "Read") return await Deno.readTextFile(input.path);
  if (name === "Write") return (await Deno.writeTextFile(input.path, input.content), "written");
  const done = await new Deno.Command("sh", { args: ["-c", input.command], stdin: "null" }).output();
  return "exit " + done.code;
}
if (!document) line({ type: "system", subtype: "init", model: "standin-1", tools: ["Read", "Write", "Bash"] });
history.push({ role: "user", content: value("-p") });
let text = "";
let refusedThenExit = false;
for (let round = 0; round < 8; round++) {
  const response = await fetch(base + "/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-standin" },
    body: JSON.stringify({ model: "standin-1", messages: [...system, ...history], tools }),
  });
  const body = await response.json();
  usage.input_tokens += body.usage?.prompt_tokens ?? 0;
  usage.output_tokens += body.usage?.completion_tokens ?? 0;
  const message = body.choices[0].message;
  if (!message.tool_calls?.length) {
    text = message.content ?? "";
    history.push({ role: "assistant", content: text });
    break;
  }
  history.push({ role: "assistant", content: null, tool_calls: message.tool_calls });
  for (const call of message.tool_calls) {
    const input = JSON.parse(call.function.arguments);
    let output;
    if (!names.includes(call.function.name)) output = "no such tool: " + call.function.name;
    else if (call.function.name === "StructuredOutput") output = (structured = input, "accepted");
    else if (call.function.name === "Bash" && !has("--yolo") && fault !== "no-permissions") {
      refusedThenExit = fault === "refusal-exits";
      output = "permission denied: Bash needs --yolo";
    } else output = await run(call.function.name, input);
    history.push({ role: "tool", tool_call_id: call.id, content: output });
  }
  if (refusedThenExit) {
    // The refusal goes back to the model, and then the host gives up.
    await fetch(base + "/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-standin" },
      body: JSON.stringify({ model: "standin-1", messages: [...system, ...history], tools }),
    }).then((response) => response.text());
    (document ? (e) => console.log(JSON.stringify(e)) : line)(result("Bash needs --yolo", true));
    Deno.exit(2);
  }
}
await Deno.writeTextFile(store, JSON.stringify(history));
if (document) console.log(JSON.stringify({ ...result(text, false), session_id: session }));
else {
  line({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }], usage } });
  line(result(text, false));
}
`;

const folder = await Deno.makeTempDir({ prefix: "conformance-standin-" });
const binary = `${folder}/standin-agent`;
await Deno.writeTextFile(
  binary,
  `#!/usr/bin/env -S ${Deno.execPath()} run --quiet --no-config --no-lock --ext=js --allow-net=127.0.0.1 ` +
    `--allow-env --allow-read --allow-write --allow-run=sh\n${STAND_IN}`,
  { mode: 0o755 },
);
globalThis.addEventListener("unload", () => Deno.removeSync(folder, { recursive: true }));

const argv = (request: InvocationRequest, format: string, resume = false) => [
  "-p",
  request.prompt,
  "--output-format",
  format,
  "--yolo",
  ...opt("--agent", request.agent),
  ...opt("--tools", request.tools?.join(",")),
  ...opt("--json-schema", request.jsonSchema),
  ...(resume ? ["--continue"] : []),
];

/**
 * What a stand-in claims beyond the bypass: an agent from files, an allow-list, both, a schema alone, or an
 * agent its host file drops on resume (as kimi's does).
 */
export type Claims = "agent" | "allow-list" | "both" | "schema" | "agent-fresh";

/** The stand-in as a host, with `fault` in its environment. */
export function standIn(fault: string, claims: Claims, env: Record<string, string> = {}): RealHost {
  const agents = claims === "agent" || claims === "both" || claims === "agent-fresh";
  return defineRealHost({
    id: `standin-${fault}-${claims}`,
    binary,
    install: { package: "standin-agent", version: "1.0.0" },
    envPrefixes: ["STANDIN_*"],
    summary: "a stand-in agent CLI (claude stream-json)",
    dialect: "claude",
    capabilities: capabilities(
      "streaming",
      "permissionSkip",
      ...(agents ? ["agentSelect" as const] : []),
      ...(claims === "allow-list" || claims === "both" ? ["toolAllowlist" as const] : []),
      ...(claims === "schema" ? ["structuredOutput" as const] : []),
    ),
    streamShape: { init: "required", terminal: "event" },
    envAllow: [],
    paths: {
      "streaming": (request) => ({ args: argv(request, "stream-json") }),
      "blocking-json": (request) => ({ args: argv(request, "json") }),
      "resume": (request) => {
        const { agent: _, ...kept } = request;
        return { args: argv(claims === "agent-fresh" ? kept : request, "stream-json", true) };
      },
      "version-check": () => ({ args: ["--version"] }),
    },
    unsupportedPaths: { "detached": "it has no plain-text mode" },
    toolBehavior: {
      tools: {
        read: { name: "Read", args: ({ path }) => ({ path }) },
        write: { name: "Write", args: ({ path, content }) => ({ path, content }) },
        shell: { name: "Bash", args: ({ command }) => ({ command }) },
      },
      permissionSkipArgs: ["--yolo"],
      ...(claims === "schema"
        ? { structuredOutput: { tool: "StructuredOutput", read: structuredOutputField } }
        : {}),
      ...(agents
        ? {
          agentFiles: (name: string, instructions: string) => ({
            [`.standin/agents/${name}.md`]: instructions,
          }),
        }
        : {}),
    },
    mockModel: ({ url }) => ({ env: { ...env, STANDIN_BASE_URL: url, STANDIN_FAULT: fault }, files: {} }),
  });
}
