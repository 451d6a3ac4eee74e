/**
 * How a run rewrites an expectations file, edited in place through the `yaml` Document API so that comments,
 * order and the style of untouched entries survive. Only entries of tests that ran are touched (a narrowed
 * run, `--grep` or `--tier`, leaves the others as they are), and only when the result disagrees with them:
 *
 * - a failure (FAIL, WARN, TIMEOUT, ERROR) among the listed statuses: untouched, reason and comments kept;
 * - a failure not listed: the entry's status and reason become the result's (its `versions` stay);
 *   an unlisted test gets a new entry, appended in run order;
 * - a PASS the entry does not list (stale), or an INFO: the entry goes;
 * - a SKIP says nothing either way: untouched;
 * - an entry whose `versions` exclude the host's version is not this run's to judge: untouched.
 *
 * @module
 */
import { Document, isMap, parseDocument } from "yaml";
import { applies, type Expectation, EXPECTATIONS_SCHEMA, ExpectationsFileSchema } from "./expectations.ts";
import type { TestResult } from "./outcome.ts";

/** One expectations file being rewritten. */
export interface ExpectationDocument {
  readonly file: string;
  readonly doc: Document;
  /** Whether the file does not exist yet. */
  readonly isNew: boolean;
  /** The file's text as read; empty for a new file. */
  readonly text: string;
  /** Whether the update changed it. */
  changed: boolean;
}

/**
 * Parses `text` as an editable expectations document of `host`, or says in one line why it cannot be
 * rewritten (unparsable, malformed, or another host's).
 */
export function openExpectationDocument(
  file: string,
  text: string,
  host?: string,
): ExpectationDocument | { problem: string } {
  const doc = parseDocument(text, { logLevel: "error" });
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!.message.split("\n")[0];
    return { problem: `is not valid YAML (${first})` };
  }
  const parsed = ExpectationsFileSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { problem: `is malformed at ${issue.path.join(".") || "(top level)"}: ${issue.message}` };
  }
  if (host !== undefined && parsed.data.host !== host) {
    return { problem: `lists host "${parsed.data.host}", not "${host}"` };
  }
  return { file, doc, isNew: false, text, changed: false };
}

/** A new, empty expectations document for `host`. */
export function newExpectationDocument(file: string, host: string): ExpectationDocument {
  const doc = new Document({ schema: EXPECTATIONS_SCHEMA, host, tests: {} });
  return { file, doc, isNew: true, text: "", changed: false };
}

/** The host an expectations document lists. */
export function documentHost(document: ExpectationDocument): string {
  return String(document.doc.get("host"));
}

/**
 * Applies `host`'s results to its documents: entries are edited where they stand, new ones go to the first
 * document. `hostVersion` is what the host printed for its version check (`null` when unknown).
 */
export function updateExpectationDocuments(
  documents: readonly ExpectationDocument[],
  host: string,
  results: readonly TestResult[],
  hostVersion: string | null,
): void {
  const primary = documents[0];
  if (primary === undefined) return;
  for (const result of results) {
    if (result.host !== host) continue;
    const holder = documents.find((d) => d.doc.hasIn(["tests", result.test]));
    const entry = holder ? entryOf(holder.doc, result.test) : undefined;
    if (holder && entry && !applies(entry, hostVersion).applies) continue;
    const { status } = result;
    if (status === "SKIP") continue;
    if (status === "PASS" || status === "INFO") {
      if (holder && entry && !(status === "PASS" && entry.statuses.includes("PASS"))) {
        holder.doc.deleteIn(["tests", result.test]);
        holder.changed = true;
      }
      continue;
    }
    if (entry && (entry.statuses as readonly string[]).includes(status)) continue;
    const reason = result.message.trim() || `observed ${status}`;
    if (holder) {
      holder.doc.setIn(["tests", result.test, "status"], status);
      holder.doc.setIn(["tests", result.test, "reason"], reason);
      holder.changed = true;
      continue;
    }
    const tests = primary.doc.get("tests");
    // `tests: {}` (or an emptied map) would otherwise grow as one flow mapping on one line.
    if (isMap(tests) && tests.items.length === 0) tests.flow = false;
    if (!isMap(tests)) primary.doc.set("tests", primary.doc.createNode({}));
    primary.doc.setIn(["tests", result.test], primary.doc.createNode({ status, reason }));
    primary.changed = true;
  }
}

/** The text to write for a document: YAML, or JSON for a `.json` file (JSON has no comments to keep). */
export function renderExpectationDocument(document: ExpectationDocument): string {
  if (document.file.endsWith(".json")) return `${JSON.stringify(document.doc.toJS(), null, 2)}\n`;
  const doc = document.doc.clone();
  // The printer sets a document's closing comment off by a blank line; as the map's own, it follows the last
  // entry directly, as it did in a file without that blank line.
  const blankBefore = /\n[ \t]*\n(?:[ \t]*#[^\n]*\n?)+\s*$/.test(document.text);
  if (doc.comment && isMap(doc.contents) && !doc.contents.comment && !blankBefore) {
    doc.contents.comment = doc.comment;
    doc.comment = null;
  }
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

function entryOf(doc: Document, test: string): Expectation | undefined {
  const node = doc.getIn(["tests", test]);
  if (!isMap(node)) return undefined;
  const value = node.toJSON() as { status?: unknown; reason?: unknown; versions?: unknown };
  const statuses = (Array.isArray(value.status) ? value.status : [value.status]) as Expectation["statuses"];
  return {
    status: statuses[0]!,
    statuses,
    reason: String(value.reason ?? ""),
    ...(typeof value.versions === "string" ? { versions: value.versions } : {}),
  };
}
