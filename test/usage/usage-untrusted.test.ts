/**
 * A usage log is anyone's data (docs/usage.md#reading-a-log-prompt-build-usage):
 * what it holds reaches a terminal with its escapes shown, never acted on;
 * a time is read only as an ISO 8601 time with its offset; and a name in the
 * Markdown meant for a pull request mentions no one. In-process, no CLI.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../compiler/cli/main.js';
import { usageMarkdown } from '../../compiler/cli/usage/markdown.js';
import { usageText } from '../../compiler/cli/usage/text.js';
import { terminalSafe } from '../../compiler/diagnostics/terminal-safe.js';
import { usageReport, type UsageReport } from '../../compiler/usage/usage-report.js';
import { tempDir } from '../helpers/tree.js';

const ESCAPE = 'Jan 1 2024 (\u001b]0;pwn\u0007)';

/** A record as `jsonlUsageSink` writes it, with these fields changed. */
const recordLine = (fields: Record<string, unknown>): string =>
  JSON.stringify({
    v: 1,
    time: '2026-03-02T09:00:00.000Z',
    provider: 'anthropic',
    api: 'messages',
    model: 'claude-sonnet-4-5-20250929',
    profile: 'default',
    agent: null,
    staticPrefixHash: 'sha256:' + 'a'.repeat(64),
    bundle: null,
    tokens: { read: 0, written: 1000, written5m: 1000, written1h: 0, uncached: 40, input: 1040, output: 100 },
    ttl: null,
    responseId: null,
    requestId: null,
    session: null,
    miss: null,
    ...fields,
  });

async function reportOf(lines: string[]): Promise<UsageReport> {
  const log = path.join(await tempDir('pb-usage-untrusted-'), 'usage.jsonl');
  await fs.writeFile(log, lines.join('\n') + '\n');
  return usageReport([log]);
}

const emptyReport = (from: string | null, to: string | null): UsageReport => ({ logs: ['a.jsonl'], records: 1, from, to, bundlePrefixes: 0, prefixes: [], skipped: { count: 0, first: [] } });

describe('usage: a log is untrusted', () => {
  it('shows the summary line’s times with their escapes made visible in the terminal text', () => {
    const text = usageText(emptyReport(ESCAPE, ESCAPE), terminalSafe);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('Jan 1 2024 (\\e]0;pwn\\x07)');
  });

  it('skips and names a line whose time is not an ISO 8601 time with its offset, and reads the valid line', async () => {
    const report = await reportOf([recordLine({ time: ESCAPE }), recordLine({ time: '2026-03-02T09:00:00' }), recordLine({})]);
    expect(report.records).toBe(1);
    expect(report.from).toBe('2026-03-02T09:00:00.000Z');
    expect(report.skipped.count).toBe(2);
    expect(report.skipped.first.map((s) => [s.line, s.problem])).toEqual([
      [1, 'time is not an ISO 8601 time'],
      [2, 'time is not an ISO 8601 time'],
    ]);
  });

  it('puts a profile, an agent and a model in code spans in the Markdown, so a name like @org/team mentions no one', async () => {
    const markdown = usageMarkdown(await reportOf([recordLine({ profile: '@org/team', model: '@org/model' }), recordLine({ profile: null, agent: '@org/agent' })]));
    const outsideCode = markdown.replace(/`[^`\n]*`/g, '');
    expect(markdown).toContain('`@org/team`');
    expect(markdown).toContain('`@org/agent`');
    expect(outsideCode).not.toContain('@');
  });

  it.skipIf(process.platform === 'win32')('refuses a log that is a FIFO without waiting for a writer, in the check and in the reader', async () => {
    const fifo = path.join(await tempDir('pb-usage-fifo-'), 'usage.jsonl');
    execFileSync('mkfifo', [fifo]);
    await expect(usageReport([fifo])).rejects.toThrow('is not a regular file');
    let err = '';
    const code = await main(['usage', fifo], { out: () => undefined, err: (text) => void (err += text) });
    expect([code, err]).toEqual([2, `prompt-build usage: ${fifo} is not a regular file`]);
  });
});
