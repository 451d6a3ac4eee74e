/**
 * A dialect is its normaliser file: the engine and the fake host never branch on a dialect's name, and the
 * fake host speaks exactly the normalisers' dialects.
 */
import assert from "node:assert/strict";
import { type DialectName, DIALECTS, NORMALIZERS, parseBlockingJson } from "../../src/normalize/mod.ts";
import { FAKE_DIALECTS } from "../../fake_host/script.ts";
import { DIALECT_WRITERS, type DialectWriter } from "../../fake_host/dialects.ts";

// Does not type-check while a normaliser's dialect has no fake-host writer.
const _writers: Readonly<Record<DialectName, DialectWriter>> = DIALECT_WRITERS;

const ROOT = new URL("../../", import.meta.url);

async function* walk(folder: URL): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(folder)) {
    const url = new URL(entry.isDirectory ? `${entry.name}/` : entry.name, folder);
    if (entry.isDirectory) yield* walk(url);
    else if (entry.name.endsWith(".ts")) yield url.pathname;
  }
}

Deno.test("no file of src/ or fake_host/ compares against a dialect's name", async () => {
  const names = Object.keys(NORMALIZERS).join("|");
  const compare = new RegExp(`(===|!==|case)\\s*["'](${names})["']|["'](${names})["']\\s*(===|!==)`);
  const offenders: string[] = [];
  for (const folder of ["src", "fake_host"]) {
    for await (const path of walk(new URL(`${folder}/`, ROOT))) {
      const lines = (await Deno.readTextFile(path)).split("\n");
      lines.forEach((line, index) => {
        if (compare.test(line)) {
          offenders.push(`${path.slice(ROOT.pathname.length)}:${index + 1}: ${line.trim()}`);
        }
      });
    }
  }
  assert.deepEqual(offenders, [], "a dialect's behaviour belongs in its normaliser file (src/normalize/)");
});

Deno.test("the fake host speaks exactly the normalisers' dialects", () => {
  assert.deepEqual([...FAKE_DIALECTS].sort(), Object.keys(NORMALIZERS).sort());
  assert.deepEqual(Object.keys(DIALECTS), Object.keys(NORMALIZERS));
});

Deno.test("a dialect without its own blocking reader reads claude's result object", () => {
  const stdout = '{"type":"result","is_error":false,"result":"OK"}';
  for (const dialect of ["codex", "opencode", "pi", "kimi", "a-config-dialect"]) {
    assert.deepEqual(parseBlockingJson(dialect, stdout), { status: "success", result: "OK" }, dialect);
  }
});
