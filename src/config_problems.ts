/**
 * Every problem of a config file at once: the schema's issues (an unknown field with the field it is likely a
 * typo of) and what a schema cannot see — a dialect no normaliser reads, argv for a golden path that does not
 * exist, a placeholder that is never filled in, a binary or a variable the harness may not use under its
 * permission set. Each problem is one line naming the field; `parseConfig` (src/config.ts) prefixes the file.
 *
 * @module
 */
import type { z } from "zod";
import { GOLDEN_PATHS } from "./exec/host_runner.ts";
import { envAllowProblem } from "./exec/env.ts";
import { NORMALIZERS } from "./normalize/mod.ts";
import { RUN_ALLOW } from "./permissions.ts";
import { closest } from "./suggest.ts";

/** One problem: where in the file (`hosts.0.dialect`, empty for the top level) and what is wrong. */
export interface ConfigProblem {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  /**
   * Set when all that is wrong is that the harness's permission set does not permit what a CLI host needs: a
   * program it runs or a variable it is handed. The file is sound; a run of that host needs a wider set.
   */
  readonly needs?: { readonly host: string; readonly run?: string; readonly env?: string };
}

/**
 * The placeholders a CLI host's argv templates may use (hosts/from_config.ts fills them in): the prompt, the
 * model, the working folder, and the agent, tool allow-list (comma-separated), JSON schema and workspace
 * root a request may ask for (what `agentSelect`, `toolAllowlist`, `structuredOutput` and
 * `workspaceSandboxed` are checked with).
 */
export const ARGV_PLACEHOLDERS = [
  "prompt",
  "model",
  "cwd",
  "agent",
  "tools",
  "jsonSchema",
  "workspace",
] as const;

/** The placeholders of a CLI host's `mockModel:` (the mock's origin and the run's temporary HOME). */
export const MOCK_PLACEHOLDERS = ["url", "home"] as const;

/** One of {@linkcode ARGV_PLACEHOLDERS}. */
export type ArgvPlaceholder = typeof ARGV_PLACEHOLDERS[number];

/** `: did you mean "x"?` when a candidate is close, else the empty string. */
function hint(input: string, candidates: Iterable<string>, format = (match: string) => match): string {
  const match = closest(input, candidates);
  return match === undefined ? "" : `: did you mean "${format(match)}"?`;
}

/**
 * The schema's issues as problems. An unknown field becomes one problem per key, with the known field it is
 * closest to (the known fields are read from `schema` at the issue's place in `data`).
 */
export function schemaProblems(issues: readonly z.core.$ZodIssue[], schema: z.ZodType, data: unknown) {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") {
      // A mistyped choice (`kind: clii`, `init: requird`) gets the closest allowed value.
      const choices = issue.code === "invalid_value"
        ? issue.values
        : (issue as { options?: readonly unknown[] }).options ?? [];
      const given = valueAt(data, issue.path);
      // A field left out reads as one: zod's "expected string, received undefined" names neither.
      if (given === undefined && issue.code === "invalid_type" && issue.path.length > 0) {
        const field = String(issue.path.at(-1));
        problems.push({
          path: issue.path,
          message: `field "${field}" is missing (give a ${issue.expected})`,
        });
        continue;
      }
      const near = typeof given === "string" ? hint(given, choices.filter((c) => typeof c === "string")) : "";
      problems.push({ path: issue.path, message: `${issue.message}${near}` });
      continue;
    }
    const known = knownKeys(schema, issue.path, data);
    for (const key of issue.keys) {
      problems.push({ path: [...issue.path, key], message: `unknown field "${key}"${hint(key, known)}` });
    }
  }
  return problems;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key],
    data,
  );
}

// The parts of zod's internal definition the walk below reads.
interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly values?: readonly unknown[];
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The field names of the object `schema` describes at `path` (following `data` through unions). */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[], data: unknown): string[] {
  let here: z.ZodType | undefined = schema;
  let value = data;
  for (let index = 0; here !== undefined;) {
    const def = defOf(here);
    if (def.innerType) here = def.innerType;
    else if (def.type === "pipe") here = def.in;
    else if (def.type === "union") here = pickOption(def.options ?? [], value);
    else if (index === path.length) return def.shape ? Object.keys(def.shape) : [];
    else {
      const key = path[index++]!;
      value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
      here = def.shape?.[String(key)] ?? def.element ?? def.valueType;
    }
  }
  return [];
}

/** The union member whose literal fields (a discriminator such as `kind`) `value` matches. */
function pickOption(options: readonly z.ZodType[], value: unknown): z.ZodType | undefined {
  return options.find((option) =>
    Object.entries(defOf(option).shape ?? {}).every(([key, field]) => {
      const def = defOf(field);
      return def.type !== "literal" || (def.values ?? []).includes((value as Record<string, unknown>)?.[key]);
    })
  );
}

/** Orders problems as their fields appear in the file (hosts by index, then field by field). */
export function byPlace(a: ConfigProblem, b: ConfigProblem): number {
  for (let index = 0; index < Math.min(a.path.length, b.path.length); index++) {
    const [x, y] = [a.path[index], b.path[index]];
    if (x === y) continue;
    return typeof x === "number" && typeof y === "number" ? x - y : 0;
  }
  return a.path.length - b.path.length;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What the schema cannot see, read from the raw file so that it is found whatever else is wrong: for each CLI
 * host its dialect, the golden-path names and placeholders of its argv, and its binary and `envAllow` under
 * the harness's permissions; and host ids given twice.
 */
export function semanticProblems(data: unknown): ConfigProblem[] {
  if (!isRecord(data)) return [];
  const problems: ConfigProblem[] = [];
  const own = Array.isArray(data.goldenPaths)
    ? data.goldenPaths.flatMap((path) => isRecord(path) && typeof path.name === "string" ? [path.name] : [])
    : [];
  const pathNames = [...GOLDEN_PATHS, ...own];
  // A user path's name is the last segment of its test ids: it must not be another path's, nor a fault case's.
  own.forEach((name, index) => {
    const taken = (GOLDEN_PATHS as readonly string[]).includes(name) || own.indexOf(name) < index ||
      name.startsWith("fault-");
    if (taken) {
      problems.push({
        path: ["goldenPaths", index, "name"],
        message: `golden path name "${name}" is taken (a built-in path, an earlier entry, or a fault-* case)`,
      });
    }
  });
  const seen = new Set<string>();
  (Array.isArray(data.hosts) ? data.hosts : []).forEach((host, index) => {
    if (!isRecord(host)) return;
    const at = (...rest: PropertyKey[]) => ["hosts", index, ...rest];
    if (typeof host.id === "string") {
      if (seen.has(host.id)) problems.push({ path: at("id"), message: `host "${host.id}" is defined twice` });
      seen.add(host.id);
    }
    if (host.kind !== "cli") return;
    const dialect = host.dialect;
    if (typeof dialect === "string" && dialect !== "" && !Object.hasOwn(NORMALIZERS, dialect)) {
      problems.push({
        path: at("dialect"),
        message: `unknown dialect "${dialect}"${hint(dialect, Object.keys(NORMALIZERS))} Dialects are ${
          Object.keys(NORMALIZERS).join(", ")
        }`,
      });
    }
    for (const [name, argv] of Object.entries(isRecord(host.paths) ? host.paths : {})) {
      if (!pathNames.includes(name)) {
        problems.push({
          path: at("paths", name),
          message: `unknown golden path "${name}"${hint(name, pathNames)} Golden paths are ${
            pathNames.join(", ")
          } (your own are named under goldenPaths:)`,
        });
      }
      (Array.isArray(argv) ? argv : []).forEach((arg, position) => {
        if (typeof arg !== "string") return;
        for (const [, placeholder] of arg.matchAll(/\{([^{}\s]*)\}/g)) {
          if ((ARGV_PLACEHOLDERS as readonly string[]).includes(placeholder!)) continue;
          problems.push({
            path: at("paths", name, position),
            message: `unknown placeholder "{${placeholder}}"${
              hint(placeholder!, ARGV_PLACEHOLDERS, (match) => `{${match}}`)
            } Placeholders are ${ARGV_PLACEHOLDERS.map((known) => `{${known}}`).join(", ")}`,
          });
        }
      });
    }
    const mock = isRecord(host.mockModel) ? host.mockModel : {};
    for (const field of ["env", "files"] as const) {
      for (const [key, value] of Object.entries(isRecord(mock[field]) ? mock[field] : {})) {
        for (const text of [key, value]) {
          if (typeof text !== "string") continue;
          for (const [, placeholder] of text.matchAll(/\{([^{}\s]*)\}/g)) {
            if ((MOCK_PLACEHOLDERS as readonly string[]).includes(placeholder!)) continue;
            problems.push({
              path: at("mockModel", field, key),
              message: `unknown placeholder "{${placeholder}}"${
                hint(placeholder!, MOCK_PLACEHOLDERS, (match) => `{${match}}`)
              } Placeholders are {url} and {home}`,
            });
          }
        }
      }
    }
    const id = String(host.id);
    if (typeof host.binary === "string" && host.binary !== "") {
      const problem = binaryProblem(host.binary);
      if (problem !== null) {
        problems.push({ path: at("binary"), message: problem, needs: { host: id, run: host.binary } });
      }
    }
    (Array.isArray(host.envAllow) ? host.envAllow : []).forEach((entry, position) => {
      if (typeof entry !== "string" || entry === "") return;
      const problem = envAllowProblem(entry);
      // A variable the harness may not read would reach the host as unset: say so now, not as a failed test.
      if (problem === null) return;
      // A pattern cannot be permitted at all (the environment cannot be listed): the file must change.
      problems.push(
        entry.endsWith("*")
          ? { path: at("envAllow", position), message: `host "${id}" hands on ${problem}` }
          : {
            path: at("envAllow", position),
            message:
              `host "${id}" hands on variable "${entry}", which the harness's env permission does not permit`,
            needs: { host: id, env: entry },
          },
      );
    });
  });
  return problems;
}

/**
 * `null` when the harness may start `binary` under its run permission, else one line saying it is not
 * permitted. A registry binary the permission names but PATH lacks is not this problem: it is a binary absent,
 * which the run reports before any test.
 */
export function binaryProblem(binary: string): string | null {
  if (Deno.permissions.querySync({ name: "run" }).state === "granted") return null;
  if (Deno.permissions.querySync({ name: "run", command: binary }).state === "granted") return null;
  const name = binary.split(/[\\/]/).at(-1) ?? binary;
  if (!binary.includes("/") && RUN_ALLOW.includes(name)) return null;
  // Under a narrow permission set the two look alike: a name outside the set, and a name in it that was not
  // on PATH when the harness started (Deno resolves run names then).
  return `binary "${binary}" is not permitted by the harness's run permission (a program it does not name, ` +
    "or a name that was not on PATH when it started)";
}
