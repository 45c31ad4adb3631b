/**
 * `{{…}}` in a dynamic section as one token (micromark) and one `template`
 * node (mdast): the Handlebars expression is the template's, so its
 * characters are never read as Markdown — `{{a_b}} {{c_d}}` holds no
 * emphasis. Only in text (a code span, code block, HTML or link destination
 * keeps its `{{` as written), only on one line, only where it swallows
 * nothing the build reads as Markdown (`mayStartMarkdown`), and only while
 * the document being parsed is a dynamic section (`active`): a static
 * section's braces are text, as the build reads them.
 */
import type { Code, Construct, Effects, Extension, State, TokenizeContext } from 'micromark-util-types';
import type { CompileContext, Extension as FromMarkdownExtension, Token } from 'mdast-util-from-markdown';
import type { Template } from './nodes.js';

declare module 'micromark-util-types' {
  interface TokenTypeMap {
    promptTemplate: 'promptTemplate';
  }
}

const LEFT_BRACE = 123;
const RIGHT_BRACE = 125;
const DASH = 45;
const LESS_THAN = 60;
const GRAVE_ACCENT = 96;
const LEFT_BRACKET = 91;
const ASTERISK = 42;
const UNDERSCORE = 95;
/** micromark's codes for line endings (a tab is -2 and the columns it spans -1: those stay in). */
const CARRIAGE_RETURN = -5;
const LINE_FEED = -4;
const CARRIAGE_RETURN_LINE_FEED = -3;

/** The syntax extension; `active()` is asked at each `{` of text. */
export function templateSyntax(active: () => boolean): Extension {
  const construct: Construct = { name: 'promptTemplate', tokenize: tokenizer(active) };
  return { text: { [LEFT_BRACE]: construct } };
}

function tokenizer(active: () => boolean) {
  return function tokenizeTemplate(this: TokenizeContext, effects: Effects, ok: State, nok: State): State {
    /** Closing braces needed: 2, or 3 for `{{{raw}}}`. */
    let need = 2;
    /** `{{!-- … --}}` ends only at `--}}`: a `}}` inside it is the comment's. */
    let comment = false;
    let closing = 0;
    let dashes = 0;
    let opened = '';
    let previous: Code = null;
    return start;

    function start(code: Code): State | undefined {
      if (!active()) return nok(code);
      effects.enter('promptTemplate');
      effects.consume(code);
      return second;
    }

    function second(code: Code): State | undefined {
      if (code !== LEFT_BRACE) return nok(code);
      effects.consume(code);
      return third;
    }

    function third(code: Code): State | undefined {
      if (code === LEFT_BRACE) {
        need = 3;
        effects.consume(code);
        return inside;
      }
      return inside(code);
    }

    function inside(code: Code): State | undefined {
      // One line: a `{{` never closed on its line is text, and the paragraph reads on as Markdown.
      if (code === null || code === LINE_FEED || code === CARRIAGE_RETURN || code === CARRIAGE_RETURN_LINE_FEED) return nok(code);
      if (mayStartMarkdown(code, previous)) return nok(code);
      previous = code;
      effects.consume(code);
      if (opened.length < 3 && code >= 0) {
        opened += String.fromCharCode(code);
        if (need === 2 && opened === '!--') comment = true;
      }
      if (code === RIGHT_BRACE && (!comment || closing > 0 || dashes >= 2)) {
        closing++;
        if (closing === need) {
          effects.exit('promptTemplate');
          return ok;
        }
      } else {
        closing = 0;
      }
      dashes = code === DASH ? dashes + 1 : 0;
      return inside;
    }
  };
}

/**
 * Whether a character inside `{{…}}` could begin what the build, reading the
 * section's Markdown without knowing Handlebars, sees as something else than
 * text — a tag or an autolink (`<`), a code span (a backtick), a link or an
 * image (`[`), emphasis (`*`, or a `_` that starts a word: one inside a word
 * opens none) — or another `{{`. Such a `{{` is left as text: read as one
 * piece, it would swallow what the build reads includes around.
 */
function mayStartMarkdown(code: number, previous: Code): boolean {
  if (code === LESS_THAN || code === GRAVE_ACCENT || code === LEFT_BRACKET || code === ASTERISK) return true;
  if (code === LEFT_BRACE) return previous === LEFT_BRACE;
  return code === UNDERSCORE && (previous === null || previous < 0 || !WORD_CHARACTER.test(String.fromCodePoint(previous)));
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** The mdast side: a `template` node whose value is the expression as written. */
export const templateFromMarkdown: FromMarkdownExtension = {
  enter: {
    promptTemplate(this: CompileContext, token: Token) {
      const node: Template = { type: 'template', value: '' };
      this.enter(node as unknown as Parameters<CompileContext['enter']>[0], token);
    },
  },
  exit: {
    promptTemplate(this: CompileContext, token: Token) {
      const node = this.stack[this.stack.length - 1] as unknown as Template;
      node.value = this.sliceSerialize(token);
      this.exit(token);
    },
  },
};
