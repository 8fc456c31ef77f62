import ConsentBanner from '../../islands/ConsentBanner';

/** Islands of the page chrome every screen shares (see screens/islands.ts). */
export const LAYOUT_ISLANDS = { ConsentBanner } as const;
