import type { ReactNode } from 'react';

/**
 * SPEC.md §2, §9: on a screen with a bottom button, the Continue (a ContinueForm or an
 * island's ContinueButton) stays 24px above the bottom edge. Such a screen also renders its
 * Page with `bottomButton`, so its content clears the button (88px bottom padding).
 */
export function BottomButton({ children }: { children: ReactNode }) {
  return <div className="bottom-button">{children}</div>;
}
