/**
 * The help text of every subcommand. Kept together so the whole command surface reads in one place.
 *
 * @module
 */
import { REPORTERS } from "../src/report/reporters.ts";

/** `--reporter`'s choices, one line each, from the list of reporters; the first is the default. */
const REPORTER_LINES = REPORTERS.map((row, index) =>
  `                              ${row.name.padEnd(10)}${row.about}${index === 0 ? " (default)" : ""}`
).join("\n");

const RUN = `Usage: conformance [run] [options]

Runs the conformance suites against hosts and reports every result.
With no --host, runs the embedded defaults: fake, fake-minimal and the reference MCP Apps host.
A flag that takes one value may be given once ("--grep a --grep b" is an error); the flags marked
(repeatable) take lists, as "--host a,b" or "--host a --host b". From a clone, pass arguments after "--":
npx -y deno@2.9.6 task -q conformance -- --host fake. Your own host's program and variables (a --config host,
a CONFORMANCE_<HOST>_BIN path) are outside the permission set: "deno task -q conformance:permit -- …" adds
them; a run without it stops before any test and names that command.

Hosts and tests
  --host H[,H…]             hosts to run (repeatable); see "conformance list hosts"
  --suite cli|apps|all      which family of tests (default: all that apply to each host)
  --tier NAME[,NAME…]       only these tiers (repeatable), e.g. behavior, scripted, lifecycle, visibility
  --grep RE                 only tests whose id matches the regular expression
  --rerun-failed REPORT     rerun a report's unexpected results, stale expectations and interrupted tests
                            (REPORT: its report.json or the --out folder): its hosts, tests and the flags
                            that shaped it (flags given here win); "list tests --rerun-failed" is the dry
                            run; "nothing to rerun" exits 0
  --shard I/N               run a deterministic 1/N of the (host, test) pairs; merge with "conformance board".
                            "conformance list tests" with the same flags lists what would run
  --live                    run against real models and products with your own credentials (also CONFORMANCE_LIVE=1)
  --mock-model              run real agent CLIs end to end against a local mock model server
  --config FILE             extra hosts and golden paths (YAML), see the README's "Configuration"
  --suite-server URL        point the MCP Apps hosts (--host reference, mcp-inspector, a web host with
                            {serverUrl}) at another conformance MCP server: its suite's tests run and are
                            reported as <server name>/<its id> (docs/hosts.md, "Run an upstream suite")

Expectations
  --expectations PATH       known failures per host (file or folder, repeatable); default: the built-in set.
                            An entry lists one status or several ("status: [PASS, TIMEOUT]": any is as
                            expected) and may hold only for some host versions (versions: ">=0.20, <0.25";
                            an unknown version: it applies). An unknown host or test id stops the run (exit 2)
  --update-expectations     rewrite the expectations file(s) from this run's results, in place: comments and
                            order kept, only entries of tests that ran touched (so --grep narrows it); refused
                            before any test with --shard, or a file that is unwritable, unparsable or another
                            host's

Reports
  --reporter NAME           how to report (repeatable):
${REPORTER_LINES}
                            Without --out, one of them may print to stdout (pretty then goes to stderr).
                            Without pretty, the terminal still gets the summary line and one "wrote PATH"
                            line per file (on stderr)
  --out DIR                 where report files go (json goes to stdout without --out), with each failure's
                            artifacts: screenshots, traces, a failing CLI test's streams in streams/<host>/.
                            Always holds report.json; an earlier run's evidence there is removed first (and
                            said). Created when missing; a file or an unwritable folder stops the run before
                            any test (exit 2)

Running
  --timeout-multiplier X    scale every timeout (slow machines: 2 or 3)
  --retries N               rerun an unexpected result up to N times (0-10, default 0); one that then
                            matches is reported as flaky, a consistent failure stays a failure
  --headful                 show the browser for MCP Apps hosts
  --trace on|off|on-failure keep Playwright traces (default off)
  --profile-dir DIR         browser profile for real web products (default under your cache dir)

Under each result that needs attention, "rerun:" gives the command that reruns exactly that test.
Colour: on a terminal, off with NO_COLOR=1 or TERM=dumb (which also prints one line per result instead of the
live progress line); FORCE_COLOR=1 turns it on in a pipe or CI log, FORCE_COLOR=0 off.

Exit codes: 0 every result as expected, 1 an unexpected result or a stale expectation, 2 usage error (also,
before any test, a named host's binary or the browser missing), 3 harness error, 130/143 interrupted.

Examples
  conformance
  conformance --host gemini --live
  conformance --host claude-code,codex --mock-model --reporter json --out reports
  conformance --host reference --grep visibility --reporter html --out reports`;

const LIST = `Usage: conformance list [hosts|tests] [--host H[,H…]] [--config FILE] [--json] [--all]
                        [--suite S] [--tier T[,T…]] [--grep RE] [--shard I/N] [--mock-model] [--live]
                        [--suite-server URL]

Lists the hosts the harness knows (the registry plus --config hosts) or the tests a run would run.

  hosts        every host with its kind and capabilities (default); the test-only broken variants of the
               reference host are counted, not listed, unless --all or --host names them
  tests        the (host, test) pairs "conformance run" with the same flags would run: the default hosts
               without --host, narrowed by --suite, --tier, --grep and --shard; --mock-model adds the
               mock-model tier, as it does for run
  --rerun-failed REPORT
               list tests: what "run --rerun-failed REPORT" would run (its dry run)
  --all        list hosts: every host, the test-only variants too
  --json       machine-readable output

Examples
  conformance list hosts --all
  conformance list tests --host claude-code --mock-model --tier mock-model
  conformance list tests --host fake --grep ordering --json
  conformance list tests --rerun-failed reports`;

const BOARD = `Usage: conformance board REPORT.json… [--diff OLD.json [--fail-on-regression]] [--out FILE]

Merges JSON reports (shards, or runs of different hosts) into one pass/fail board. All reports must come from
the same suite revision. With --diff, also lists what changed since OLD.json (in the .md, .html and .json
outputs); a host that came or went is one line. --out FILE picks the format by its extension: .md (default)
the board, .html the HTML report, .json the merged report, .xml JUnit; an existing folder gets board.md.
--out may not name an input file.

  --fail-on-regression      exit 1 when a result got worse than in OLD.json: a new FAIL, TIMEOUT or ERROR,
                            or a WARN that was a PASS, INFO or SKIP

Examples
  conformance board shard-1/report.json shard-2/report.json --out board.md
  conformance board today.json --diff yesterday.json
  conformance board shard-*/report.json --diff main/report.json --fail-on-regression --out board.md`;

const PARSE = `Usage: conformance parse --host H [--config FILE] [--exit-code N] [--judge] [FILE|DIR|-]

Normalises a recorded agent-CLI stream (JSON lines, as the host printed them) into the shared event set and
prints one JSON event per line. Reads standard input when FILE is "-" or absent. --exit-code gives the recorded
exit code, for hosts whose stream ends at EOF (their terminal depends on it; default 0).
DIR is a recorded run's folder (a fixture in tests/fixtures/cli/<host>/<case>/, or a failing test's saved
stream under <out>/streams/<host>/): its stdout.jsonl is read with its argv, stderr and exit code, and as the
dialect its meta.json names, so --host may be left out (give --config for a config-file host's shape).
--judge prints, instead of the events, the stream contract's judgement of the replay (exit code, a stop, init
first where required, one terminal and it last, its status, no unparsed line) beside the verdict the run kept;
exit 1 when the contract is broken.

Examples
  claude -p "hi" --output-format stream-json --verbose | conformance parse --host claude-code
  conformance parse reports/streams/my-agent/behavior-streaming
  conformance parse reports/streams/my-agent/behavior-streaming --judge`;

const FAKE_HOST = `Usage: conformance fake-host [ARGS…] PROMPT

The built-in fake agent CLI. It prints the wire sequence scripted by an "@@fake … @@end" block in the prompt
(the argument containing "@@fake", else the last argument), or a short default run. See the README's
"Fake host directive language".`;

const REFERENCE_AGENT =
  `Usage: conformance reference-agent -p PROMPT [--output-format text|json|stream-json] [--continue]
         [--model M] [--dangerously-skip-permissions] [--tools Read,Write,Bash] [--root DIR]
         [--agent NAME] [--json-schema JSON]

The built-in reference agent CLI: a small, strictly conformant agent that asks the model in
$HOME/.reference-agent/config.json ({"baseUrl": …}, OpenAI Chat Completions) and runs its Read, Write and Bash
tools. The "reference-agent" host points it at the mock model; its broken variants ("conformance list hosts
--all") each break one behaviour.`;

const SERVE = `Usage: conformance serve [--listen 127.0.0.1:PORT] [--csp-origins local|public]
                         [--second-listen 127.0.0.1:PORT] [--allow-origin ORIGIN]… [--allow-host NAME]…
                         [--allow-remote]

Starts the conformance MCP server (Streamable HTTP) so you can add it to a real MCP Apps host as a connector.
Binds loopback by default; requests whose Origin or Host is not allowed are rejected. --allow-origin admits a
product's browser origin, --allow-host a tunnel's public host name. The startup banner prints every address.
Request bodies past 4 MiB are answered 413 unread, bodies slower than 30 s 408.

  --listen ADDR             where the server listens (default 127.0.0.1 on a free port); an address beyond
                            loopback (0.0.0.0:PORT) is refused unless --allow-remote is given
  --allow-remote            allow --listen and --second-listen beyond loopback. A peer not on loopback
                            still passes only with a Host named by --allow-host (and, from a browser, an
                            Origin named by --allow-origin): its own Host: 127.0.0.1 does not count
  --csp-origins local|public
                            the two origins the launchers' CSP names, one declared (loads must succeed), one
                            not (loads must be blocked). local (default): two listeners on this machine's
                            loopback, so the CSP tests need no network; what a host on this machine, offline
                            or air-gapped, needs. public: https://modelcontextprotocol.io and
                            https://example.com, for a product reached through a tunnel, whose browser cannot
                            see your loopback
  --second-listen ADDR      also start the second MCP server that visibility/cross-server-blocked needs (add
                            it to the host as another connector); 127.0.0.1:0 picks a free port

Examples
  conformance serve --listen 127.0.0.1:8765
  conformance serve --listen 127.0.0.1:8765 --second-listen 127.0.0.1:8766
  conformance serve --csp-origins public --allow-host my-tunnel.example.net`;

const LOGIN = `Usage: conformance login --host H [--profile-dir DIR] [--config FILE]

Opens a real web product (chatgpt, claude-ai, mistral, or a live web host from --config) in a visible browser
with a persistent profile so you can sign in once; later "--live" runs reuse the profile. The profile lives in
DIR, by default \${XDG_CACHE_HOME:-~/.cache}/conformance/profiles/<host>, apart from your own browser.`;

const DOCTOR = `Usage: conformance doctor [--json]

Reports what is installed and configured: the harness, Deno and the browser with their versions, each host's
binary, the installed version of each pinned program beside its pin (as "deno task hosts:install" recorded
it), and which credential variables are set (presence only, never values). Every path printed exists.

Exit codes: 0, or 1 when the browser the reference host needs is missing, or a pinned program is not
installed or not at its pin (each named on stderr with its fix).`;

const MAIN = `conformance: checks whether a host honours the contract its users depend on.

Usage: conformance [command] [options]

Commands
  run        run the suites (the default command)        conformance run --help
  list       list hosts or tests                         conformance list --help
  board      merge reports into one board, diff them     conformance board --help
  parse      normalise a recorded agent-CLI stream       conformance parse --help
  serve      start the conformance MCP server            conformance serve --help
  login      sign in to a web product once               conformance login --help
  doctor     what is installed and configured            conformance doctor --help
  fake-host  the built-in fake agent CLI                 conformance fake-host --help
  reference-agent  the built-in reference agent CLI     conformance reference-agent --help

  --version  the harness version and suite revision
  --help     this text ("conformance help COMMAND" gives a command's)

${RUN.split("\n").slice(2).join("\n")}`;

/** Help text by subcommand name; `main` is the top level. */
export const HELP: Readonly<Record<string, string>> = {
  main: MAIN,
  run: RUN,
  list: LIST,
  board: BOARD,
  parse: PARSE,
  "fake-host": FAKE_HOST,
  "reference-agent": REFERENCE_AGENT,
  serve: SERVE,
  login: LOGIN,
  doctor: DOCTOR,
};
