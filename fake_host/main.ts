// Runs the fake host straight from source: `deno run fake_host/main.ts ARGS…` (same as `conformance fake-host`).
import { main } from "./mod.ts";
Deno.exit(await main(Deno.args));
