// Python runtime benchmark (issue 16, acceptance 4), run when `python3` exists:
// the bench's 4 KB section compiled to its Python module against a hand-written
// f-string renderer, a warm-cache assemble of the default profile against
// "\n\n".join of its strings, and load_bundle of this repository's dist/ — all
// medians measured in one python3 process (bench/python_bench.py).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createThunkRuntime } from '../lib/runtime/thunk-runtime.js';
import { generatePythonModule, generateThunkModule } from '../lib/template/index.js';
import { INPUTS, OPTIONAL, sampleContext, TEMPLATE } from './render.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export function hasPython() {
  return spawnSync('python3', ['--version']).status === 0;
}

export function benchPython() {
  const options = { section: 'bench', inputs: INPUTS, optional: OPTIONAL };
  const create = new Function(generateThunkModule(TEMPLATE, options).replace(/^export default /, 'return '))();
  const ctx = sampleContext();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pb-bench-python-'));
  try {
    const module = path.join(dir, 'bench.py');
    fs.writeFileSync(module, generatePythonModule(TEMPLATE, options));
    const run = spawnSync('python3', [path.join(HERE, 'python_bench.py')], {
      input: JSON.stringify({ module, context: ctx, expected: create(createThunkRuntime())(ctx), dist: path.join(HERE, '..', 'dist') }),
      env: { ...process.env, PYTHONPATH: path.join(HERE, '..', 'python', 'src'), PYTHONDONTWRITEBYTECODE: '1' },
      encoding: 'utf8',
    });
    if (run.status !== 0) throw new Error(`bench/python_bench.py failed: ${run.stderr}`);
    return JSON.parse(run.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(benchPython());
