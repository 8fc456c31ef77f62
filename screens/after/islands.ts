import AutoSignup from '../../islands/AutoSignup';
import DeeplinkQr from '../../islands/DeeplinkQr';
import DownloadApp from '../../islands/DownloadApp';
import TryAgain from '../../islands/TryAgain';

/** Islands of the after screens (see screens/islands.ts). */
export const AFTER_ISLANDS = { AutoSignup, DeeplinkQr, DownloadApp, TryAgain } as const;
