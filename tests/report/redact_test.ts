import assert from "node:assert/strict";
import { redact, REDACTED, redactResult, redactValue, secretsFromEnv } from "../../src/report/redact.ts";
import { result } from "./_fixtures.ts";

const SECRETS: [string, string, string][] = [
  ["Anthropic key", "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx_yz-0123456789 used", "key [REDACTED] used"],
  ["OpenAI key", "OPENAI sk-proj-abcdefghijklmnop1234567890 end", "OPENAI [REDACTED] end"],
  ["plain sk- key", "sk-abcdefghijklmnopqrstuv", "[REDACTED]"],
  ["Google key", "url?key=AIzaSyA-1234567890abcdefghijklmnopqrstu&x=1", "url?key=[REDACTED]&x=1"],
  ["GitHub token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789", "token [REDACTED]"],
  ["GitHub fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijkl", "[REDACTED]"],
  ["bearer", "sent Bearer abc123.def456-xyz", "sent Bearer [REDACTED]"],
  ["Authorization header", "Authorization: Bearer abc123def456", "Authorization: Bearer [REDACTED]"],
  ["Authorization Basic", "authorization: Basic dXNlcjpwYXNz", "authorization: Basic [REDACTED]"],
  ["JSON authorization", '{"Authorization":"sometoken123"}', '{"Authorization":"[REDACTED]"}'],
  [
    "cookie header",
    "Cookie: session=abc123; theme=dark\nnext line",
    "Cookie: session=[REDACTED]; theme=[REDACTED]\nnext line",
  ],
  ["set-cookie", "set-cookie: sid=xyz; Path=/", "set-cookie: sid=[REDACTED]; Path=[REDACTED]"],
  [
    "JWT",
    "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok",
    "jwt [REDACTED] ok",
  ],
  ["api_key=", "GET /v1?api_key=abc123xyz&q=1", "GET /v1?api_key=[REDACTED]&q=1"],
  ["password field", '"password": "hunter2"', '"password": "[REDACTED]"'],
  ["x-api-key header", "x-api-key: 0123456789abcdef", "x-api-key: [REDACTED]"],
  ["AWS key id", "AKIAIOSFODNN7EXAMPLE", "[REDACTED]"],
];

for (const [name, input, expected] of SECRETS) {
  Deno.test(`redact removes secrets: ${name}`, () => {
    assert.equal(redact(input), expected);
    assert.equal(redact(expected), expected, "redaction is idempotent");
  });
}

Deno.test("redact leaves ordinary prose alone", () => {
  const prose = [
    "Bearer tokens are not supported by this host",
    "Basic support is missing",
    "the task-runner skipped cli/scripted/ordering (expected 3 events)",
    "Cookie jar empty",
    "password prompt appeared",
    "token usage: 1234 in, 56 out",
  ];
  for (const text of prose) assert.equal(redact(text), text);
});

Deno.test("redact removes given literal secrets", () => {
  assert.equal(redact("echo s3cr3t-value-42 done", ["s3cr3t-value-42"]), `echo ${REDACTED} done`);
  assert.equal(redact("short abc", ["abc"]), "short abc", "literals under 8 characters are ignored");
});

Deno.test("redactValue walks objects and replaces secret-named fields whole", () => {
  const value = {
    headers: { Cookie: "a=1", authorization: "x", "content-type": "text/plain" },
    argv: ["--key", "sk-ant-abcdefghijklmnop"],
    nested: [{ apiKey: "plain", tokens: 12, token: "" }],
    env: { GH_TOKEN: "t", ANTHROPIC_API_KEY: "k", max_tokens: "100", HOME: "/root" },
  };
  assert.deepEqual(redactValue(value), {
    headers: { Cookie: REDACTED, authorization: REDACTED, "content-type": "text/plain" },
    argv: ["--key", REDACTED],
    nested: [{ apiKey: REDACTED, tokens: 12, token: "" }],
    env: { GH_TOKEN: REDACTED, ANTHROPIC_API_KEY: REDACTED, max_tokens: "100", HOME: "/root" },
  });
});

Deno.test("redactResult redacts message and details, nothing else", () => {
  const input = result("fake", "cli/a", "FAIL", {
    message: "got Bearer abcdef123456",
    details: { stderr: "ghp_abcdefghijklmnopqrstuvwxyz0123" },
  });
  const out = redactResult(input);
  assert.equal(out.message, "got Bearer [REDACTED]");
  assert.deepEqual(out.details, { stderr: REDACTED });
  assert.equal(out.test, "cli/a");
  assert.equal(input.message, "got Bearer abcdef123456", "the input is not modified");
});

Deno.test("secretsFromEnv takes values of secret-named variables only", () => {
  const env = {
    ANTHROPIC_API_KEY: "custom-key-value-1",
    GH_TOKEN: "another-secret-22",
    MY_PASSWORD: "short",
    HOME: "/home/someone-long",
    PATH: "/usr/bin:/bin",
  };
  assert.deepEqual(secretsFromEnv(env).sort(), ["another-secret-22", "custom-key-value-1"]);
});
