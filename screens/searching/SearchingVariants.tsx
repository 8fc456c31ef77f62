import type { ScreenProps } from '../types';
import { SearchingScreen } from './SearchingScreen';

/** searching: the classic ring-then-map search. */
export function Searching(props: ScreenProps) {
  return <SearchingScreen {...props} variant="classic" />;
}

/** searching_2: the map leads, a smaller ring beside the number. */
export function Searching2(props: ScreenProps) {
  return <SearchingScreen {...props} variant="map_first" />;
}

/** searching_ai: AI wording and styling. */
export function SearchingAi(props: ScreenProps) {
  return <SearchingScreen {...props} variant="ai" />;
}
