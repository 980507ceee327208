import { describe, expect, it } from 'vitest';
import { isApiPath, pathOfTarget, queryOfTarget, sameSitePath } from './request-path.ts';

describe('request paths', () => {
  it.each([
    ['/api/x?y=1', '/api/x'],
    ['http://host/api/x?y=1', '/api/x'],
    ['https://host:8443/a/b', '/a/b'],
    ['HTTP://host/a', '/a'],
    ['http://host', '/'],
    ['http://host?x', '/'],
    ['//evil.example/x', '//evil.example/x'],
    ['*', '*'],
  ])('%s has the path %s', (target, path) => {
    expect(pathOfTarget(target)).toBe(path);
  });

  it('keeps the query apart', () => {
    expect(queryOfTarget('http://host/a?b=1&c')).toBe('?b=1&c');
    expect(queryOfTarget('/a')).toBe('');
  });

  it.each([
    ['/api', true],
    ['/api/x', true],
    ['/%61pi/x', true],
    ['/apix', false],
    ['/x/api/', false],
    ['/%zz', false],
  ])('%s is an API path: %s', (path, api) => {
    expect(isApiPath(path)).toBe(api);
  });
});

describe('same-site paths', () => {
  it.each([
    ['/yritys', '/yritys'],
    ['/en/company', '/en/company'],
    ['//evil.example', '/evil.example'],
    ['///evil.example/x', '/evil.example/x'],
    ['/\\evil.example', '/evil.example'],
    ['\\\\evil.example', '/evil.example'],
    ['/\t/evil.example', '/evil.example'],
    ['/ /evil.example', '/evil.example'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['', '/'],
  ])('%j stays on the site as %j', (path, local) => {
    const result = sameSitePath(path);
    expect(result).toBe(local);
    const base = 'https://www.sibylla.example';
    expect(new URL(result, base).origin).toBe(base);
  });
});
