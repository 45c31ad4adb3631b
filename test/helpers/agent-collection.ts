/**
 * A project of 43 agent files in the shapes public Claude Code agent
 * collections are written in (files written for this test, not copied):
 * 22 that Claude Code loads — some only through its second, quoted reading —
 * 15 whose frontmatter it cannot read, and 6 it skips for other reasons.
 */

export interface AgentCollection {
  files: Record<string, string>;
  /** Names of the agents Claude Code loads, sorted. */
  loaded: string[];
  /** Paths Claude Code skips, with the rule the build names for each. */
  skipped: Record<string, 'frontmatter/invalid-yaml' | 'agent/missing-field' | 'agent/skipped'>;
}

const BODY = '\nYou are a careful specialist. Read the code before you change it.\n\n## Process\n\n1. Understand the request.\n2. Do the work.\n';

/** The multi-line examples written at the margin under `description:`, as in many plugin collections. */
function marginExamples(name: string, i: number): string {
  const lead = i % 2 === 0 ? `Use this agent when the user has written code that needs a ${name} pass. Examples:\n\n` : `Use this agent after a change that needs ${name}. For example:\n`;
  return (
    `---\nname: ${name}\ndescription: ${lead}<example>\nContext: The user just finished a feature.\nuser: "Please look at the retry logic"\n` +
    `assistant: "I'll use the ${name} agent to check it."\n<commentary>\nCode was written, so the ${name} agent applies.\n</commentary>\n</example>\nmodel: sonnet\ncolor: blue\n---\n${BODY}`
  );
}

export function agentCollection(): AgentCollection {
  const files: Record<string, string> = {};
  const loaded: string[] = [];
  const skipped: AgentCollection['skipped'] = {};
  const load = (rel: string, name: string, text: string) => {
    files[rel] = text;
    loaded.push(name);
  };

  // 22 that load.
  const tools = ['Read, Grep, Glob', '[Read, Edit, Bash]', '\n  - Read\n  - Write', 'Read', 'Bash, Read', '[]', 'Read, mcp__github__get_issue', 'Read, Bash(git:*)'];
  for (const [i, t] of tools.entries()) {
    load(`agents/core/plain-${i}.md`, `plain-${i}`, `---\nname: plain-${i}\ndescription: Reviews pull requests for correctness and style\ntools: ${t}\nmodel: sonnet\n---\n${BODY}`);
  }
  for (let i = 0; i < 4; i++) {
    load(`agents/lenient/colon-${i}.md`, `colon-${i}`, `---\nname: colon-${i}\ndescription: Expert in databases. Use PROACTIVELY for: schema design, query tuning, migrations ${i}\ntools: Read, Grep\n---\n${BODY}`);
  }
  for (let i = 0; i < 2; i++) {
    const examples = `Use this agent for releases. Examples:\\n\\n<example>\\nContext: A release is due\\nuser: "Ship 1.${i}"\\nassistant: "I'll use the release agent"\\n</example>`;
    load(`agents/lenient/one-line-examples-${i}.md`, `one-line-examples-${i}`, `---\nname: one-line-examples-${i}\ndescription: ${examples}\nmodel: opus\n---\n${BODY}`);
  }
  load('agents/lenient/backtick.md', 'backtick', '---\nname: backtick\ndescription: Runs the tests\nhint: `npm test` runs the suite\n---\n' + BODY);
  for (let i = 0; i < 2; i++) {
    load(`agents/lenient/quote-started-${i}.md`, `quote-started-${i}`, `---\nname: quote-started-${i}\ndescription: "Use this agent when the user asks for a security review." Examples: the user says "check auth ${i}"\ntools: Read\n---\n${BODY}`);
  }
  load('agents/shapes/block.md', 'block', '---\nname: block\ndescription: |\n  Use this agent when code needs review. Examples:\n\n  <example>\n  Context: The user wrote code\n  user: "Review it"\n  </example>\ntools: Read\n---\n' + BODY);
  load('agents/shapes/folded.md', 'folded', '---\nname: folded\ndescription: >-\n  Use this agent when a migration\n  needs checking.\n---\n' + BODY);
  load('agents/shapes/double-quoted.md', 'double-quoted', '---\nname: double-quoted\ndescription: "Use this agent for docs.\\n\\nExamples: write a README"\n---\n' + BODY);
  load('agents/shapes/single-quoted.md', 'single-quoted', "---\nname: single-quoted\ndescription: 'Use this agent for tests: it''s thorough'\n---\n" + BODY);
  load('agents/shapes/dotted-name.md', 'powershell-5.1-expert', '---\nname: powershell-5.1-expert\ndescription: Writes PowerShell 5.1 scripts\n---\n' + BODY);

  // 15 whose frontmatter Claude Code cannot read.
  const margin = ['code-simplifier', 'test-writer', 'api-tester', 'doc-reviewer', 'backend-architect', 'plugin-validator', 'skill-reviewer', 'agent-creator', 'ui-designer', 'bug-hunter'];
  for (const [i, name] of margin.entries()) {
    files[`agents/plugin/${name}.md`] = marginExamples(name, i);
    skipped[`agents/plugin/${name}.md`] = 'frontmatter/invalid-yaml';
  }
  const unreadable: Record<string, string> = {
    'agents/broken/prose-at-margin.md': '---\nname: prose-at-margin\ndescription: Use this agent to review the code\nfor bugs, style problems\ntools: Read\n---\n' + BODY,
    'agents/broken/dialogue-at-margin.md': '---\nname: dialogue-at-margin\ndescription: Use this agent when asked\nuser: "review"\nassistant: "on it"\nexample without a colon\n---\n' + BODY,
    'agents/broken/unclosed-list.md': '---\nname: unclosed-list\ndescription: Lists things\ntools: [Read, Grep\n---\n' + BODY,
    'agents/broken/indented.md': '---\n  name: indented\ndescription: Badly indented\n---\n' + BODY,
    'agents/broken/never-closed.md': '---\nname: never-closed\ndescription: The frontmatter never ends\n' + BODY,
  };
  for (const [rel, text] of Object.entries(unreadable)) {
    files[rel] = text;
    skipped[rel] = 'frontmatter/invalid-yaml';
  }

  // 6 skipped for other reasons.
  const other: Array<[string, string, AgentCollection['skipped'][string]]> = [
    ['agents/other/no-description.md', '---\nname: no-description\ntools: Read\n---\n' + BODY, 'agent/missing-field'],
    ['agents/other/empty-description.md', '---\nname: empty-description\ndescription:\n---\n' + BODY, 'agent/missing-field'],
    ['agents/other/no-name.md', '---\ndescription: Has no name\n---\n' + BODY, 'agent/missing-field'],
    ['agents/other/neither.md', '---\nmodel: sonnet\ncolor: red\n---\n' + BODY, 'agent/missing-field'],
    ['agents/README.md', '# Agents\n\nThe agents of this project.\n', 'agent/skipped'],
    ['agents/other/notes.md', 'Notes on the agents, no frontmatter.\n', 'agent/skipped'],
  ];
  for (const [rel, text, rule] of other) {
    files[rel] = text;
    skipped[rel] = rule;
  }
  return { files, loaded: loaded.sort(), skipped };
}
