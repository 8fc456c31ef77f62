import ErrorToast from '../../islands/ErrorToast';
import LoadingOverlay from '../../islands/LoadingOverlay';
import LocatedBanner from '../../islands/LocatedBanner';
import OpenInBrowser from '../../islands/OpenInBrowser';

/** Islands of the shared UI kit (see screens/islands.ts). */
export const KIT_ISLANDS = { ErrorToast, LoadingOverlay, LocatedBanner, OpenInBrowser } as const;
