/**
 * Stages 3 and 4 of the build (see `Compiler.build`), for one source: what its
 * frontmatter declares, by its place in the layout (definitions/), and its
 * compiled text — includes expanded, comments and constants applied,
 * templates checked (definitions/compile-text.ts). A pure function of the
 * source and what it includes: the Compiler keeps the result while neither
 * changes.
 */
import type { BuildOptions } from '../core/options.js';
import { compileAgent, compileClaudeFile, compileSection, type SourceLookup } from '../definitions/compile-text.js';
import { claudePlaceOf, missingAgentFields, readAgent, readFragment, readProfile, readSection, roleOf } from '../definitions/definitions.js';
import { readClaudeFile } from '../definitions/claude-code.js';
import { KIND_NAMES, type ClaudePlace } from '../definitions/claude-code-fields.js';
import { diagnostic, hasErrors, lineText, type Diagnostic } from '../diagnostics/diagnostics.js';
import type { Entry } from '../incremental/entries.js';
import type { IncludeHost } from '../include/include.js';
import { problemToDiagnostic, type ReadFailure, type Source } from '../markdown/source.js';
import { isSource, type Loaded } from '../incremental/source-store.js';
import { describeTextProblem } from '../markdown/text-check.js';
import { scanLimitDiagnostic } from '../markdown/scan.js';
import { invisibleCharacterProblems } from '../markdown/control-chars.js';

/** What compiling one source needs besides the source. */
export interface CompileSetup {
  host: IncludeHost;
  options: Pick<BuildOptions, 'maxBytes' | 'knownTools' | 'sourceDirs'>;
  lookup: SourceLookup;
}

export type SourceResult = Entry['result'];

export async function compileSource(rel: string, loaded: Loaded, setup: CompileSetup): Promise<SourceResult> {
  const role = roleOf(rel, setup.options.sourceDirs);
  if (!isSource(loaded)) {
    // A fragment is only read when included, and the include reports it; a link out of the root is reported wherever it is.
    const reported = role !== 'fragment' || loaded.kind === 'outside-root';
    return failed(role, reported ? [readFailure(rel, loaded, setup.options.maxBytes)] : [], claudePlaceOf(rel, setup.options.sourceDirs));
  }
  const source = loaded;
  const base = source.problems.map((p) => problemToDiagnostic(source, p));
  const tooDeep = scanLimitDiagnostic(source);
  if (tooDeep) base.push(tooDeep);
  // Not in `base`: they do not stop the file compiling, so a project that lowers their rules gets its text.
  // A fragment's are reported where it is included (include/expand.ts): an unused one reaches no prompt.
  const invisible = role === 'fragment' ? [] : invisibleCharacterProblems(source.text).map((p) => problemToDiagnostic(source, p));
  const { lookup } = setup;
  switch (role) {
    case 'section': {
      const { def, diagnostics } = readSection(source);
      const compiled = def && !hasErrors(base) ? await compileSection(def, source, setup.host, lookup) : null;
      return { role, def, compiled, diagnostics: [...base, ...invisible, ...diagnostics, ...(compiled?.diagnostics ?? [])] };
    }
    case 'agent': {
      // Claude Code skips a Markdown file in agents/ with no frontmatter (a README), with frontmatter it cannot read, or
      // without a name or a description: so does the bundle, and says so in one line, the file's only one (it reaches no prompt).
      if (!source.text.startsWith('---')) return { role, def: null, compiled: null, diagnostics: [skippedAgent(rel)] };
      const unreadable = base.find((d) => d.rule === 'frontmatter/invalid-yaml');
      if (unreadable) return { role, def: null, compiled: null, diagnostics: [unreadableToClaudeCode(unreadable, { claudeCode: PLUGIN_AGENTS })] };
      const missing = missingAgentFields(source);
      if (missing) return { role, def: null, compiled: null, diagnostics: [missing] };
      const { def, diagnostics } = !hasErrors(base) ? readAgent(source, setup.options.knownTools) : { def: null, diagnostics: [] };
      const compiled = def ? await compileAgent(source, setup.host, lookup) : null;
      return { role, def, compiled, diagnostics: [...base, ...invisible, ...diagnostics, ...(compiled?.diagnostics ?? [])] };
    }
    case 'claude': {
      const place = claudePlaceOf(rel, setup.options.sourceDirs)!;
      // A Markdown file straight in the skills folder is in no skill: Claude Code reads only `<skills>/<name>/SKILL.md` and what it points to.
      if (place.kind === 'skill-file' && place.skill === undefined) return { role, place, def: null, compiled: null, diagnostics: [outsideSkillFolder(source)] };
      const unreadable = base.find((d) => d.rule === 'frontmatter/invalid-yaml');
      if (unreadable) return { role, place, def: null, compiled: null, diagnostics: [unreadableToClaudeCode(unreadable, { notLoaded: KIND_NAMES[place.kind] })] };
      const { def, diagnostics } = !hasErrors(base) ? readClaudeFile(source, place) : { def: null, diagnostics: [] };
      const compiled = def ? await compileClaudeFile(source, setup.host) : null;
      return { role, place, def, compiled, diagnostics: [...base, ...invisible, ...diagnostics, ...(compiled?.diagnostics ?? [])] };
    }
    case 'profile': {
      const { def, diagnostics } = !hasErrors(base) ? readProfile(source) : { def: null, diagnostics: [] };
      return { role, def, diagnostics: [...base, ...invisible, ...diagnostics] };
    }
    case 'fragment':
      return { role, diagnostics: [...base, ...readFragment(source)] };
  }
}

/** The result of a file that could not be read as what its place says it is. */
function failed(role: SourceResult['role'], diagnostics: Diagnostic[], place: ClaudePlace | null): SourceResult {
  if (role === 'claude') return { role, place: place!, def: null, compiled: null, diagnostics };
  switch (role) {
    case 'section':
    case 'agent':
      return { role, def: null, compiled: null, diagnostics };
    case 'profile':
      return { role, def: null, diagnostics };
    case 'fragment':
      return { role, diagnostics };
  }
}

function skippedAgent(rel: string): Diagnostic {
  return diagnostic('agent/skipped', rel, { line: 1, column: 1 }, 'Claude Code skips this file: no frontmatter, not an agent', {
    severity: 'info',
    note: 'an agent starts with `---`, then `name:` and `description:`; list files that are not agents in the config’s `agents.ignore`',
    brief: true,
  });
}

const PLUGIN_AGENTS = "Claude Code lists no agent for it (a plugin's agent file is listed with a placeholder description instead)";

function outsideSkillFolder(source: Source): Diagnostic {
  return diagnostic('claude/skipped', source.rel, { line: 1, column: 1, excerpt: lineText(source.text, 1) }, 'Claude Code skips this file: it is in no skill folder', {
    severity: 'info',
    note: 'a skill is a folder holding SKILL.md (`<skills>/<name>/SKILL.md`); its other files sit beside it',
    brief: true,
  });
}

/**
 * An agent's or another Claude Code file's frontmatter that cannot be read,
 * even as Claude Code's retry reads it. Claude Code drops such a file (for a
 * project agent, only its debug log says so): the bundle leaves it out and
 * builds the others, a warning unless the project makes it an error.
 * Sections and profiles have no such reader: theirs stays an error.
 * `notLoaded`: what the file would have been; `claudeCode`: what else Claude Code does with it.
 */
function unreadableToClaudeCode(d: Diagnostic, { notLoaded, claudeCode }: { notLoaded?: string; claudeCode?: string }): Diagnostic {
  const strict = "to fail the build on such a file instead: rules: { 'frontmatter/invalid-yaml': 'error' } in the config";
  return {
    ...d,
    severity: 'warning',
    message: `Claude Code skips this file: its frontmatter cannot be read${notLoaded ? `, so the ${notLoaded} is not loaded` : ''} (${d.message})`,
    note: [d.note, claudeCode, strict].filter((part) => part !== undefined).join('; '),
    brief: true,
  };
}

function readFailure(rel: string, failure: ReadFailure, maxBytes: number): Diagnostic {
  const at = { line: 1, column: 1 };
  switch (failure.kind) {
    case 'outside-root':
      return diagnostic('source/outside-root', rel, at, 'source is a symlink leading outside the project root');
    case 'not-a-file':
      return diagnostic('source/not-a-file', rel, at, `source is ${failure.what}, not a regular file`, {
        note: 'only regular files are read: a FIFO, socket or device would block or act when opened',
      });
    case 'too-large':
      return diagnostic('source/too-large', rel, at, `source is ${failure.bytes} bytes, over the ${maxBytes}-byte limit`);
    case 'text': {
      const { problem } = failure;
      const rule = problem.kind === 'binary' || problem.kind === 'nul' ? 'source/binary' : 'source/encoding';
      return diagnostic(rule, rel, 'at' in problem ? problem.at : at, `source ${describeTextProblem(problem)}`);
    }
    case 'missing':
      return diagnostic('source/unreadable', rel, at, 'source disappeared while building');
    case 'unreadable':
      return diagnostic('source/unreadable', rel, at, `source cannot be read: ${failure.message}`);
  }
}
