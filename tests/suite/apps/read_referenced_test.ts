/**
 * `resources/read-referenced` decides from the server's log which reads belong to a render. A host sends the
 * read beside its launcher call, so the server may receive the read first; a copy read at connect time or for
 * an earlier render is not this render's read.
 */
import assert from "node:assert/strict";
import type { ServerLog } from "../../../src/fixtures.ts";
import { READ_LEAD_MS, readsOfRender } from "../../../suite/apps/catalogue/tools.ts";

const URI = "ui://conformance/runner";
const TAG = "render-7";
const T = 1_000_000;

function log(events: {
  reads?: number[];
  launches?: number[];
  sessions?: number[];
}): ServerLog {
  return {
    clientCapabilities: [],
    resourcesRead: (events.reads ?? []).map((at) => ({ uri: URI, at })),
    toolCalls: [
      ...(events.launches ?? []).map((at) => ({ name: "run_conformance", arguments: {}, at })),
      { name: "conformance_server_log", arguments: { marker: `${TAG}-read-referenced` }, at: T + 4_000 },
    ].sort((a, b) => a.at - b.at),
    markers: [],
    methods: (events.sessions ?? []).map((at) => ({ method: "initialize", at })),
  };
}

Deno.test("a read after the launcher call belongs to the render", () => {
  const reads = readsOfRender(
    log({ sessions: [T - 9_000], launches: [T], reads: [T + 20] }),
    "run_conformance",
    TAG,
    URI,
  );
  assert.equal(reads?.count, 1);
  assert.equal(reads?.launcherCallAt, T);
});

Deno.test("a read the server received just before the launcher call it was sent beside belongs to the render", () => {
  const reads = readsOfRender(
    log({ sessions: [T - 9_000], launches: [T], reads: [T - 900] }),
    "run_conformance",
    TAG,
    URI,
  );
  assert.equal(reads?.count, 1);
});

Deno.test("a read from before the host's session (a connect-time cache) does not", () => {
  const reads = readsOfRender(
    log({ sessions: [T - 1_500, T - 1_000], launches: [T], reads: [T - 1_200] }),
    "run_conformance",
    TAG,
    URI,
  );
  assert.equal(reads?.count, 0);
  assert.equal(reads?.nearestEarlier, T - 1_200);
  assert.match(reads?.boundary ?? "", /new session \(initialize\)/);
});

Deno.test("a read older than the lead, or from before an earlier launcher call, does not", () => {
  const old = readsOfRender(
    log({ launches: [T], reads: [T - READ_LEAD_MS - 1] }),
    "run_conformance",
    TAG,
    URI,
  );
  assert.equal(old?.count, 0);
  assert.equal(old?.boundary, undefined);
  const earlier = readsOfRender(
    log({ launches: [T - 2_000, T], reads: [T - 2_100, T - 2_000] }),
    "run_conformance",
    TAG,
    URI,
  );
  assert.equal(earlier?.count, 0);
  assert.match(earlier?.boundary ?? "", /earlier run_conformance call/);
});

Deno.test("a render with no launcher call before it is not judged", () => {
  assert.equal(readsOfRender(log({ reads: [T] }), "run_conformance", TAG, URI), undefined);
});
