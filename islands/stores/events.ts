import { persistedSlice } from './persisted-slice';

/** SPEC.md §3 Events state: eventsData and analyticsData, both merged objects. */
export const $events = persistedSlice<{
  eventsData: Record<string, unknown>;
  analyticsData: Record<string, unknown>;
}>('events', { eventsData: {}, analyticsData: {} });
