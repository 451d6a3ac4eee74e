/**
 * The harness version and the suite revision. Reports carry both; `conformance board` refuses to merge
 * reports of different suite revisions. Bump `SUITE_REVISION` whenever a test is added, removed or changes
 * what it asserts.
 *
 * @module
 */

/** The harness release, kept equal to `version` in deno.json (a test checks it). */
export const HARNESS_VERSION = "0.1.0";

/** The revision of the test catalogue. */
export const SUITE_REVISION = "2026.11.30";
