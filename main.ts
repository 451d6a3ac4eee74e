/**
 * The `conformance` command: parse arguments, call `src/cli`, map errors to exit codes. Nothing else.
 *
 * @module
 */
if (import.meta.main) {
  const args = Deno.args;
  if (args[0] === "fake-host" && args[1] !== "--help" && args[1] !== "-h") {
    // The fake host is re-invoked per test; it must not pay for loading the CLI.
    const { main } = await import("./fake_host/mod.ts");
    Deno.exit(await main(args.slice(1)));
  }
  const { runCli } = await import("./src/cli/mod.ts");
  const { processIo } = await import("./src/cli/io.ts");
  const { exitCodeOf, UsageError } = await import("./src/errors.ts");
  let code: number;
  try {
    code = await runCli(args, processIo());
  } catch (error) {
    code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    const known = error instanceof Error && "exitCode" in error;
    console.error(
      `conformance: ${known || error instanceof UsageError ? message : `internal error: ${message}`}`,
    );
    if (!known && Deno.env.get("CONFORMANCE_DEBUG")) console.error(error);
  }
  Deno.exit(code);
}
