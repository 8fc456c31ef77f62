import { describe, expect, it } from 'vitest';
import { readGoogleAnswer } from '../../../worker/geocode/google-answer';

/** Google's answer for "Lyon, FR", trimmed to the fields of one result. */
const LYON = {
  results: [
    {
      address_components: [{ long_name: 'Lyon', short_name: 'Lyon', types: ['locality'] }],
      formatted_address: 'Lyon, France',
      geometry: {
        location: { lat: 45.764043, lng: 4.835659 },
        location_type: 'APPROXIMATE',
        viewport: {
          northeast: { lat: 45.808425, lng: 4.898393 },
          southwest: { lat: 45.707486, lng: 4.7718489 },
        },
      },
      place_id: 'ChIJl4foalHq9EcR8CG75CqrCAQ',
      types: ['locality', 'political'],
    },
  ],
  status: 'OK',
};

const read = (body: unknown, status = 200) =>
  readGoogleAnswer(status, typeof body === 'string' ? body : JSON.stringify(body));

describe('readGoogleAnswer (SPEC.md §5: success only with status OK and a result)', () => {
  it('OK with results: the first result’s point', () => {
    expect(read(LYON)).toEqual({ ok: true, location: { lat: 45.764043, lng: 4.835659 } });
  });

  it('takes the first of several results', () => {
    const second = { geometry: { location: { lat: 1, lng: 2 } } };
    expect(read({ ...LYON, results: [...LYON.results, second] })).toMatchObject({
      location: { lat: 45.764043, lng: 4.835659 },
    });
  });

  it('OK with zero results: no point', () => {
    expect(read({ results: [], status: 'OK' })).toEqual({ ok: false, reason: 'no_results' });
    expect(read({ status: 'OK' })).toEqual({ ok: false, reason: 'no_results' });
  });

  it('ZERO_RESULTS: Google’s status is the reason', () => {
    expect(read({ results: [], status: 'ZERO_RESULTS' })).toEqual({
      ok: false,
      reason: 'ZERO_RESULTS',
    });
  });

  it('REQUEST_DENIED and the other statuses: the reason, with Google’s error_message', () => {
    const denied = {
      error_message: 'This API project is not authorized to use this API.',
      results: [],
      status: 'REQUEST_DENIED',
    };
    expect(read(denied)).toEqual({
      ok: false,
      reason: 'REQUEST_DENIED',
      detail: 'This API project is not authorized to use this API.',
    });
    for (const status of [
      'OVER_DAILY_LIMIT',
      'OVER_QUERY_LIMIT',
      'INVALID_REQUEST',
      'UNKNOWN_ERROR',
    ]) {
      expect(read({ results: [], status })).toEqual({ ok: false, reason: status });
    }
  });

  it('a long error_message is cut to 200 characters', () => {
    const answer = read({ results: [], status: 'REQUEST_DENIED', error_message: 'x'.repeat(500) });
    expect(answer.ok === false && answer.detail?.length).toBe(200);
  });

  it('malformed JSON, or JSON that is not Google’s answer', () => {
    for (const body of ['<html>Error</html>', '', '{"status":', 'null', '[]', '{"results":[]}']) {
      expect(read(body), body).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(read({ status: 'ok, <script>' })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('lat/lng that are not numbers, out of range or missing', () => {
    const at = (location: unknown) => ({
      results: [{ geometry: { location } }],
      status: 'OK',
    });
    for (const location of [
      { lat: '45.76', lng: '4.83' },
      { lat: 45.76, lng: null },
      { lat: 91, lng: 4.83 },
      { lat: 45.76, lng: -181 },
      { lat: 45.76 },
      null,
      'Lyon',
    ]) {
      expect(read(at(location)), JSON.stringify(location)).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
    expect(read({ results: [{}], status: 'OK' })).toEqual({ ok: false, reason: 'malformed' });
    expect(read({ results: ['Lyon'], status: 'OK' })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('an HTTP error is a failure whatever its body says', () => {
    expect(read(LYON, 500)).toEqual({ ok: false, reason: 'http_500' });
    expect(read(LYON, 403)).toEqual({ ok: false, reason: 'http_403' });
  });
});
