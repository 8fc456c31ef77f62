import { type FormEvent, useId, useRef, useState } from 'react';
import { type Uploaded, uploadAdCosts } from './funnel-api';

/**
 * The ad costs' import (docs/marketers.md, "Ad costs"): a CSV file of day, source, campaign,
 * currency and amount, sent whole; every row written, or the file's problems by line with
 * nothing written. `onImported` reads the report again, so the costs show at once.
 */
export function AdCostsUpload({ onImported }: { onImported: () => void }) {
  const [uploaded, setUploaded] = useState<Uploaded | { kind: 'sending' } | null>(null);
  const fileId = useId();
  const input = useRef<HTMLInputElement>(null);

  async function send(event: FormEvent) {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (file === undefined || file.size === 0) {
      setUploaded({ kind: 'failed', message: 'Choose a CSV file of costs first.' });
      return;
    }
    setUploaded({ kind: 'sending' });
    const answer = await uploadAdCosts(await file.text());
    setUploaded(answer);
    if (answer.kind === 'imported') onImported();
  }

  return (
    <section className="section" aria-labelledby="ad-costs-title">
      <h2 id="ad-costs-title">Import ad costs</h2>
      <p className="muted">
        A CSV file with the columns day, source, campaign, currency and amount, a row per day,
        source and campaign: a row already imported for the same day, source and campaign is
        replaced.
      </p>
      <form className="actions" onSubmit={(event) => void send(event)}>
        <label htmlFor={fileId}>Costs file (CSV)</label>
        <input id={fileId} ref={input} type="file" name="costs" accept=".csv,text/csv" />
        <button type="submit" className="button" disabled={uploaded?.kind === 'sending'}>
          Import the costs
        </button>
      </form>
      <UploadOutcome uploaded={uploaded} />
    </section>
  );
}

function UploadOutcome({ uploaded }: { uploaded: Uploaded | { kind: 'sending' } | null }) {
  if (uploaded === null) return null;
  switch (uploaded.kind) {
    case 'sending':
      return (
        <p className="muted" role="status">
          Importing the costs…
        </p>
      );
    case 'imported':
      return (
        <p role="status">
          Imported {uploaded.imported} {uploaded.imported === 1 ? 'row' : 'rows'}
          {uploaded.replaced > 0 ? `, ${uploaded.replaced} of them replacing earlier ones` : ''}.
        </p>
      );
    case 'invalid':
      return (
        <div role="alert">
          <p>Nothing was imported: the file has these problems.</p>
          <ul>
            {uploaded.errors.map((error) => (
              <li key={`${error.line}:${error.field}:${error.message}`}>{error.message}</li>
            ))}
          </ul>
          {uploaded.more > 0 ? <p>And {uploaded.more} more.</p> : null}
        </div>
      );
    case 'failed':
      return <p role="alert">{uploaded.message}</p>;
  }
}
