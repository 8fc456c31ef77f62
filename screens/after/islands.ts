/** Islands of the after screens (see screens/islands.ts). */
export const AFTER_ISLANDS = {} as const;
