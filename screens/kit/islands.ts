import ErrorToast from '../../islands/ErrorToast';

/** Islands of the shared UI kit (see screens/islands.ts). */
export const KIT_ISLANDS = { ErrorToast } as const;
