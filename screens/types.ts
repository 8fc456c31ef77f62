import type { TFunction } from 'i18next';
import type { ScreenId } from '../shared/screens';

export interface ScreenProps {
  screen: ScreenId;
  t: TFunction;
  /** Where the Continue form posts: this screen's path with the visitor's query string. */
  continueAction: string;
  /** Next screen's URL, or null on the last screen of the flow. */
  next: string | null;
  country: string | null;
}
