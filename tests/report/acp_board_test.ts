/**
 * The ACP board (src/report/acp_board.ts) in the markdown board and report.html: a row per agent with what its
 * `initialize` answer claimed and a mark per `cli/acp/*` case. The results come from real runs of the ACP tier
 * on the fake ACP agent and on its stray-stdout variant (whose initialize fails), so the claims shown are the
 * ones an agent process answered; the standing rules (bold for unexpected) use results built here.
 */
import assert from "node:assert/strict";
import { FAKE_ACP_HOST, FAKE_ACP_VARIANT_HOSTS } from "../../hosts/cli/fake_acp.ts";
import type { CliHostEntry } from "../../src/host.ts";
import type { TestResult } from "../../src/outcome.ts";
import { ACP_INITIALIZE, acpBoard } from "../../src/report/acp_board.ts";
import { renderHtml } from "../../src/report/html.ts";
import { serializeReport } from "../../src/report/json.ts";
import { renderBoardMarkdown } from "../../src/report/markdown.ts";
import { parseReport } from "../../src/report/schema.ts";
import { acpTier } from "../../suite/cli/acp.ts";
import { headlessSettings } from "../_settings.ts";
import { report, result } from "./_fixtures.ts";

const settings = headlessSettings();

/** The ACP tier's results on `entry`, as a report holds them. */
async function tierResults(entry: CliHostEntry): Promise<TestResult[]> {
  const out: TestResult[] = [];
  for (const test of acpTier.list(entry, settings)) {
    const outcome = await acpTier.run(entry, test, settings, settings.signal);
    out.push(result(entry.id, test.id, outcome.status, {
      message: outcome.message ?? "",
      details: outcome.details ?? {},
    }));
  }
  return out;
}

/** The ACP table of a markdown board, as rows of trimmed cells (the header first). */
function acpTable(markdown: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.indexOf("## ACP (Agent Client Protocol)");
  assert.ok(start >= 0, "the board has an ACP section");
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("| ")) break;
    rows.push(line.slice(2, -2).split(" | ").map((cell) => cell.trim()));
  }
  return rows;
}

Deno.test({
  name: "the ACP board shows what a real agent's initialize claimed, and 'not observed' when it failed",
  sanitizeResources: false,
  async fn() {
    const stray = FAKE_ACP_VARIANT_HOSTS.find((entry) => entry.id === "fake-acp:stray-stdout");
    assert.ok(stray, "the stray-stdout variant exists");
    const results = (await Promise.all([FAKE_ACP_HOST, stray].map(tierResults))).flat();
    const initialize = results.find((r) => r.host === FAKE_ACP_HOST.id && r.test === ACP_INITIALIZE);
    assert.equal(initialize?.status, "PASS", initialize?.message);
    assert.equal(results.find((r) => r.host === stray.id && r.test === ACP_INITIALIZE)?.status, "FAIL");
    // Through JSON and back, as `conformance board` reads a report.
    const read = parseReport(serializeReport(report(results)), "report.json");

    const board = acpBoard(read);
    assert.deepEqual(board.rows.map((row) => row.host.id), [FAKE_ACP_HOST.id, stray.id]);
    const [fake, broken] = board.rows;
    assert.equal(fake!.claims?.protocolVersion, 1);
    assert.equal(fake!.claims?.agent, "fake-acp-agent 1.0.0");
    assert.equal(broken!.claims, null, "a failed initialize observed no claims");
    assert.equal(fake!.passed, fake!.ran, "the fake agent passes every case");
    assert.ok(broken!.passed < broken!.ran);

    const table = acpTable(renderBoardMarkdown(read));
    const header = table[0]!;
    assert.deepEqual(header.slice(0, 5), ["Agent", "Protocol", "Agent info", "Claims", "Auth"]);
    assert.equal(header.length, 5 + board.cases.length + 1);
    const fakeRow = table.find((row) => row[0] === FAKE_ACP_HOST.id)!;
    assert.deepEqual(fakeRow.slice(1, 3), ["1", "fake-acp-agent 1.0.0"]);
    assert.deepEqual(fakeRow.slice(5, -1), board.cases.map(() => "✓"));
    assert.equal(fakeRow.at(-1), `${fake!.ran}/${fake!.ran}`);
    const brokenRow = table.find((row) => row[0] === stray.id)!;
    assert.deepEqual(brokenRow.slice(1, 5), ["not observed", "not observed", "not observed", "not observed"]);
    // Unexpected: the results were built expecting PASS.
    assert.equal(brokenRow[5 + board.cases.indexOf("initialize")], "**✗**");

    const html = renderHtml(read);
    assert.match(html, /<table id="acp">/);
    assert.match(html, /<td>1<\/td><td>fake-acp-agent 1\.0\.0<\/td>/);
    assert.match(html, /not observed \(no passing initialize\)/);
    const links = [...html.slice(html.indexOf('<table id="acp">')).matchAll(/href="#r(\d+|undefined)"/g)];
    assert.ok(
      links.length > 0 && links.every((link) => link[1] !== "undefined"),
      "every mark links a result",
    );
  },
});

Deno.test("a known ACP finding is a plain mark, an unexpected one bold; no ACP result, no section", () => {
  const known = result("agent", "cli/acp/unknown-method", "FAIL", {
    expected: "FAIL",
    message: "answered -32603",
  });
  const unexpected = result("agent", "cli/acp/prompt", "FAIL", { message: "no end_turn" });
  const markdown = renderBoardMarkdown(report([known, unexpected]));
  const row = acpTable(markdown).find((cells) => cells[0] === "agent")!;
  // Cases sort by name: prompt, unknown-method.
  assert.deepEqual(row.slice(5), ["**✗**", "✗", "0/2"]);
  assert.deepEqual(row.slice(1, 5), ["not observed", "not observed", "not observed", "not observed"]);
  const none = renderBoardMarkdown(report([result("agent", "cli/stream/init", "PASS")]));
  assert.ok(!none.includes("## ACP"), "a report without ACP results has no ACP section");
  assert.ok(!renderHtml(report([result("agent", "cli/stream/init", "PASS")])).includes('id="acp"'));
});
