import ErrorToast from '../islands/ErrorToast';

/**
 * Every island the screens may render, by name. The name is also the file `islands/<name>.tsx`
 * that the build turns into the chunk the browser loads.
 */
export const ISLANDS = { ErrorToast } as const;

export type IslandName = keyof typeof ISLANDS;
