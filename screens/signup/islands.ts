/** Islands of the signup screens (see screens/islands.ts). */
export const SIGNUP_ISLANDS = {} as const;
