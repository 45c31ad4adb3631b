// Render benchmark (dynamic sections): a typical ~4 KB section rendered by its
// fast-path thunk, against the floor of a hand-written template-literal
// function producing the same string, and against Handlebars' own template
// precompiled with noEscape. Reads the compiled compiler in lib/
// (`npx tsc -p tsconfig.json` first). Run directly to print the numbers.
import Handlebars from 'handlebars';
import { pathToFileURL } from 'node:url';
import { createThunkRuntime } from '../lib/runtime/thunk-runtime.js';
import { fallbackReason, generateThunkModule } from '../lib/template/index.js';

// Renders timed together per sample: one render is too short for the timer.
const BATCH = 500;
const WARM_UP_SAMPLES = 200;

export const TEMPLATE = `# Environment
You have been invoked in the following environment:
- Primary working directory: {{cwd}}
- Is a git repository: {{#if isGitRepo}}Yes{{else}}No{{/if}}
{{#if additionalDirectories}}
- Additional working directories: {{#each additionalDirectories}}{{this}}{{#unless @last}}, {{/unless}}{{/each}}
{{/if}}
- Platform: {{platform}}
- Shell: {{shell}}
- OS version: {{osVersion}}
- Model: {{modelName}} (ID: {{modelId}})
- Knowledge cutoff: {{knowledgeCutoff}}
{{#if language}}

# Language
Always respond in {{language}}. Use {{language}} for all explanations, comments and communications with the user. Technical terms and code identifiers keep their original form.
{{/if}}

# MCP Server Instructions
The following MCP servers have provided instructions for how to use their tools and resources:
{{#each mcpServers}}

## {{name}}
{{instructions}}
{{/each}}

# Memory
{{#each memories}}
- [{{title}}]({{file}}): {{description}}
{{/each}}

# Git status
This is the git status at the start of the conversation. It is a snapshot in time and will not update during the conversation.
Current branch: {{git.branch}}
Main branch (you will usually use this for PRs): {{git.mainBranch}}
Status:
{{git.status}}
Recent commits:
{{#each git.commits}}
{{this}}
{{/each}}
`;

export const INPUTS = [
  'additionalDirectories',
  'cwd',
  'git',
  'isGitRepo',
  'knowledgeCutoff',
  'language',
  'mcpServers',
  'memories',
  'modelId',
  'modelName',
  'osVersion',
  'platform',
  'shell',
];
export const OPTIONAL = ['additionalDirectories', 'language', 'mcpServers', 'memories'];

/**
 * A hand-written renderer of TEMPLATE: template literals, plain loops, no
 * helpers. About the fastest JavaScript for this string (faster than the
 * usual `.map(…).join('')`), so the ratio is measured against a strict floor.
 */
function floor(ctx) {
  const dirs = ctx.additionalDirectories;
  let out = `# Environment
You have been invoked in the following environment:
- Primary working directory: ${ctx.cwd}
- Is a git repository: ${ctx.isGitRepo ? 'Yes' : 'No'}
`;
  if (dirs && dirs.length > 0) {
    out += '- Additional working directories: ';
    for (let i = 0; i < dirs.length; i++) out += i === dirs.length - 1 ? dirs[i] : `${dirs[i]}, `;
    out += '\n';
  }
  out += `- Platform: ${ctx.platform}
- Shell: ${ctx.shell}
- OS version: ${ctx.osVersion}
- Model: ${ctx.modelName} (ID: ${ctx.modelId})
- Knowledge cutoff: ${ctx.knowledgeCutoff}
`;
  if (ctx.language) {
    out += `
# Language
Always respond in ${ctx.language}. Use ${ctx.language} for all explanations, comments and communications with the user. Technical terms and code identifiers keep their original form.
`;
  }
  out += `
# MCP Server Instructions
The following MCP servers have provided instructions for how to use their tools and resources:
`;
  for (const server of ctx.mcpServers) out += `\n## ${server.name}\n${server.instructions}\n`;
  out += '\n# Memory\n';
  for (const memory of ctx.memories) out += `- [${memory.title}](${memory.file}): ${memory.description}\n`;
  out += `
# Git status
This is the git status at the start of the conversation. It is a snapshot in time and will not update during the conversation.
Current branch: ${ctx.git.branch}
Main branch (you will usually use this for PRs): ${ctx.git.mainBranch}
Status:
${ctx.git.status}
Recent commits:
`;
  for (const commit of ctx.git.commits) out += `${commit}\n`;
  return out;
}

export function sampleContext() {
  const instructions = (tool) =>
    `Use the ${tool} tools to read and change ${tool} data. Prefer the search tool over listing everything; ` +
    `results are paginated, so pass the cursor back to get the next page. Never guess an identifier: look it up first. ` +
    `Write operations need the user's confirmation, so describe the change before making it. ` +
    `Rate limits apply: on a 429 response, wait for the time in the Retry-After header and retry once.`;
  return {
    cwd: '/home/user/projects/prompt-build',
    isGitRepo: true,
    additionalDirectories: ['/home/user/projects/shared', '/home/user/notes'],
    platform: 'linux',
    shell: 'zsh',
    osVersion: 'Linux 6.8.0-45-generic',
    modelName: 'Example Model 4',
    modelId: 'example-model-4-20250101',
    knowledgeCutoff: 'January 2025',
    language: 'English',
    mcpServers: ['github', 'linear', 'sentry', 'slack', 'postgres'].map((name) => ({ name, instructions: instructions(name) })),
    memories: [1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({
      title: `Memory ${n}`,
      file: `memory-${n}.md`,
      description: `what the user told us about topic ${n}, kept for later sessions`,
    })),
    git: {
      branch: 'feature/dynamic-sections',
      mainBranch: 'main',
      status: ' M compiler/template/codegen.ts\n M compiler/template/fast-path.ts\n?? bench/render.mjs',
      commits: [
        'a1b2c3d Compile dynamic sections to thunks',
        'b2c3d4e Add the section cache',
        'c3d4e5f Parse frontmatter with gray-matter',
        'd4e5f6a Resolve @include directives',
        'e5f6a7b Initial commit',
      ],
    },
  };
}

/**
 * Medians over `iterations` samples of nanoseconds per render: `floorNs` (the
 * template literal), `thunkNs` (the generated thunk), `handlebarsNs`
 * (Handlebars precompiled, noEscape), and `ratio` = thunkNs / floorNs (target ≤ 1.5).
 */
export async function benchRender({ iterations = 200 } = {}) {
  if (fallbackReason(TEMPLATE) !== null) throw new Error('the benchmark template must take the fast path');
  const module = generateThunkModule(TEMPLATE, { section: 'bench', inputs: INPUTS, optional: OPTIONAL });
  // The bundle's way of loading a thunk without a file: the module body as a function body.
  const create = new Function(module.replace(/^export default /, 'return '))();
  const thunk = create(createThunkRuntime());
  const handlebars = Handlebars.template(
    new Function(`return ${Handlebars.precompile(TEMPLATE, { noEscape: true })}`)(),
  );

  const ctx = sampleContext();
  const expected = floor(ctx);
  for (const [name, render] of [['thunk', thunk], ['handlebars', handlebars]]) {
    if (render(ctx) !== expected) throw new Error(`${name} does not render what the floor renders`);
  }

  let sink = 0;
  const candidates = {
    floor: () => (sink += floor(ctx).length),
    thunk: () => (sink += thunk(ctx).length),
    handlebars: () => (sink += handlebars(ctx).length),
  };
  for (let i = 0; i < WARM_UP_SAMPLES; i++) for (const run of Object.values(candidates)) sampleNs(run);
  const samples = { floor: [], thunk: [], handlebars: [] };
  // Interleaved, so that machine noise falls on all alike.
  for (let i = 0; i < iterations; i++) {
    for (const [name, run] of Object.entries(candidates)) samples[name].push(sampleNs(run));
  }
  if (sink === 0) throw new Error('the benchmarked section is empty');

  const floorNs = median(samples.floor);
  const thunkNs = median(samples.thunk);
  return { floorNs, thunkNs, handlebarsNs: median(samples.handlebars), ratio: thunkNs / floorNs, bytes: expected.length };
}

/** Mean nanoseconds per call over one batch. */
function sampleNs(fn) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) fn();
  return Number(process.hrtime.bigint() - start) / BATCH;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchRender({ iterations: Number(process.argv[2] ?? 200) }));
}
