/**
 * The build, stage by stage. Each stage is a function with typed input and
 * output in a module of its own; reading this list tells the whole build.
 * `Compiler` (compiler.ts) is the incremental layer around stages 1–6: it
 * keeps each stage's results and runs a stage again only for what a change
 * reaches. `buildProject` (project.ts) adds the up-to-date shortcut before
 * stage 1 and stage 7 after.
 *
 *  1. discover   root → sorted root-relative paths of `prompts/**.md`, `agents/**.md`
 *  2. load       path → Source: read under the guards (regular file, size,
 *                UTF-8), normalised, frontmatter parsed, body scanned; cached by
 *                content hash, parsed on all cores when there are many
 *                (incremental/source-store.ts, markdown/source.ts, markdown/scan.ts)
 *  3. define     Source → SectionDef | ProfileDef | AgentDef by its place in the
 *                layout, fields checked (definitions/definitions.ts)
 *  4. compile    def + Source → CompiledText: includes expanded under their guards,
 *                comments and constants applied, the text checked as static or as a
 *                template (definitions/compile-text.ts, include/expand.ts, template/)
 *                — stages 3 and 4 per source: `compileSource`
 *  5. link       every compiled source → names (duplicates, case collisions),
 *                profiles resolved and checked, rule levels applied
 *  6. emit       → Bundle: artifacts, thunks, source maps, manifest.json, bundle.mjs
 *                (bundle/emit.ts) — stages 5 and 6: `linkAndEmit`
 *  7. write      Bundle → dist/, under a lock, journaled, pruning only what the
 *                tool wrote (write/write-bundle.ts)
 */
export { discoverSources as discover } from './discover.js';
export { compileSource, type SourceStage, type SourceResult } from './compile-source.js';
export { linkAndEmit, type LinkInput } from './link-and-emit.js';
