/** Islands of the landing screens (see screens/islands.ts). */
export const LANDING_ISLANDS = {} as const;
