import SearchProgress from '../../islands/SearchProgress';

/** Islands of the searching screens (see screens/islands.ts). */
export const SEARCHING_ISLANDS = { SearchProgress } as const;
