import type { CliIo } from './cli-io.js';

/** Writes a command's result: JSON for machines (--json), aligned key/value lines for people. */
export function printResult(io: CliIo, json: boolean, value: unknown, human?: string): void {
  io.stdout.write(`${json ? JSON.stringify(value, null, 2) : (human ?? formatHuman(value))}\n`);
}

function formatHuman(value: unknown, indent = ''): string {
  if (Array.isArray(value)) return value.map((v) => formatHuman(v, indent)).join(`\n${indent}---\n`);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const width = Math.max(...entries.map(([k]) => k.length));
    return entries
      .map(([k, v]) =>
        v && typeof v === 'object' && !Array.isArray(v)
          ? `${indent}${k}:\n${formatHuman(v, `${indent}  `)}`
          : `${indent}${k.padEnd(width)}  ${Array.isArray(v) ? v.join(', ') : String(v)}`,
      )
      .join('\n');
  }
  return `${indent}${String(value)}`;
}
