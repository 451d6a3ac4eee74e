/**
 * `--update-expectations`: rewrites expectation files from a run. Everything that could stop the rewrite is
 * checked before any test runs ({@linkcode prepareExpectationUpdate}); files are then edited in place,
 * keeping comments and order (`src/expectations_update.ts`), and replaced atomically, so an interrupted update
 * leaves the old file.
 *
 * @module
 */
import { basename, dirname } from "node:path";
import { UsageError } from "../src/errors.ts";
import {
  documentHost,
  type ExpectationDocument,
  newExpectationDocument,
  openExpectationDocument,
  renderExpectationDocument,
  updateExpectationDocuments,
} from "../src/expectations_update.ts";
import { readExpectationsText } from "../src/expectations.ts";
import type { TestResult } from "../src/outcome.ts";
import { writeFileAtomic } from "../src/report/atomic_write.ts";
import type { Shard } from "../src/shard.ts";

/** The files an update will rewrite, per host of the run, opened and checked. */
export interface ExpectationUpdate {
  readonly target: string;
  readonly documents: ReadonlyMap<string, readonly ExpectationDocument[]>;
}

/**
 * Opens the files `--update-expectations` would rewrite for `hosts`, or refuses (a {@linkcode UsageError},
 * one line) when it cannot apply: a sharded run (shards run side by side would each rewrite the file and
 * lose each other's changes), one file for several hosts, a file that lists another host, a file that does
 * not parse, or a file or folder that cannot be written. A folder gets `<host>.yaml` per host unless a file
 * in it already lists that host.
 */
export async function prepareExpectationUpdate(
  target: string,
  hosts: readonly string[],
  run: { readonly shard: Shard },
): Promise<ExpectationUpdate> {
  const refuse = (why: string) => new UsageError(`--update-expectations "${target}" cannot apply: ${why}`);
  if (run.shard.count > 1) {
    throw refuse(
      "a shard's run would rewrite the file beside the other shards' and lose their changes; " +
        "update from an unsharded run (narrow it with --grep or --tier)",
    );
  }
  const exists = await statOrNull(target);
  const isDirectory = exists ? exists.isDirectory : !/\.(ya?ml|json)$/.test(target);
  if (!isDirectory && hosts.length > 1) {
    throw refuse(`it is one file but the run has ${hosts.length} hosts (${hosts.join(", ")}): give a folder`);
  }
  await checkWritable(target, isDirectory, exists !== null, refuse);
  const documents = new Map<string, ExpectationDocument[]>();
  if (!isDirectory) {
    const host = hosts[0]!;
    documents.set(host, [exists ? await open(target, host, refuse) : newExpectationDocument(target, host)]);
    return { target, documents };
  }
  const inFolder: ExpectationDocument[] = [];
  if (exists) {
    const names: string[] = [];
    for await (const entry of Deno.readDir(target)) {
      if (entry.isFile && /\.(ya?ml|json)$/.test(entry.name)) names.push(entry.name);
    }
    for (const name of names.sort()) inFolder.push(await open(`${target}/${name}`, undefined, refuse));
  }
  for (const host of hosts) {
    const name = `${host.replace(/[^a-z0-9._-]/gi, "_")}.yaml`;
    const own = inFolder.filter((document) => documentHost(document) === host);
    const named = inFolder.find((document) => basename(document.file) === name);
    if (named && documentHost(named) !== host) {
      throw refuse(
        `"${named.file}" lists host "${documentHost(named)}", not "${host}", which it would write`,
      );
    }
    // New entries go to <host>.yaml when it exists, else to the first file listing the host.
    own.sort((a, b) => Number(basename(b.file) === name) - Number(basename(a.file) === name));
    documents.set(host, own.length > 0 ? own : [newExpectationDocument(`${target}/${name}`, host)]);
  }
  return { target, documents };
}

/**
 * Applies a run's results to the prepared files and writes those that changed (a new file only when it has
 * entries). `versions` are the hosts' versions from the run. Returns the files written.
 */
export async function writeExpectationUpdate(
  update: ExpectationUpdate,
  results: readonly TestResult[],
  versions: ReadonlyMap<string, string | null>,
): Promise<string[]> {
  const written: string[] = [];
  for (const [host, documents] of update.documents) {
    updateExpectationDocuments(documents, host, results, versions.get(host) ?? null);
    for (const document of documents) {
      if (!document.changed) continue;
      await writeFileAtomic(document.file, renderExpectationDocument(document));
      written.push(document.file);
    }
  }
  return written;
}

async function open(
  file: string,
  host: string | undefined,
  refuse: (why: string) => UsageError,
): Promise<ExpectationDocument> {
  const opened = openExpectationDocument(file, await readExpectationsText(file), host);
  if ("problem" in opened) throw refuse(`"${file}" ${opened.problem}`);
  return opened;
}

async function checkWritable(
  target: string,
  isDirectory: boolean,
  exists: boolean,
  refuse: (why: string) => UsageError,
): Promise<void> {
  const permission = await Deno.permissions.query({ name: "write", path: target });
  if (permission.state !== "granted") throw refuse("it is outside the folders this run may write");
  try {
    if (exists && !isDirectory) (await Deno.open(target, { write: true })).close();
    // The rewrite goes through a temporary file beside the target: its folder must take a new file.
    const folder = isDirectory ? target : dirname(target);
    await Deno.mkdir(folder, { recursive: true });
    const probe = await Deno.makeTempFile({ dir: folder });
    await Deno.remove(probe);
  } catch (error) {
    throw refuse(`it is not writable (${(error as Error).message.split("\n")[0]})`);
  }
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
