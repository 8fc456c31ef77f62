import { ComposedScreen } from '../kit/composition';
import type { ScreenProps } from '../types';
import { SUCCESS_COMPOSITION } from './section-specs';
import { END_SECTIONS } from './sections';

/**
 * 'Your plan awaits' (SPEC.md §2), drawn from its sections (./sections.tsx) as a marketer's
 * content arranges them.
 */
export function SuccessScreen(props: ScreenProps) {
  return (
    <ComposedScreen props={props} composition={SUCCESS_COMPOSITION} catalogue={END_SECTIONS} />
  );
}
