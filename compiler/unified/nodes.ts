/**
 * The two nodes `remarkPromptBuild` adds to mdast, registered with mdast's
 * types as phrasing content, so that a plugin written in TypeScript sees
 * them as a paragraph's children (docs/lint.md#the-tree). Not as root
 * content too, as syntax extensions often do: that would widen the type of
 * every mdast child for all the code built with this, and code that builds
 * block content from `RootContent` would no longer type-check.
 */
import type { Literal } from 'mdast';

/**
 * `@./path.md` where the build expands it: a word of a text node, never in
 * code, HTML, a link destination or an autolink. `value` is the word as
 * written (`@` and the path), so a heading's text reads as before.
 */
export interface Include extends Literal {
  type: 'include';
  /** The path as the build reads it: after `@`, trailing sentence punctuation removed. */
  path: string;
}

/**
 * A Handlebars expression of a dynamic section (`{{name}}`, `{{#if x}}`,
 * `{{{raw}}}`, `{{!-- note --}}`), on one line, holding nothing the build
 * reads as Markdown (template-syntax.ts), as written (braces included).
 * Read as one piece, so the Markdown inside it (`{{a_b}}`, `{{[key]}}`) stays
 * the template's.
 */
export interface Template extends Literal {
  type: 'template';
}

declare module 'mdast' {
  interface PhrasingContentMap {
    include: Include;
    template: Template;
  }
}
