import assert from "node:assert/strict";
import { formatShard, inShard, parseShard } from "../src/shard.ts";
import { UsageError } from "../src/errors.ts";

const pairs = Array.from({ length: 40 }, (_, h) => `host-${h % 5}`).flatMap((host, i) =>
  Array.from({ length: 25 }, (_, t) => ({ host, test: `cli/tier-${i % 3}/case-${t}` }))
);

Deno.test("parseShard accepts I/N and formats it back", () => {
  assert.deepEqual(parseShard("2/3"), { index: 2, count: 3 });
  assert.deepEqual(parseShard(" 1/1 "), { index: 1, count: 1 });
  assert.equal(formatShard(parseShard("7/9")), "7/9");
});

Deno.test("parseShard rejects malformed and out-of-range values with a usage error", () => {
  for (const bad of ["", "1", "1/", "/2", "0/3", "4/3", "1/0", "a/b", "1.5/3", "-1/3", "1/3/5", "2 / 3"]) {
    assert.throws(() => parseShard(bad), UsageError, bad);
  }
  assert.throws(() => parseShard("0/3"), /I must be between 1 and 3/);
  assert.throws(() => parseShard("x"), /expected I\/N/);
});

Deno.test("the union of all shards is the whole run, with no overlap", () => {
  for (const count of [1, 2, 3, 4, 7, 16]) {
    const owners = pairs.map((p) =>
      Array.from({ length: count }, (_, i) => i + 1).filter((index) =>
        inShard({ index, count }, p.host, p.test)
      )
    );
    assert.ok(owners.every((o) => o.length === 1), `every pair is in exactly one of ${count} shards`);
    if (count > 1) {
      const sizes = Array.from({ length: count }, (_, i) => owners.filter((o) => o[0] === i + 1).length);
      assert.ok(sizes.every((s) => s > 0), `no empty shard of ${count}: ${sizes}`);
    }
  }
});

Deno.test("shard assignment does not depend on which other pairs are in the run", () => {
  const shard = { index: 2, count: 3 };
  const alone = pairs.slice(0, 10).map((p) => inShard(shard, p.host, p.test));
  const among = pairs.map((p) => inShard(shard, p.host, p.test)).slice(0, 10);
  assert.deepEqual(alone, among);
});
