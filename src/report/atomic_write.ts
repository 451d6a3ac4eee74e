/**
 * Atomic file writing: the content goes to a temporary file in the same folder, is flushed to disk, and then
 * renamed over the target. A reader sees the previous file or the complete new one, never a part; a crash
 * (or a writer that throws) leaves the previous file untouched.
 *
 * A writer holds an exclusive lock on its temporary file from creating it until the rename, and the kernel
 * drops that lock when the writer dies, however it dies. So a temporary file that nobody holds locked is one a
 * dead writer left (a SIGKILL mid-checkpoint): every write sweeps such leftovers from its folder before its
 * own, and never touches the temporary file of a writer that is still alive, in this process or another.
 *
 * @module
 */
import { basename, dirname, join } from "node:path";

/** Receives the content in pieces, for writers that produce a large file incrementally. */
export interface ChunkSink {
  /** Appends `text` to the temporary file. */
  write(text: string): Promise<void>;
}

/** The content of an atomic write: the whole text, or a function that writes it in pieces. */
export type AtomicContent = string | ((sink: ChunkSink) => Promise<void>);

/** The name of every temporary file: `.<target>.<writer pid>.<8 hex>.tmp`. */
const TEMP_NAME = /^\..+\.\d+\.[0-9a-f]{8}\.tmp$/;

/** Whether `name` is one of writeFileAtomic's temporary files. */
export function isAtomicTempName(name: string): boolean {
  return TEMP_NAME.test(name);
}

/**
 * Removes the temporary files that dead writers left in `dir`: those that no process holds locked. A live
 * writer's file is locked and stays. Returns the names removed. Errors (a folder that is gone, a file another
 * sweeper removed first) are not failures: the sweep is best effort and never stops a write.
 *
 * @param dir The folder to sweep (not recursive).
 * @example
 * ```ts
 * import { sweepDeadTemporaries } from "./atomic_write.ts";
 * await sweepDeadTemporaries("reports");
 * ```
 */
export async function sweepDeadTemporaries(dir: string): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = [];
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && isAtomicTempName(entry.name)) names.push(entry.name);
    }
  } catch {
    return removed;
  }
  for (const name of names) {
    const path = join(dir, name);
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch {
      continue;
    }
    try {
      // Not held: its writer is gone. Removed while we hold the lock, so a writer that created it but had
      // not locked it yet finds its name gone once it gets the lock, and starts again under a new one.
      if (await file.tryLock(true)) {
        await Deno.remove(path);
        removed.push(name);
      }
    } catch {
      // Raced with another sweeper, or a platform that cannot remove an open file: left for a later sweep.
    } finally {
      file.close();
    }
  }
  return removed;
}

/** Creates and locks a fresh temporary file for `path`, retrying if a sweeper removed it before the lock. */
async function openLockedTemp(path: string): Promise<{ temp: string; file: Deno.FsFile }> {
  const dir = dirname(path);
  for (let attempt = 0;; attempt++) {
    const temp = join(dir, `.${basename(path)}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
    const file = await Deno.open(temp, { write: true, createNew: true, mode: 0o644 });
    try {
      await file.lock(true);
      const [held, named] = await Promise.all([file.stat(), Deno.stat(temp).catch(() => undefined)]);
      // Where inode numbers are not reported (0 or null), the name existing is the best check there is.
      if (named !== undefined && (held.ino === null || held.ino === 0 || held.ino === named.ino)) {
        return { temp, file };
      }
    } catch (error) {
      file.close();
      await Deno.remove(temp).catch(() => {});
      throw error;
    }
    file.close();
    if (attempt >= 5) throw new Error(`cannot keep a temporary file in ${dir}: something removes it`);
  }
}

/**
 * Writes `path` atomically. Creates the folder when missing, and first removes the temporary files that dead
 * writers left in it (see {@linkcode sweepDeadTemporaries}).
 *
 * @param path The file to replace.
 * @param content The text, or a function writing it piece by piece; if it throws, `path` is left as it was
 *   and the temporary file is removed.
 * @example
 * ```ts
 * import { writeFileAtomic } from "./atomic_write.ts";
 * await writeFileAtomic("out/report.json", JSON.stringify({ ok: true }));
 * ```
 */
export async function writeFileAtomic(path: string, content: AtomicContent): Promise<void> {
  const dir = dirname(path);
  await Deno.mkdir(dir, { recursive: true });
  await sweepDeadTemporaries(dir);
  const { temp, file } = await openLockedTemp(path);
  const encoder = new TextEncoder();
  let closed = false;
  try {
    const sink: ChunkSink = {
      async write(text) {
        const bytes = encoder.encode(text);
        let offset = 0;
        while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
      },
    };
    if (typeof content === "string") await sink.write(content);
    else await content(sink);
    await file.sync();
    // Renamed while still locked, so no sweeper can take the file for a dead writer's in between.
    await Deno.rename(temp, path);
    file.close();
    closed = true;
  } catch (error) {
    if (!closed) file.close();
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
