/**
 * `prompt-build report --usage LOG…` (docs/usage.md#reading-a-log-prompt-build-usage): the
 * HTML report of the project of usage-log.ts with the usage view of its log
 * — the table of `prompt-build usage`, the misses with their causes, the TTL
 * verdict — and a profile name from the log that is markup shown as text.
 * Run in-process through `main`, as the CLI runs it.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../compiler/cli/main.js';
import { writeUsageProject, type UsageProject } from './usage-log.js';

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (text) => void (out += text), err: (text) => void (err += text) });
  return { code, out, err };
}

const HOSTILE = '<img src=x onerror=alert(1)>"\'&';

let project: UsageProject;
let page: string;
let usage: string;

beforeAll(async () => {
  project = await writeUsageProject();
  const lines = (await fs.readFile(project.log, 'utf8')).trimEnd().split('\n');
  const hostile = { ...JSON.parse(lines.at(-1)!), time: '2026-03-02T11:00:00.000Z', profile: HOSTILE, agent: null };
  const log = path.join(project.root, 'with-hostile.jsonl');
  await fs.writeFile(log, [...lines, JSON.stringify(hostile)].join('\n'));
  const result = await run('report', project.before, project.after, '--usage', log, '--out-file', '-', '--root', project.root);
  expect(result).toMatchObject({ code: 0, err: '' });
  page = result.out;
  usage = /<section id="usage">[\s\S]*?<\/section>/.exec(page)![0];
}, 60_000);

/** The cells of the usage table's rows, as text. */
function rows(): string[][] {
  const body = /<table class="usage">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(usage)![1]!;
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, '')));
}

describe('prompt-build report --usage', () => {
  it('shows the table of prompt-build usage, per profile × prefix × model, with its figures', () => {
    expect(page).toContain('<a href="#usage">Usage</a>');
    const table = rows();
    expect(table.map((row) => [row[0], row[2], row[3], row[4]])).toEqual([
      ['default', 'claude-sonnet-4-5-20250929', '5', '60.0 %'],
      ['agent explore', 'gpt-5-2025-08-07', '3', '66.7 %'],
      ['simple', 'claude-sonnet-4-5-20250929', '3', '0.0 %'],
      ['default', 'claude-sonnet-4-5-20250929', '2', '50.0 %'],
      ['&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;', 'gpt-5-2025-08-07', '1', '100.0 %'],
    ]);
    // read, written, uncached, cost, saved of default's first prefix: as `usage` counts them.
    expect(table[0]!.slice(5)).toEqual(['9,000', '6,000', '200', '8,600', '43.4 %']);
  });

  it('gives each prefix its misses with their likely causes, and the TTL advisor’s verdict', () => {
    expect(usage).toContain('<td>system_changed: section `tone` changed</td><td class="n">1</td><td class="n">2,900</td>');
    expect(usage).toMatch(/<td>below-minimum<\/td><td class="n">3<\/td><td class="n">–<\/td><td>the prefix is below the model&#39;s minimum/);
    expect(usage).toContain('1h saves 1,200 (14.3 %)');
  });

  it('shows a profile name from the log that is markup as text, never as markup', () => {
    expect(usage).not.toContain('<img');
    expect(usage).toContain('profile &lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
  });

  it('refuses a usage log that does not exist, with exit 2', async () => {
    const missing = path.join(project.root, 'nope.jsonl');
    expect(await run('report', project.after, '--usage', missing, '--out-file', '-')).toMatchObject({ code: 2, err: expect.stringContaining(`${missing} does not exist`) });
  });
});
