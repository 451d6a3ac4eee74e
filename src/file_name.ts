/**
 * One rule for the parts of file and folder names the harness makes from ids (a host id, a test id, a context
 * name): the screenshots and traces a browser host writes (src/runner/browser_host.ts) and the reader that
 * finds the traces again after the run (cli/artifacts.ts), a host's profile folder, a CLI test's recordings.
 *
 * @module
 */

/**
 * `text` as a part of a file name: every run of characters other than letters, digits, `_`, `.` and `-`
 * becomes one `_`.
 *
 * @example
 * ```ts
 * import { fileNamePart } from "./file_name.ts";
 * fileNamePart("apps/csp: frame-src"); // "apps_csp_frame-src"
 * ```
 */
export function fileNamePart(text: string): string {
  return text.replaceAll(/[^\w.-]+/g, "_");
}
