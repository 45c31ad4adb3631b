/**
 * A usage log is anyone's data (docs/usage.md#reading-a-log-prompt-build-usage):
 * what it holds reaches a terminal with its escapes shown, never acted on;
 * a time is read only as an ISO 8601 time with its offset; and a name in the
 * Markdown meant for a pull request mentions no one. In-process, no CLI.
 */
import { describe, expect, it } from 'vitest';
import { usageText } from '../../compiler/cli/usage/text.js';
import { terminalSafe } from '../../compiler/diagnostics/terminal-safe.js';
import type { UsageReport } from '../../compiler/usage/usage-report.js';

const ESCAPE = 'Jan 1 2024 (\u001b]0;pwn\u0007)';

const emptyReport = (from: string | null, to: string | null): UsageReport => ({ logs: ['a.jsonl'], records: 1, from, to, bundlePrefixes: 0, prefixes: [], skipped: { count: 0, first: [] } });

describe('usage: a log is untrusted', () => {
  it('shows the summary line’s times with their escapes made visible in the terminal text', () => {
    const text = usageText(emptyReport(ESCAPE, ESCAPE), terminalSafe);
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    expect(text).toContain('Jan 1 2024 (\\e]0;pwn\\x07)');
  });
});
