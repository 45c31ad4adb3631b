/**
 * `static/leftover-interpolation` (docs/lint.md#leftover-interpolation):
 * another template language's placeholder left in a static section that is
 * not `verbatim`, or in an agent's prompt, outside code — `${name}` of a
 * JavaScript template literal, Claude Code's `$ARGUMENTS`, `<%= x %>` of
 * EJS or ERB, `{% x %}` of Jinja or Liquid, `%{name}`, `{$name}`. Ports of
 * prompts built in code leave them, and the model reads them as they are.
 * (`{{…}}` in such a section is the build's own error:
 * `section/static-template`.) In a Claude Code skill or command, Claude Code
 * fills in `$ARGUMENTS`, `$1`… and `${CLAUDE_SKILL_DIR}`-like names itself
 * (docs/claude-code.md): there they are not leftovers.
 */
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostics.js';
import type { RuleContext } from '../rule-context.js';
import type { LintInput } from '../project.js';
import { KIND_NAMES } from '../../definitions/claude-code-fields.js';

const KINDS: ReadonlyArray<{ what: string; pattern: RegExp; claudeCodeFills?: true }> = [
  { what: "a JavaScript template literal's placeholder", pattern: /\$\{[^{}\n]{1,200}\}/g },
  { what: "Claude Code's command arguments", pattern: /\$ARGUMENTS\b/g, claudeCodeFills: true },
  { what: 'an EJS or ERB tag', pattern: /<%[=_#-]?[^%\n]{0,200}%>/g },
  { what: 'a Jinja or Liquid tag', pattern: /\{%-?[^%\n]{1,200}-?%\}/g },
  { what: 'a format placeholder', pattern: /%\{[A-Za-z_]\w{0,60}\}|\{\$[A-Za-z_]\w{0,60}\}/g },
];

/** `${CLAUDE_SKILL_DIR}`, `${CLAUDE_SESSION_ID}`…: names Claude Code fills in a skill or command. */
const CLAUDE_CODE_NAME = /^\$\{CLAUDE_[A-Z_]+\}$/;

export function leftoverInterpolations(input: LintInput, context: RuleContext): Diagnostic[] {
  const texts = [
    ...input.project.sections.filter(({ def }) => def.kind === 'static' && !def.verbatim).map(({ def, compiled }) => ({ what: `static section '${def.name}'`, compiled, fills: false })),
    ...input.project.agents.map(({ def, compiled }) => ({ what: `agent '${def.name}'`, compiled, fills: false })),
    ...(input.project.claudeFiles ?? []).map(({ def, compiled }) => ({ what: `${KIND_NAMES[def.kind]} '${def.key}'`, compiled, fills: def.kind === 'skill' || def.kind === 'command' })),
  ];
  const out: Diagnostic[] = [];
  for (const { what, compiled, fills } of texts) {
    for (const kind of KINDS) {
      if (fills && kind.claudeCodeFills) continue;
      for (const { match, at } of context.matches(compiled, kind.pattern)) {
        if (fills && CLAUDE_CODE_NAME.test(match[0])) continue;
        out.push(
          diagnostic('static/leftover-interpolation', at.file, at, `${kind.what} in ${what}: '${match[0]}'`, {
            note: 'nothing fills it in: the model reads it as written. Write the text it stood for, make the section dynamic with an input (`{{name}}`), or mark the section `verbatim: true` if the model is meant to see it',
          }),
        );
      }
    }
  }
  return out;
}
