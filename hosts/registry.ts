/**
 * The one list of hosts. Adding a host is one file in `hosts/cli/`, `hosts/web/` or `hosts/desktop/` plus one
 * line here; every tier is parametrised over this list.
 *
 * @module
 */
import type { HostEntry } from "../src/host.ts";
import { fakeHost } from "./cli/fake.ts";
import { fakeMinimalHost } from "./cli/fake_minimal.ts";

/** Every built-in host, in listing order. */
export const HOSTS: readonly HostEntry[] = [
  fakeHost,
  fakeMinimalHost,
];

/** Hosts a plain `conformance run` uses when none is named. */
export const DEFAULT_HOSTS: readonly string[] = ["fake", "fake-minimal", "reference"];
