import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useStore } from '../../../console/kit/stores/atom';
import { $live } from '../../../console/kit/stores/live';
import type { ConsoleState } from '../../../shared/console-api/config';

/**
 * The console areas `draw` returns, drawn as the console's page draws them once the live state
 * is in (console/page/Console.tsx), without the areas a test does not read: an area's test then
 * renders, and renders again on each step, only what it looks at (traffic-ui.test.tsx took 8.9 s
 * instead of 11.8 s with the whole page). console-ui.test.tsx draws the whole page.
 */
export function renderAreas(draw: (state: ConsoleState) => ReactNode) {
  function Areas() {
    const live = useStore($live);
    return live.kind === 'ready' ? draw(live.state) : null;
  }
  return render(<Areas />);
}
