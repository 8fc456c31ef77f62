import { useEffect, useState } from 'react';

/**
 * False on the server and in the first browser render, true once the island has mounted.
 * What only the browser knows (persisted state) is shown from then on, so the first render
 * equals the server's HTML and hydration never mismatches (ARCHITECTURE.md islands protocol).
 */
export function useAfterHydration(): boolean {
  const [mounted, setMounted] = useState(false);
  // Stays an effect: an effect's first run is what marks the commit of hydration.
  useEffect(() => setMounted(true), []);
  return mounted;
}
