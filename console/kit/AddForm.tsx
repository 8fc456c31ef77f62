import type { FormEvent, ReactNode } from 'react';

/**
 * A form that adds something to the draft (a flow, a variant, a route, an audience, an
 * experiment): a block named by its heading, checked by the console rather than the browser, so
 * each problem is said beside its field in the console's words.
 */
export function AddForm(props: {
  /** The form's id: its heading is `${id}-title`. */
  id: string;
  title: string;
  /** A form inside an area's own sub-section takes the level below. */
  headingLevel?: 3 | 4;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
  children: ReactNode;
}) {
  const { id, headingLevel = 3 } = props;
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <form
      className="block add-form"
      onSubmit={props.onSubmit}
      aria-labelledby={`${id}-title`}
      noValidate
    >
      <Heading id={`${id}-title`}>{props.title}</Heading>
      {props.children}
    </form>
  );
}

/** A row's submit button, lined up with the fields beside it. */
export function AddButton({ label }: { label: string }) {
  return (
    <div className="field field--action">
      <button type="submit" className="button">
        {label}
      </button>
    </div>
  );
}
