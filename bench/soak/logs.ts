/** The JSON lines the soak's processes append to one log file, and reading them back. */
import { readFileSync } from 'node:fs';

export interface LogLine {
  readonly at: number;
  readonly replica: string;
  readonly event: string;
  readonly [field: string]: unknown;
}

export function readLog(path: string): LogLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogLine);
}
