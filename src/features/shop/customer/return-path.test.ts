import { describe, expect, it } from 'vitest';
import { withReturn } from './return-path.ts';

describe('withReturn', () => {
  it('adds paluu to a page link', () => {
    expect(withReturn('/kirjaudu', '/kassa?postinumero=00100')).toBe(
      '/kirjaudu?paluu=%2Fkassa%3Fpostinumero%3D00100',
    );
    expect(withReturn('/kirjaudu', null)).toBe('/kirjaudu');
  });
});
