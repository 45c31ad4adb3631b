/**
 * How many generated cases a property test runs: its share in the suite, or
 * more in a longer opt-in run (`PB_TEST_SCALE=10 npm test`), so the suite
 * keeps to its time on two cores while a deeper search stays one variable away.
 */
export function generatedCases(suiteShare: number): number {
  const scale = Number(process.env.PB_TEST_SCALE);
  return Number.isFinite(scale) && scale > 0 ? Math.ceil(suiteShare * scale) : suiteShare;
}
