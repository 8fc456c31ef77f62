import DownloadApp from '../../islands/DownloadApp';

/** Islands of the after screens (see screens/islands.ts). */
export const AFTER_ISLANDS = { DownloadApp } as const;
