// The `conformance` command. Filled in by the foundation work.
console.error("conformance: not built yet");
Deno.exit(3);
