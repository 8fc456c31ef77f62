import type { ScreenProps } from '../types';
import { SearchingScreen } from './SearchingScreen';
import { SEARCHING_COMPOSITIONS } from './section-specs';

/** searching: the classic ring-then-map search. */
export function Searching(props: ScreenProps) {
  return (
    <SearchingScreen {...props} variant="classic" composition={SEARCHING_COMPOSITIONS.searching} />
  );
}

/** searching_2: the map leads, a smaller ring beside the number. */
export function Searching2(props: ScreenProps) {
  return (
    <SearchingScreen
      {...props}
      variant="map_first"
      composition={SEARCHING_COMPOSITIONS.searching_2}
    />
  );
}

/** searching_ai: AI wording and styling. */
export function SearchingAi(props: ScreenProps) {
  return (
    <SearchingScreen {...props} variant="ai" composition={SEARCHING_COMPOSITIONS.searching_ai} />
  );
}
