/** Islands of the searching screens (see screens/islands.ts). */
export const SEARCHING_ISLANDS = {} as const;
