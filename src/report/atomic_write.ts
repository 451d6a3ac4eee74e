/**
 * Atomic file writing: the content goes to a temporary file in the same folder, is flushed to disk, and then
 * renamed over the target. A reader sees the previous file or the complete new one, never a part; a crash
 * (or a writer that throws) leaves the previous file untouched.
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

/**
 * Writes `path` atomically. Creates the folder when missing.
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
  const temp = join(dir, `.${basename(path)}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const encoder = new TextEncoder();
  const file = await Deno.open(temp, { write: true, createNew: true, mode: 0o644 });
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
    file.close();
    closed = true;
    await Deno.rename(temp, path);
  } catch (error) {
    if (!closed) file.close();
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}
