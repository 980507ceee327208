import { describe, expect, it } from 'vitest';
import { isCurrentPath, isInSection, searchPath } from './nav-paths.ts';

describe('searchPath', () => {
  it('is the search page of each language, with the language prefix', () => {
    expect(searchPath('', 'fi')).toBe('/haku');
    expect(searchPath('', 'sv')).toBe('/sok');
    expect(searchPath('/sv', 'sv')).toBe('/sv/sok');
    expect(searchPath('/en', 'en')).toBe('/en/search');
  });
});

describe('isCurrentPath', () => {
  it('matches the same path, ignoring a trailing slash, query and anchor', () => {
    expect(isCurrentPath('/tuotteet', '/tuotteet')).toBe(true);
    expect(isCurrentPath('/tuotteet/', '/tuotteet')).toBe(true);
    expect(isCurrentPath('/ostoskori#tuotteet', '/ostoskori')).toBe(true);
    expect(isCurrentPath('/en/', '/en/')).toBe(true);
    expect(isCurrentPath('/', '/')).toBe(true);
  });

  it('does not match other pages or external links', () => {
    expect(isCurrentPath('/tuotteet', '/tuotteet/makkarat')).toBe(false);
    expect(isCurrentPath('/', '/tuotteet')).toBe(false);
    expect(isCurrentPath('https://example.com/tuotteet', '/tuotteet')).toBe(false);
  });
});

describe('isInSection', () => {
  it('holds the section page and the pages under it', () => {
    expect(isInSection('/tuotteet', '/tuotteet')).toBe(true);
    expect(isInSection('/tuotteet', '/tuotteet/makkarat/grilli')).toBe(true);
    expect(isInSection('/en/products', '/en/products/sausages')).toBe(true);
  });

  it('does not hold a page that only shares a prefix, nor everything under a home page', () => {
    expect(isInSection('/tuotteet', '/tuotteetx')).toBe(false);
    expect(isInSection('/', '/tuotteet')).toBe(false);
    expect(isInSection('/en/', '/en/products')).toBe(false);
    expect(isInSection('https://example.com', '/tuotteet')).toBe(false);
  });
});
