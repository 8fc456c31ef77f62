import { composedScreen } from '../kit/composition';
import { SUCCESS_COMPOSITION } from './section-specs';
import { END_SECTIONS } from './sections';

/**
 * 'Your plan awaits' (SPEC.md §2), drawn from its sections (./sections.tsx) as a marketer's
 * content arranges them.
 */
export const SuccessScreen = composedScreen(SUCCESS_COMPOSITION, END_SECTIONS);
