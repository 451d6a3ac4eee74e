/**
 * The README and every page under `docs/` link only to what is in the repository: each relative link names a
 * file or folder that exists inside it, and each `#anchor` names a heading of the page it points to (GitHub's
 * heading ids). The README stays a user's guide: at most 15 KiB.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const README_LIMIT_BYTES = 15 * 1024;

/** A link as written: the page it is on, the line, and its target. */
export interface DocLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

function markdownPages(folder: string): string[] {
  const pages: string[] = [];
  for (const entry of Deno.readDirSync(new URL(folder, ROOT))) {
    const relative = `${folder}${entry.name}`;
    if (entry.isDirectory) pages.push(...markdownPages(`${relative}/`));
    else if (entry.name.endsWith(".md")) pages.push(relative);
  }
  return pages.sort();
}

/** The page's lines with fenced code blocks blanked and inline code spans removed. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, "");
  });
}

/** Every inline link `[text](target)` and reference definition `[name]: target` outside code. */
export function linksOf(file: string, text: string): DocLink[] {
  const links: DocLink[] = [];
  proseLines(text).forEach((line, index) => {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ file, line: index + 1, target: match[1]! });
    }
    const definition = /^\s{0,3}\[(?!\^)[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition) links.push({ file, line: index + 1, target: definition[1]! });
  });
  return links;
}

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingId(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The ids of a page's headings, with GitHub's `-1`, `-2` suffixes for repeats. */
export function anchorsOf(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLinesKeepingCode(text)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const id = headingId(heading[1]!);
    const count = seen.get(id) ?? 0;
    seen.set(id, count + 1);
    ids.add(count === 0 ? id : `${id}-${count}`);
  }
  return ids;
}

/** Lines outside fenced code blocks, code spans kept (a heading's id keeps their text). */
function proseLinesKeepingCode(text: string): string[] {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

function exists(url: URL): boolean {
  try {
    Deno.statSync(url);
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with one link, or null when it resolves inside the repository. */
export function brokenLink(link: DocLink, read: (url: URL) => string | null): string | null {
  const where = `${link.file}:${link.line}: ${link.target}`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) {
    return /^(https?|mailto):/i.test(link.target) ? null : `${where}: not a web or relative link`;
  }
  const [pathPart, anchor] = link.target.split("#", 2) as [string, string | undefined];
  const page = new URL(link.file, ROOT);
  const target = pathPart === "" ? page : new URL(decodeURIComponent(pathPart), page);
  if (!target.href.startsWith(ROOT.href)) return `${where}: points outside the repository`;
  if (!exists(target)) return `${where}: no such file`;
  if (anchor === undefined || anchor === "") return null;
  if (!target.pathname.endsWith(".md")) return `${where}: an anchor into a file that is not Markdown`;
  const text = read(target);
  if (text === null) return `${where}: cannot read the page`;
  return anchorsOf(text).has(anchor.toLowerCase()) ? null : `${where}: no heading with id "${anchor}"`;
}

function readPage(url: URL): string | null {
  try {
    return Deno.readTextFileSync(url);
  } catch {
    return null;
  }
}

Deno.test("every relative link of the README and docs/ resolves inside the repository", () => {
  const pages = ["README.md", ...markdownPages("docs/")];
  const links = pages.flatMap((file) => linksOf(file, Deno.readTextFileSync(new URL(file, ROOT))));
  assert.ok(links.length > 20, `links found: ${links.length}`);
  const broken = links.map((link) => brokenLink(link, readPage)).filter((problem) => problem !== null);
  assert.deepEqual(broken, []);
});

Deno.test("the README is a user's guide of at most 15 KiB", () => {
  const bytes = Deno.statSync(new URL("README.md", ROOT)).size;
  assert.ok(bytes <= README_LIMIT_BYTES, `README.md is ${bytes} bytes, more than ${README_LIMIT_BYTES}`);
});

Deno.test("the link check finds a missing file, a missing heading and a link out of the repository", () => {
  const check = (target: string) => brokenLink({ file: "docs/ci.md", line: 1, target }, readPage);
  assert.equal(check("hosts.md#a-web-host-from-yaml"), null);
  assert.equal(check("#the-action"), null);
  assert.equal(check("../schemas/report.schema.json"), null);
  assert.equal(check("https://example.com/x"), null);
  assert.match(check("nowhere.md") ?? "", /no such file/);
  assert.match(check("hosts.md#no-such-heading") ?? "", /no heading with id "no-such-heading"/);
  assert.match(check("../../elsewhere/NOTES.md") ?? "", /outside the repository/);
  assert.deepEqual([...anchorsOf("# `conformance serve`\n## A, b\n## A, b\n```\n# not a heading\n```\n")], [
    "conformance-serve",
    "a-b",
    "a-b-1",
  ]);
  assert.deepEqual(
    linksOf("x.md", "[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```\n[g]: h.md\n[^1]: note").map((link) =>
      link.target
    ),
    ["b.md", "h.md"],
  );
});
