/**
 * The adapters' output against the real SDK request types (devDependencies
 * only), and the usage readers' fields against the SDK response types.
 * test/types/providers.types.ts, requests.types.ts, usage.types.ts and the
 * usage fixtures (test/conformance/usage-fixtures.ts) must type-check; each file under
 * test/types/must-fail/ must not, on its `// must-fail` line and nowhere
 * else — which shows the key check catches a field the SDK does not declare,
 * where structural typing alone lets it through.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/tree.js';

const TYPES = join(REPO, 'test/types');
const MUST_FAIL = join(TYPES, 'must-fail');
const mustFail = readdirSync(MUST_FAIL).filter((file) => file.endsWith('.ts'));

/** Errors per file, from one program over every type-test file with the project's compiler options. */
let errors: Map<string, { line: number; text: string }[]>;

beforeAll(() => {
  const config = ts.getParsedCommandLineOfConfigFile(join(REPO, 'tsconfig.json'), { noEmit: true, rootDir: REPO }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!config) throw new Error('tsconfig.json did not parse');
  const files = [join(TYPES, 'providers.types.ts'), join(TYPES, 'requests.types.ts'), join(TYPES, 'usage.types.ts'), join(REPO, 'test/conformance/usage-fixtures.ts'), ...mustFail.map((file) => join(MUST_FAIL, file))];
  const program = ts.createProgram(files, config.options);
  errors = new Map(files.map((file) => [file, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const file = d.file?.fileName ?? '(global)';
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const text = d.file ? d.file.text.split('\n')[line] ?? '' : ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!errors.has(file)) errors.set(file, []);
    errors.get(file)!.push({ line, text });
  }
}, 60_000);

describe('adapter output against the SDK request types', () => {
  it('type-checks: assignable to each SDK type, with no key the SDK does not declare', () => {
    const unexpected = [...errors].filter(([file, list]) => list.length > 0 && !file.startsWith(MUST_FAIL));
    expect(unexpected).toEqual([]);
  });

  it.each(mustFail)('%s fails the key check, and only on its must-fail line', (file) => {
    const list = errors.get(join(MUST_FAIL, file))!;
    expect(list.length).toBeGreaterThan(0);
    for (const error of list) expect(error.text).toContain('// must-fail');
  });
});
