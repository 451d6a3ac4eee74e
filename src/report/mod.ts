/**
 * Reports: the `conformance-report/1` JSON document and the formats built from it, each listed in
 * {@linkcode REPORTERS} (pretty progress, JUnit, the markdown board, HTML, GitHub Actions annotations, …), merging shard and host reports, diffing two reports, secret redaction and control-character marking.
 * Imports only the outcome model.
 *
 * @module
 */
export * from "./schema.ts";
export * from "./report_error.ts";
export * from "./reporter.ts";
export * from "./reporters.ts";
export * from "./redact.ts";
export * from "./sanitize.ts";
export * from "./atomic_write.ts";
export * from "./board_grid.ts";
export * from "./pretty.ts";
export * from "./json.ts";
export * from "./junit.ts";
export * from "./markdown.ts";
export * from "./html.ts";
export * from "./github.ts";
export * from "./merge.ts";
export * from "./diff.ts";
export * from "./board.ts";
export * from "./create.ts";
export * from "./verdict.ts";
export * from "./duration.ts";
export * from "./details.ts";
