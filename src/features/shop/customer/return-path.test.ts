import { describe, expect, it } from 'vitest';
import { localReturnPath, withReturn } from './return-path.ts';

describe('localReturnPath', () => {
  it('keeps a local path with its query and hash', () => {
    expect(localReturnPath('/kassa?postinumero=00100#toimitus')).toBe(
      '/kassa?postinumero=00100#toimitus',
    );
    expect(localReturnPath('/oma-tili')).toBe('/oma-tili');
  });

  it.each([
    'https://evil.example/kassa',
    '//evil.example/kassa',
    '/\\evil.example',
    '/\t/evil.example',
    'kassa',
    '',
    'javascript:alert(1)',
    `/${'a'.repeat(1000)}`,
  ])('refuses %j', (value) => {
    expect(localReturnPath(value)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(localReturnPath(undefined)).toBeNull();
    expect(localReturnPath(['/kassa'])).toBeNull();
  });

  it('adds paluu to a page link', () => {
    expect(withReturn('/kirjaudu', '/kassa?postinumero=00100')).toBe(
      '/kirjaudu?paluu=%2Fkassa%3Fpostinumero%3D00100',
    );
    expect(withReturn('/kirjaudu', null)).toBe('/kirjaudu');
  });
});
