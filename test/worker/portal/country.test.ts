import { describe, expect, it } from 'vitest';
import { CountryResponse } from '../../../shared/api/contract';
import { callPortal } from './portal-client';

async function countryFor(headers: Record<string, string>) {
  const response = await callPortal('/cf-country', { headers });
  expect(response.status).toBe(200);
  return CountryResponse.parse(await response.json()).country_code;
}

describe('GET /cf-country', () => {
  it('answers the visitor’s country from cf-ipcountry, upper-cased', async () => {
    expect(await countryFor({ 'cf-ipcountry': 'DE' })).toBe('DE');
    expect(await countryFor({ 'cf-ipcountry': 'fr' })).toBe('FR');
  });

  it.each([
    ['no header', {}],
    ['unknown (XX)', { 'cf-ipcountry': 'XX' }],
    ['Tor (T1)', { 'cf-ipcountry': 'T1' }],
    ['not a country code', { 'cf-ipcountry': 'USA' }],
  ])('answers null for %s', async (_, headers) => {
    expect(await countryFor(headers)).toBeNull();
  });
});
