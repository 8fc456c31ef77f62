import { checkSampleRatio } from '../statistics/statistics';

/**
 * The sample-ratio check of the variants shown against the shares their weights give, with the
 * part the results answer: the chi-square is null while untested (nobody exposed, or one live
 * arm) and where infinite (a variant not drawn has visitors), as JSON has no Infinity.
 */
export function sampleRatioAnswer(
  variants: readonly string[],
  shares: Readonly<Record<string, number>>,
  exposedOf: (variant: string) => number,
  anyExposed: boolean,
) {
  const check = checkSampleRatio(
    variants.map((variant) => ({ exposed: exposedOf(variant), weight: shares[variant] ?? 0 })),
  );
  const tested = anyExposed && check.degreesOfFreedom > 0;
  return {
    chiSquare: tested && Number.isFinite(check.chiSquare) ? check.chiSquare : null,
    pValue: check.pValue,
    alarm: check.alarm,
  };
}
