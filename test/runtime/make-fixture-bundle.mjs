// Writes the hand-made bundle in test/fixtures/runtime-bundle/ that the runtime
// tests load before (and independently of) the compiler. It follows the
// contract of compiler/runtime/manifest.ts: content-hashed artifact names,
// sha256 of each file's bytes in the manifest, sorted keys, no timestamps.
// Template sources (.hbs) and source maps are named but not written: the
// runtime never reads them. Rerun after changing anything below:
//   node test/runtime/make-fixture-bundle.mjs
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/runtime-bundle');

const statics = {
  intro: 'You are the fixture agent of the prompt-build runtime tests.\n',
  rules: '# Rules\n\n- Keep answers short.\n- Never guess a file path.\n\n',
  simple: 'You are a concise assistant. Answer in one paragraph.\n',
};

// Hand-written thunks in the shape the compiler emits: no imports, `rt` passed in.
const thunks = {
  'env-info': {
    cache: 'cached',
    inputs: ['cwd', 'model'],
    optional: ['model'],
    template: '# Environment\n\nWorking directory: {{cwd}}\n{{#if model}}Model: {{model}}\n{{/if}}',
    source: `export default function create(rt) {
  return (ctx) => {
    if (ctx.cwd === undefined) rt.missing('env-info', 'cwd');
    let out = '# Environment\\n\\nWorking directory: ' + rt.str(ctx.cwd) + '\\n';
    if (ctx.model) out += 'Model: ' + rt.str(ctx.model) + '\\n';
    return out;
  };
}
`,
  },
  'mcp-instructions': {
    cache: 'uncached',
    reason: 'MCP servers connect and disconnect between turns',
    inputs: ['mcpServers'],
    optional: ['mcpServers'],
    template:
      '{{#if mcpServers}}# MCP Server Instructions\n{{#each mcpServers}}\n## {{name}}\n{{instructions}}\n{{/each}}{{/if}}',
    source: `export default function create(rt) {
  return (ctx) => {
    const servers = ctx.mcpServers;
    if (!Array.isArray(servers) || servers.length === 0) return '';
    let out = '# MCP Server Instructions\\n';
    for (const server of servers) {
      out += '\\n## ' + rt.str(server.name) + '\\n' + rt.str(server.instructions) + '\\n';
    }
    return out;
  };
}
`,
  },
};

const agents = {
  explore: {
    description: 'Read-only search of the codebase.',
    tools: ['Glob', 'Grep', 'Read'],
    model: 'haiku',
    text: 'You explore a codebase and report what you find. You never edit files.\n',
  },
};

const profiles = {
  default: { description: 'Everything.', sections: ['intro', 'rules', 'env-info', 'mcp-instructions'] },
  proactive: { description: 'Without the rules.', sections: ['intro', 'env-info'] },
  simple: { description: 'Simple mode.', sections: ['simple'] },
};

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const bytes = (text) => Buffer.byteLength(text);
const tokens = (text) => Math.ceil(bytes(text) / 4);
const files = new Map();
const sources = {};

const sections = {};
for (const [name, text] of Object.entries(statics)) {
  const hash = sha256(text);
  const file = `static/${name}.${hash.slice(0, 8)}.md`;
  const source = `prompts/sections/${name}.md`;
  files.set(file, text);
  sources[source] = { hash, includes: [] };
  sections[name] = { bytes: bytes(text), file, hash, kind: 'static', map: `maps/${name}.${hash.slice(0, 8)}.json`, name, source, tokens: tokens(text) };
}
for (const [name, thunk] of Object.entries(thunks)) {
  const hash = sha256(thunk.source);
  const short = hash.slice(0, 8);
  const file = `dynamic/${name}.${short}.js`;
  const source = `prompts/sections/${name}.md`;
  files.set(file, thunk.source);
  sources[source] = { hash: sha256(thunk.template), includes: [] };
  sections[name] = {
    bytes: bytes(thunk.template),
    cache: thunk.cache,
    file,
    hash,
    inputs: thunk.inputs,
    kind: 'dynamic',
    map: `maps/${name}.${short}.json`,
    name,
    optional: thunk.optional,
    ...(thunk.reason ? { reason: thunk.reason } : {}),
    source,
    template: `dynamic/${name}.${short}.hbs`,
    tokens: tokens(thunk.template),
  };
}

const manifest = {
  agents: {},
  profiles: {},
  schemaVersion: 1,
  sources,
  tool: { handlebars: '4.7.8', name: 'prompt-build', version: '0.1.0' },
};
for (const [name, agent] of Object.entries(agents)) {
  const hash = sha256(agent.text);
  const file = `agents/${name}.${hash.slice(0, 8)}.md`;
  const source = `agents/${name}.md`;
  files.set(file, agent.text);
  sources[source] = { hash, includes: [] };
  manifest.agents[name] = {
    bytes: bytes(agent.text),
    description: agent.description,
    file,
    hash,
    map: `maps/agent-${name}.${hash.slice(0, 8)}.json`,
    model: agent.model,
    name,
    source,
    tokens: tokens(agent.text),
    tools: agent.tools,
  };
}
for (const [name, profile] of Object.entries(profiles)) {
  const entries = profile.sections.map((section) => sections[section]);
  const statics = entries.filter((entry) => entry.kind === 'static');
  manifest.profiles[name] = {
    boundaryIndex: statics.length,
    description: profile.description,
    name,
    sections: entries,
    source: `prompts/profiles/${name}.md`,
    staticPrefixHash: sha256(statics.map((entry) => entry.hash).join('\n')),
    staticTokens: statics.reduce((sum, entry) => sum + entry.tokens, 0),
  };
}

await rm(out, { recursive: true, force: true });
files.set('manifest.json', `${JSON.stringify(sortKeys(manifest), null, 2)}\n`);
for (const [file, text] of files) {
  await mkdir(dirname(join(out, file)), { recursive: true });
  await writeFile(join(out, file), text);
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
}
