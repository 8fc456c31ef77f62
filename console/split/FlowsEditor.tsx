import type { ConfigDocument, ScreenChoice } from '../../shared/console-api/config';
import { flowWalkers } from '../kit/document-edits';
import { FieldMessages } from '../kit/FieldMessages';
import { FlowEditor } from './FlowEditor';

/** Every flow of the draft, each editable from the known screens only. */
export function FlowsEditor({
  document,
  choices,
}: {
  document: ConfigDocument;
  choices: readonly ScreenChoice[];
}) {
  return (
    <div className="block">
      <h3>Flows</h3>
      <p className="muted">
        A flow is the row of screens a variant walks; its first screen is the landing. Screens come
        from the list the funnel knows.
      </p>
      <FieldMessages path="flows.flows" />
      <ul className="rows">
        {Object.entries(document.flows.flows).map(([name, screens]) => (
          <li key={name}>
            <FlowEditor
              name={name}
              screens={screens}
              walkedBy={flowWalkers(document, name)}
              choices={choices}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
