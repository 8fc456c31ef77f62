import { type ReactNode, useEffect } from 'react';

/**
 * The root of every island, on the server and in the browser alike (so the trees match): it
 * renders its child unchanged and, in the browser, reports when hydration has committed.
 */
export function IslandRoot({
  children,
  onCommit,
}: {
  children?: ReactNode;
  onCommit?: () => void;
}) {
  // Stays an effect: the commit it reports is React's own.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reports the first commit only.
  useEffect(() => onCommit?.(), []);
  return children;
}
