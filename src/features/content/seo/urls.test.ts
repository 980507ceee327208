import { describe, expect, it } from 'vitest';
import { getSite } from '../../../sites/registry.ts';
import { createSiteResolver } from '../../../sites/resolve.ts';
import { absoluteUrl, localizedPath, siteOrigin } from './urls.ts';

const resolver = createSiteResolver({
  siteHosts: { sibylla: ['www.sibylla.example', 'sibylla.example'] },
  defaultSite: 'konsernifi',
});

function origin(siteId: string, hostHeader: string | undefined, protocol = 'https') {
  return siteOrigin({ protocol, hostHeader, hosts: resolver.hostsOf(siteId), siteId });
}

describe('siteOrigin', () => {
  it('keeps a host the site owns, as received', () => {
    expect(origin('sibylla', 'www.sibylla.example')).toBe('https://www.sibylla.example');
    expect(origin('sibylla', 'sibylla.example')).toBe('https://sibylla.example');
    expect(origin('sibylla', 'WWW.Sibylla.Example')).toBe('https://www.sibylla.example');
    expect(origin('sibylla', 'sibylla.localhost:3000', 'http')).toBe(
      'http://sibylla.localhost:3000',
    );
    expect(origin('lihakauppa', 'lihakauppa.localhost:5173', 'http')).toBe(
      'http://lihakauppa.localhost:5173',
    );
  });

  it('never takes a Host header the site does not own', () => {
    for (const forged of [
      'evil.example',
      'evil.example:3000',
      'www.sibylla.example.evil.example',
      'www.sibylla.example@evil.example',
      'www.sibylla.example/evil',
      'www.sibylla.example:80/@evil.example',
      'lihakauppa.localhost',
      '127.0.0.1:3000',
      '[::1]:3000',
      'www.sibylla.example:99999',
      '',
      undefined,
    ]) {
      const result = origin('sibylla', forged);
      expect(result).toMatch(/^https:\/\/(www\.sibylla\.example|sibylla\.example)(:\d+)?$/);
      expect(result).not.toContain('evil');
    }
    // The canonical host is the first configured one, without a port from the request.
    expect(origin('sibylla', 'evil.example:3000')).toBe('https://www.sibylla.example');
    expect(origin('sibylla', 'www.sibylla.example:99999')).toBe('https://www.sibylla.example');
  });

  it('falls back to <site>.localhost on the request’s port when the site has no public host', () => {
    expect(origin('lihakauppa', 'localhost:3000', 'http')).toBe('http://lihakauppa.localhost:3000');
    expect(origin('lihakauppa', 'evil.example', 'http')).toBe('http://lihakauppa.localhost');
    expect(origin('lihakauppa', 'evil.example:abc', 'http')).toBe('http://lihakauppa.localhost');
  });

  it('knows only http and https', () => {
    expect(origin('sibylla', 'www.sibylla.example', 'javascript')).toBe(
      'http://www.sibylla.example',
    );
  });
});

describe('localizedPath and absoluteUrl', () => {
  const sibylla = getSite('sibylla');
  if (!sibylla) throw new Error('no sibylla');

  it('adds the language prefix of versions other than the default', () => {
    expect(localizedPath(sibylla, 'fi', '/')).toBe('/');
    expect(localizedPath(sibylla, 'en', '/')).toBe('/en/');
    expect(localizedPath(sibylla, 'fi', '/reseptit/x')).toBe('/reseptit/x');
    expect(localizedPath(sibylla, 'sv', '/recept/x')).toBe('/sv/recept/x');
  });

  it('percent-encodes paths once and keeps absolute URLs', () => {
    const o = 'https://www.sibylla.example';
    expect(absoluteUrl(o, '/ä ö')).toBe(`${o}/%C3%A4%20%C3%B6`);
    expect(absoluteUrl(o, '/%C3%A4')).toBe(`${o}/%C3%A4`);
    expect(absoluteUrl(o, '/images/1/a.jpg?preset=default')).toBe(
      `${o}/images/1/a.jpg?preset=default`,
    );
    expect(absoluteUrl(o, 'https://cdn.example/a.jpg')).toBe('https://cdn.example/a.jpg');
  });
});
