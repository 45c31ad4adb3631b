/**
 * `prompt-build/unified`: prompt sources as mdast, for remark plugins
 * (docs/lint.md#the-tree).
 */
export { remarkPromptBuild, type PromptBuildOptions, type SectionKind } from './remark-prompt-build.js';
export type { Include, Template } from './nodes.js';
