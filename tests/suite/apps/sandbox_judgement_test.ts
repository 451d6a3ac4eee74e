import assert from "node:assert/strict";
import type { FrameLink } from "../../../src/protocol.ts";
import { judgeSandboxTokens, proxyOriginProblem } from "../../../suite/apps/catalogue/_sandbox.ts";

const HOST = "http://127.0.0.1:8000";
const PROXY = "http://localhost:8001";

function chain(...links: [sandbox: string | null, origin: string][]): FrameLink[] {
  return [
    { depth: 0, sandbox: null, allow: null, origin: HOST },
    ...links.map(([sandbox, origin], index) => ({ depth: index + 1, sandbox, allow: null, origin })),
  ];
}

/** Layout, then the start of each problem expected (empty: no violation). */
const CASES: [name: string, frames: FrameLink[], problems: string[]][] = [
  [
    "reference: proxy and View both allow-same-origin",
    chain(
      ["allow-scripts allow-same-origin allow-forms", PROXY],
      ["allow-scripts allow-same-origin allow-forms", PROXY],
    ),
    [],
  ],
  [
    "MCP Inspector: unsandboxed proxy, opaque View",
    chain(
      [null, PROXY],
      ["allow-scripts allow-forms", "null"],
    ),
    [],
  ],
  [
    "sandboxed proxy, opaque View",
    chain(
      ["allow-scripts allow-same-origin", PROXY],
      ["allow-scripts", "null"],
    ),
    [],
  ],
  ["nothing sandboxed", chain([null, PROXY], [null, PROXY]), ["No frame"]],
  [
    "escape tokens on the proxy",
    chain(
      ["allow-scripts allow-same-origin allow-top-navigation", PROXY],
      ["allow-scripts allow-same-origin", PROXY],
    ),
    ["the sandbox proxy frame (depth 1"],
  ],
  [
    "escape tokens on the View only",
    chain(
      ["allow-scripts allow-same-origin", PROXY],
      ["allow-scripts allow-popups-to-escape-sandbox", "null"],
    ),
    ["the View's frame (depth 2"],
  ],
  [
    "proxy without allow-same-origin",
    chain(
      ["allow-scripts", "null"],
      ["allow-scripts", "null"],
    ),
    ['the sandbox proxy frame (depth 1, sandbox "allow-scripts", origin null) lacks allow-same-origin'],
  ],
  [
    "single sandboxed frame (no proxy: sandbox-isolation's concern)",
    chain(
      ["allow-scripts allow-same-origin", HOST],
    ),
    [],
  ],
];

for (const [name, frames, expected] of CASES) {
  Deno.test(`judgeSandboxTokens: ${name}`, () => {
    const { problems, inspected } = judgeSandboxTokens(frames);
    assert.equal(problems.length, expected.length, problems.join("\n"));
    expected.forEach((start, index) => assert.ok(problems[index]!.startsWith(start), problems[index]));
    assert.equal(inspected.length, frames.length - 1, "every frame below the host page is named");
  });
}

Deno.test("proxyOriginProblem: only the View's parent against the host page, and only when both are known", () => {
  assert.equal(proxyOriginProblem(chain([null, PROXY], ["allow-scripts", "null"])), null);
  assert.match(
    proxyOriginProblem(chain([null, HOST], ["allow-scripts", "null"])) ?? "",
    /^the sandbox proxy frame \(depth 1, no sandbox attribute, origin http:\/\/127\.0\.0\.1:8000\) has the host/,
  );
  assert.equal(proxyOriginProblem(chain(["allow-scripts allow-same-origin", HOST])), undefined, "no proxy");
  const unknown = chain([null, PROXY], ["allow-scripts", "null"]);
  delete unknown[1]!.origin;
  assert.equal(proxyOriginProblem(unknown), undefined);
});
