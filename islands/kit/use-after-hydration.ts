import { useEffect, useState } from 'react';

/**
 * False on the server and in the first browser render, true once the island has mounted.
 * What only the browser knows (persisted state) is shown from then on, so the first render
 * equals the server's HTML and hydration never mismatches (ARCHITECTURE.md islands protocol).
 */
export function useAfterHydration(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
