import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../scripts/import-boundaries';
import { roomImports } from '../../scripts/room-pairs';
import { codeRequestPath, documentedRequestPath, documentedRooms } from './request-path-check';

/**
 * docs/architecture.md's request path is the newcomer's first map: it lists worker/app.tsx's
 * global middleware and each sub-app (worker/sub-apps/) with its middleware, in the code's order.
 * Its map of the worker's rooms draws each folder under worker/ with the rooms it imports, and
 * its tour names each console area: both as the code has them.
 */

const ROOT = process.cwd();
const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

describe("docs/architecture.md's request path", () => {
  it('lists the global middleware, the sub-apps and their middleware as the code has them', () => {
    expect(documentedRequestPath(doc)).toEqual(codeRequestPath(ROOT));
  });

  it('reads every sub-app and middleware the code has', () => {
    const code = codeRequestPath(ROOT);
    expect(code.global).toEqual([
      'requestLog',
      'serverErrors',
      'devKit.provide',
      'securityHeaders',
      'signedInUserCookies',
    ]);
    expect(code.subApps.map((subApp) => subApp.path)).toEqual([
      '/hooks/subscription-events',
      '/hooks/subscriber-links',
      '/e',
      '/vendor',
      '/consent',
      '/pictures',
      '/console',
      '/api',
      '/test-gateway',
      '/app',
      '/resume',
      '/contract',
      '/subscription',
      '/',
    ]);
    expect(code.subApps.at(-1)?.middleware).toHaveLength(12);
  });

  it('notices a middleware the list leaves out', () => {
    const without = doc.replace(/\n {2}firstTouch .*\n/, '\n');
    expect(without).not.toEqual(doc);
    expect(documentedRequestPath(without)).not.toEqual(codeRequestPath(ROOT));
  });
});

describe("docs/architecture.md's map of the worker's rooms", () => {
  const code = roomImports(readSources(ROOT, ['worker']));

  it('draws every room under worker/ with the rooms it imports at run time, as the code has them', {
    timeout: 30_000,
  }, () => {
    expect(Object.fromEntries(documentedRooms(doc))).toEqual(Object.fromEntries(code));
  });

  it('reads the rooms the code has, the leaves importing none', () => {
    expect(code.size).toBeGreaterThanOrEqual(25);
    expect(code.get('http')).toEqual([]);
    expect(code.get('sub-apps')).toContain('routes');
  });

  it('notices an arrow the map leaves out and a room it forgets', () => {
    const withoutArrow = doc.replace(/(\ncontent\/ .*\n\s+→ )translations\n/, '$1nothing\n');
    expect(withoutArrow).not.toEqual(doc);
    expect(documentedRooms(withoutArrow).get('content')).toEqual([]);
    const withoutRoom = doc.replace(/\nhttp\/ .*\n.*\n/, '\n');
    expect(withoutRoom).not.toEqual(doc);
    expect(documentedRooms(withoutRoom).has('http')).toBe(false);
  });
});

describe("docs/architecture.md's map of the experiments' rooms", () => {
  const heading = "### The experiments' rooms";
  const code = roomImports(readSources(ROOT, ['worker']), 'experiments');

  it('draws every sub-room of worker/experiments with those it imports at run time', {
    timeout: 30_000,
  }, () => {
    expect(Object.fromEntries(documentedRooms(doc, heading))).toEqual(Object.fromEntries(code));
  });

  it('reads the sub-rooms the code has, in one direction from the draws to the answers', () => {
    expect([...code.keys()]).toEqual(
      expect.arrayContaining(['answer', 'assignment', 'config', 'results', 'store']),
    );
    expect(code.get('assignment')).toEqual([]);
    expect(code.get('answer')).toContain('results');
    expect(code.get('results')).not.toContain('answer');
  });

  it('notices an arrow the map leaves out', () => {
    const without = doc.replace(/(\nexposure\/ .*\n\s+→ )assignment, store\n/, '$1assignment\n');
    expect(without).not.toEqual(doc);
    expect(documentedRooms(without, heading).get('exposure')).toEqual(['assignment']);
  });
});

describe("docs/architecture.md's console areas", () => {
  it('names each folder of console/ where it says where a new console page goes', () => {
    const areas = readdirSync(join(ROOT, 'console'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(areas.length).toBeGreaterThanOrEqual(8);
    const start = doc.indexOf('- **A new console page**');
    const tour = doc.slice(start, doc.indexOf('\n- **', start + 1));
    const named = (area: string) =>
      tour.includes(`\`${area}/\``) || tour.includes(`\`console/${area}/`);
    expect(areas.filter((area) => !named(area))).toEqual([]);
  });
});
