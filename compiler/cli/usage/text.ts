/** `prompt-build usage` for a terminal: a heading line per prefix, then its figures, misses and TTL verdict. */
import type { UsageReport } from '../../usage/usage-report.js';
import { changedLine, costLine, count, missesLine, modelOf, neverHitLine, prefixLine, prefixOwner, requestsLine, shortHash, tokensLine, ttlLine } from './describe.js';

export function usageText(report: UsageReport, safe: (s: string) => string): string {
  const lines = [safe(summary(report))];
  for (const usage of report.prefixes) {
    lines.push('', safe(`${prefixOwner(usage)} · prefix ${shortHash(usage.staticPrefixHash)} · ${modelOf(usage)}`));
    const rows: [string, string | null][] = [
      ['requests', requestsLine(usage)],
      ['tokens', tokensLine(usage)],
      ['cost', costLine(usage)],
      ['prefix', prefixLine(usage)],
      ['changed', changedLine(usage)],
      ['misses', missesLine(usage)],
      ['', neverHitLine(usage)],
      ['TTL', ttlLine(usage)],
    ];
    for (const [label, text] of rows) if (text !== null) lines.push(safe(`  ${label.padEnd(9)}${text}`));
  }
  if (report.skipped.count > 0) {
    lines.push('', `${count(report.skipped.count)} line(s) skipped:`);
    for (const s of report.skipped.first) lines.push(safe(`  ${s.file}:${s.line}: ${s.problem}`));
    if (report.skipped.count > report.skipped.first.length) lines.push(`  … and ${count(report.skipped.count - report.skipped.first.length)} more`);
  }
  return lines.join('\n');
}

export function summary(report: UsageReport): string {
  const span = report.from === null ? '' : `, ${report.from} to ${report.to}`;
  const bundles = report.bundlePrefixes === 0 ? '; no bundle given, so no prefix is checked against its minimum' : `; ${count(report.bundlePrefixes)} prefixes known from the bundles`;
  return `${count(report.records)} usage records in ${report.logs.length} log(s)${span}, ${count(report.prefixes.length)} prefixes${bundles}`;
}
