/**
 * `testLog` prints a line from an integration suite and hands it to the driver, which shows it
 * with the results (measured timings and the like). Plain console.* cannot be captured inside the
 * extension host: VS Code makes the console methods non-writable there.
 */
import { format } from 'node:util';

const KEY = '__pepeIntegrationOutput';

/** Called by index.ts before the suites run; returns the array the lines are collected in. */
export function startOutputCapture(): string[] {
  const lines: string[] = [];
  (globalThis as Record<string, unknown>)[KEY] = lines;
  return lines;
}

export function testLog(...args: unknown[]): void {
  const line = format(...args);
  const lines = (globalThis as Record<string, unknown>)[KEY];
  if (Array.isArray(lines)) lines.push(line);
  console.log(line);
}
