/**
 * Suite wiring: every {@linkcode SuiteDriver} a run can use.
 *
 * @module
 */
import type { SuiteDriver } from "../src/suite.ts";
import { cliDriver } from "./cli/driver.ts";
import { appsDriver } from "./apps/driver.ts";

/** All suites, in run order. */
export const SUITES: readonly SuiteDriver[] = [cliDriver, appsDriver];
