import type { ConsoleState } from '../../shared/console-api/config';
import { useStore } from '../kit/stores/atom';
import { $draft } from '../kit/stores/draft';
import { AddRoute } from './AddRoute';
import { AudiencesEditor } from './AudiencesEditor';
import { Currencies } from './Currencies';
import { RoutesEditor } from './RoutesEditor';
import { TestVisitor } from './TestVisitor';
import { TrafficMap } from './TrafficMap';

/**
 * Who gets which funnel: the live traffic map, then the draft's routes, audiences and currencies,
 * which go into the same draft document as the split and flows and are reviewed and published
 * with them, and "test a visitor".
 */
export function Traffic({ state }: { state: ConsoleState }) {
  const draft = useStore($draft);
  return (
    <section className="section" id="traffic" aria-labelledby="traffic-title">
      <h2 id="traffic-title">Traffic</h2>
      <TrafficMap
        routing={state.live.routing}
        flows={state.live.flows}
        version={state.head?.id ?? 'none'}
      />
      {draft ? (
        <>
          <RoutesEditor routing={draft.document.routing} flows={draft.document.flows} />
          <AddRoute routing={draft.document.routing} flows={draft.document.flows} />
          <AudiencesEditor routing={draft.document.routing} />
          <Currencies routing={draft.document.routing} />
          <TestVisitor draft={draft.document.routing} live={state.live.routing} />
        </>
      ) : null}
    </section>
  );
}
