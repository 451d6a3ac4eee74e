/**
 * The `conformance` command: parse arguments, call `cli/`, map errors to exit codes. Nothing else.
 *
 * @module
 */
if (import.meta.main) {
  const args = Deno.args;
  if (args[0] === "__reaper") {
    // The run's witness (src/exec/reaper.ts): ends the hosts' groups if the harness is killed outright.
    const { reaperMain } = await import("./src/exec/reaper.ts");
    Deno.exit(await reaperMain(Deno.stdin.readable, undefined, args[1]));
  }
  if (args[0] === "fake-host" && args[1] !== "--help" && args[1] !== "-h") {
    // The fake host is re-invoked per test; it must not pay for loading the CLI.
    const { main } = await import("./fake_host/mod.ts");
    Deno.exit(await main(args.slice(1)));
  }
  if (args[0] === "reference-agent" && args[1] !== "--help" && args[1] !== "-h") {
    // The reference agent is re-invoked per host run, like the fake host.
    const { main } = await import("./reference_agent/mod.ts");
    Deno.exit(await main(args.slice(1)));
  }
  if (args[0] === "fake-acp-agent") {
    // The fake ACP agent is re-invoked per ACP test, like the fake host.
    const { main } = await import("./fake_acp_agent/mod.ts");
    Deno.exit(await main(args.slice(1)));
  }
  if (Deno.env.get("CONFORMANCE_PERMITTED") === "1") {
    // Started again by conformance:permit: the run ends when the first harness is gone (cli/permit.ts).
    const { watchPermittingParent } = await import("./cli/permit.ts");
    watchPermittingParent();
  }
  const { runCli } = await import("./cli/mod.ts");
  const { processIo } = await import("./cli/io.ts");
  let code: number;
  try {
    code = await runCli(args, processIo());
  } catch (error) {
    const { describeFailure } = await import("./cli/failure.ts");
    const failure = describeFailure(error);
    if (failure.line !== "") console.error(`conformance: ${failure.line}`);
    if (failure.internal && Deno.env.get("CONFORMANCE_DEBUG")) console.error(error);
    code = failure.exitCode;
  }
  Deno.exit(code);
}
