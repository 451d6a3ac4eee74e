/**
 * Actions: gesture-gated requests from the View, each bound to a real trigger click, and
 * verified on the host surface by the Runner.
 *
 * @module
 */
import { PUBLIC_CONTROLS } from "../../../src/fixtures.ts";
import { answerFound, type ConversationMatch, type DownloadReceipt } from "../../../src/protocol.ts";
import { probeFetch, withEvidence } from "../harness/csp_probe.ts";
import type { SuiteEnv } from "../harness/env.ts";
import { suiteDeadline } from "../harness/timing.ts";
import type { TestContext } from "../harness/test_api.ts";
import { controlUrl, requireCapability, type SuiteTest } from "./_shared.ts";

function text(value: string) {
  return [{ type: "text" as const, text: value }];
}

/**
 * Whether the conversation shows `marker`, read as upstream reads it: the answer's `ok` is *found* (a miss is
 * `ok: false` without an error); the details, when the Runner gives them, ride in `value`.
 */
async function conversation(t: TestContext, marker: string, timeoutMs: number): Promise<ConversationMatch> {
  const answer = await t.hostOptional({ kind: "conversationContains", marker, timeoutMs });
  const found = answerFound(answer);
  if (typeof found !== "boolean") {
    if (found.unsupported) t.skip('The host does not support "conversationContains"');
    t.fail(`Not testable: the host failed "conversationContains": ${found.error ?? "no reason given"}`);
  }
  const details = answer.value as Partial<ConversationMatch> | undefined;
  return { ...(typeof details === "object" && details !== null ? details : {}), found };
}

/** How the suite states a context code to the host (also how a host that shows the context displays it). */
function contextSentence(code: string): string {
  return `The conformance context code is ${code}.`;
}

/**
 * Whether a conversation match for a context code is what reached the model: a model turn where the host shows
 * roles; where it shows none, a turn that is not the context as the View sent it (a host may display context
 * updates without giving them to the model). `undefined`: nothing on the page can tell.
 */
function reachedModel(match: ConversationMatch, code: string): boolean | undefined {
  if (!match.found) return false;
  if (match.role !== undefined) return match.role === "assistant";
  return match.text?.includes(contextSentence(code)) ? undefined : true;
}

/** Asserts that the context code `code` reached the next model turn, not only the page. */
async function assertReachedModel(t: TestContext, code: string, what: string): Promise<void> {
  const match = await conversation(t, code, 10_000);
  t.assert(match.found, `The next model turn did not see the ${what} ${code}`);
  const reached = reachedModel(match, code);
  if (reached === undefined) {
    t.skip(
      `The ${what} ${code} shows on the page only as the View sent it ("${match.text}") and the host shows no ` +
        "roles: whether it reached the model cannot be told",
    );
  }
  t.assert(
    reached,
    `The ${what} ${code} shows in a ${match.role ?? "non-model"} turn, not in what reached the model`,
    match,
  );
  t.observe(`${what.replaceAll(" ", "-")}-turn`, match);
}

/**
 * Accepts the host's dialog for a triggered request. When the host shows none, says whether the request itself
 * was rejected (the usual reason) rather than blaming the dialog.
 */
async function confirm<T>(
  t: TestContext,
  dialog: "download" | "sampling",
  pending: Promise<T>,
): Promise<{ value: unknown; result: T }> {
  const settled = pending.then((result) => ({ result }), (error: unknown) => ({ error }));
  // A host that rejects outright shows no dialog: do not wait for one.
  const rejected = await Promise.race([settled, t.sleep(100).then(() => undefined)]);
  if (rejected && "error" in rejected) t.fail(`The host rejected the request: ${String(rejected.error)}`);
  const answer = await t.hostOptional({ kind: "confirmDialog", dialog });
  if (answer.unsupported) t.skip(`The host cannot accept a ${dialog} dialog (confirmDialog unsupported)`);
  if (!answer.ok) {
    const early = await Promise.race([settled, t.sleep(1_000).then(() => undefined)]);
    if (early && "error" in early) t.fail(`The host rejected the request: ${String(early.error)}`);
    t.fail(`The host showed no ${dialog} dialog: ${answer.error ?? "no reason given"}`);
  }
  const outcome = await settled;
  if ("error" in outcome) {
    return t.fail(`The request failed after the ${dialog} dialog: ${String(outcome.error)}`);
  }
  return { value: answer.value, result: outcome.result };
}

/** Sends the model context updates, then a user turn, from one trigger click. */
async function contextThenTurn(t: TestContext, env: SuiteEnv, codes: string[]): Promise<void> {
  requireCapability(t, env, "updateModelContext");
  requireCapability(t, env, "message");
  const turn = env.nonce("turn");
  const sent = t.bindTrigger(async () => {
    for (const code of codes) {
      await env.app.updateModelContext({ content: text(contextSentence(code)) });
    }
    return env.app.sendMessage({
      role: "user",
      content: text(`Conformance check ${turn}: reply with the context code you were given.`),
    });
  });
  await t.host({ kind: "clickTrigger", commitDraftedMessage: true });
  const result = await sent.catch((error: unknown) => t.fail(`The request failed: ${String(error)}`));
  t.assert(!result.isError, "The host rejected the ui/message");
  // No user turn, no model turn: the context cannot be observed (messages/add-to-conversation says why).
  const asked = await conversation(t, turn, 8_000);
  if (!asked.found) t.skip("The user turn that should carry the context never reached the conversation");
}

/** The action tests. */
export const ACTIONS: SuiteTest[] = [
  {
    id: "links/open-external",
    name: "ui/open-link opens the URL",
    clause: "SHOULD",
    vantage: "host",
    manual: true,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "openLinks");
      const origin = env.config().controls?.declared ?? PUBLIC_CONTROLS.declared;
      const url = controlUrl(origin, "link.html", `?n=${env.nonce("link")}`);
      const opened = t.bindTrigger(() => env.app.openLink({ url }));
      await t.host({ kind: "clickTrigger", consent: "link" });
      const result = await opened.catch((error: unknown) =>
        t.fail(`ui/open-link was rejected: ${String(error)}`)
      );
      t.assert(!result.isError, "The host answered ui/open-link with an error");
      const check = await t.hostOptional({ kind: "checkLinkOpen", url });
      if (check.unsupported) t.skip("The host cannot tell whether a link opened (checkLinkOpen unsupported)");
      if (!check.ok) {
        // A tab whose page cannot load may not show the URL to the Runner: an unreachable origin leaves a
        // host that opened the link looking like one that did not. The View can reach the origin when it is
        // declared (connectDomains) and up, so a fetch that fails with no CSP violation tells the two apart.
        const reach = await withEvidence(
          env.violations,
          origin,
          () => probeFetch(controlUrl(origin, "ok.txt")),
        );
        if (reach.verdict !== "allowed" && !reach.violation) {
          t.notTestable(
            `the link's origin ${origin} is unreachable (a fetch from the View failed with no CSP violation), ` +
              `so a tab that opened and failed to load cannot be told from none: ${check.error ?? url}`,
          );
        }
      }
      t.assert(check.ok, `The link did not open: ${check.error ?? url}`);
    },
  },
  {
    id: "messages/add-to-conversation",
    name: "ui/message adds a user turn to the conversation",
    clause: "SHOULD",
    vantage: "host",
    manual: true,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "message");
      const marker = env.nonce("message");
      const sent = t.bindTrigger(() =>
        env.app.sendMessage({ role: "user", content: text(`Conformance message ${marker}`) })
      );
      await t.host({ kind: "clickTrigger", commitDraftedMessage: true });
      const result = await sent.catch((error: unknown) =>
        t.fail(`ui/message was rejected: ${String(error)}`)
      );
      t.assert(!result.isError, "The host answered ui/message with an error");
      const match = await conversation(t, marker, 8_000);
      t.assert(match.found, `The message ${marker} is not in the conversation`);
      if (match.role !== undefined) t.assertEqual(match.role, "user", "The role of the added turn");
    },
  },
  {
    id: "model-context/provide-future-turns",
    name: "ui/update-model-context reaches the next model turn",
    clause: "SHOULD",
    vantage: "host",
    manual: true,
    async run(t: TestContext, env: SuiteEnv) {
      const code = env.nonce("ctx");
      await contextThenTurn(t, env, [code]);
      await assertReachedModel(t, code, "context code");
    },
  },
  {
    id: "model-context/last-wins",
    name: "Only the last model context update reaches the next turn",
    clause: "SHOULD",
    vantage: "host",
    manual: true,
    async run(t: TestContext, env: SuiteEnv) {
      const stale = env.nonce("stale");
      const fresh = env.nonce("fresh");
      await contextThenTurn(t, env, [stale, fresh]);
      await assertReachedModel(t, fresh, "last context code");
      const staleMatch = await conversation(t, stale, 500);
      t.assert(!staleMatch.found, `The superseded context code ${stale} reached the model`);
    },
  },
  {
    id: "download-file/confirm",
    name: "ui/download-file downloads the file under its sanitized name",
    clause: "SHOULD",
    vantage: "host",
    manual: true,
    draft: true,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "downloadFile");
      const body = `conformance download ${env.nonce("download")}`;
      const downloaded = t.bindTrigger(() =>
        env.app.downloadFile({
          contents: [{
            type: "resource",
            resource: { uri: "file:///tmp/../../conformance/report.txt", mimeType: "text/plain", text: body },
          }],
        })
      );
      await t.host({ kind: "clickTrigger", consent: "download" });
      const { value, result } = await confirm(t, "download", downloaded);
      const receipt = value as DownloadReceipt | undefined;
      t.assert(!result.isError, "The host answered ui/download-file with an error");
      t.assertEqual(receipt?.filename, "report.txt", "The downloaded file's name");
      if (receipt?.content !== undefined) {
        t.assertEqual(receipt.content, body, "The downloaded file's content");
      }
    },
  },
  {
    id: "sampling/create-message",
    name: "sampling/createMessage returns a completion after the user allows it",
    clause: "SHOULD",
    vantage: "host",
    manual: true,
    draft: true,
    async run(t: TestContext, env: SuiteEnv) {
      requireCapability(t, env, "sampling");
      const sampled = t.bindTrigger(() =>
        env.app.createSamplingMessage({
          messages: [{
            role: "user",
            content: { type: "text", text: "Say hello to the conformance suite." },
          }],
          maxTokens: 32,
        }, { timeout: suiteDeadline(20_000) })
      );
      await t.host({ kind: "clickTrigger", consent: "sampling" });
      const { result } = await confirm(t, "sampling", sampled);
      t.assert(result.content !== undefined, "The sampling result has no content", result);
    },
  },
];
