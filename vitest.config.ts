import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Packages resolved as Node resolves them for users. Outside production vite
 * adds the `development` export condition, for the files it serves and for the
 * workers' Node (`--conditions development`), so the tests ran micromark's
 * development build (its internal assertions and debug logging): not the code
 * users run, and 7–15 % of the time of the Markdown-heavy files. Vitest adds
 * the condition after the config is merged; it is taken out once resolved.
 */
function resolveAsNode(): Plugin {
  const withoutDevelopment = (conditions: string[] | undefined) => conditions?.filter((c) => c !== 'development' && c !== 'development|production');
  return {
    name: 'resolve-as-node',
    configResolved(config) {
      const ssr = config.ssr.resolve as { conditions?: string[] } | undefined;
      if (ssr) ssr.conditions = withoutDevelopment(ssr.conditions);
      for (const environment of Object.values(config.environments)) {
        const resolve = environment.resolve as { conditions?: string[] };
        resolve.conditions = withoutDevelopment(resolve.conditions);
      }
    },
  };
}

export default defineConfig({
  plugins: [resolveAsNode()],
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/temp-root.ts'],
    // Buffers compared byte for byte at once, not index by index (seconds per bundle compared).
    setupFiles: ['test/setup/byte-equality.ts'],
    // Two test files at a time: vitest's default (cores − 1) is one on this 2-core machine,
    // and many tests wait on a process of their own (the CLI) rather than on the CPU.
    maxWorkers: 2,
    // One module graph per worker, not per test file: the compiler holds no module-level state
    // (test/architecture/module-state.test.ts), and re-importing it for each of ~90 files cost
    // more than a minute of the suite. Stubbed variables and globals are undone after each test.
    isolate: false,
    unstubEnvs: true,
    // The day the cache facts' age is judged on (cache-facts/facts-age.ts), for every test and the CLI it runs:
    // no test may depend on the real date. Tests of the age warning set their own.
    env: { PROMPT_BUILD_TODAY: '2026-12-04' },
    unstubGlobals: true,
    // Generous: a test is a failure when it hangs, not when a loaded machine slows it.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
