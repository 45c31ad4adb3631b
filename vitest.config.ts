import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/temp-root.ts'],
    // Two test files at a time: vitest's default (cores − 1) is one on this 2-core machine,
    // and many tests wait on a process of their own (the CLI) rather than on the CPU.
    maxWorkers: 2,
    // Generous: a test is a failure when it hangs, not when a loaded machine slows it.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
