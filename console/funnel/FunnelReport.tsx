import { type FormEvent, useEffect, useState } from 'react';
import type { ConsoleState } from '../../shared/console-api/config';
import type {
  FunnelCampaign,
  FunnelDay,
  FunnelReportAnswer,
} from '../../shared/console-api/funnel';
import { FailureNotice } from '../kit/FailureNotice';
import { useStore } from '../kit/stores/atom';
import { AdCostsUpload } from './AdCostsUpload';
import { type FunnelRange, funnelUrl } from './funnel-api';
import {
  campaignText,
  lastWeek,
  moneyText,
  revenueText,
  roasText,
  totalsText,
} from './funnel-text';
import { $funnelReport, loadFunnelReport } from './stores/funnel';

/**
 * The funnel by campaign (docs/marketers.md, "The funnel by campaign"): for the days asked, each
 * source and campaign's visitors, sign-ups, purchases and revenue against the ad costs imported
 * for it, and the funnel by day for one route or all; both tables also as CSV. Read when the page
 * is opened, and again on Show.
 */
export function FunnelReport({ state }: { state: ConsoleState }) {
  const report = useStore($funnelReport);
  const [range, setRange] = useState<FunnelRange>(() => ({ ...lastWeek(Date.now()), route: '' }));
  useEffect(() => {
    if ($funnelReport.get().kind === 'idle') void loadFunnelReport(range);
  }, [range]);

  function show(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = {
      from: String(form.get('from')),
      to: String(form.get('to')),
      route: String(form.get('route')),
    };
    setRange(next);
    void loadFunnelReport(next);
  }

  return (
    <>
      <section className="section" aria-labelledby="funnel-title">
        <h2 id="funnel-title">Funnel by campaign</h2>
        <p className="muted">
          Each visitor counted once, on the day of their first page, by the source and campaign of
          the link that brought them; what they did after, on any later day, counts on that day.
          Money is in US dollars at the reporting rates; costs are the ones imported below.
        </p>
        <form className="actions" onSubmit={show} aria-label="Days and route">
          <label>
            From <input type="date" name="from" defaultValue={range.from} required />
          </label>
          <label>
            To <input type="date" name="to" defaultValue={range.to} required />
          </label>
          <label>
            Route{' '}
            <select name="route" defaultValue={range.route}>
              <option value="">Every route</option>
              {state.live.routing.routes.map((route) => (
                <option key={route.id} value={route.id}>
                  {route.id}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="button">
            Show
          </button>
        </form>
        {report.kind === 'loading' ? (
          <p className="muted" role="status">
            Loading the funnel…
          </p>
        ) : null}
        {report.kind === 'failed' ? <FailureNotice message={report.message} /> : null}
        {report.kind === 'ready' ? <Report answer={report.answer} range={report.range} /> : null}
      </section>
      <AdCostsUpload onImported={() => void loadFunnelReport(range)} />
    </>
  );
}

function Report({ answer, range }: { answer: FunnelReportAnswer; range: FunnelRange }) {
  return (
    <>
      <p>
        <strong>{totalsText(answer.totals)}</strong>
        {answer.route === null ? ` for ${moneyText(answer.totals.costCents)} of ads.` : '.'}{' '}
        <span className="muted">Rates of {answer.ratesDate}.</span>
      </p>
      <p>
        <a className="button" href={funnelUrl(range, 'campaigns')} download>
          Download the campaigns (CSV)
        </a>{' '}
        <a className="button" href={funnelUrl(range, 'days')} download>
          Download the days (CSV)
        </a>
      </p>
      <Campaigns campaigns={answer.campaigns} />
      <Days days={answer.days} route={answer.route} />
    </>
  );
}

function Campaigns({ campaigns }: { campaigns: readonly FunnelCampaign[] }) {
  if (campaigns.length === 0) {
    return <p className="muted">No visitor and no cost in these days.</p>;
  }
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone.
    <section className="table-scroll" aria-labelledby="funnel-campaigns" tabIndex={0}>
      <table className="results-table">
        <caption id="funnel-campaigns">Campaigns, every route</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col">Campaign</th>
            <th scope="col">Visitors</th>
            <th scope="col">Sign-ups</th>
            <th scope="col">Purchases</th>
            <th scope="col">Revenue</th>
            <th scope="col">Cost</th>
            <th scope="col">Cost per sign-up</th>
            <th scope="col">Cost per purchase</th>
            <th scope="col">Return on ad spend</th>
          </tr>
        </thead>
        <tbody>
          {campaigns.map((row) => (
            <tr key={`${row.source}:${row.campaign}`}>
              <td>{row.source}</td>
              <th scope="row">{campaignText(row.campaign)}</th>
              <td>{row.visitors}</td>
              <td>{row.signups}</td>
              <td>{row.purchases}</td>
              <td>{revenueText(row)}</td>
              <td>{moneyText(row.costCents)}</td>
              <td>{moneyText(row.costPerSignupCents)}</td>
              <td>{moneyText(row.costPerPurchaseCents)}</td>
              <td>{roasText(row.roas)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Days({ days, route }: { days: readonly FunnelDay[]; route: string | null }) {
  if (days.length === 0) return null;
  return (
    <details>
      <summary>The funnel by day{route === null ? '' : ` on ${route}`}</summary>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: it scrolls sideways on a phone. */}
      <section className="table-scroll" aria-labelledby="funnel-days" tabIndex={0}>
        <table className="results-table">
          <caption id="funnel-days">Visitors and what they reached, by day of first page</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Route</th>
              <th scope="col">Source</th>
              <th scope="col">Campaign</th>
              <th scope="col">Visitors</th>
              <th scope="col">Lookups</th>
              <th scope="col">Sign-ups</th>
              <th scope="col">Checkouts</th>
              <th scope="col">Purchases</th>
              <th scope="col">Upsells</th>
              <th scope="col">Revenue</th>
            </tr>
          </thead>
          <tbody>
            {days.map((row) => (
              <tr key={`${row.day}:${row.route}:${row.source}:${row.campaign}`}>
                <th scope="row">{row.day}</th>
                <td>{row.route}</td>
                <td>{row.source}</td>
                <td>{campaignText(row.campaign)}</td>
                <td>{row.visitors}</td>
                <td>{row.lookups}</td>
                <td>{row.signups}</td>
                <td>{row.checkouts}</td>
                <td>{row.purchases}</td>
                <td>{row.upsells}</td>
                <td>{revenueText(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  );
}
