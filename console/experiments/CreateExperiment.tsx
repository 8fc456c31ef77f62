import { type FormEvent, useId, useState } from 'react';
import type { ConfigDocument, ScreenChoice } from '../../shared/console-api/config';
import { AddForm } from '../kit/AddForm';
import { focusField } from '../kit/field-problem';
import { useStore } from '../kit/stores/atom';
import { MetricAndSample, SampleEstimate } from './create/MetricAndSample';
import { NewVariants } from './create/NewVariants';
import { HypothesisField, WhatToTest } from './create/WhatToTest';
import { RoutesField, WhoEnters } from './create/WhoEnters';
import { RampFields } from './RampFields';
import {
  type CreateExperimentForm,
  createExperimentForm,
  saveOffersOf,
} from './stores/create-experiment';
import { EXPERIMENTS_STATUS_ID } from './stores/experiments';

/**
 * A new experiment from a preset (stores/create-experiment.ts holds the form): on submit, focus
 * goes to the first field with a problem, or to the experiments' status line once it is created.
 */
export function CreateExperiment({
  document,
  screens,
}: {
  document: ConfigDocument;
  screens: readonly ScreenChoice[];
}) {
  const id = useId();
  const [form] = useState(() => createExperimentForm(document));
  const parts = { id, form, document };
  const subscriber = useStore(form.$form).layer === 'subscriber';

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const outcome = form.submit(document);
    if (outcome.kind === 'problem') return focusField(event.currentTarget, outcome.field);
    window.document.getElementById(EXPERIMENTS_STATUS_ID)?.focus();
  }

  return (
    <AddForm id={id} title="Create an experiment" onSubmit={onSubmit}>
      <WhatToTest {...parts} />
      <HypothesisField id={id} form={form} />
      {/* A save offer test takes every subscriber: the subscriber's page knows no route. */}
      {subscriber ? null : <RoutesField {...parts} />}
      <WhoEnters {...parts} />
      <NewVariants
        id={id}
        form={form}
        flows={Object.keys(document.flows.flows)}
        screens={screens}
        contentVariants={Object.fromEntries(
          [
            ...Object.entries(document.content.screens),
            ...Object.entries(document.content.composed ?? {}),
          ].map(([screen, own]) => [screen, Object.keys(own?.variants ?? {})]),
        )}
        saveOffers={saveOffersOf(document)}
      />
      <MetricAndSample id={id} form={form} />
      <SampleEstimate form={form} />
      {subscriber ? null : <CreateRamp id={id} form={form} />}
      <p>
        <button type="submit" className="button button--primary">
          Create draft experiment
        </button>
      </p>
    </AddForm>
  );
}

/** "Start on a guarded ramp" of the new experiment (RampFields.tsx). */
function CreateRamp({ id, form }: { id: string; form: CreateExperimentForm }) {
  const { ramp } = useStore(form.$form);
  const problems = useStore(form.$problems);
  return (
    <RampFields
      id={id}
      form={ramp}
      problems={problems}
      onChange={(next) => form.update({ ramp: next })}
    />
  );
}
