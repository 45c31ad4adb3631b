/**
 * `markup/unbalanced-tag` (docs/lint.md#unbalanced-tags): an XML-style
 * tag (`<example>`, `<instructions>`) opened and not closed, or closed and
 * not opened, outside code. A section may open a tag another closes: a tag
 * is reported when it is unbalanced in its section and in every profile the
 * section is assembled into (an agent's prompt is its own).
 */
import type { CompiledText } from '../../definitions/compile-text.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostics.js';
import type { RuleContext, WrittenAt } from '../rule-context.js';
import type { LintInput } from '../project.js';

/**
 * An opening tag not glued to a word before it (`List<T>` is no tag), with or
 * without attributes, or self-closing; or a closing tag, wherever it is
 * (`<b>bold</b>`).
 */
const TAG = /(?<![\w$.\\])<([A-Za-z][\w.:-]*)(?:\s[^<>]*?)?(\/?)>|<\/([A-Za-z][\w.:-]*)\s*>/g;
/** HTML's void elements: never closed. */
const VOID: ReadonlySet<string> = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

interface Tag {
  name: string;
  closes: boolean;
  at: WrittenAt;
}

export function unbalancedTags(input: LintInput, context: RuleContext): Diagnostic[] {
  const tagsOf = new Map<CompiledText, Tag[]>();
  const tags = (compiled: CompiledText): Tag[] => {
    let found = tagsOf.get(compiled);
    if (!found) tagsOf.set(compiled, (found = findTags(compiled, context)));
    return found;
  };
  // A tag balanced by the other sections of some profile it is assembled into is not reported.
  const balancedSomewhere = new Set<Tag>();
  const inAProfile = new Set<CompiledText>();
  for (const profile of input.project.profiles) {
    const parts = profile.sections.filter((s) => s != null).map((s) => s.compiled);
    for (const compiled of parts) inAProfile.add(compiled);
    const unmatched = new Set(unbalanced(parts.flatMap(tags)));
    for (const compiled of parts) for (const tag of tags(compiled)) if (!unmatched.has(tag)) balancedSomewhere.add(tag);
  }
  const out: Diagnostic[] = [];
  const report = (what: string, compiled: CompiledText, profiled: boolean): void => {
    for (const tag of unbalanced(tags(compiled))) {
      if (profiled && balancedSomewhere.has(tag)) continue;
      const written = tag.closes ? `</${tag.name}>` : `<${tag.name}>`;
      out.push(
        diagnostic('markup/unbalanced-tag', tag.at.file, tag.at, tag.closes ? `${written} in ${what} closes a tag never opened` : `${written} in ${what} is never closed`, {
          note: `the model reads the tags as the text's structure: an unclosed <${tag.name}> runs on to whatever follows. ${tag.closes ? `Open it (<${tag.name}>) where it starts, or remove this line` : `Close it (</${tag.name}>) where it ends`}; a tag quoted as an example belongs in code (\`…\`)`,
        }),
      );
    }
  };
  for (const { def, compiled } of input.project.sections) report(`section '${def.name}'`, compiled, inAProfile.has(compiled));
  for (const { def, compiled } of input.project.agents) report(`agent '${def.name}'`, compiled, false);
  return out;
}

function findTags(compiled: CompiledText, context: RuleContext): Tag[] {
  const out: Tag[] = [];
  for (const { match, at } of context.matches(compiled, TAG)) {
    const [, opened, selfClosing, closed] = match;
    const name = (opened ?? closed)!;
    if (selfClosing || VOID.has(name.toLowerCase())) continue;
    out.push({ name, closes: closed !== undefined, at });
  }
  return out;
}

/** The tags that find no partner: a close pairs with the nearest open of its name; what it skips over stays open. */
function unbalanced(tags: readonly Tag[]): Tag[] {
  const open: Tag[] = [];
  const out: Tag[] = [];
  for (const tag of tags) {
    if (!tag.closes) {
      open.push(tag);
      continue;
    }
    const partner = open.map((t) => t.name).lastIndexOf(tag.name);
    if (partner === -1) out.push(tag);
    else out.push(...open.splice(partner).slice(1));
  }
  return [...out, ...open];
}
