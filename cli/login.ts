/**
 * `conformance login --host H [--profile-dir DIR]`: a visible browser on the host's own persistent profile
 * (default `${XDG_CACHE_HOME:-~/.cache}/conformance/profiles/<host>`), so the user signs in to the product
 * once; later `--live` runs reuse the profile. Chromium creates the folder (the harness itself may write only
 * under the working folder and temp); when the window closes, a marker without any secret records the sign-in
 * where it can be written, and the command says how to add the conformance server to the product.
 *
 * @module
 */
import { EXIT, HarnessError, UsageError } from "../src/errors.ts";
import { EMPTY_CONFIG, loadConfig } from "../src/config.ts";
import { type CommandSpec, parseCommandLine, stringFlag } from "./args.ts";
import { HELP } from "./help.ts";
import { knownHosts, resolveHosts } from "./hosts.ts";
import type { CliIo } from "./io.ts";
import { chromiumPath, waitGroupGone } from "../src/runner/chromium.ts";
import { ChatHost } from "../hosts/web/chat_host.ts";
import { quietBrowserArgs } from "../src/runner/cdp_process.ts";
import { profileDirFor, writeLoginMarker } from "../hosts/web/profile.ts";

/** The grammar of `conformance login`. */
export const LOGIN_SPEC: CommandSpec = {
  name: "login",
  flags: { host: { type: "string" }, "profile-dir": { type: "string" }, config: { type: "string" } },
  positionals: { min: 0, max: 0, what: "no arguments" },
};

/** The `login` subcommand. */
export async function loginCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandLine(LOGIN_SPEC, args);
  if (parsed.help) {
    io.out(`${HELP.login}\n`);
    return EXIT.ok;
  }
  const name = stringFlag(parsed, "host");
  if (name === undefined) throw new UsageError(`"conformance login" needs --host H, e.g. --host chatgpt`);
  const configPath = stringFlag(parsed, "config");
  const config = configPath ? await loadConfig(configPath) : EMPTY_CONFIG;
  const [entry] = resolveHosts([name], knownHosts(config));
  if (entry!.kind !== "web") {
    throw new UsageError(`Host "${name}" is a ${entry!.kind} host: "login" is for web products only`);
  }
  const host = entry!.create();
  if (!(host instanceof ChatHost) || !host.persistent) {
    throw new UsageError(
      `Host "${name}" keeps no browser profile: "login" is for real web products (chatgpt, claude-ai, mistral)`,
    );
  }
  const profileDir = profileDirFor(name, stringFlag(parsed, "profile-dir"));
  await openForSignIn({ url: host.loginUrl, profileDir, product: host.product, io });
  await writeLoginMarker(profileDir, name);
  io.out(`Signed in to ${host.product}: profile "${profileDir}".\n`);
  if (host.connectorHelp !== null) io.out(`Add the conformance server: ${host.connectorHelp}.\n`);
  io.out(`Then run: conformance run --host ${name} --live\n`);
  return EXIT.ok;
}

/** Opens `url` headful on `profileDir` and waits until the user closes the browser. */
async function openForSignIn(
  options: { url: string; profileDir: string; product: string; io: CliIo },
): Promise<void> {
  const executable = chromiumPath();
  if (executable === null) {
    throw new HarnessError(
      'No Chromium found: install Debian\'s "chromium" or set CONFORMANCE_CHROMIUM to a Chromium binary',
    );
  }
  if (Deno.build.os === "linux" && !Deno.env.get("DISPLAY") && !Deno.env.get("WAYLAND_DISPLAY")) {
    throw new UsageError(
      `"conformance login" opens a browser window, and there is no display: run it on a desktop session ` +
        `(or over ssh -X), then copy the profile folder "${options.profileDir}" here`,
    );
  }
  options.io.err(
    `Opening ${options.product} on profile "${options.profileDir}": sign in, then close the browser window.\n`,
  );
  const child = new Deno.Command(executable, {
    args: [...quietBrowserArgs(), `--user-data-dir=${options.profileDir}`, "--new-window", options.url],
    stdin: "null",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  const status = await child.status;
  // The browser's helpers share its process group; none may outlive the sign-in.
  await waitGroupGone(child.pid, 10_000);
  if (!status.success && status.signal === null) {
    throw new HarnessError(`The browser "${executable}" ended with code ${status.code} before the sign-in`);
  }
}
