import { describe, expect, it } from 'vitest';
import { localReturnPath } from './return-path.ts';

describe('localReturnPath', () => {
  it.each([
    ['/kassa?postinumero=00100#toimitus', '/kassa?postinumero=00100#toimitus'],
    ['/oma-tili', '/oma-tili'],
    ['/', '/'],
    ['/en/recipes/x', '/en/recipes/x'],
    // Dot segments are resolved as a browser would; the answer is the normalised path.
    ['/kassa/../oma-tili', '/oma-tili'],
    ['/a/./b', '/a/b'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/tuotteet/häränliha', '/tuotteet/h%C3%A4r%C3%A4nliha'],
  ])('keeps %j as %j', (value, local) => {
    expect(localReturnPath(value)).toBe(local);
  });

  it.each([
    'https://evil.example/kassa',
    'http:/evil.example',
    '//evil.example/kassa',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/./\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '\t//evil.example',
    '/\u007f/evil.example',
    '/\u0085/evil.example',
    ' //evil.example',
    '/.//evil.example/',
    '/..//evil.example/',
    '/%2e//evil.example/',
    '/%2E%2E//evil.example/',
    '/.%2e//evil.example/',
    '/kassa/..//evil.example/',
    'kassa',
    '?paluu=x',
    '#x',
    '',
    'javascript:alert(1)',
    `/${'a'.repeat(2000)}`,
  ])('refuses %j', (value) => {
    expect(localReturnPath(value)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(localReturnPath(undefined)).toBeNull();
    expect(localReturnPath(null)).toBeNull();
    expect(localReturnPath(['/kassa'])).toBeNull();
  });

  it('answers only paths that a browser resolves to the same origin', () => {
    const base = 'https://lihakauppa.example';
    for (const value of ['/a', '/.//b', '/a/..//b', '/%2e%2e//c', '/x?y=//z#//w']) {
      const local = localReturnPath(value);
      if (local !== null) expect(new URL(local, base).origin).toBe(base);
    }
  });
});
