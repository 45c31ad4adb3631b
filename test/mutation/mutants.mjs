/**
 * Deliberate breaks the suite must catch. Each names one file, an exact
 * piece of its text and what to put instead, and the tests that must then
 * fail. `npm run mutate` applies them one at a time to a copy of the
 * repository (see run.mjs). A mutant whose text is no longer in its file
 * fails the run too: keep this list in step with the code.
 */
export const MUTANTS = [
  {
    name: 'rule levels from the config are ignored',
    file: 'compiler/diagnostics/rule-levels.ts',
    from: 'if (level === undefined) out.push(d);',
    to: 'if (level === undefined || levels !== null) out.push(d);',
    tests: ['test/config/config.test.ts'],
  },
  {
    name: 'frontmatter strict YAML refuses is not read again leniently',
    file: 'compiler/markdown/source.ts',
    from: 'const lenient = parseLeniently(source, parseStrictly);',
    to: 'const lenient = null as ReturnType<typeof parseLeniently>;',
    tests: ['test/build/fixtures.test.ts'],
  },
  {
    name: 'a known constant is left unresolved',
    file: 'compiler/include/include-graph.ts',
    from: 'if (value !== undefined) edits.push({ start, end, include: null, value });',
    to: '',
    tests: ['test/build/constants.test.ts'],
  },
  {
    name: 'a verbatim section has its comments stripped',
    file: 'compiler/definitions/compile-text.ts',
    from: 'verbatim ? { verbatim } : textPolicy(source, host, false)',
    to: 'verbatim ? textPolicy(source, host, false) : textPolicy(source, host, false)',
    tests: ['test/build/fidelity.test.ts'],
  },
  {
    name: 'a printed gitStatus goes unnoticed',
    file: 'compiler/definitions/compile-text.ts',
    from: 'return [...unsupported, ...undeclared, ...twice];',
    to: 'return [...unsupported, ...undeclared, ...twice.slice(1)];',
    tests: ['test/build/constants.test.ts'],
  },
  {
    name: 'check calls dist/ stale when only the options differ',
    file: 'compiler/cli/commands/check.ts',
    from: "if (o.otherOptions.length > 0) io.err(`error: ${optionsMessage(o.outDir, o.otherOptions)}`);\n  else if",
    to: 'if',
    tests: ['test/config/config.test.ts'],
  },
  {
    name: 'the static prefix hash ignores the order of the static sections',
    file: 'compiler/bundle/emit.ts',
    from: "sha256(statics.map((s) => s.hash).join('\\n'))",
    to: "sha256(statics.map((s) => s.hash).sort().join('\\n'))",
    tests: ['test/build/mutation-gaps.test.ts'],
  },
  {
    name: 'the static prefix hash leaves out the last static section',
    file: 'compiler/bundle/emit.ts',
    from: "sha256(statics.map((s) => s.hash).join('\\n'))",
    to: "sha256(statics.slice(0, -1).map((s) => s.hash).join('\\n'))",
    tests: ['test/build/mutation-gaps.test.ts'],
  },
  {
    name: 'a reason of white space counts as a reason',
    file: 'compiler/definitions/definitions.ts',
    from: "const reason = f.string('reason')?.trim();",
    to: "const reason = f.string('reason');",
    tests: ['test/build/mutation-gaps.test.ts'],
  },
  {
    name: 'render --proactive assembles the default profile',
    file: 'compiler/cli/args.ts',
    from: "proactive: bool('proactive'),",
    to: 'proactive: false,',
    tests: ['test/build/mutation-gaps.test.ts'],
  },
  {
    name: 'proactive mode assembles the profile named, not the proactive one',
    file: 'compiler/runtime/assemble.ts',
    from: "if (mode === 'simple' || mode === 'proactive') return mode;",
    to: "if (mode === 'simple') return mode;",
    tests: ['test/runtime/assemble.test.ts'],
  },
  {
    name: 'a {{ in an included fragment goes unreported',
    file: 'compiler/include/expand.ts',
    from: 'for (const offset of source.scan.templates) if (!node.constants?.has(offset)) templates.push(',
    to: 'if (source === top) for (const offset of source.scan.templates) if (!node.constants?.has(offset)) templates.push(',
    tests: ['test/build/mutation-gaps.test.ts'],
  },
  {
    name: 'a ~/ include skips the lexical root check',
    file: 'compiler/include/include.ts',
    from: 'if (!isInside(host.root, lexical)) return outside;',
    to: "if (!written.startsWith('~/') && !isInside(host.root, lexical)) return outside;",
    tests: ['test/build/mutation-gaps.test.ts'],
  },
  {
    name: 'pruning deletes any file not in the new bundle',
    file: 'compiler/bundle/write-bundle.ts',
    from: 'return (rel) => disk.owned.has(rel) || previous?.has(rel) === true;',
    to: 'return () => true;',
    tests: ['test/safety/out-dir.test.ts'],
  },
  {
    name: '--out at the project root is allowed',
    file: 'compiler/bundle/out-dir.ts',
    from: 'if (out === realRoot) return',
    to: "if (out === '') return",
    tests: ['test/safety/out-dir.test.ts'],
  },
  {
    name: 'the out directory lock is never waited for',
    file: 'compiler/bundle/lock.ts',
    from: 'if (tryCreate(file, header)) return held(file, header, inherited);',
    to: 'if (tryCreate(file, header) || true) return held(file, header, inherited);',
    tests: ['test/safety/lock.test.ts'],
  },
  {
    name: 'the up-to-date stamp ignores bundle files changed on disk',
    file: 'compiler/incremental/build-stamp.ts',
    from: 'return files.every((rel) => stamp.files[rel] !== undefined && stamp.files[rel] === statKey(path.join(outDir, rel)));',
    to: 'return true;',
    tests: ['test/safety/faults.test.ts'],
  },
  {
    name: 'the up-to-date stamp ignores retargeted symlinks',
    file: 'compiler/build/project.ts',
    from: 'links: linkTargets(compiler.watchedPaths()),',
    to: 'links: {},',
    tests: ['test/safety/faults.test.ts'],
  },
  {
    name: 'messages print control characters as they are',
    file: 'compiler/diagnostics/terminal-safe.ts',
    from: 'return s.replace(UNSAFE, escapeChar);',
    to: 'return s;',
    tests: ['test/safety/messages.test.ts'],
  },
  {
    name: 'watch writes whatever it built after the root went away',
    file: 'compiler/watch/session.ts',
    from: "function isProject(root: string): boolean {\n  return ['prompts', 'agents']",
    to: "function isProject(root: string): boolean {\n  return true || ['prompts', 'agents']",
    tests: ['test/safety/watch-root.test.ts'],
  },
];
