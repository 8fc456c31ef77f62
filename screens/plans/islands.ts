/** Islands of the plans screens (see screens/islands.ts). */
export const PLANS_ISLANDS = {} as const;
