/**
 * The compiled state of a project — one entry per source file — and what the
 * entries add up to: sections and agents by name, profiles, diagnostics, the
 * include graph, and which entries depend on which path. A watch-mode rebuild
 * replaces a handful of entries; these indexes are updated as it does, so the
 * rebuild never revisits the thousands of entries a change did not reach.
 */
import path from 'node:path';
import type { CompiledText } from '../definitions/compile-text.js';
import type { AgentDef, ProfileDef, SectionDef } from '../definitions/definitions.js';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { sourceEntry, type EmitCache } from '../bundle/emit.js';
import type { CompiledAgent, CompiledClaudeFile, CompiledSection } from '../definitions/compiled.js';
import type { ClaudeFileDef } from '../definitions/claude-code.js';
import type { ClaudePlace } from '../definitions/claude-code-fields.js';
import { diagnostic, lineText } from '../diagnostics/diagnostics.js';
import type { LinkedProfile } from '../link/linked-profile.js';
import { nameDiagnostics } from '../link/name-checks.js';
import type { SkippedAgent, SourceEntry } from '../runtime/manifest.js';
import type { Source } from '../markdown/source.js';
import { adjustCount, adjustSet, NameClaims } from '../link/name-claims.js';
import { isSource, type Loaded } from './source-store.js';

/** One discovered file and what it yields. Replaced, never mutated. */
export interface Entry {
  rel: string;
  loaded: Loaded;
  result: SectionResult | AgentResult | ClaudeResult | ProfileResult | FragmentResult;
}
type SectionResult = { role: 'section'; def: SectionDef | null; compiled: CompiledText | null; diagnostics: Diagnostic[] };
type AgentResult = { role: 'agent'; def: AgentDef | null; compiled: CompiledText | null; diagnostics: Diagnostic[] };
type ClaudeResult = { role: 'claude'; place: ClaudePlace; def: ClaudeFileDef | null; compiled: CompiledText | null; diagnostics: Diagnostic[] };
type ProfileResult = { role: 'profile'; def: ProfileDef | null; diagnostics: Diagnostic[] };
type FragmentResult = { role: 'fragment'; diagnostics: Diagnostic[] };

export class Entries {
  /** `emitCache`: the compiler's, for the source entries' identity from build to build. */
  constructor(private readonly emitCache: EmitCache) {}

  private readonly byRel = new Map<string, Entry>();
  /** Absolute path → the entries whose output depends on it (their `watched` paths). */
  private readonly dependents = new Map<string, Set<string>>();
  /** Entries with diagnostics of their own. */
  private readonly reporting = new Set<string>();
  private readonly sectionNames = new NameClaims<CompiledSection>();
  private readonly agentNames = new NameClaims<CompiledAgent>();
  /**
   * Name of a section file that did not compile (its file name if need be) →
   * how many there are: the name is still known, so a profile naming it adds
   * no error of its own.
   */
  private readonly failedSections = new Map<string, number>();
  private readonly profileDefs = new Map<string, { def: ProfileDef; source: Source }>();
  private profilePaths: string[] | null = null;
  /** Profiles with their sections resolved (see `profiles`); forgotten when the profile or a section it names changes. */
  private readonly resolvedProfiles = new Map<string, LinkedProfile>();
  /** Section name → the profiles naming it. */
  private readonly profilesNaming = new Map<string, Set<string>>();
  /** Includer → included file → how many entries recorded that edge. */
  private readonly edges = new Map<string, Map<string, number>>();
  /** Included file → how many includers include it. */
  private readonly includers = new Map<string, number>();
  /** Names of compiled sections no profile names. */
  private readonly unusedNames = new Set<string>();
  /** Paths whose source entry (see `sourceEntryOf`) may have changed, or whose place in the include graph may have: see `takeTouched`. */
  private touched = new Set<string>();
  private readonly sortedIncludes = new Map<string, string[]>();
  /** Path → its source's manifest entry, null when unreadable; forgotten when the entry or its includes change. */
  private readonly sourceEntriesByPath = new Map<string, SourceEntry | null>();
  /** Agent files that yield no agent. */
  private readonly skipped = new Set<string>();
  /** Claude Code files that compiled, by path. */
  private readonly claudeCompiled = new Map<string, CompiledClaudeFile>();
  /** Claude Code files that did not, by path. */
  private readonly claudeSkipped = new Set<string>();
  /** Skill folder → its files by path (`SKILL.md` or not), to find a folder Claude Code skips for holding no `SKILL.md`. */
  private readonly skillFolders = new Map<string, Map<string, ClaudePlace['kind']>>();

  get(rel: string): Entry | undefined {
    return this.byRel.get(rel);
  }

  paths(): string[] {
    return [...this.byRel.keys()];
  }

  /** Records an entry, replacing the one of its path. */
  set(entry: Entry): void {
    this.drop(entry.rel);
    this.byRel.set(entry.rel, entry);
    this.index(entry, 1);
  }

  drop(rel: string): void {
    const entry = this.byRel.get(rel);
    if (!entry) return;
    this.byRel.delete(rel);
    this.index(entry, -1);
  }

  /** Every absolute path some output depends on: sources' includes, by the path written and the real one. */
  watchedPaths(): string[] {
    return [...this.dependents.keys()];
  }

  /** The entries whose output can change when `file` (absolute) does. */
  dependentsOf(file: string): string[] {
    return [...(this.dependents.get(file) ?? [])];
  }

  /** The file (root-relative) that holds the section `name`, if one compiled. */
  sectionSource(name: string): string | undefined {
    return this.sectionNames.holders.get(name)?.def.source;
  }

  /** Every section name a file claims, compiled or not. */
  sectionNamesKnown(): string[] {
    return [...new Set([...this.sectionNames.holders.keys(), ...this.failedSections.keys()])];
  }

  /** Agent files that yield no agent, by path, with the first diagnostic each has (in a build that passes: why it was skipped). */
  skippedAgents(): Record<string, SkippedAgent> {
    const out: Record<string, SkippedAgent> = {};
    for (const rel of [...this.skipped].sort()) {
      const first = this.byRel.get(rel)!.result.diagnostics[0];
      out[rel] = { rule: first?.rule ?? 'agent/skipped', reason: first?.message ?? 'not an agent' };
    }
    return out;
  }

  /** The Claude Code files that compiled, in path order; those of a skill folder without `SKILL.md` left out (Claude Code skips them). */
  claudeFiles(): CompiledClaudeFile[] {
    const skipped = new Set(this.folderlessSkillFiles().flatMap(([, files]) => files));
    return [...this.claudeCompiled].filter(([rel]) => !skipped.has(rel)).sort(([a], [b]) => (a < b ? -1 : 1)).map(([, file]) => file);
  }

  /** Claude Code files left out, by path, with the first diagnostic each has: why Claude Code skips it. */
  skippedClaudeFiles(): Record<string, SkippedAgent> {
    const out: Record<string, SkippedAgent> = {};
    for (const rel of this.claudeSkipped) {
      const first = this.byRel.get(rel)!.result.diagnostics[0];
      out[rel] = { rule: first?.rule ?? 'claude/skipped', reason: first?.message ?? 'not read' };
    }
    for (const [folder, files] of this.folderlessSkillFiles()) for (const rel of files) out[rel] = { rule: 'claude/skipped', reason: noSkillMessage(folder) };
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /**
   * A command named as a skill is: both are `/name`, and Claude Code runs the
   * skill (its skills page: "the skill takes precedence"). Said at the command.
   */
  private commandsSkillsShadow(): Diagnostic[] {
    const skills = new Map<string, string>();
    for (const { def } of this.claudeCompiled.values()) {
      if (def.kind === 'skill') skills.set(typeof def.fields.name === 'string' ? def.fields.name : def.key, def.source);
    }
    const out: Diagnostic[] = [];
    for (const { def } of this.claudeCompiled.values()) {
      const skill = def.kind === 'command' ? skills.get(def.key) : undefined;
      if (skill === undefined) continue;
      out.push(
        diagnostic('claude/duplicate-name', def.source, this.lineOne(def.source), `Claude Code runs the skill ${skill} for /${def.key}: this command is never used`, {
          severity: 'warning',
          note: 'a skill and a command of one name are one slash command, and the skill takes precedence: rename one, or remove the command',
        }),
      );
    }
    return out;
  }

  /**
   * Two files of one kind under one name: a command `a:b.md` beside
   * `a/b.md` (both `/a:b`). The manifest holds one entry a name, so the
   * second in path order is an error, not a file that silently vanishes.
   */
  private claudeNameClashes(): Diagnostic[] {
    const first = new Map<string, string>();
    const out: Diagnostic[] = [];
    for (const [rel, { def }] of [...this.claudeCompiled].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (def.kind === 'skill-file') continue;
      const name = `${def.kind} ${def.key}`;
      const holder = first.get(name);
      if (holder === undefined) first.set(name, rel);
      else out.push(diagnostic('claude/duplicate-name', rel, this.lineOne(rel), `${holder} is the ${def.kind.replace('-', ' ')} '${def.key}' too: Claude Code loads one of them, and the bundle can hold one`, { note: 'rename one of the two files' }));
    }
    return out;
  }

  /** Line 1 of the file at `rel`, for a diagnostic about the whole file. */
  private lineOne(rel: string): { line: number; column: number; excerpt?: string } {
    const { loaded } = this.byRel.get(rel)!;
    return { line: 1, column: 1, ...(isSource(loaded) ? { excerpt: lineText(loaded.text, 1) } : {}) };
  }

  /** Skill folders holding files but no `SKILL.md`, each with its files in path order. */
  private folderlessSkillFiles(): Array<[string, string[]]> {
    const out: Array<[string, string[]]> = [];
    for (const [folder, files] of this.skillFolders) {
      if (![...files.values()].includes('skill')) out.push([folder, [...files.keys()].sort()]);
    }
    return out;
  }

  /** Agents by name, in path order. */
  agents(): CompiledAgent[] {
    return this.agentNames.held();
  }

  /**
   * Profiles in path order, each with what its section names resolve to. A
   * profile is the same object as long as neither it nor any section it names
   * changes, so whatever is derived from it can be kept with it.
   */
  profiles(): LinkedProfile[] {
    return (this.profilePaths ??= [...this.profileDefs.keys()].sort()).map((rel) => this.resolvedProfile(rel));
  }

  private resolvedProfile(rel: string): LinkedProfile {
    let profile = this.resolvedProfiles.get(rel);
    if (!profile) {
      const { def, source } = this.profileDefs.get(rel)!;
      const resolve = (name: string) => this.sectionNames.holders.get(name) ?? (this.failedSections.has(name) ? null : undefined);
      this.resolvedProfiles.set(rel, (profile = { def, source, sections: def.sections.map(resolve) }));
    }
    return profile;
  }

  /** The entries' own diagnostics and the name checks' (link/name-checks.ts), in path order. */
  diagnostics(): Diagnostic[] {
    const duplicates = nameDiagnostics({ section: this.sectionNames, agent: this.agentNames }, (rel) => this.byRel.get(rel)!.loaded as Source);
    for (const d of [...this.commandsSkillsShadow(), ...this.claudeNameClashes()]) duplicates.set(d.file, [...(duplicates.get(d.file) ?? []), d]);
    // A skill folder without SKILL.md is said once, at its first file.
    for (const [folder, [first]] of this.folderlessSkillFiles()) {
      const said = diagnostic('claude/skipped', first!, this.lineOne(first!), `Claude Code skips this file: ${noSkillMessage(folder)}`, {
        severity: 'warning',
        note: 'add SKILL.md (frontmatter `name:` and `description:`, then the instructions) beside the files it points to',
      });
      duplicates.set(first!, [...(duplicates.get(first!) ?? []), said]);
    }
    const out: Diagnostic[] = [];
    for (const rel of [...new Set([...this.reporting, ...duplicates.keys()])].sort()) {
      // A loop, not a spread: a file may hold more diagnostics than a call takes arguments.
      for (const d of this.byRel.get(rel)!.result.diagnostics) out.push(d);
      for (const d of duplicates.get(rel) ?? []) out.push(d);
    }
    return out;
  }

  /** Every file that includes or is included: the nodes of the include graph. */
  graphPaths(): string[] {
    return [...new Set([...this.edges.keys(), ...this.includers.keys()])];
  }

  /** Whether `rel` includes a file or is included by one. */
  inGraph(rel: string): boolean {
    return this.edges.has(rel) || this.includers.has(rel);
  }

  /**
   * The paths whose source entry, or whose place in the include graph, may
   * have changed since the last call: what a rebuild of the manifest's
   * `sources` must look at again. The rest are as they were.
   */
  takeTouched(): ReadonlySet<string> {
    const touched = this.touched;
    this.touched = new Set();
    return touched;
  }

  /** The compiled sections no profile names, by path: not emitted (reported as unused). */
  unusedSections(): CompiledSection[] {
    return [...this.unusedNames].map((name) => this.sectionNames.holders.get(name)!).sort((a, b) => (a.def.source < b.def.source ? -1 : 1));
  }

  includesOf(rel: string): readonly string[] {
    const targets = this.edges.get(rel);
    if (!targets) return [];
    let sorted = this.sortedIncludes.get(rel);
    if (!sorted) this.sortedIncludes.set(rel, (sorted = [...targets.keys()].sort()));
    return sorted;
  }

  /** The manifest entry of the source of the entry at `rel` (its hash and direct includes); null when it could not be read. */
  sourceEntryOf(rel: string): SourceEntry | null {
    let entry = this.sourceEntriesByPath.get(rel);
    if (entry === undefined) {
      const { loaded } = this.byRel.get(rel)!;
      entry = isSource(loaded) ? sourceEntry(loaded, this.includesOf(rel), this.emitCache) : null;
      this.sourceEntriesByPath.set(rel, entry);
    }
    return entry;
  }

  /** Adds (`step` 1) or removes (-1) an entry's part in every index. */
  private index(entry: Entry, step: 1 | -1): void {
    const { rel, result } = entry;
    this.sourceEntriesByPath.delete(rel);
    this.touched.add(rel);
    if (result.diagnostics.length > 0) {
      if (step > 0) this.reporting.add(rel);
      else this.reporting.delete(rel);
    }
    if (result.role === 'section' || result.role === 'agent' || result.role === 'claude') {
      for (const file of result.compiled?.watched ?? []) adjustSet(this.dependents, file, rel, step);
      for (const [from, to] of result.compiled?.edges ?? []) this.countEdge(from, to, step);
    }
    switch (result.role) {
      case 'section':
        if (result.def && result.compiled) {
          const { def, compiled } = result;
          this.sectionNames.adjust(def.name, rel, step, () => ({ def, compiled }));
          this.sectionNameChanged(def.name);
          this.checkUsed(def.name);
        } else {
          const name = result.def?.name ?? stem(rel);
          adjustCount(this.failedSections, name, step);
          this.sectionNameChanged(name);
        }
        break;
      case 'agent':
        if (result.def && result.compiled) {
          const { def, compiled } = result;
          this.agentNames.adjust(def.name, rel, step, () => ({ def, compiled }));
        } else if (step > 0) this.skipped.add(rel);
        else this.skipped.delete(rel);
        break;
      case 'claude': {
        const { def, compiled, place } = result;
        if (def && compiled) {
          if (step > 0) this.claudeCompiled.set(rel, { def, compiled });
          else this.claudeCompiled.delete(rel);
        } else if (step > 0) this.claudeSkipped.add(rel);
        else this.claudeSkipped.delete(rel);
        if (place.skill !== undefined) {
          let files = this.skillFolders.get(place.skill);
          if (!files) this.skillFolders.set(place.skill, (files = new Map()));
          if (step > 0) files.set(rel, place.kind);
          else files.delete(rel);
          if (files.size === 0) this.skillFolders.delete(place.skill);
        }
        break;
      }
      case 'profile':
        if (result.def && isSource(entry.loaded)) {
          if (step > 0) this.profileDefs.set(rel, { def: result.def, source: entry.loaded });
          else this.profileDefs.delete(rel);
          for (const name of result.def.sections) {
            adjustSet(this.profilesNaming, name, rel, step);
            this.checkUsed(name);
          }
          this.resolvedProfiles.delete(rel);
          this.profilePaths = null;
        }
        break;
      case 'fragment':
        break;
    }
  }

  /** After a change of what claims a section name: the profiles naming it resolve it again. */
  private sectionNameChanged(name: string): void {
    for (const rel of this.profilesNaming.get(name) ?? []) this.resolvedProfiles.delete(rel);
  }

  /** After a change of what claims `name` or of the profiles naming it. */
  private checkUsed(name: string): void {
    if (this.sectionNames.holders.has(name) && !this.profilesNaming.has(name)) this.unusedNames.add(name);
    else this.unusedNames.delete(name);
  }

  private countEdge(from: string, to: string, step: 1 | -1): void {
    let targets = this.edges.get(from);
    if (!targets) this.edges.set(from, (targets = new Map()));
    const before = targets.size;
    adjustCount(targets, to, step);
    // A new or a last edge between the two.
    if (targets.size !== before) adjustCount(this.includers, to, step);
    if (targets.size === 0) this.edges.delete(from);
    this.sortedIncludes.delete(from);
    this.sourceEntriesByPath.delete(from);
    this.touched.add(from).add(to);
  }
}

function noSkillMessage(folder: string): string {
  return `its folder '${folder}' holds no SKILL.md, so it is no skill and its files reach no prompt`;
}

function stem(rel: string): string {
  return path.posix.basename(rel, '.md');
}
