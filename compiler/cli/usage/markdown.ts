/**
 * `prompt-build usage --format markdown`: a pull-request comment or a weekly
 * note — a table of the prefixes, then the misses and the TTL verdicts —
 * built as an mdast tree (markdown-nodes.ts), since a log is anyone's data.
 */
import type { ListItem, Paragraph, PhrasingContent, RootContent } from 'mdast';
import type { UsageReport } from '../../usage/usage-report.js';
import type { PrefixUsage } from '../../usage/usage-tally.js';
import { code, heading, markdownOf, paragraph, t, table } from '../markdown-nodes.js';
import { changedLine, count, missesLine, neverHitLine, percent, prefixLine, shortHash, ttlLine } from './describe.js';
import { summary } from './text.js';

export function usageMarkdown(report: UsageReport): string {
  const out: RootContent[] = [heading(3, [t('Prompt cache usage')]), paragraph([t(summary(report))])];
  if (report.prefixes.length > 0) {
    out.push(
      table(
        ['profile / agent', 'prefix', 'model', 'requests', 'hit rate', 'read', 'written', 'uncached', 'cost (base input tokens)', 'saved'],
        ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'right', 'right', 'right'],
        report.prefixes.map((u) => {
          const saved = u.cost === null || u.cost.uncached === 0 ? '–' : percent(u.cost.saved / u.cost.uncached);
          return [
            owner(u),
            [code(shortHash(u.staticPrefixHash))],
            [nameOf(u.model)],
            [t(count(u.requests))],
            [t(percent(u.hitRate))],
            [t(count(u.tokens.read))],
            [t(count(u.tokens.written))],
            [t(count(u.tokens.uncached))],
            [t(u.cost === null ? '–' : count(u.cost.actual))],
            [t(saved)],
          ];
        }),
      ),
    );
  }
  const notes = report.prefixes.flatMap((u) => {
    const lines = [neverHitLine(u), prefixLine(u), changedLine(u), missesLine(u) && `misses: ${missesLine(u)}`, ttlLine(u) && `TTL: ${ttlLine(u)}`].filter((line): line is string => line !== null);
    return lines.length === 0 ? [] : [{ u, lines }];
  });
  if (notes.length > 0) {
    out.push(heading(4, [t('Per prefix')]));
    out.push({
      type: 'list',
      ordered: false,
      spread: false,
      children: notes.map(
        ({ u, lines }): ListItem => ({
          type: 'listItem',
          spread: false,
          children: [paragraph([{ type: 'strong', children: [nameOf(u.profile ?? u.agent)] }, t(' '), code(shortHash(u.staticPrefixHash)), ...(u.model === null ? [] : [t(' '), code(u.model)]), t(': '), ...joined(lines)]) as Paragraph],
        }),
      ),
    });
  }
  if (report.skipped.count > 0) out.push(paragraph([t(`${count(report.skipped.count)} line(s) of the logs were not usage records and were skipped.`)]));
  return markdownOf({ type: 'root', children: out });
}

/** A name from the log as a code span: in plain text, a profile such as `@org/team` would mention that team in a pull request. */
const nameOf = (name: string | null): PhrasingContent => (name === null ? t('–') : code(name));

function owner(u: PrefixUsage): PhrasingContent[] {
  return u.profile === null && u.agent !== null ? [t('agent '), code(u.agent)] : [nameOf(u.profile)];
}

function joined(lines: string[]): PhrasingContent[] {
  return lines.flatMap((line, i) => (i === 0 ? [t(line)] : [{ type: 'break' } as PhrasingContent, t(line)]));
}
