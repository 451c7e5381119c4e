// The kept route matches (docs/decisions/36-route-matches.md): the same answer as Hono's TrieRouter,
// a path's match found once, and any number of distinct paths still answered right.
import { describe, expect, it } from 'vitest';
import { TrieRouter } from 'hono/router/trie-router';
import { MemoRouter } from './memo-router.ts';

const ROUTES: [string, string, string][] = [
  ['ALL', '*', 'request id'],
  ['GET', '/api/companies/:id', 'company'],
  ['GET', '/api/companies/slug/:slug', 'company by slug'],
  ['GET', '/api/appointments/available-slots', 'slots'],
  ['PATCH', '/api/appointments/:id', 'move'],
  ['GET', '/api/users/:id', 'user'],
  ['POST', '/api/users/:id/erase', 'erase'],
];

const both = () => {
  const memo = new MemoRouter<string>();
  const trie = new TrieRouter<string>();
  for (const [method, path, handler] of ROUTES) {
    memo.add(method, path, handler);
    trie.add(method, path, handler);
  }
  return { memo, trie };
};

describe('MemoRouter', () => {
  it('answers as the TrieRouter does, params included, and finds a path once', () => {
    const { memo, trie } = both();
    const asked: [string, string][] = [
      ['GET', '/api/companies/slug/studio-one'],
      ['GET', '/api/companies/7'],
      ['GET', '/api/appointments/available-slots'],
      ['PATCH', '/api/appointments/42'],
      ['POST', '/api/users/3/erase'],
      ['GET', '/nowhere'],
    ];
    for (const [method, path] of asked) {
      const first = memo.match(method, path);
      expect(first).toEqual(trie.match(method, path));
      expect(memo.match(method, path)).toBe(first);
    }
    // Another method on a kept path is its own match.
    expect(memo.match('DELETE', '/api/appointments/42')).toEqual(trie.match('DELETE', '/api/appointments/42'));
  });

  it('keeps answering right past its bound, and a route added later is found', () => {
    const { memo, trie } = both();
    for (let id = 1; id <= 5000; id++) {
      const path = `/api/appointments/${id}`;
      expect(memo.match('PATCH', path)).toEqual(trie.match('PATCH', path));
    }
    expect(memo.match('PATCH', '/api/appointments/1')).toEqual(trie.match('PATCH', '/api/appointments/1'));
    memo.add('GET', '/api/late', 'late');
    expect(memo.match('GET', '/api/late')[0].map(([h]) => h)).toEqual(['request id', 'late']);
  });
});
