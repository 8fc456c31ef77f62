import type { ReactNode } from 'react';

/**
 * SPEC.md §2 Layout, §9: a screen's Continue pinned 24px above the bottom edge, as wide as the
 * page's content. Such a screen sets `bottomButton` in its definition (screens/types.ts), so its
 * page gets 88px of bottom padding and its last lines scroll clear of the button.
 */
export function BottomButton({ children }: { children: ReactNode }) {
  return <div className="bottom-button">{children}</div>;
}
